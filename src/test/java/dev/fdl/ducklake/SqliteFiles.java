package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What SQLite itself says of a SQLite file, for tests of the files fdl writes. */
final class SqliteFiles {
    private SqliteFiles() {}

    /** SQLite's {@code PRAGMA integrity_check} of the file: {@code ok}, or its findings one per line. */
    static String integrity(Path sqlite) throws Exception {
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("PRAGMA integrity_check")) {
            StringBuilder b = new StringBuilder();
            while (r.next()) {
                b.append(b.length() > 0 ? "\n" : "").append(r.getString(1));
            }
            return b.toString();
        }
    }

    /**
     * Per table, its rows as SQLite sees them (storage class and {@code quote} of each value;
     * a value over 100,000 bytes by its length and its first and last 20 bytes), sorted; per
     * schema entry, its SQL.
     */
    static Map<String, List<String>> dump(Path sqlite) throws Exception {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        try (Connection c = Sql.sqlite(sqlite, true)) {
            List<String> names = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT name, sql, type FROM sqlite_schema ORDER BY name")) {
                while (r.next()) {
                    if (r.getString(3).equals("table")) {
                        names.add(r.getString(1));
                    }
                    tables.put("schema " + r.getString(1), List.of(String.valueOf(r.getString(2))));
                }
            }
            for (String name : names) {
                List<String> columns = new ArrayList<>();
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("PRAGMA table_info(" + SqlQuote.ident(name) + ")")) {
                    while (r.next()) {
                        String col = SqlQuote.ident(r.getString("name"));
                        columns.add("typeof(" + col + ") || ':' || CASE WHEN length(" + col + ") > 100000 THEN length(" + col + ") || '/'"
                                + " || hex(substr(" + col + ", 1, 20)) || '/' || hex(substr(" + col + ", -20)) ELSE quote(" + col + ") END");
                    }
                }
                List<String> rows = new ArrayList<>();
                try (Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT " + String.join(", ", columns) + " FROM " + SqlQuote.ident(name))) {
                    while (r.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= columns.size(); i++) {
                            row.append(i > 1 ? "|" : "").append(r.getString(i));
                        }
                        rows.add(row.toString());
                    }
                }
                Collections.sort(rows);
                tables.put(name, rows);
            }
        }
        return tables;
    }

    /** Runs {@code statements} on the SQLite file {@code file} (created if missing); returns it. */
    static Path create(Path file, String... statements) throws java.sql.SQLException {
        try (Connection c = Sql.sqlite(file, false)) {
            for (String sql : statements) {
                Sql.exec(c, sql);
            }
        }
        return file;
    }

    /** A new empty DuckLake catalog in SQLite at {@code file} (data path {@code /data/}), then {@code statements} run on it. */
    static Path catalog(Path file, String... statements) throws java.sql.SQLException {
        Catalogs.create(file, CatalogKind.SQLITE, "/data/");
        return create(file, statements);
    }

    /** Runs {@code work} with SQLite rendering every row (system property {@code fdl.catalog.sqliteReader=jdbc}). */
    static <T> T withSqliteRendering(java.util.concurrent.Callable<T> work) throws Exception {
        System.setProperty("fdl.catalog.sqliteReader", "jdbc");
        try {
            return work.call();
        } finally {
            System.clearProperty("fdl.catalog.sqliteReader");
        }
    }
}
