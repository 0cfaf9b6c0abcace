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
     * Sets a DuckDB session's time zone to UTC, so that TIMESTAMPTZ values render as
     * {@code 2026-11-29 21:41:30.123456+00} whatever the machine's zone: the text a SQLite catalog
     * holds and the text fdl prints. Every DuckDB connection that reads or writes catalog or table
     * timestamps runs it.
     */
    public static final String SET_UTC = "SET TimeZone = 'UTC'";

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
            s.execute(SET_UTC);
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

    /** How long a writable SQLite connection waits for another connection's lock before failing, in milliseconds. */
    static final int SQLITE_BUSY_TIMEOUT_MS = 10_000;

    /**
     * A connection to a SQLite file (created if missing). Opened through sqlite-jdbc's own entry
     * point rather than {@code DriverManager}, which loads and initialises every JDBC driver on the
     * class path, DuckDB's included: commands that only read the working catalog ({@code fdl
     * status}) start without DuckDB. A writable connection waits up to
     * {@value #SQLITE_BUSY_TIMEOUT_MS} ms for another writer's lock (SQLite's {@code busy_timeout},
     * set here only); a read-only one keeps sqlite-jdbc's default.
     */
    public static Connection sqlite(Path file, boolean readOnly) throws SQLException {
        Properties props = new Properties();
        if (readOnly) {
            props.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        } else {
            props.setProperty("busy_timeout", Integer.toString(SQLITE_BUSY_TIMEOUT_MS));
        }
        return org.sqlite.JDBC.createConnection("jdbc:sqlite:" + file.toAbsolutePath(), props);
    }

    /** Work done inside one transaction of {@link #inTransaction} or {@link #inWriteTransaction}. */
    public interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction of {@code c} (DuckDB or SQLite, {@code BEGIN}; the
     * connection in auto-commit mode): committed when it returns, rolled back when it throws (the
     * failure is rethrown; a failing rollback is added to it as suppressed). The one place fdl
     * begins and ends transactions of catalog files.
     */
    public static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        return transaction(c, "BEGIN", work);
    }

    /**
     * As {@link #inTransaction} on a SQLite connection, taking the write lock at once
     * ({@code BEGIN IMMEDIATE}): what {@code work} reads stays true until it commits, since no
     * other connection can write meanwhile (SQLite's locking: it waits up to the busy timeout).
     */
    public static <T> T inWriteTransaction(Connection c, Work<T> work) throws SQLException {
        return transaction(c, "BEGIN IMMEDIATE", work);
    }

    private static <T> T transaction(Connection c, String begin, Work<T> work) throws SQLException {
        exec(c, begin);
        try {
            T result = work.run();
            exec(c, "COMMIT");
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                exec(c, "ROLLBACK"); // also after a failed COMMIT, which SQLite may leave open (SQLITE_BUSY)
            } catch (SQLException rollback) {
                e.addSuppressed(rollback); // the failure ended the transaction already
            }
            throw e;
        }
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
        return sqliteTables(sqlite, null);
    }

    /** {@link #sqliteTables(Connection)} of the attached database {@code database} ({@code main}, or an ATTACH alias; null: main). */
    public static List<String> sqliteTables(Connection sqlite, String database) throws SQLException {
        return strings(sqlite, "SELECT name FROM " + (database == null ? "" : SqlQuote.ident(database) + ".")
                + "sqlite_master WHERE type = 'table' AND name LIKE 'ducklake\\_%' ESCAPE '\\' ORDER BY name");
    }

    /** The names of the {@code ducklake_*} tables of an attached DuckDB database, sorted. */
    public static List<String> duckDbTables(Connection duck, String alias) throws SQLException {
        return strings(duck, "SELECT table_name FROM duckdb_tables() WHERE database_name = " + SqlQuote.literal(alias)
                + " AND schema_name = 'main' AND table_name LIKE 'ducklake\\_%' ESCAPE '\\' ORDER BY table_name");
    }

    /** The columns of a SQLite table in declaration order ({@code PRAGMA table_info}). */
    public static List<String> sqliteColumns(Connection sqlite, String table) throws SQLException {
        return sqliteColumns(sqlite, null, table);
    }

    /** {@link #sqliteColumns(Connection, String)} of the attached database {@code database} (null: SQLite's own search order). */
    public static List<String> sqliteColumns(Connection sqlite, String database, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        for (SqliteColumn c : sqliteTableInfo(sqlite, database, table)) names.add(c.name());
        return names;
    }

    /** One row of SQLite's {@code PRAGMA table_info}: the name, the declared type, NOT NULL, part of the primary key. */
    public record SqliteColumn(String name, String declaredType, boolean notNull, boolean primaryKey) {}

    /**
     * The columns of a SQLite table in declaration order, as {@code PRAGMA table_info} gives them
     * (https://www.sqlite.org/pragma.html#pragma_table_info); the one place fdl runs it.
     */
    public static List<SqliteColumn> sqliteTableInfo(Connection sqlite, String table) throws SQLException {
        return sqliteTableInfo(sqlite, null, table);
    }

    /**
     * {@link #sqliteTableInfo(Connection, String)} for the table of the attached database
     * {@code database} ({@code main}, or an ATTACH alias; null: SQLite's own search order).
     */
    public static List<SqliteColumn> sqliteTableInfo(Connection sqlite, String database, String table) throws SQLException {
        List<SqliteColumn> out = new ArrayList<>();
        String pragma = "PRAGMA " + (database == null ? "" : SqlQuote.ident(database) + ".") + "table_info(" + SqlQuote.ident(table) + ")";
        try (Statement s = sqlite.createStatement();
             ResultSet r = s.executeQuery(pragma)) {
            while (r.next()) {
                out.add(new SqliteColumn(r.getString("name"), r.getString("type"), r.getInt("notnull") != 0, r.getInt("pk") > 0));
            }
        }
        return out;
    }

    /**
     * {@link #duckDbColumns(Connection, String, String)} for several tables in one query: table name to
     * its columns in declaration order (a table without columns, or not there, is left out).
     */
    public static java.util.Map<String, List<String>> duckDbColumns(Connection duck, String alias, List<String> tables) throws SQLException {
        java.util.Map<String, List<String>> out = new java.util.HashMap<>();
        if (tables.isEmpty()) return out;
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < tables.size(); i++) in.append(i > 0 ? ", ?" : "?");
        try (java.sql.PreparedStatement ps = duck.prepareStatement("SELECT table_name, column_name FROM duckdb_columns() WHERE "
                + "database_name = ? AND schema_name = 'main' AND table_name IN (" + in + ") ORDER BY table_name, column_index")) {
            ps.setString(1, alias);
            for (int i = 0; i < tables.size(); i++) ps.setString(i + 2, tables.get(i));
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) out.computeIfAbsent(r.getString(1), k -> new ArrayList<>()).add(r.getString(2));
            }
        }
        return out;
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
