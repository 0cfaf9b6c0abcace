package dev.fdl.ducklake.read;

import dev.fdl.ducklake.format.DuckLakeTypes;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.QueryTables;
import dev.fdl.ducklake.engine.ReadOnlySql;

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
public final class BuiltInReader implements AutoCloseable {

    private final Connection connection;
    private final SnapshotView view;
    private final long snapshot;
    private final List<String> tables;
    private final List<String> skippedViews;

    private BuiltInReader(Connection connection, SnapshotView view, List<String> tables, List<String> skippedViews) {
        this.connection = connection;
        this.view = view;
        this.snapshot = view.snapshot();
        this.tables = List.copyOf(tables);
        this.skippedViews = List.copyOf(skippedViews);
    }

    /**
     * Opens {@code duckdbCatalog} at {@code snapshot} (null: the newest) and creates the views.
     *
     * @param dataPathOverride where the data files are (a local folder or URL, ending in {@code /}
     *                         or not); null reads them at the catalog's own {@code data_path}
     * @throws FdlException not found (exit 4) for a missing file or snapshot; failure (exit 1) for a
     *                      file that is not a DuckLake catalog of a format fdl knows or holds something the built-in
     *                      reader refuses
     */
    public static BuiltInReader open(DuckDbPool pool, Path duckdbCatalog, String dataPathOverride, Long snapshot) {
        return open(pool, duckdbCatalog, dataPathOverride, snapshot, null);
    }

    /**
     * Like {@link #open(DuckDbPool, Path, String, Long)} with views for only the tables {@code named} (lower-case
     * {@code schema.table}, {@link QueryTables#named}) when each of them is a table of the snapshot,
     * and no catalog views: for a query that reads no other table, whose other tables' files were not
     * fetched ({@link #requiredFiles(DuckDbPool, Path, Long, Set)}). Null, or a name that is not a table (it may
     * be a view over others), gives every table and view.
     */
    public static BuiltInReader open(DuckDbPool pool, Path duckdbCatalog, String dataPathOverride, Long snapshot, java.util.Set<String> named) {
        if (!Files.isRegularFile(duckdbCatalog)) {
            throw FdlException.notFound("catalog file " + duckdbCatalog + " does not exist");
        }
        Connection conn = null;
        try {
            conn = pool.connection();
            try (Statement st = conn.createStatement()) {
                st.execute(Sql.SET_UTC);
                Sql.attach(conn, duckdbCatalog, MetadataQueries.CATALOG_ALIAS, true);
            } catch (SQLException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "cannot open " + duckdbCatalog + " as a DuckDB database: "
                        + DuckDbErrors.firstLine(e), e);
            }
            SnapshotView catalog = SnapshotView.load(conn, MetadataQueries.CATALOG_ALIAS, duckdbCatalog.toString(),
                    dataPathOverride, snapshot);
            String memory = single(conn, "SELECT current_database()");
            List<String> names = new ArrayList<>();
            List<SnapshotView.TableEntry> read = tablesRead(catalog.tables(), named);
            try (Statement st = conn.createStatement()) {
                for (SnapshotView.TableEntry table : read) {
                    String sql = new TableViewSql(catalog, table).select();
                    if (!table.schema().equals("main")) {
                        st.execute("CREATE SCHEMA IF NOT EXISTS " + SqlQuote.ident(table.schema()));
                    }
                    st.execute("CREATE VIEW " + SqlQuote.qualified(table.schema(), table.name()) + " AS " + sql);
                    names.add(table.schema() + "." + table.name());
                }
            }
            List<String> skipped = new ArrayList<>();
            for (SnapshotView.ViewEntry view : read.size() == catalog.tables().size() ? catalog.views()
                    : List.<SnapshotView.ViewEntry>of()) {
                if (!createView(conn, memory, view)) skipped.add(view.schema() + "." + view.name());
            }
            BuiltInReader reader = new BuiltInReader(conn, catalog, names, skipped);
            conn = null;
            return reader;
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog " + duckdbCatalog + ": "
                    + missingFileInFdlsWords(DuckDbErrors.firstLine(e)), e);
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
    public static List<String> requiredFiles(DuckDbPool pool, Path duckdbCatalog, Long snapshot) {
        return requiredFiles(pool, duckdbCatalog, snapshot, null);
    }

