package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import dev.fdl.FdlException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A DuckLake catalog file of either kind opened read-only for inspection through plain JDBC:
 * format version, data path, snapshots, tables and columns at a snapshot, the row count a reader
 * sees, and the data and delete files it names. Visibility follows DUCKLAKE.md "Snapshots and
 * visibility": a row is visible at S when {@code begin_snapshot <= S AND (end_snapshot IS NULL
 * OR S < end_snapshot)}.
 */
public final class Catalog implements AutoCloseable {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "(-?\\d{4,}-\\d{2}-\\d{2})[ T](\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?)(?:([+-]\\d{2})(?::?(\\d{2}))?(?::?(\\d{2}))?|Z)?");

    private final Path file;
    private final CatalogKind kind;
    private final Connection connection;
    private final Set<String> tableNames;
    private final String formatVersion;
    private final String dataPath;

    private Catalog(Path file, CatalogKind kind, Connection connection) throws SQLException {
        this.file = file;
        this.kind = kind;
        this.connection = connection;
        this.tableNames = new HashSet<>(kind == CatalogKind.SQLITE ? Sql.sqliteTables(connection) : Sql.duckDbTables(connection, "cat"));
        if (!tableNames.contains("ducklake_metadata") || !tableNames.contains("ducklake_snapshot")) {
            throw new FdlException("not a DuckLake catalog: " + file + " has no ducklake_metadata/ducklake_snapshot table");
        }
        this.formatVersion = metadata("version");
        if (formatVersion == null) {
            throw new FdlException("not a DuckLake catalog: " + file + " records no format version (ducklake_metadata key 'version')");
        }
        Map<String, List<String>> columnsOf = new HashMap<>();
        for (String table : DuckLakeSchema.DECISIVE_TABLES) {
            if (tableNames.contains(table)) columnsOf.put(table, columns(table));
        }
        DuckLakeSchema.requireKnown(file.toString(), formatVersion, columnsOf);
        this.dataPath = metadata("data_path");
    }

    /** The columns of one of the file's tables, in declaration order. */
    List<String> columns(String table) throws SQLException {
        return kind == CatalogKind.SQLITE ? Sql.sqliteColumns(connection, table) : Sql.duckDbColumns(connection, "cat", table);
    }

    /**
     * Opens a catalog file read-only.
     *
     * @throws FdlException (exit 1) naming the file if it is missing, not a SQLite/DuckDB file,
     *     not a DuckLake catalog, or of a DuckLake format version fdl does not know
     */
    public static Catalog open(Path file) {
        return open(file, true);
    }

    /** Opens a catalog file read-only or for writing (package code: truncation, data path). */
    static Catalog open(Path file, boolean readOnly) {
        CatalogKind kind = CatalogKind.detect(file);
        Connection c = null;
        try {
            if (kind == CatalogKind.SQLITE) {
                c = Sql.sqlite(file, readOnly);
            } else {
                c = Sql.duckDbMemory();
                Sql.attach(c, file, "cat", readOnly);
                Sql.exec(c, "USE cat");
            }
            return new Catalog(file, kind, c);
        } catch (SQLException e) {
            closeQuietly(c);
            throw Sql.failure("opening DuckLake catalog", file, e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing; the first error is the one reported
            }
        }
    }

    /** The file this catalog was opened from. */
    public Path file() {
        return file;
    }

    /** Whether the file is a SQLite or a DuckDB catalog. */
    public CatalogKind kind() {
        return kind;
    }

    /** The DuckLake format version ({@code ducklake_metadata} key {@code version}), e.g. {@code 1.0}. */
    public String formatVersion() {
        return formatVersion;
    }

    /** The catalog's data path as stored (DUCKLAKE.md "Paths"), or null if none is recorded. */
    public String dataPath() {
        return dataPath;
    }

    private String metadata(String key) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT value FROM ducklake_metadata WHERE key = ? AND scope IS NULL")) {
            ps.setString(1, key);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }

    /** Every snapshot, oldest first. */
    public List<SnapshotInfo> snapshots() {
        List<SnapshotInfo> result = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT s.snapshot_id, CAST(s.snapshot_time AS VARCHAR), c.changes_made, c.author, c.commit_message"
                     + " FROM ducklake_snapshot s LEFT JOIN ducklake_snapshot_changes c ON c.snapshot_id = s.snapshot_id"
                     + " ORDER BY s.snapshot_id")) {
            while (r.next()) {
                result.add(new SnapshotInfo(r.getLong(1), parseTime(r.getString(2)), r.getString(3), r.getString(4), r.getString(5)));
            }
        } catch (SQLException e) {
            throw Sql.failure("reading snapshots of", file, e);
        }
        return result;
    }

    /** The newest snapshot id. */
    public long lastSnapshotId() {
        return snapshotBound("max");
    }

    /** The oldest snapshot id the catalog keeps. */
    public long firstSnapshotId() {
        return snapshotBound("min");
    }

    private long snapshotBound(String fn) {
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT " + fn + "(snapshot_id) FROM ducklake_snapshot")) {
            long v = r.next() ? r.getLong(1) : 0;
            if (r.wasNull()) {
                throw new FdlException("catalog " + file + " has no snapshot; it is not a usable DuckLake catalog");
            }
            return v;
        } catch (SQLException e) {
            throw Sql.failure("reading snapshots of", file, e);
        }
    }

    /**
     * The tables visible at a snapshot, ordered by schema and name, with their top-level columns. A
     * table of a nested schema (DuckLake 1.1) names its schema by the dotted path from the top
     * ({@code sales.europe}), as DuckDB addresses it.
     */
    public List<TableInfo> tables(long snapshotId) {
        List<TableInfo> result = new ArrayList<>();
        try {
            Map<Long, String> schemaNames = DuckLakeSchema.qualifiedSchemaNames(schemaNameRows(snapshotId), file.toString());
            List<Object[]> rows = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(
                    "SELECT t.table_id, t.schema_id, t.table_name FROM ducklake_table t WHERE" + Visibility.at("t", snapshotId))) {
                try (ResultSet r = ps.executeQuery()) {
                    while (r.next()) {
                        String schema = schemaNames.get(r.getLong(2));
                        if (schema != null) rows.add(new Object[] {r.getLong(1), schema, r.getString(3)});
                    }
                }
            }
            rows.sort(java.util.Comparator.comparing((Object[] row) -> (String) row[1]).thenComparing(row -> (String) row[2]));
            for (Object[] row : rows) {
                long tableId = (Long) row[0];
                result.add(new TableInfo(tableId, (String) row[1], (String) row[2], ColumnTypes.at(connection, tableId, snapshotId)));
            }
        } catch (SQLException e) {
            throw Sql.failure("reading tables of", file, e);
        }
        return result;
    }

    /** The schemas visible at a snapshot: id, parent id (null at the top or before 1.1), name. */
    private List<DuckLakeSchema.SchemaName> schemaNameRows(long snapshotId) throws SQLException {
        String parent = hasParentSchemas() ? "parent_schema_id" : "CAST(NULL AS BIGINT)";
        List<DuckLakeSchema.SchemaName> rows = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT schema_id, " + parent + ", schema_name FROM ducklake_schema WHERE"
                     + Visibility.at(snapshotId))) {
            while (r.next()) {
                long parentValue = r.getLong(2);
                Long parentId = r.wasNull() ? null : parentValue;
                rows.add(new DuckLakeSchema.SchemaName(r.getLong(1), parentId, r.getString(3)));
            }
        }
        return rows;
    }

    /**
     * The number of rows a reader sees in a table at a snapshot (DUCKLAKE.md "Data"): rows of the
     * visible data files, minus rows deleted by visible delete files and inlined deletes of those
     * files, plus visible inlined rows. Read from catalog metadata only.
     */
    public long rowCount(long tableId, long snapshotId) {
        try {
            long rows = single("SELECT coalesce(sum(record_count), 0) FROM ducklake_data_file WHERE table_id = ? AND"
                    + Visibility.at(snapshotId), tableId);
            if (tableNames.contains("ducklake_delete_file")) {
                rows -= single("SELECT coalesce(sum(d.delete_count), 0) FROM ducklake_delete_file d WHERE d.table_id = ?"
                        + " AND" + Visibility.at("d", snapshotId)
                        + "AND EXISTS (SELECT 1 FROM ducklake_data_file f WHERE f.data_file_id = d.data_file_id"
                        + " AND" + Visibility.at("f", snapshotId) + ")", tableId);
            }
            String inlinedDelete = DuckLakeSchema.INLINED_DELETE_PREFIX + tableId;
            if (tableNames.contains(inlinedDelete)) {
                // inlined deletes have no end_snapshot: a deletion, once made, stays
                rows -= single("SELECT count(*) FROM " + SqlQuote.ident(inlinedDelete) + " i WHERE i.begin_snapshot <= ?"
                        + " AND EXISTS (SELECT 1 FROM ducklake_data_file f WHERE f.data_file_id = i.file_id"
                        + " AND" + Visibility.at("f", snapshotId) + ")", snapshotId);
            }
            for (String inlined : inlinedDataTables(tableId)) {
                DuckLakeSchema.InlinedColumns system = DuckLakeSchema.inlinedColumns(columns(inlined));
                if (system == null) {
                    throw new FdlException("inlined-data table " + inlined + " in " + file + " does not start with "
                            + "row_id, begin_snapshot, end_snapshot (or their 1.1 names _ducklake_…); the catalog looks corrupt");
                }
                rows += single("SELECT count(*) FROM " + SqlQuote.ident(inlined) + " WHERE"
                        + Visibility.at("", system.begin(), system.end(), Long.toString(snapshotId)));
            }
            return rows;
        } catch (SQLException e) {
            throw Sql.failure("counting rows of table " + tableId + " at snapshot " + snapshotId + " in", file, e);
        }
    }

    /** The names of the {@code ducklake_*} tables in the file when it was opened. */
    Set<String> tableNames() {
        return tableNames;
    }

    /** The inlined-data tables of a table that exist in the file. */
    List<String> inlinedDataTables(long tableId) {
        List<String> result = new ArrayList<>();
        String prefix = DuckLakeSchema.INLINED_DATA_PREFIX + tableId + "_";
        for (String name : tableNames) {
            if (name.startsWith(prefix) && name.substring(prefix.length()).matches("\\d+")) {
                result.add(name);
            }
        }
        result.sort(null);
        return result;
    }

    private long single(String sql, long... params) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setLong(i + 1, params[i]);
            }
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? r.getLong(1) : 0;
            }
        }
    }

    /**
     * Streams every data and delete file the catalog names in any snapshot, resolved by
     * {@link DuckLakePaths} (data path, schema path, table path; DUCKLAKE.md "Paths"). Rows are
     * streamed from the catalog, never collected, so this works on catalogs naming millions of files.
     *
     * @throws FdlException (exit 1) if a relative file belongs to a table the catalog does not
     *     describe (its location cannot be resolved), or a file row has no path
     */
    public void forEachFile(Consumer<CatalogFile> action) {
        DuckLakePaths paths = DuckLakePaths.of(dataPath, null);
        try {
            Map<Long, String> schemaFolder = paths.schemaFolders(schemaRows(), file.toString());
            Map<Long, String> tableFolder = new HashMap<>();
            try (Statement s = connection.createStatement();
                 ResultSet r = s.executeQuery("SELECT table_id, schema_id, path, path_is_relative FROM ducklake_table ORDER BY begin_snapshot")) {
                while (r.next()) {
                    String schema = schemaFolder.get(r.getLong(2));
                    String path = r.getString(3);
                    Boolean rel = relative(r, 4);
                    if (schema == null && (path == null || DuckLakePaths.isRelative(rel))) {
                        throw new FdlException("catalog " + file + ": table " + r.getLong(1) + " names schema "
                                + r.getLong(2) + ", which the catalog does not describe");
                    }
                    tableFolder.put(r.getLong(1), paths.tableFolder(schema, path, rel));
                }
            }
            streamFiles("SELECT table_id, path, path_is_relative, file_size_bytes, data_file_id FROM ducklake_data_file",
                    false, paths, tableFolder, action);
            if (tableNames.contains("ducklake_delete_file")) {
                streamFiles("SELECT table_id, path, path_is_relative, file_size_bytes, delete_file_id FROM ducklake_delete_file",
                        true, paths, tableFolder, action);
            }
        } catch (SQLException e) {
            throw Sql.failure("listing the files of", file, e);
        }
    }

    /** Every {@code ducklake_schema} row as paths need it, with its parent when the format has nested schemas (1.1). */
    List<DuckLakePaths.SchemaRow> schemaRows() throws SQLException {
        String parent = hasParentSchemas() ? "parent_schema_id" : "CAST(NULL AS BIGINT)";
        List<DuckLakePaths.SchemaRow> rows = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT schema_id, " + parent + ", path, path_is_relative FROM ducklake_schema")) {
            while (r.next()) {
                long parentValue = r.getLong(2);
                Long parentId = r.wasNull() ? null : parentValue;
                rows.add(new DuckLakePaths.SchemaRow(r.getLong(1), parentId, r.getString(3), relative(r, 4)));
            }
        }
        return rows;
    }

    private boolean hasParentSchemas() throws SQLException {
        return columns("ducklake_schema").contains("parent_schema_id");
    }

    private void streamFiles(String sql, boolean deleteFile, DuckLakePaths paths, Map<Long, String> tableFolder,
                             Consumer<CatalogFile> action) throws SQLException {
        String kind = deleteFile ? "delete" : "data";
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                long tableId = r.getLong(1);
                String path = r.getString(2);
                Boolean rel = relative(r, 3);
                long bytes = r.getLong(4);
                if (r.wasNull()) {
                    bytes = -1;
                }
                String folder = tableFolder.get(tableId);
                boolean isRelative = DuckLakePaths.isRelative(rel);
                if (isRelative && folder == null) {
                    throw new FdlException("catalog " + file + ": " + kind + " file " + r.getLong(5)
                            + " (" + path + ") belongs to table " + tableId + ", which the catalog does not describe");
                }
                String location = paths.file(folder, path, rel, "catalog " + file + ": " + kind + " file " + r.getLong(5));
                action.accept(new CatalogFile(location, deleteFile, bytes, isRelative));
            }
        }
    }

    private static Boolean relative(ResultSet r, int column) throws SQLException {
        boolean rel = r.getBoolean(column);
        return r.wasNull() ? null : rel;
    }

    /** Parses DuckDB's VARCHAR form of a TIMESTAMPTZ ({@code 2026-11-29 21:41:30.123456+00}) into an instant. */
    static Instant parseTime(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = TIMESTAMP.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        LocalDateTime local = LocalDateTime.parse(m.group(1) + "T" + m.group(2));
        ZoneOffset offset = ZoneOffset.UTC;
        if (m.group(3) != null) {
            int hours = Integer.parseInt(m.group(3));
            int minutes = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int seconds = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int sign = hours < 0 || m.group(3).startsWith("-") ? -1 : 1;
            offset = ZoneOffset.ofHoursMinutesSeconds(hours, sign * minutes, sign * seconds);
        }
        return local.toInstant(offset);
    }

    /** The JDBC connection, for package code (truncation, data path, tests). */
    Connection connection() {
        return connection;
    }

    /** Closes the catalog. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw Sql.failure("closing catalog", file, e);
        }
    }
}
