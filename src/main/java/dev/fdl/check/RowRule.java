package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.List;

/**
 * A Frictionless Table Schema field constraint that each row meets on its own (required, minimum,
 * maximum, minLength, maxLength, pattern, enum): it can be checked on the rows a version added
 * alone when it held on every row of the parent version. Except {@code required}, a constraint
 * says nothing of NULL (Frictionless Table Schema, "Constraints").
 *
 * @param table resource name ({@code table}, or {@code schema.table})
 * @param field the field (column) name
 * @param kind  the constraint's key in {@code constraints}
 * @param value its value, as dataset.json holds it (checked by {@link Rules})
 */
public record RowRule(String table, String field, String kind, JsonNode value) {
    /** The row constraints, in the order they are reported. */
    public static final List<String> KINDS = List.of("required", "minimum", "maximum", "minLength", "maxLength", "pattern", "enum");

    /** {@code cities.population: minimum 0}. */
    public String name() {
        return table + "." + field + ": " + kind + " " + value;
    }

    /**
     * What a version records when the constraint held on every row ({@code held} in version.json):
     * the table, field, DuckLake column id, constraint and column type. The next version checks only
     * its added rows when its own key is the same: a new column (even of the same name), a new type
     * or another value of the constraint is checked on every row again.
     */
    public String key(long columnId, String duckType) {
        return table + "." + field + "#" + columnId + ":" + kind + "=" + value + ":" + duckType;
    }

    /** The SQL condition true for a row that breaks the constraint; {@code type} is the column's DuckDB type. */
    public String violation(String type) {
        String c = SqlQuote.ident(field);
        return switch (kind) {
            case "required" -> value.asBoolean() ? c + " IS NULL" : "false";
            case "minimum" -> c + " < " + literal(value, type);
            case "maximum" -> c + " > " + literal(value, type);
            case "minLength" -> "length(" + c + ") < " + value.asLong();
            case "maxLength" -> "length(" + c + ") > " + value.asLong();
            case "pattern" -> "NOT regexp_full_match(CAST(" + c + " AS VARCHAR), " + SqlQuote.literal(value.asText()) + ")";
            case "enum" -> {
                List<String> values = new ArrayList<>();
                for (JsonNode v : value) if (!v.isNull()) values.add(literal(v, type));
                yield values.isEmpty() ? c + " IS NOT NULL" : c + " NOT IN (" + String.join(", ", values) + ")";
            }
            default -> throw new IllegalStateException("not a row constraint: " + kind);
        };
    }

    /** The constraint's values as SQL of the column's type (minimum, maximum, enum), each to be cast once to tell a malformed one. */
    public List<String> values(String type) {
        List<String> out = new ArrayList<>();
        switch (kind) {
            case "minimum", "maximum" -> out.add(literal(value, type));
            case "enum" -> {
                for (JsonNode v : value) if (!v.isNull()) out.add(literal(v, type));
            }
            default -> { }
        }
        return out;
    }

    /** A constraint value as a value of the column's type: DuckDB casts it (a value it cannot cast fails the check, naming it). */
    private static String literal(JsonNode v, String type) {
        String text = v.isTextual() ? SqlQuote.literal(v.asText()) : v.isBoolean() ? String.valueOf(v.asBoolean()) : SqlQuote.literal(v.toString());
        return "CAST(" + text + " AS " + type + ")";
    }
}