    /**
     * The files of {@link #requiredFiles(DuckDbPool, Path, Long)} for only the tables {@code named}, under the
     * rule of {@link #open(DuckDbPool, Path, String, Long, java.util.Set)}.
     */
    static List<String> requiredFiles(DuckDbPool pool, Path duckdbCatalog, Long snapshot, java.util.Set<String> named) {
        if (!Files.isRegularFile(duckdbCatalog)) {
            throw FdlException.notFound("catalog file " + duckdbCatalog + " does not exist");
        }
        try (Connection conn = pool.connection()) {
            Sql.attach(conn, duckdbCatalog, MetadataQueries.CATALOG_ALIAS, true);
            SnapshotView catalog = SnapshotView.loadRelative(conn, MetadataQueries.CATALOG_ALIAS, duckdbCatalog.toString(), snapshot);
            java.util.LinkedHashSet<String> files = new java.util.LinkedHashSet<>();
            for (SnapshotView.TableEntry t : tablesRead(catalog.tables(), named)) {
                for (SnapshotView.DataFileEntry f : t.dataFiles()) files.add(f.location());
                for (SnapshotView.DeleteFileEntry d : t.deleteFiles()) files.add(d.location());
            }
            return List.copyOf(files);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog " + duckdbCatalog + ": " + DuckDbErrors.firstLine(e), e);
        }
    }

    /**
     * The tables a reader opens: those {@code named} ({@link Identifiers#fold folded} {@code schema.table}) when each is
     * one of {@code tables} (DuckDB compares names ignoring ASCII case), else all; a name marked
     * {@link QueryTables#OPTIONAL} (also a CTE's) is opened when it is a table and else ignored.
     */
    private static List<SnapshotView.TableEntry> tablesRead(List<SnapshotView.TableEntry> tables, java.util.Set<String> named) {
        if (named == null) return tables;
        java.util.Map<String, SnapshotView.TableEntry> byName = new java.util.HashMap<>();
        for (SnapshotView.TableEntry t : tables) byName.put(Identifiers.fold(t.schema() + "." + t.name()), t);
        java.util.Set<SnapshotView.TableEntry> read = new java.util.LinkedHashSet<>();
        for (String name : named) {
            boolean optional = name.startsWith(QueryTables.OPTIONAL);
            SnapshotView.TableEntry t = byName.get(optional ? name.substring(QueryTables.OPTIONAL.length()) : name);
            if (t != null) read.add(t);
            else if (!optional) return tables; // a view, or no table at all: read everything, as without a list
        }
        return tables.stream().filter(read::contains).toList();
    }

    /** The tables visible at the snapshot, with their columns and files, in catalog order. */
    public List<SnapshotView.TableEntry> tableEntries() {
        return view.tables();
    }

