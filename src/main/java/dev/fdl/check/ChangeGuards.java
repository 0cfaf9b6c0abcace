package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fdl.dataset.TableFacts;
import dev.fdl.ducklake.read.CatalogRenames;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The change guards (docs/checks.md): against the parent version, a table dropped, a column
 * dropped or retyped, or more of a table's rows removed than its threshold ({@link Rules#MAX_SHRINK_KEY},
 * default {@link #DEFAULT_MAX_SHRINK}) fails, unless the matching allowance says it is meant; an
 * allowed change is reported as a warning, so the version records it. Both sides are filled
 * dataset.json files (SPEC.md section 3: every table with {@code rows}, every field with
 * {@code ducklake_type}), and the renames the catalog records between the two ({@link Renames}:
 * a renamed table or column is compared under its new name, never reported as dropped).
 */
public final class ChangeGuards {
    /** The share of a table's rows a version may remove without {@code --allow-shrink}. */
    public static final double DEFAULT_MAX_SHRINK = 0.10;

    /** Which guarded changes are meant ({@code --allow-drop}, {@code --allow-schema-change}, {@code --allow-shrink}). */
    public record Allow(boolean drop, boolean schemaChange, boolean shrink) {
        /** None. */
        public static final Allow NONE = new Allow(false, false, false);
    }

    private ChangeGuards() {}

    /**
     * The tables and columns renamed since the parent, by resource name.
     *
     * @param tables  per renamed table, its resource name before to its name after
     * @param columns per table (resource name before) with renamed columns, each column's name before to after
     */
    public record Renames(Map<String, String> tables, Map<String, Map<String, String>> columns) {
        /** None: tables and columns are matched by name. */
        public static final Renames NONE = new Renames(Map.of(), Map.of());

        public Renames {
            tables = Map.copyOf(tables);
            columns = Map.copyOf(columns);
        }

        /** The renames a catalog records ({@link CatalogRenames}), under resource names ({@link TableFacts#resourceName}). */
        public static Renames of(CatalogRenames renames) {
            Map<String, String> tables = new LinkedHashMap<>();
            Map<String, Map<String, String>> columns = new LinkedHashMap<>();
            for (CatalogRenames.Table t : renames.tables()) {
                String was = TableFacts.resourceName(t.schemaBefore(), t.nameBefore()), is = TableFacts.resourceName(t.schemaAfter(), t.nameAfter());
                if (!was.equals(is)) tables.put(was, is);
                if (!t.columns().isEmpty()) columns.put(was, t.columns());
            }
            return new Renames(tables, columns);
        }
    }

    /** As {@link #check(ObjectNode, ObjectNode, Rules, Allow, Renames)} with tables and columns matched by name alone. */
    public static List<CheckResult> check(ObjectNode parent, ObjectNode next, Rules rules, Allow allow) {
        return check(parent, next, rules, allow, Renames.NONE);
    }

    /** As {@link #check(ObjectNode, ObjectNode, Rules, Allow, Renames, boolean)} for a version that is no merge. */
    public static List<CheckResult> check(ObjectNode parent, ObjectNode next, Rules rules, Allow allow, Renames renames) {
        return check(parent, next, rules, allow, renames, false);
    }

    /**
     * @param parent  the parent version's dataset.json (filled); null for a version without parent (nothing to guard)
     * @param next    the new version's dataset.json, filled
     * @param renames the tables and columns renamed since the parent
     * @param merge   whether {@code next} is a merge's and {@code parent} its first parent (the branch's version):
     *                a shrink is then told as what the merge removes, with the way to accept it; the rule is the same
     */
    public static List<CheckResult> check(ObjectNode parent, ObjectNode next, Rules rules, Allow allow, Renames renames, boolean merge) {
        if (parent == null) return List.of();
        Map<String, JsonNode> before = renamed(resources(parent), renames.tables()), after = resources(next);
        List<CheckResult> out = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (String t : before.keySet()) if (!after.containsKey(t)) dropped.add(t);
        out.add(verdict("guard: no table dropped", null, dropped.isEmpty() ? null : "dropped: " + String.join(", ", dropped),
                allow.drop(), "--allow-drop"));
        List<String> changed = new ArrayList<>();
        for (var e : before.entrySet()) {
            JsonNode now = after.get(e.getKey());
            if (now == null) continue;
            Map<String, String> was = renamed(types(e.getValue()), columnRenames(renames, e.getKey())), is = types(now);
            for (var c : was.entrySet()) {
                String type = is.get(c.getKey());
                if (type == null) changed.add(e.getKey() + "." + c.getKey() + " dropped");
                else if (c.getValue() != null && !c.getValue().equals(type))
                    changed.add(e.getKey() + "." + c.getKey() + " retyped " + c.getValue() + " -> " + type);
            }
        }
        out.add(verdict("guard: no column dropped or retyped", null, changed.isEmpty() ? null : String.join(", ", changed),
                allow.schemaChange(), "--allow-schema-change"));
        for (var e : before.entrySet()) {
            JsonNode now = after.get(e.getKey());
            if (now == null || !e.getValue().path("rows").canConvertToLong() || !now.path("rows").canConvertToLong()) continue;
            long was = e.getValue().get("rows").asLong(), is = now.get("rows").asLong();
            double limit = rules.maxShrink().getOrDefault(e.getKey(), DEFAULT_MAX_SHRINK);
            String name = "guard: " + e.getKey() + " keeps its rows";
            if (!(was > 0 && was - is > limit * was)) {
                out.add(verdict(name, e.getKey(), null, allow.shrink(), "--allow-shrink"));
                continue;
            }
            String share = String.format(java.util.Locale.ROOT, "at most %s%% allowed, %s", trim(100 * limit), rules.maxShrink().containsKey(e.getKey())
                    ? "dataset.json " + Rules.MAX_SHRINK_KEY : "the default; set " + Rules.MAX_SHRINK_KEY + " on the resource to change it");
            double removed = 100.0 * (was - is) / was;
            out.add(merge ? mergeShrink(name, e.getKey(), String.format(java.util.Locale.ROOT,
                            "the merge removes %,d rows of '%s' (%.1f%%: %,d rows on the branch -> %,d merged; %s)", was - is, e.getKey(), removed, was, is, share),
                    allow.shrink())
                    : verdict(name, e.getKey(), String.format(java.util.Locale.ROOT, "%,d rows -> %,d (%.1f%% removed; %s)", was, is, removed, share),
                    allow.shrink(), "--allow-shrink"));
        }
        return out;
    }

    /**
     * The shrink guard's verdict on a merge that removes too many rows against both parents
     * ({@code Checks}: a shrink the merged side published is not refused again), told as the merge's
     * doing, with the ways on: accept it, or undo a pending merge.
     */
    private static CheckResult mergeShrink(String name, String table, String why, boolean allowed) {
        return allowed ? CheckResult.verdict(name, table, CheckResult.Status.WARNED, why + " (allowed by --allow-shrink)")
                : CheckResult.verdict(name, table, CheckResult.Status.FAILED, why + "; if the merge is meant to remove them, "
                + "commit it with --allow-shrink (fdl merge --abort undoes a pending merge)");
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static CheckResult verdict(String name, String table, String violation, boolean allowed, String flag) {
        if (violation == null) return CheckResult.verdict(name, table, CheckResult.Status.PASSED, null);
        return allowed ? CheckResult.verdict(name, table, CheckResult.Status.WARNED, violation + " (allowed by " + flag + ")")
                : CheckResult.verdict(name, table, CheckResult.Status.FAILED, violation + "; if this is meant, commit with " + flag);
    }

    /** {@code byName} with each renamed key under its new name, in its place. */
    private static <V> Map<String, V> renamed(Map<String, V> byName, Map<String, String> renames) {
        if (renames.isEmpty()) return byName;
        Map<String, V> out = new LinkedHashMap<>();
        byName.forEach((k, v) -> out.putIfAbsent(renames.getOrDefault(k, k), v));
        return out;
    }

    /** The column renames of the table now named {@code table}. */
    private static Map<String, String> columnRenames(Renames renames, String table) {
        for (Map.Entry<String, String> t : renames.tables().entrySet())
            if (t.getValue().equals(table)) return renames.columns().getOrDefault(t.getKey(), Map.of());
        return renames.columns().getOrDefault(table, Map.of());
    }

    private static Map<String, JsonNode> resources(ObjectNode d) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode r : d.path("resources")) if (r.path("name").isTextual()) out.putIfAbsent(r.get("name").asText(), r);
        return out;
    }

    private static Map<String, String> types(JsonNode resource) {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode f : resource.path("schema").path("fields"))
            if (f.path("name").isTextual()) out.put(f.get("name").asText(), f.path("ducklake_type").isTextual() ? f.get("ducklake_type").asText() : null);
        return out;
    }
}
