package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks a dataset.json asks for (docs/checks.md): each field's Frictionless {@code constraints},
 * each resource's {@code schema.primaryKey} and {@code schema.foreignKeys}, the {@code fdl:checks}
 * list and each resource's {@code fdl:max_shrink}. Reading is strict: anything malformed is an
 * error naming the resource, field, key and value, since a check that is silently skipped would
 * let through what it was written to stop.
 *
 * @param rows      row constraints
 * @param keys      unique, primary and foreign keys
 * @param sql       the SQL checks, in the file's order
 * @param maxShrink per resource name, the share of its rows a version may remove (0 to 1) where dataset.json sets one
 */
public record Rules(List<RowRule> rows, List<KeyRule> keys, List<SqlCheck> sql, Map<String, Double> maxShrink) {
    /** The dataset.json key of the SQL checks. */
    public static final String CHECKS_KEY = "fdl:checks";
    /** The resource key of the shrink guard's threshold. */
    public static final String MAX_SHRINK_KEY = "fdl:max_shrink";

    public Rules {
        rows = List.copyOf(rows);
        keys = List.copyOf(keys);
        sql = List.copyOf(sql);
        maxShrink = Map.copyOf(maxShrink);
    }

    /**
     * Reads the checks of {@code descriptor} (filled or not).
     *
     * @param file names the description in errors
     * @throws FdlException exit 1 listing every malformed constraint, key or check
     */
    public static Rules of(ObjectNode descriptor, String file) {
        List<String> problems = new ArrayList<>();
        List<RowRule> rows = new ArrayList<>();
        List<KeyRule> keys = new ArrayList<>();
        Map<String, Double> shrink = new LinkedHashMap<>();
        JsonNode resources = descriptor.path("resources");
        for (JsonNode r : resources.isArray() ? resources : List.<JsonNode>of()) {
            if (!r.path("name").isTextual()) continue; // DatasetDescriptor refuses it
            String table = r.get("name").asText();
            JsonNode limit = r.get(MAX_SHRINK_KEY);
            if (limit != null) {
                if (!limit.isNumber() || limit.asDouble() < 0 || limit.asDouble() > 1)
                    problems.add("resource '" + table + "': '" + MAX_SHRINK_KEY + "' must be a number from 0 to 1 (the share of rows a version may remove), not " + limit);
                else shrink.put(table, limit.asDouble());
            }
            JsonNode schema = r.path("schema");
            Set<String> fieldNames = new HashSet<>();
            for (JsonNode f : schema.path("fields").isArray() ? schema.get("fields") : List.<JsonNode>of()) {
                if (!f.path("name").isTextual()) continue;
                String field = f.get("name").asText();
                fieldNames.add(field);
                JsonNode cs = f.get("constraints");
                if (cs == null || cs.isNull()) continue;
                String where = "resource '" + table + "' field '" + field + "': constraints";
                if (!cs.isObject()) {
                    problems.add(where + " must be an object such as {\"required\": true}, not " + cs);
                    continue;
                }
                for (var it = cs.fields(); it.hasNext(); ) {
                    var e = it.next();
                    String problem = malformed(e.getKey(), e.getValue());
                    if (problem != null) problems.add(where + "." + e.getKey() + " " + problem);
                    else if (e.getKey().equals("unique")) {
                        if (e.getValue().asBoolean()) keys.add(new KeyRule(table, "unique", List.of(field), null, List.of()));
                    } else if (!(e.getKey().equals("required") && !e.getValue().asBoolean()))
                        rows.add(new RowRule(table, field, e.getKey(), e.getValue()));
                }
            }
            JsonNode pk = schema.get("primaryKey");
            if (pk != null && !pk.isNull()) {
                List<String> fields = names(pk);
                if (fields == null) problems.add("resource '" + table + "': schema.primaryKey must be a field name or an array of them, not " + pk);
                else if (!fieldNames.containsAll(fields))
                    problems.add("resource '" + table + "': schema.primaryKey " + pk + " names a field the schema does not have (fields: " + fieldNames + ")");
                else keys.add(new KeyRule(table, "primaryKey", fields, null, List.of()));
            }
            JsonNode fks = schema.get("foreignKeys");
            if (fks != null && !fks.isNull()) {
                if (!fks.isArray()) problems.add("resource '" + table + "': schema.foreignKeys must be an array, not " + fks);
                else for (int i = 0; i < fks.size(); i++) {
                    JsonNode fk = fks.get(i);
                    List<String> fields = names(fk.get("fields"));
                    JsonNode ref = fk.path("reference");
                    List<String> refFields = names(ref.get("fields"));
                    String where = "resource '" + table + "': schema.foreignKeys[" + i + "]";
                    if (fields == null || refFields == null || !ref.path("resource").isTextual())
                        problems.add(where + " must be {\"fields\": [...], \"reference\": {\"resource\": \"<table>\", \"fields\": [...]}}, not " + fk);
                    else if (fields.size() != refFields.size())
                        problems.add(where + " has " + fields.size() + " field(s) but its reference " + refFields.size());
                    else {
                        String refTable = ref.get("resource").asText().isEmpty() ? table : ref.get("resource").asText();
                        keys.add(new KeyRule(table, "foreignKey", fields, refTable, refFields));
                    }
                }
            }
        }
        List<SqlCheck> sql = sqlChecks(descriptor.get(CHECKS_KEY), problems);
        if (!problems.isEmpty())
            throw new FdlException(FdlException.Kind.FAILURE, file + " asks for checks fdl cannot run:\n  - " + String.join("\n  - ", problems)
                    + "\nfix " + file + " (docs/checks.md lists what each check takes); nothing was checked or uploaded");
        return new Rules(rows, keys, sql, shrink);
    }

