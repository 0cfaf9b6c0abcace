package dev.fdl.ducklake.engine;

import dev.fdl.util.SqlQuote;

import dev.fdl.FdlException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** JDBC plumbing shared by the catalog classes: connections, quoting, table listing. */
public final class Sql {
    private Sql() {}

    /**
     * An in-memory DuckDB connection with TimeZone UTC (so TIMESTAMPTZ renders as
     * {@code 2026-11-29 21:41:30.123456+00}, the text a SQLite catalog holds) and no extension
     * auto-loading (extensions cannot be downloaded here and are not needed).
     */
    public static Connection duckDbMemory() throws SQLException {
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        // stream results chunk by chunk instead of materializing them (catalogs can be large)
        props.setProperty("jdbc_stream_results", "true");
        Connection c = DuckDbPool.connect(props);
        try (Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** ATTACH an existing DuckDB file under {@code alias} (new files: {@link DuckDbStorage#attachNew}). */
    public static void attach(Connection duck, Path file, String alias, boolean readOnly) throws SQLException {
        String sql = "ATTACH " + SqlQuote.literal(file.toAbsolutePath().toString()) + " AS " + SqlQuote.ident(alias)
                + (readOnly ? " (READ_ONLY)" : "");
        try (Statement s = duck.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * A connection to a SQLite file (created if missing). Opened through sqlite-jdbc's own entry
     * point rather than {@code DriverManager}, which loads and initialises every JDBC driver on the
     * class path, DuckDB's included: commands that only read the working catalog ({@code fdl
     * status}) start without DuckDB (issue 17).
     */
    public static Connection sqlite(Path file, boolean readOnly) throws SQLException {
        Properties props = new Properties();
        if (readOnly) {
            props.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        }
        return org.sqlite.JDBC.createConnection("jdbc:sqlite:" + file.toAbsolutePath(), props);
    }

    public static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The first column of every row {@code sql} returns, as text, in order. */
    static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) out.add(r.getString(1));
        }
        return out;
    }

    /** The names of the {@code ducklake_*} tables of a SQLite file, sorted. */
    public static List<String> sqliteTables(Connection sqlite) throws SQLException {
        return strings(sqlite, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ducklake\\_%' ESCAPE '\\' ORDER BY name");
    }

    /** The names of the {@code ducklake_*} tables of an attached DuckDB database, sorted. */
    public static List<String> duckDbTables(Connection duck, String alias) throws SQLException {
        return strings(duck, "SELECT table_name FROM duckdb_tables() WHERE database_name = " + SqlQuote.literal(alias)
                + " AND schema_name = 'main' AND table_name LIKE 'ducklake\\_%' ESCAPE '\\' ORDER BY table_name");
    }

    /** The columns of a SQLite table in declaration order ({@code PRAGMA table_info}). */
    public static List<String> sqliteColumns(Connection sqlite, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = sqlite.createStatement();
             ResultSet r = s.executeQuery("PRAGMA table_info(" + SqlQuote.ident(table) + ")")) {
            while (r.next()) {
                names.add(r.getString("name"));
            }
        }
        return names;
    }

    /** The columns of a table of an attached DuckDB database in declaration order. */
    public static List<String> duckDbColumns(Connection duck, String alias, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        try (java.sql.PreparedStatement ps = duck.prepareStatement("SELECT column_name FROM duckdb_columns() WHERE "
                + "database_name = ? AND schema_name = 'main' AND table_name = ? ORDER BY column_index")) {
            ps.setString(1, alias);
            ps.setString(2, table);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    names.add(r.getString(1));
                }
            }
        }
        return names;
    }

    /** Wraps a JDBC failure into an FdlException naming the file and the operation. */
    public static FdlException failure(String what, Path file, SQLException e) {
        return new FdlException(FdlException.Kind.FAILURE, what + " " + file + " failed: " + e.getMessage(), e);
    }
}
