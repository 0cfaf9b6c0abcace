package dev.fdl.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every table of DuckDB files with whatever DuckDB driver is on the classpath, one line per
 * table: {@code <file> <table> <rows> <md5 of all rows>}. Depends on nothing but java.sql, so that
 * a child JVM can run it with another DuckDB version's driver (an older reader of committed catalogs).
 */
public final class CatalogTableDump {
    private CatalogTableDump() {}

    /** Prints {@code duckdb <version>}, then the lines of every file given; exit 1 on any failure. */
    public static void main(String[] files) {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT version()")) {
                r.next();
                System.out.println("duckdb " + r.getString(1));
            }
            for (String f : files) dump(c, f).forEach(System.out::println);
        } catch (SQLException e) {
            System.out.println("FAILED: " + e.getMessage());
            System.exit(1);
        }
    }

    /** The lines of one file, tables in name order (TimeZone UTC, so TIMESTAMPTZ renders alike everywhere). */
    public static List<String> dump(Connection c, String file) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            s.execute("ATTACH '" + file.replace("'", "''") + "' AS dumped (READ_ONLY)");
            try {
                List<String> tables = new ArrayList<>();
                try (ResultSet r = s.executeQuery("SELECT table_name FROM duckdb_tables() WHERE database_name = 'dumped' ORDER BY 1")) {
                    while (r.next()) tables.add(r.getString(1));
                }
                for (String t : tables) {
                    String q = "dumped.main.\"" + t.replace("\"", "\"\"") + "\"";
                    try (ResultSet r = s.executeQuery("SELECT count(*), md5(coalesce(string_agg(CAST(x AS VARCHAR), chr(10) "
                            + "ORDER BY CAST(x AS VARCHAR)), '')) FROM (SELECT * FROM " + q + ") AS x")) {
                        r.next();
                        lines.add(file + " " + t + " " + r.getLong(1) + " " + r.getString(2));
                    }
                }
            } finally {
                s.execute("DETACH dumped");
            }
        }
        return lines;
    }
}