    /** Why a constraint's value is malformed, or null when it is well-formed. */
    private static String malformed(String kind, JsonNode v) {
        return switch (kind) {
            case "required", "unique" -> v.isBoolean() ? null : "must be true or false, not " + v;
            case "minimum", "maximum" -> v.isNumber() || v.isTextual() ? null : "must be a number (or a date/time as text), not " + v;
            case "minLength", "maxLength" -> v.canConvertToLong() && v.isIntegralNumber() && v.asLong() >= 0 ? null
                    : "must be a whole number 0 or more, not " + v;
            case "pattern" -> v.isTextual() ? null : "must be a regular expression as text, not " + v;
            case "enum" -> v.isArray() && !v.isEmpty() ? null : "must be a non-empty array of the allowed values, not " + v;
            default -> "is not a constraint fdl knows (it checks " + String.join(", ", RowRule.KINDS) + " and unique)";
        };
    }

    /** A field name or an array of them; null when {@code n} is neither. */
    private static List<String> names(JsonNode n) {
        if (n == null) return null;
        if (n.isTextual()) return List.of(n.asText());
        if (!n.isArray() || n.isEmpty()) return null;
        List<String> out = new ArrayList<>();
        for (JsonNode x : n) {
            if (!x.isTextual()) return null;
            out.add(x.asText());
        }
        return out;
    }

    private static List<SqlCheck> sqlChecks(JsonNode checks, List<String> problems) {
        List<SqlCheck> out = new ArrayList<>();
        if (checks == null || checks.isNull()) return out;
        if (!checks.isArray()) {
            problems.add("'" + CHECKS_KEY + "' must be an array of {\"name\", \"sql\", \"level\": \"error\"|\"warn\"}, not " + checks);
            return out;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < checks.size(); i++) {
            JsonNode c = checks.get(i);
            String where = CHECKS_KEY + "[" + i + "]";
            if (!c.path("name").isTextual() || c.get("name").asText().isBlank()) {
                problems.add(where + " has no 'name'");
                continue;
            }
            String name = c.get("name").asText();
            where += " '" + name + "'";
            if (!seen.add(name)) problems.add(where + ": the name is used twice; names identify checks in reports");
            if (!c.path("sql").isTextual() || c.get("sql").asText().isBlank()) {
                problems.add(where + " has no 'sql' (a query whose rows are the violations)");
                continue;
            }
            JsonNode level = c.get("level");
            if (level != null && !level.isNull() && !(level.isTextual() && (level.asText().equals("error") || level.asText().equals("warn")))) {
                problems.add(where + ": 'level' must be \"error\" or \"warn\", not " + level);
                continue;
            }
            out.add(new SqlCheck(name, c.get("sql").asText(), level != null && "warn".equals(level.asText())));
        }
        return out;
    }
}
