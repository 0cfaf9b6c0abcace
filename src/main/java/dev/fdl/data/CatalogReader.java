package dev.fdl.data;

import dev.fdl.catalog.SqlQuote;
import dev.fdl.FdlException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Reads a DuckLake catalog stored as a DuckDB file at one snapshot, without the DuckLake
 * extension: the catalog is attached read-only as a plain DuckDB database in an in-memory DuckDB,
 * and every table visible at the snapshot becomes a view {@code "schema"."table"} (tables of
 * {@code main} also answer unqualified) built from DuckDB core's Parquet reader (DUCKLAKE.md
 * "Data"): visible data files read by field id, positional delete files and inlined deletes
 * applied, inlined rows added. What the built-in reader cannot read correctly (encryption,
 * deletion vectors, name-mapped or partial files, unknown types) is refused with an
 * {@link FdlException}, never answered wrongly. DuckLake views visible at the snapshot are
 * created too when their SQL binds; see {@link #skippedViews()} for the others.
 */
public final class CatalogReader implements AutoCloseable {
    /** The alias of the attached catalog database inside the reader's DuckDB. */
    static final String CATALOG_ALIAS = "__fdl_ducklake_catalog";

    private final Connection connection;
    private final long snapshot;
    private final List<String> tables;
    private final List<String> skippedViews;

    private CatalogReader(Connection connection, long snapshot, List<String> tables, List<String> skippedViews) {
        this.connection = connection;
        this.snapshot = snapshot;
        this.tables = List.copyOf(tables);
        this.skippedViews = List.copyOf(skippedViews);
    }

    /**
     * Opens {@code duckdbCatalog} at {@code snapshot} (null: the newest) and creates the views.
     *
     * @param dataPathOverride where the data files are (a local folder or URL, ending in {@code /}
     *                         or not); null reads them at the catalog's own {@code data_path}
     * @throws FdlException not found (exit 4) for a missing file or snapshot; failure (exit 1) for a
     *                      file that is not a DuckLake 1.0 catalog or holds something the built-in
     *                      reader refuses
     */
    public static CatalogReader open(Path duckdbCatalog, String dataPathOverride, Long snapshot) {
        if (!Files.isRegularFile(duckdbCatalog)) {
            throw FdlException.notFound("catalog file " + duckdbCatalog + " does not exist");
        }
        Connection conn = null;
        try {
            conn = DriverManager.getConnection("jdbc:duckdb:");
            try (Statement st = conn.createStatement()) {
                st.execute("ATTACH " + SqlQuote.literal(duckdbCatalog.toAbsolutePath().toString()) + " AS "
                        + SqlQuote.ident(CATALOG_ALIAS) + " (READ_ONLY)");
            } catch (SQLException e) {
                throw new FdlException(FdlException.FAILURE, "cannot open " + duckdbCatalog + " as a DuckDB database: "
                        + firstLine(e), e);
            }
            SnapshotCatalog catalog = SnapshotCatalog.load(conn, CATALOG_ALIAS, duckdbCatalog.toString(),
                    dataPathOverride, snapshot);
            String memory = single(conn, "SELECT current_database()");
            List<String> names = new ArrayList<>();
            try (Statement st = conn.createStatement()) {
                for (SnapshotCatalog.TableEntry table : catalog.tables()) {
                    String sql = new TableViewSql(catalog, table).select();
                    if (!table.schema().equals("main")) {
                        st.execute("CREATE SCHEMA IF NOT EXISTS " + SqlQuote.ident(table.schema()));
                    }
                    st.execute("CREATE VIEW " + SqlQuote.qualified(table.schema(), table.name()) + " AS " + sql);
                    names.add(table.schema() + "." + table.name());
                }
            }
            List<String> skipped = new ArrayList<>();
            for (SnapshotCatalog.ViewEntry view : catalog.views()) {
                if (!createView(conn, memory, view)) skipped.add(view.schema() + "." + view.name());
            }
            CatalogReader reader = new CatalogReader(conn, catalog.snapshot(), names, skipped);
            conn = null;
            return reader;
        } catch (SQLException e) {
            throw new FdlException(FdlException.FAILURE, "cannot read catalog " + duckdbCatalog + ": " + firstLine(e), e);
        } finally {
            if (conn != null) {
                try {
                    conn.close();
                } catch (SQLException ignored) {
                    // already failing; the original error is what the user needs
                }
            }
        }
    }

    /**
     * The data and delete files a reader opens to read every table of {@code duckdbCatalog} at
     * {@code snapshot} (null: newest), without opening any of them: paths relative to the
     * catalog's data path ({@code main/towns/ducklake-….parquet}), or absolute for files the
     * catalog keeps outside it. Lets a caller fetch exactly these from a remote repository into a
     * local folder and then {@link #open} with that folder as the data path override, since DuckDB
     * core alone reads only local files.
     *
     * @throws FdlException as {@link #open} does for a missing file or snapshot and for what the reader refuses
     */
    public static List<String> requiredFiles(Path duckdbCatalog, Long snapshot) {
        if (!Files.isRegularFile(duckdbCatalog)) {
            throw FdlException.notFound("catalog file " + duckdbCatalog + " does not exist");
        }
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement st = conn.createStatement()) {
                st.execute("ATTACH " + SqlQuote.literal(duckdbCatalog.toAbsolutePath().toString()) + " AS "
                        + SqlQuote.ident(CATALOG_ALIAS) + " (READ_ONLY)");
            }
            SnapshotCatalog catalog = SnapshotCatalog.loadRelative(conn, CATALOG_ALIAS, duckdbCatalog.toString(), snapshot);
            java.util.LinkedHashSet<String> files = new java.util.LinkedHashSet<>();
            for (SnapshotCatalog.TableEntry t : catalog.tables()) {
                for (SnapshotCatalog.DataFileEntry f : t.dataFiles()) files.add(f.location());
                for (SnapshotCatalog.DeleteFileEntry d : t.deleteFiles()) files.add(d.location());
            }
            return List.copyOf(files);
        } catch (SQLException e) {
            throw new FdlException(FdlException.FAILURE, "cannot read catalog " + duckdbCatalog + ": " + firstLine(e), e);
        }
    }

    /** The snapshot the views show. */
    public long snapshot() {
        return snapshot;
    }

    /** The tables visible at the snapshot, as {@code schema.table}, in catalog order. */
    public List<String> tables() {
        return tables;
    }

    /** DuckLake views visible at the snapshot that could not be recreated (other dialect, SQL that does not bind). */
    public List<String> skippedViews() {
        return skippedViews;
    }

    /**
     * The DuckDB connection holding the views. The catalog itself is attached read-only, so
     * nothing a query does can change it. Closed by {@link #close()}.
     */
    public Connection connection() {
        return connection;
    }

    /**
     * Runs one read-only SQL statement (a query: SELECT, WITH, VALUES, FROM, DESCRIBE, SHOW,
     * SUMMARIZE, or EXPLAIN of one of these) and returns its whole result.
     *
     * @throws FdlException usage error (exit 2) for anything else or several statements; failure
     *                      naming the SQL's error as DuckDB reports it
     */
    public QueryResult query(String sql) {
        ReadOnlySql.check(connection, sql);
        try (Statement st = connection.createStatement()) {
            if (!st.execute(sql)) {
                return new QueryResult(List.of("Count"), List.of("BIGINT"), List.of(List.of((long) st.getUpdateCount())));
            }
            try (ResultSet rs = st.getResultSet()) {
                return collect(rs);
            }
        } catch (SQLException e) {
            throw new FdlException(FdlException.FAILURE, "query failed: " + firstLine(e), e);
        }
    }

    /** Closes the DuckDB connection (and detaches the catalog). */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new FdlException(FdlException.FAILURE, "cannot close the reader's DuckDB connection: " + firstLine(e), e);
        }
    }

    static QueryResult collect(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> columns = new ArrayList<>(n);
        List<String> types = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            columns.add(md.getColumnLabel(i));
            types.add(md.getColumnTypeName(i));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) row.add(value(rs, i, types.get(i - 1)));
            rows.add(row);
        }
        return new QueryResult(columns, types, rows);
    }

    private static Object value(ResultSet rs, int i, String type) throws SQLException {
        String t = type.toUpperCase(Locale.ROOT);
        Object o;
        switch (t) {
            case "BOOLEAN" -> o = rs.getObject(i);
            case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER" -> o = rs.getObject(i);
            case "FLOAT", "DOUBLE" -> {
                o = rs.getObject(i);
                // NaN and infinities have no JSON number form: keep DuckDB's text for them.
                if (o instanceof Double d && (d.isNaN() || d.isInfinite())) o = rs.getString(i);
                if (o instanceof Float f && (f.isNaN() || f.isInfinite())) o = rs.getString(i);
            }
            case "HUGEINT", "UBIGINT", "UHUGEINT" -> {
                String s = rs.getString(i);
                o = s == null ? null : new BigInteger(s);
            }
            default -> {
                if (t.startsWith("DECIMAL")) {
                    String s = rs.getString(i);
                    o = s == null ? null : new BigDecimal(s);
                } else {
                    o = rs.getString(i);
                }
            }
        }
        return rs.wasNull() ? null : o;
    }

    private static boolean createView(Connection conn, String memory, SnapshotCatalog.ViewEntry view) {
        if (!"duckdb".equalsIgnoreCase(view.dialect())) return false;
        if (view.columnAliases() != null && !view.columnAliases().isBlank()) return false;
        String body = view.sql().replace("{DUCKLAKE_CATALOG}", SqlQuote.ident(memory));
        try (Statement st = conn.createStatement()) {
            if (!view.schema().equals("main")) st.execute("CREATE SCHEMA IF NOT EXISTS " + SqlQuote.ident(view.schema()));
            st.execute("CREATE VIEW " + SqlQuote.qualified(view.schema(), view.name()) + " AS " + body);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static String single(Connection conn, String sql) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** DuckDB's messages carry the failing SQL after the first line; users need the first. */
    static String firstLine(SQLException e) {
        String m = e.getMessage();
        if (m == null) return e.toString();
        List<String> lines = new ArrayList<>();
        Collections.addAll(lines, m.split("\n"));
        lines.removeIf(String::isBlank);
        if (lines.isEmpty()) return m;
        // DuckDB JDBC wraps the real error: "…closed pending query result" then "Error: <the error>".
        if (lines.get(0).contains("unsuccessful or closed pending query result") && lines.size() > 1) {
            String next = lines.get(1).trim();
            return next.startsWith("Error: ") ? next.substring(7) : next;
        }
        return lines.get(0).trim();
    }
}
