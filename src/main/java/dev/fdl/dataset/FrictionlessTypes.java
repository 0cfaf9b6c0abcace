package dev.fdl.dataset;

import dev.fdl.ducklake.format.DuckLakeTypes;
import java.util.Locale;
import java.util.Set;

/**
 * Maps DuckLake (DuckDB) column types to Frictionless Table Schema field types
 * (https://specs.frictionlessdata.io/table-schema/#types-and-formats) and decides when a declared
 * type contradicts a column.
 */
public final class FrictionlessTypes {
    private static final Set<String> KNOWN = Set.of("string", "number", "integer", "boolean", "object", "array",
            "date", "time", "datetime", "year", "yearmonth", "duration", "geopoint", "geojson", "any");

    private FrictionlessTypes() {}

    /** The Frictionless type of a DuckDB type: integer, number, boolean, date, time, datetime, duration, array, object or string. */
    public static String of(String ducklakeType) {
        String t = ducklakeType.trim().toUpperCase(Locale.ROOT);
        if (t.endsWith("]")) return "array";
        if (t.startsWith("STRUCT") || t.startsWith("MAP") || t.equals("JSON") || t.equals("VARIANT")) return "object";
        if (t.startsWith("DECIMAL") || t.startsWith("NUMERIC")) return "number";
        if (DuckLakeTypes.isInteger(t)) return "integer";
        switch (t) {
            case "FLOAT", "DOUBLE", "REAL", "FLOAT4", "FLOAT8" -> {
                return "number";
            }
            case "BOOLEAN", "BOOL" -> {
                return "boolean";
            }
            case "DATE" -> {
                return "date";
            }
            case "TIME", "TIMETZ", "TIME WITH TIME ZONE" -> {
                return "time";
            }
            case "INTERVAL" -> {
                return "duration";
            }
            default -> {
                if (t.startsWith("TIMESTAMP")) return "datetime";
                return "string";
            }
        }
    }

    /** True when {@code declared} is a Frictionless type name. */
    public static boolean isKnown(String declared) {
        return KNOWN.contains(declared);
    }

    /**
     * True when a declared Frictionless type is compatible with the column: equal, {@code any},
     * {@code number} for an integer column, {@code year} for an integer column, {@code yearmonth}
     * or {@code string} for text, {@code geojson} for an object or string column.
     */
    public static boolean compatible(String declared, String ducklakeType) {
        String actual = of(ducklakeType);
        if (declared.equals(actual) || declared.equals("any")) return true;
        return switch (declared) {
            case "number", "year" -> actual.equals("integer");
            case "yearmonth", "geopoint" -> actual.equals("string") || actual.equals("array") || actual.equals("object");
            case "geojson" -> actual.equals("object") || actual.equals("string");
            case "string" -> ducklakeType.trim().equalsIgnoreCase("UUID") || ducklakeType.trim().equalsIgnoreCase("BLOB");
            default -> false;
        };
    }
}