    /**
     * The SELECT of the rows of {@code table} (one of {@link #tableEntries()}) that snapshots
     * {@code since} and later added ({@link TableViewSql#selectAddedSince}), to run on {@link #connection()}.
     */
    public String addedRowsSql(SnapshotView.TableEntry table, long since) {
        return TableViewSql.selectAddedSince(view, table, since);
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
        try {
            return execute(connection, sql);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "query failed: " + inFdlsWords(DuckDbErrors.firstLine(e)), e);
        }
    }

    private static final java.util.regex.Pattern NO_TABLE =
            java.util.regex.Pattern.compile("Catalog Error: Table with name (.+?) does not exist!.*", java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern NO_FILE =
            java.util.regex.Pattern.compile("IO Error: No files found that match the pattern \"(.+?)\".*", java.util.regex.Pattern.DOTALL);

    /**
     * DuckDB's error for the two mistakes a reader meets most, an unknown table and a data file
     * missing from the repository, said in fdl's words with what to do; any other error as DuckDB said it.
     */
    private String inFdlsWords(String duckError) {
        java.util.regex.Matcher m = NO_TABLE.matcher(duckError);
        if (m.matches())
            return "there is no table named '" + m.group(1) + "' here; the tables are: "
                    + (tables().isEmpty() ? "(none)" : String.join(", ", tables())) + " (tables of schema main also answer unqualified)";
        return missingFileInFdlsWords(duckError);
    }

    /** DuckDB's error for a data file that is not there, in fdl's words; any other error as DuckDB said it. */
    private static String missingFileInFdlsWords(String duckError) {
        java.util.regex.Matcher m = NO_FILE.matcher(duckError);
        if (m.matches())
            return "data file " + m.group(1) + " is missing: the catalog names it but the repository does not hold it; "
                    + "run fdl verify to list every missing file";
        return duckError;
    }

    /**
     * Runs one read-only statement and returns its whole result, every value as {@link QueryResult}
     * says: booleans and numbers as Java values, everything else as DuckDB's own text ({@code
     * CAST(x AS VARCHAR)}), never Java's rendering of the driver's objects, which goes through the
     * JVM's time zone (a TIMESTAMP in a DST gap shifted by an hour) and prints {@code 02:30} for
     * {@code 02:30:00}. Nested columns (LIST, ARRAY, STRUCT, MAP, UNION) and JSON columns come back
     * as {@link NestedValue}s carrying that text and DuckDB's {@code to_json}. The statement is run
     * once, as a subquery selecting each column in the form it is read in ({@link #asDuckDbText});
     * a statement that cannot be a subquery (PRAGMA, …) runs as it is. TIMESTAMPTZ renders in the
     * connection's TimeZone, which fdl sets to UTC.
     *
     * @throws SQLException as DuckDB reports it
     */
    static QueryResult execute(Connection connection, String sql) throws SQLException {
        Wrapped wrapped = asDuckDbText(connection, sql);
        if (wrapped != null) {
            try (PreparedStatement ps = wrapped.statement(); ResultSet rs = ps.executeQuery()) {
                return collectWrapped(rs, wrapped.labels(), wrapped.types());
            }
        }
        try (Statement st = connection.createStatement()) {
            if (!st.execute(sql)) {
                return new QueryResult(List.of("Count"), List.of("BIGINT"), List.of(List.of((long) st.getUpdateCount())));
            }
            try (ResultSet rs = st.getResultSet()) {
                return collect(rs);
            }
        }
    }

    private static boolean isNested(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.endsWith("]") || t.startsWith("STRUCT(") || t.startsWith("MAP(") || t.startsWith("UNION(") || t.equals("JSON");
    }

    /**
     * Whether values of {@code type} are read through the driver as they are: booleans, numbers
     * (JSON output keeps them) and VARCHAR (the driver's text is the value). Every other type is
     * read as DuckDB's VARCHAR cast.
     */
    private static boolean readAsIs(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return switch (t) {
            case "BOOLEAN", "FLOAT", "DOUBLE", "VARCHAR" -> true;
            default -> DuckLakeTypes.INTEGER_TYPES.contains(t) || t.startsWith("DECIMAL");
        };
    }

    /** A statement wrapped by {@link #asDuckDbText}, with the column names and types of the original. */
    private record Wrapped(PreparedStatement statement, List<String> labels, List<String> types) {}

    /**
     * The statement wrapped to select each column in the form it is read in: as it is ({@link
     * #readAsIs}), else {@code CAST(#i AS VARCHAR)}, followed by {@code to_json(#i)} for a nested
     * column; prepared. Null when every column is read as it is or the statement cannot be wrapped.
     */
    private static Wrapped asDuckDbText(Connection connection, String sql) {
        List<String> labels = new ArrayList<>();
        List<String> types = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ResultSetMetaData md = ps.getMetaData();
            if (md == null) return null;
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.add(md.getColumnLabel(i));
                types.add(md.getColumnTypeName(i));
            }
        } catch (SQLException e) {
            return null; // DuckDB reports it when the statement runs
        }
        if (types.stream().allMatch(BuiltInReader::readAsIs)) return null;
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 1; i <= types.size(); i++) {
            String type = types.get(i - 1);
            select.append(i > 1 ? ", " : "").append(readAsIs(type) ? "#" + i : "CAST(#" + i + " AS VARCHAR)");
            if (isNested(type)) select.append(", to_json(#").append(i).append(')');
        }
        String body = sql.strip();
        while (body.endsWith(";")) body = body.substring(0, body.length() - 1).strip();
        // newlines: a trailing line comment must not swallow the closing parenthesis
        PreparedStatement ps = prepareOrNull(connection, select + " FROM (\n" + body + "\n)");
        if (ps == null) {
            // e.g. a semicolon before a trailing comment: the statement as DuckDB's parser prints it
            String normalized = null;
            try (PreparedStatement n = connection.prepareStatement("SELECT json_deserialize_sql(json_serialize_sql(?::VARCHAR))")) {
                n.setString(1, sql);
                try (ResultSet rs = n.executeQuery()) {
                    if (rs.next()) normalized = rs.getString(1);
                }
            } catch (SQLException e) {
                return null;
            }
            if (normalized == null) return null;
            while (normalized.strip().endsWith(";")) normalized = normalized.strip().substring(0, normalized.strip().length() - 1);
            ps = prepareOrNull(connection, select + " FROM (\n" + normalized + "\n)");
        }
        return ps == null ? null : new Wrapped(ps, labels, types); // null: not a query that can be a subquery
    }

    private static PreparedStatement prepareOrNull(Connection connection, String sql) {
        try {
            return connection.prepareStatement(sql);
        } catch (SQLException e) {
            return null;
        }
    }

    /** {@link #collect} for a result of {@link #asDuckDbText}: each nested column is followed by its to_json. */
    private static QueryResult collectWrapped(ResultSet rs, List<String> columns, List<String> types) throws SQLException {
        List<Integer> positions = new ArrayList<>();
        int p = 1;
        for (String type : types) {
            positions.add(p);
            p += isNested(type) ? 2 : 1;
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(columns.size());
            for (int k = 0; k < columns.size(); k++) {
                int i = positions.get(k);
                String type = types.get(k);
                Object v = readAsIs(type) ? value(rs, i, type) : rs.getString(i);
                if (v != null && isNested(type)) v = new NestedValue(v.toString(), rs.getString(i + 1));
                row.add(v);
            }
            rows.add(row);
        }
        return new QueryResult(columns, types, rows);
    }

    /** Closes the DuckDB connection (and detaches the catalog). */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot close the reader's DuckDB connection: " + DuckDbErrors.firstLine(e), e);
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
        // integers: the driver's Long (or Integer…) when it fits one, else the text as a BigInteger
        String kind = DuckLakeTypes.LONG_INTEGER_TYPES.contains(t) ? "LONG" : DuckLakeTypes.INTEGER_TYPES.contains(t) ? "BIG" : t;
        switch (kind) {
            case "BOOLEAN", "LONG" -> o = rs.getObject(i);
            case "FLOAT", "DOUBLE" -> {
                o = rs.getObject(i);
                // NaN and infinities have no JSON number form: DuckDB's text for them
                if (o instanceof Number d && !Double.isFinite(d.doubleValue())) o = nonFinite(d.doubleValue());
            }
            case "BIG" -> {
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

    /**
     * DuckDB's text for a NaN or infinite FLOAT or DOUBLE ({@code CAST(x AS VARCHAR)}: {@code nan},
     * {@code inf}, {@code -inf}); the driver's {@code getString} gives Java's {@code NaN} and
     * {@code Infinity}. The one place fdl spells them, for values at the top level and, through
     * {@code ResultPrinter}, inside nested JSON values.
     */
    public static String nonFinite(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        throw new IllegalArgumentException(d + " is finite");
    }

    private static boolean createView(Connection conn, String memory, SnapshotView.ViewEntry view) {
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
}
