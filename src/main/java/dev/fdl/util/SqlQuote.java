package dev.fdl.util;

/**
 * Quoting for the SQL fdl generates; DuckDB and SQLite agree on both forms
 * (identifiers in double quotes, literals in single quotes, inner quotes doubled).
 */
public final class SqlQuote {
    private SqlQuote() {}

    /** A double-quoted identifier: {@code my"col} becomes {@code "my""col"}. */
    public static String ident(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A single-quoted string literal; {@code NULL} for null. */
    public static String literal(String value) {
        return value == null ? "NULL" : '\'' + value.replace("'", "''") + '\'';
    }

    /** {@code "schema"."table"}. */
    public static String qualified(String schema, String table) {
        return ident(schema) + '.' + ident(table);
    }
}
