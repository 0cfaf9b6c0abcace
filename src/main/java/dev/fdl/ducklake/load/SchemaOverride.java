package dev.fdl.ducklake.load;

import dev.fdl.FdlException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code --schema} option of {@code fdl import}: {@code "col TYPE, other DECIMAL(10,2)"},
 * DuckDB types for some columns of the source instead of the inferred ones. A column name may be
 * double-quoted ({@code "my col" VARCHAR}).
 */
public final class SchemaOverride {
    private SchemaOverride() {}

    /** Type text allowed into generated SQL: DuckDB type names, sizes, nested brackets, quoted field names. */
    private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9_ (),\\[\\]\"]+");

    /**
     * Column name → type text, in the order given; empty for null or blank text.
     *
     * @throws FdlException usage error naming the entry that does not read as {@code name TYPE}
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> result = new LinkedHashMap<>();
        if (text == null || text.isBlank()) return result;
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '"') quoted = !quoted;
            else if (!quoted && c == '(') depth++;
            else if (!quoted && c == ')') depth--;
            else if (!quoted && depth == 0 && c == ',') {
                entry(text.substring(start, Math.min(i, text.length())).trim(), result, text);
                start = i + 1;
            }
        }
        return result;
    }

    private static void entry(String item, Map<String, String> result, String text) {
        String name;
        String type;
        if (item.startsWith("\"")) {
            int end = item.indexOf('"', 1);
            if (end < 0) throw bad(item, text);
            name = item.substring(1, end);
            type = item.substring(end + 1).trim();
        } else {
            int space = item.indexOf(' ');
            if (space < 0) throw bad(item, text);
            name = item.substring(0, space);
            type = item.substring(space + 1).trim();
        }
        if (name.isEmpty() || type.isEmpty() || !TYPE.matcher(type).matches()) throw bad(item, text);
        if (result.keySet().stream().anyMatch(name::equalsIgnoreCase)) {
            throw FdlException.usage("--schema names column '" + name + "' twice");
        }
        result.put(name, type);
    }

    private static FdlException bad(String item, String text) {
        return FdlException.usage("--schema '" + text + "': cannot read '" + item
                + "'; write it as \"column TYPE, column TYPE\", e.g. \"geonameid BIGINT, name VARCHAR\"");
    }
}
