package dev.fdl.ducklake;

import dev.fdl.FdlException;

/**
 * A DuckLake table name as users write it: {@code name} (schema {@code main}) or
 * {@code schema.name}. Names are DuckDB identifiers; fdl does not accept dots inside them.
 */
public record TableName(String schema, String name) {
    public TableName {
        check(schema, "schema");
        check(name, "table");
    }

    /**
     * Parses {@code [schema.]name}.
     *
     * @throws FdlException usage error (exit 2) for an empty part, more than one dot or a control character
     */
    public static TableName parse(String text) {
        if (text == null || text.isBlank()) throw FdlException.usage("a table name is required: [schema.]name");
        String[] parts = text.split("\\.", -1);
        try {
            if (parts.length == 1) return new TableName("main", parts[0]);
            if (parts.length == 2) return new TableName(parts[0], parts[1]);
        } catch (IllegalArgumentException e) {
            throw FdlException.usage("invalid table name '" + text + "': " + e.getMessage());
        }
        throw FdlException.usage("invalid table name '" + text + "': write [schema.]name with at most one dot");
    }

    private static void check(String part, String what) {
        if (part == null || part.isEmpty()) throw new IllegalArgumentException("the " + what + " name is empty");
        if (part.equals(".") || part.equals("..")) throw new IllegalArgumentException("the " + what + " name must not be '.' or '..'");
        for (int i = 0; i < part.length(); i++) {
            if (Character.isISOControl(part.charAt(i))) {
                throw new IllegalArgumentException("the " + what + " name contains a control character");
            }
            if (part.charAt(i) == '/' || part.charAt(i) == '\\') {
                // names become folders of the data path (DUCKLAKE.md, Paths): no separators
                throw new IllegalArgumentException("the " + what + " name must not contain '/' or '\\'");
            }
        }
    }

    /** {@code schema.name}, as fdl prints table names. */
    @Override
    public String toString() {
        return schema + "." + name;
    }
}
