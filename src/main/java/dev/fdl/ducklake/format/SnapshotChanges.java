package dev.fdl.ducklake.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DuckLake's {@code changes_made} list of a snapshot (DuckLake spec, {@code ducklake_snapshot_changes}:
 * comma-separated {@code kind:value} entries, the value a quoted name such as
 * {@code "main"."towns"} for what a snapshot created, else the id of the table, view or schema)
 * in words for people: {@code inserted_into_table:1} becomes {@code inserted into main.towns}.
 */
public final class SnapshotChanges {
    private SnapshotChanges() {}

    /**
     * Names of a catalog's objects by id, over every snapshot (a dropped table keeps its name).
     *
     * @param tables  table id to {@code schema.table}
     * @param views   view id to {@code schema.view}
     * @param schemas schema id to schema name
     */
    public record Names(Map<Long, String> tables, Map<Long, String> views, Map<Long, String> schemas) {}

    /** The entries of {@code changesMade} in words, joined by {@code ", "}; empty for null. Unknown kinds stay as written. */
    public static String describe(String changesMade, Names names) {
        if (changesMade == null || changesMade.isBlank()) return "";
        List<String> out = new ArrayList<>();
        for (String entry : split(changesMade)) out.add(describeOne(entry, names));
        return String.join(", ", out);
    }

    private static String describeOne(String entry, Names names) {
        int colon = entry.indexOf(':');
        if (colon < 0) return entry;
        String kind = entry.substring(0, colon), value = entry.substring(colon + 1);
        return switch (kind) {
            case "created_schema" -> "created schema " + unquote(value);
            case "created_table" -> "created table " + unquote(value);
            case "created_view" -> "created view " + unquote(value);
            case "inserted_into_table" -> "inserted into " + name(names.tables(), value, "table");
            case "deleted_from_table" -> "deleted from " + name(names.tables(), value, "table");
            case "inlined_insert" -> "inserted into " + name(names.tables(), value, "table") + " (inlined)";
            case "inlined_delete" -> "deleted from " + name(names.tables(), value, "table") + " (inlined)";
            case "altered_table" -> "altered " + name(names.tables(), value, "table");
            case "compacted_table" -> "compacted " + name(names.tables(), value, "table");
            case "dropped_table" -> "dropped table " + name(names.tables(), value, "table");
            case "altered_view" -> "altered view " + name(names.views(), value, "view");
            case "dropped_view" -> "dropped view " + name(names.views(), value, "view");
            case "dropped_schema" -> "dropped schema " + name(names.schemas(), value, "schema");
            default -> entry;
        };
    }

    private static String name(Map<Long, String> byId, String value, String what) {
        try {
            String n = byId.get(Long.parseLong(value.trim()));
            return n != null ? n : what + " " + value;
        } catch (NumberFormatException e) {
            return unquote(value);
        }
    }

    /** {@code "main"."towns"} as {@code main.towns} (a doubled quote inside a name is one quote). */
    static String unquote(String value) {
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '"') {
                if (quoted && i + 1 < value.length() && value.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    /** Splits on commas outside double quotes. */
    static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"') quoted = !quoted;
            else if (ch == ',' && !quoted) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
