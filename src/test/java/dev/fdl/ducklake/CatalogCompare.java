package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.fdl.ducklake.engine.Sql;

/** Compares two DuckDB catalog files table by table (schema and rows), and reads them, for tests. */
public final class CatalogCompare {
    private CatalogCompare() {}

    /** The first column of every row {@code sql} returns on the DuckDB catalog file (attached read-only, in use), as text. */
    public static List<String> rows(Path duckdb, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, duckdb, "cat", true);
            Sql.exec(c, "USE cat");
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
                while (r.next()) {
                    rows.add(r.getString(1));
                }
            }
        }
        return rows;
    }

    /** The names of the files in {@code dir}, sorted (to see that no temporary file is left). */
    public static List<String> fileNames(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Per table: its column list (name + type), in order. */
    public static Map<String, List<String>> schema(Path duckdbFile) throws SQLException {
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, duckdbFile, "a", true);
            return schema(c, "a");
        }
    }

    public static Map<String, List<String>> schema(Connection c, String alias) throws SQLException {
        Map<String, List<String>> result = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_catalog = '" + alias
                        + "' ORDER BY table_name, ordinal_position")) {
            while (r.next()) {
                result.computeIfAbsent(r.getString(1), k -> new ArrayList<>())
                        .add(r.getString(2) + " " + r.getString(3) + ("NO".equals(r.getString(4)) ? " NOT NULL" : ""));
            }
        }
        return result;
    }

    /**
     * The differences between two DuckDB catalogs: tables missing on either side, differing
     * columns, and for each table the rows of one not in the other (EXCEPT ALL both ways).
     * Empty when every table is equal.
     */
    public static List<String> differences(Path a, Path b) throws SQLException {
        List<String> diffs = new ArrayList<>();
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, a, "a", true);
            Sql.attach(c, b, "b", true);
            Map<String, List<String>> sa = schema(c, "a");
            Map<String, List<String>> sb = schema(c, "b");
            if (!sa.keySet().equals(sb.keySet())) {
                diffs.add("tables differ: " + sa.keySet() + " vs " + sb.keySet());
            }
            for (String table : sa.keySet()) {
                if (!sb.containsKey(table)) {
                    continue;
                }
                if (!sa.get(table).equals(sb.get(table))) {
                    diffs.add(table + " columns differ: " + sa.get(table) + " vs " + sb.get(table));
                    continue;
                }
                String t = SqlQuote.ident(table);
                for (String[] dir : new String[][] {{"a", "b"}, {"b", "a"}}) {
                    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                            "SELECT CAST(x AS VARCHAR) FROM (SELECT * FROM " + dir[0] + ".main." + t + " EXCEPT ALL SELECT * FROM "
                                    + dir[1] + ".main." + t + ") x LIMIT 5")) {
                        while (r.next()) {
                            diffs.add(table + ": row only in " + dir[0] + ": " + r.getString(1));
                        }
                    }
                }
            }
        }
        return diffs;
    }
}
