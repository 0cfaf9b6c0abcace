package dev.fdl.check;

import java.util.List;

/**
 * A constraint over whole columns, checked on every row of the version (never incrementally: a row
 * added can clash with any row kept): a field's {@code unique}, a resource's {@code primaryKey}, or
 * one of its {@code foreignKeys} (Frictionless Table Schema).
 *
 * @param table     resource name
 * @param kind      {@code unique}, {@code primaryKey} or {@code foreignKey}
 * @param fields    the field(s) it constrains
 * @param refTable  a foreign key's referenced resource (the same table for a self reference), else null
 * @param refFields a foreign key's referenced fields, else empty
 */
public record KeyRule(String table, String kind, List<String> fields, String refTable, List<String> refFields) {
    public KeyRule {
        fields = List.copyOf(fields);
        refFields = List.copyOf(refFields);
    }

    /** {@code cities: primaryKey [geonameid]}, {@code cities.country: unique}, {@code cities: foreignKey [country] -> countries [name]}. */
    public String name() {
        return switch (kind) {
            case "unique" -> table + "." + fields.get(0) + ": unique";
            case "primaryKey" -> table + ": primaryKey " + fields;
            default -> table + ": foreignKey " + fields + " -> " + refTable + " " + refFields;
        };
    }
}
