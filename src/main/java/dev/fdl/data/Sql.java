package dev.fdl.data;

/** Quoting of identifiers and string literals for the SQL fdl generates (DuckDB and SQLite dialects agree). */
final class Sql {
    private Sql() {}

    /** A double-quoted identifier, inner quotes doubled: {@code my"col} becomes {@code "my""col"}. */
    static String ident(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A single-quoted string literal, inner quotes doubled; {@code NULL} for null. */
    static String literal(String value) {
        return value == null ? "NULL" : '\'' + value.replace("'", "''") + '\'';
    }

    /** {@code "schema"."table"}. */
    static String qualified(String schema, String table) {
        return ident(schema) + '.' + ident(table);
    }
}
