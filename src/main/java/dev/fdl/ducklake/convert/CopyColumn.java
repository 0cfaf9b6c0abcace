package dev.fdl.ducklake.convert;

/**
 * A catalog column as conversion copies it: its DuckDB type, the type its SQLite side is
 * declared with (BIGINT, DOUBLE, BLOB or VARCHAR: DUCKLAKE.md "The SQLite-backed catalog"),
 * and its constraints.
 */
record CopyColumn(String name, String duckType, String sqliteType, boolean notNull, boolean primaryKey) {}
