package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

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
 * {@code ducklake_type}), so no catalog is read.
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
     * @param parent the parent version's dataset.json (filled); null for a version without parent (nothing to guard)
     * @param next   the new version's dataset.json, filled
     */
    public static List<CheckResult> check(ObjectNode parent, ObjectNode next, Rules rules, Allow allow) {
        if (parent == null) return List.of();
        Map<String, JsonNode> before = resources(parent), after = resources(next);
        List<CheckResult> out = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (String t : before.keySet()) if (!after.containsKey(t)) dropped.add(t);
        out.add(verdict("guard: no table dropped", null, dropped.isEmpty() ? null : "dropped: " + String.join(", ", dropped),
                allow.drop(), "--allow-drop"));
        List<String> changed = new ArrayList<>();
        for (var e : before.entrySet()) {
            JsonNode now = after.get(e.getKey());
            if (now == null) continue;
            Map<String, String> was = types(e.getValue()), is = types(now);
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
            String why = was > 0 && was - is > limit * was
                    ? String.format(java.util.Locale.ROOT, "%,d rows -> %,d (%.1f%% removed; at most %s%% allowed, %s)", was, is,
                    100.0 * (was - is) / was, trim(100 * limit), rules.maxShrink().containsKey(e.getKey())
                            ? "dataset.json " + Rules.MAX_SHRINK_KEY : "the default; set " + Rules.MAX_SHRINK_KEY + " on the resource to change it")
                    : null;
            out.add(verdict("guard: " + e.getKey() + " keeps its rows", e.getKey(), why, allow.shrink(), "--allow-shrink"));
        }
        return out;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static CheckResult verdict(String name, String table, String violation, boolean allowed, String flag) {
        if (violation == null) return CheckResult.verdict(name, table, CheckResult.Status.PASSED, null);
        return allowed ? CheckResult.verdict(name, table, CheckResult.Status.WARNED, violation + " (allowed by " + flag + ")")
                : CheckResult.verdict(name, table, CheckResult.Status.FAILED, violation + "; if this is meant, commit with " + flag);
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
