package dev.fdl.ducklake.catalog;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import dev.fdl.ducklake.SnapshotInfo;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.format.SnapshotChanges;
import dev.fdl.ducklake.format.Visibility;

/**
 * The one model of a DuckLake catalog's tables: snapshots, schemas (with their parents, DuckLake
 * 1.1), tables, columns, data files, delete files, inlined-data tables and views, visible at a
 * snapshot or named in any snapshot. Every reader of a catalog's content in fdl goes through these
 * queries: inspection ({@link CatalogInspector}: tables, row counts, gc's and verify's file lists, commit
 * step 5), the built-in reader ({@link dev.fdl.ducklake.read.SnapshotView}: diff, query, sync), {@code log --stat}
 * ({@link dev.fdl.ducklake.read.CatalogStat}) and the importer ({@link dev.fdl.ducklake.working.WorkingCatalog}). Plain SQL that both catalog
 * kinds answer: a SQLite file through sqlite-jdbc (alone on its connection, or one of several
 * attached to it: {@link #sqlite}), or a DuckDB file attached to a DuckDB connection. Rows read
 * whole, for copying them into another catalog, come from {@link #wholeRows()}. Visibility is {@link Visibility}'s rule, locations {@link DuckLakePaths}'s, types
 * {@link ColumnTypes}/{@link dev.fdl.ducklake.format.DuckLakeTypes}'s; formats 1.0, 1.1-dev1 and 1.1 are told apart by
 * {@link DuckLakeSchema} (which refuses a format or decisive column it does not know).
 */
public final class MetadataQueries {
    /** The alias of the attached catalog database inside the built-in reader's DuckDB. */
    public static final String CATALOG_ALIAS = "__fdl_ducklake_catalog";


    /** A {@code ducklake_schema} row; {@code parentId} null for a top-level schema or before 1.1. */
    public record SchemaRow(long id, Long parentId, String name, String path, Boolean relative) {}

    /** A {@code ducklake_table} row. */
    public record TableRow(long id, long schemaId, String name, String path, Boolean relative) {}

    /**
     * A {@code ducklake_data_file} row.
     *
     * @param bytes {@code file_size_bytes}, -1 when not recorded
     */
    public record DataFileRow(long id, long tableId, long beginSnapshot, String path, Boolean relative, long bytes,
                       long recordCount, String format, String encryptionKey, Long mappingId, Long partialMax,
                       Long partitionId) {}

    /**
     * A {@code ducklake_delete_file} row.
     *
     * @param bytes {@code file_size_bytes}, -1 when not recorded
     */
    public record DeleteFileRow(long id, long tableId, long dataFileId, String path, Boolean relative, long bytes,
                         String format, String encryptionKey, Long partialMax) {}

    /**
     * A table resolved: its schema's name as DuckDB addresses it (the dotted path from the top for
     * a nested schema, {@code sales.europe}; null in the every-snapshot model) and its folder by
     * {@link DuckLakePaths}.
     */
    public record Table(long id, String schema, String name, String folder) {}

    /** A registered inlined-data table that exists in the file, with the spelling of its system columns. */
    public record Inlined(String tableName, long schemaVersion, DuckLakeSchema.InlinedColumns system, List<String> columnNames) {
        public Inlined {
            Objects.requireNonNull(system, "system");
            columnNames = List.copyOf(columnNames);
        }
    }

    /** A {@code ducklake_view} row visible at a snapshot, with its schema's name. */
    public record ViewRow(String schema, String name, String dialect, String sql, String columnAliases) {}

    /** Rows a reader sees in a table at a snapshot, and how many of them were added from a given snapshot on. */
    public record RowCount(long rows, long added) {}

    private final Connection conn;
    private final String alias;
    private final String database;
    private final String file;
    private final Set<String> tableNames;
    private final Map<String, String> metadata;
    private final String formatVersion;
    private final boolean nestedSchemas;

    /**
     * Reads the catalog's table list, metadata and format, and refuses what fdl cannot read exactly.
     *
     * @param alias the DuckDB database the catalog is attached as, or null for a SQLite connection
     * @param file  names the catalog in messages
     * @throws FdlException (exit 1) naming {@code file} when it is not a DuckLake catalog, records no
     *     format version, or is of a format (or has a decisive column) fdl does not know
     */
    public MetadataQueries(Connection conn, String alias, String file) throws SQLException {
        this(conn, alias, null, file);
    }

    /**
     * The SQLite catalog {@code database} of a SQLite connection: {@code main}, or the alias another
     * catalog file is attached as ({@code ATTACH DATABASE ... AS alias}); its tables are named
     * {@code database.ducklake_...}, so two catalogs on one connection are read apart.
     *
     * @throws FdlException as {@link #MetadataQueries(Connection, String, String)}
     */
    public static MetadataQueries sqlite(Connection conn, String database, String file) throws SQLException {
        return new MetadataQueries(conn, null, Objects.requireNonNull(database, "database"), file);
    }

    private MetadataQueries(Connection conn, String alias, String database, String file) throws SQLException {
        this.conn = conn;
        this.alias = alias;
        this.database = database;
        this.file = file;
        this.tableNames = new HashSet<>(alias == null ? Sql.sqliteTables(conn, database) : Sql.duckDbTables(conn, alias));
        if (!tableNames.contains("ducklake_metadata") || !tableNames.contains("ducklake_snapshot")) {
            throw new FdlException("not a DuckLake catalog: " + file + " has no ducklake_metadata/ducklake_snapshot table");
        }
        Map<String, String> meta = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT key, value FROM " + t("ducklake_metadata")
                + " WHERE scope IS NULL"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) meta.put(rs.getString(1), rs.getString(2));
        }
        this.metadata = Map.copyOf(withoutNullValues(meta));
        this.formatVersion = meta.get("version");
        if (formatVersion == null) {
            throw new FdlException("not a DuckLake catalog: " + file + " records no format version (ducklake_metadata key 'version')");
        }
        Map<String, List<String>> columnsOf = new HashMap<>();
        if (alias == null) {
            for (String table : DuckLakeSchema.DECISIVE_TABLES) {
                if (tableNames.contains(table)) columnsOf.put(table, columns(table));
            }
        } else {
            // one scan of duckdb_columns() for all of them: each scan lists every attached database's columns
            columnsOf = Sql.duckDbColumns(conn, alias, DuckLakeSchema.DECISIVE_TABLES.stream().filter(tableNames::contains).toList());
        }
        DuckLakeSchema.requireKnown(file, formatVersion, columnsOf);
        List<String> schemaColumns = columnsOf.get("ducklake_schema");
        this.nestedSchemas = schemaColumns != null && schemaColumns.contains("parent_schema_id");
    }

    private static Map<String, String> withoutNullValues(Map<String, String> m) {
        m.values().removeIf(Objects::isNull);
        return m;
    }

    /** The catalog as messages name it. */
    String file() {
        return file;
    }

    /** The connection the catalog is read through. */
    Connection connection() {
        return conn;
    }

    /**
     * What precedes a catalog table's name in SQL: {@code "alias".main.} on DuckDB,
     * {@code "database".} for a SQLite catalog read by {@link #sqlite}, else empty.
     */
    public String qualifier() {
        return alias != null ? SqlQuote.ident(alias) + ".main." : database != null ? SqlQuote.ident(database) + "." : "";
    }

    /** The SQLite database the catalog is read as ({@link #sqlite}), or null; null also on DuckDB ({@link #isSqlite}). */
    String sqliteDatabase() {
        return database;
    }

    /** Whether the catalog is a SQLite file (read through sqlite-jdbc), not a DuckDB one. */
    boolean isSqlite() {
        return alias == null;
    }

    /** The catalog's rows read whole, every column by name ({@link WholeRows}). */
    public WholeRows wholeRows() {
        return new WholeRows(this);
    }

    /** A catalog table as SQL names it. */
    String t(String table) {
        return qualifier() + SqlQuote.ident(table);
    }

    /** The names of the {@code ducklake_*} tables in the file (inlined-data tables included). */
    public Set<String> tableNames() {
        return tableNames;
    }

    /** The columns of one of the file's tables, in declaration order. */
    public List<String> columns(String table) throws SQLException {
        return alias == null ? Sql.sqliteColumns(conn, database, table) : Sql.duckDbColumns(conn, alias, table);
    }

    /** A {@code ducklake_metadata} value of no scope, or null. */
    public String metadata(String key) {
        return metadata.get(key);
    }

    /** The DuckLake format version ({@code ducklake_metadata} key {@code version}). */
    String formatVersion() {
        return formatVersion;
    }

    /** Names of every schema, table and view by id over all snapshots (the newest name of each), for {@link SnapshotChanges}. */
    SnapshotChanges.Names names() throws SQLException {
        java.util.Map<Long, String> schemas = new java.util.HashMap<>(), tables = new java.util.HashMap<>(), views = new java.util.HashMap<>();
        try (Statement st = conn.createStatement()) {
            try (ResultSet r = st.executeQuery("SELECT schema_id, schema_name FROM " + t("ducklake_schema") + " ORDER BY begin_snapshot")) {
                while (r.next()) schemas.put(r.getLong(1), r.getString(2));
            }
            try (ResultSet r = st.executeQuery("SELECT table_id, schema_id, table_name FROM " + t("ducklake_table") + " ORDER BY begin_snapshot")) {
                while (r.next()) tables.put(r.getLong(1), schemas.getOrDefault(r.getLong(2), "?") + "." + r.getString(3));
            }
            try (ResultSet r = st.executeQuery("SELECT view_id, schema_id, view_name FROM " + t("ducklake_view") + " ORDER BY begin_snapshot")) {
                while (r.next()) views.put(r.getLong(1), schemas.getOrDefault(r.getLong(2), "?") + "." + r.getString(3));
            }
        }
        return new SnapshotChanges.Names(tables, views, schemas);
    }

    // ---- snapshots ----

    /** Every snapshot, oldest first, with its {@code ducklake_snapshot_changes} row. */
    List<SnapshotInfo> snapshots() throws SQLException {
        List<SnapshotInfo> result = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT s.snapshot_id, CAST(s.snapshot_time AS VARCHAR), c.changes_made,"
                + " c.author, c.commit_message FROM " + t("ducklake_snapshot") + " s LEFT JOIN " + t("ducklake_snapshot_changes")
                + " c ON c.snapshot_id = s.snapshot_id ORDER BY s.snapshot_id");
             ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                result.add(new SnapshotInfo(r.getLong(1), CatalogInspector.parseTime(r.getString(2)), r.getString(3), r.getString(4), r.getString(5)));
            }
        }
        return result;
    }

    /**
     * The oldest and the newest snapshot id.
     *
     * @throws FdlException (exit 1) when the catalog has no snapshot
     */
    public long[] snapshotRange() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT min(snapshot_id), max(snapshot_id) FROM " + t("ducklake_snapshot"));
             ResultSet r = ps.executeQuery()) {
            r.next();
            long min = r.getLong(1);
            if (r.wasNull()) {
                throw new FdlException("catalog " + file + " has no snapshot; it is not a usable DuckLake catalog");
            }
            return new long[] {min, r.getLong(2)};
        }
    }

    /** Whether the catalog keeps snapshot {@code id}. */
    public boolean hasSnapshot(long id) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM " + t("ducklake_snapshot") + " WHERE snapshot_id = ?")) {
            ps.setLong(1, id);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() && r.getLong(1) > 0;
            }
        }
    }

    // ---- rows: visible at a snapshot, or (snapshot null) named in any snapshot ----

    /**
     * The one query shape of this model: {@code FROM table alias WHERE} the row is visible at
     * {@code snapshot} ({@link Visibility}; null: every row of every snapshot) {@code AND} it
     * belongs to table {@code tableId} (null: any table), with a space at the end.
     */
    String visibleFrom(String table, String alias, Long tableId, Long snapshot) {
        String condition = snapshot == null ? " 1 = 1 " : Visibility.at(alias, snapshot);
        String owner = tableId == null ? "" : "AND " + alias + ".table_id = " + tableId + " ";
        return " FROM " + t(table) + " " + alias + " WHERE" + condition + owner;
    }

    /** Schema rows visible at {@code snapshot} (null: every row of every snapshot), by schema id. */
    public List<SchemaRow> schemas(Long snapshot) throws SQLException {
        String parent = nestedSchemas ? "parent_schema_id" : "CAST(NULL AS BIGINT)";
        List<SchemaRow> rows = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT schema_id, " + parent + ", schema_name, path, path_is_relative"
                + visibleFrom("ducklake_schema", "x", null, snapshot) + "ORDER BY schema_id, begin_snapshot");
             ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                rows.add(new SchemaRow(r.getLong(1), nullableLong(r, 2), r.getString(3), r.getString(4), relative(r, 5)));
            }
        }
        return rows;
    }

    /** Table rows visible at {@code snapshot} (null: every row of every snapshot), by table id, oldest row first. */
    public List<TableRow> tableRows(Long snapshot) throws SQLException {
        List<TableRow> rows = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT table_id, schema_id, table_name, path, path_is_relative"
                + visibleFrom("ducklake_table", "x", null, snapshot) + "ORDER BY table_id, begin_snapshot");
             ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                rows.add(new TableRow(r.getLong(1), r.getLong(2), r.getString(3), r.getString(4), relative(r, 5)));
            }
        }
        return rows;
    }

    /**
     * The tables visible at {@code snapshot}, by table id, each with its schema's qualified name and
     * its folder.
     *
     * @throws FdlException (exit 1) when a visible table's schema is not visible, or a visible
     *     schema's parent is not (the catalog is corrupt: its tables cannot be named)
     */
    public List<Table> tables(long snapshot, DuckLakePaths paths) throws SQLException {
        List<SchemaRow> schemas = schemas(snapshot);
        Map<Long, String> folders = paths.schemaFolders(pathRows(schemas));
        Map<Long, String> names = schemaNames(schemas);
        List<Table> result = new ArrayList<>();
        for (TableRow r : tableRows(snapshot)) {
            String schema = names.get(r.schemaId());
            if (schema == null) {
                throw new FdlException("catalog " + file + ": table " + r.name() + " belongs to schema id " + r.schemaId()
                        + ", which is not visible at snapshot " + snapshot + "; the catalog looks corrupt");
            }
            result.add(new Table(r.id(), schema, r.name(), paths.tableFolder(folders.get(r.schemaId()), r.path(), r.relative())));
        }
        return result;
    }

    /**
     * Every table any snapshot names, by table id, with the folder of its newest row (DuckLake
     * keeps a table's path when it is renamed).
     *
     * @throws FdlException (exit 1) when a table whose path is NULL or relative names a schema the
     *     catalog does not describe: where its files live cannot be told
     */
    Map<Long, Table> everyTable(DuckLakePaths paths) throws SQLException {
        List<SchemaRow> schemas = schemas(null);
        Map<Long, String> folders = paths.schemaFolders(pathRows(schemas));
        Map<Long, Table> result = new LinkedHashMap<>();
        for (TableRow r : tableRows(null)) {
            String schemaFolder = folders.get(r.schemaId());
            if (schemaFolder == null && (r.path() == null || DuckLakePaths.isRelative(r.relative()))) {
                throw new FdlException("catalog " + file + ": table " + r.id() + " names schema " + r.schemaId()
                        + ", which the catalog does not describe");
            }
            result.put(r.id(), new Table(r.id(), null, r.name(), paths.tableFolder(schemaFolder, r.path(), r.relative())));
        }
        return result;
    }

    /** Schema rows as {@link DuckLakePaths} resolves them. */
    public static List<DuckLakePaths.SchemaRow> pathRows(List<SchemaRow> schemas) {
        List<DuckLakePaths.SchemaRow> rows = new ArrayList<>();
        for (SchemaRow s : schemas) rows.add(new DuckLakePaths.SchemaRow(s.id(), s.path(), s.relative()));
        return rows;
    }

    /** Each schema's name as DuckDB addresses it ({@link DuckLakeSchema#qualifiedSchemaNames}). */
    public Map<Long, String> schemaNames(List<SchemaRow> schemas) {
        List<DuckLakeSchema.SchemaName> rows = new ArrayList<>();
        for (SchemaRow s : schemas) rows.add(new DuckLakeSchema.SchemaName(s.id(), s.parentId(), s.name()));
        return DuckLakeSchema.qualifiedSchemaNames(rows, file);
    }

    /** The top-level columns of a table visible at {@code snapshot}, in column order, with their type trees. */
    public List<ColumnTypes.Column> columns(long tableId, long snapshot) throws SQLException {
        return ColumnTypes.trees(conn, qualifier(), tableId, snapshot);
    }

    /** Every column row of a table visible at {@code snapshot}, nested children included, with their own ids ({@link ColumnTypes#rows}). */
    public List<ColumnTypes.Row> columnRows(long tableId, long snapshot) throws SQLException {
        return ColumnTypes.rows(conn, qualifier(), tableId, snapshot);
    }

    /**
     * A {@code ducklake_file_column_stats} row: the least and greatest value (null: unknown) as
     * DuckDB's text, or as the value DuckDB casts that text to where the reader asked for a type
     * (null when the text is not one), the null count (-1: unknown) and {@code contains_nan} (null: unknown).
     */
    public record FileColumnStats(long dataFileId, long columnId, long nullCount, Object min, Object max, Boolean containsNan) {}

    /**
     * Streams the column statistics of every data file of {@code tableId} any snapshot names
     * (statistics never change once a file is written); none when the catalog has no such table.
     */
    public void fileColumnStats(long tableId, Consumer<FileColumnStats> sink) throws SQLException {
        fileColumnStats(tableId, null, sink);
    }

    /**
     * {@link #fileColumnStats(long, Consumer)} with the least and greatest values of the columns in
     * {@code bounds} only (null: every column's, as text), each as the DuckDB type it names
     * ({@code VARCHAR}: the text; {@code BIGINT}, {@code DOUBLE}…: {@code TRY_CAST} of the text, so a
     * reader of numbers parses no text); the other columns' come as null (unknown). With
     * {@code bounds}, the rows come ordered by data file id, so a reader can finish each file's
     * statistics as the next file's begin.
     */
    public void fileColumnStats(long tableId, Map<Long, String> bounds, Consumer<FileColumnStats> sink) throws SQLException {
        if (!tableNames.contains("ducklake_file_column_stats")) return;
        List<String> types = bounds == null ? List.of("VARCHAR") : bounds.values().stream().distinct().sorted().toList();
        StringBuilder select = new StringBuilder();
        for (String type : types) {
            String ids = bounds == null ? null : bounds.entrySet().stream().filter(e -> e.getValue().equals(type))
                    .map(e -> String.valueOf(e.getKey())).collect(java.util.stream.Collectors.joining(", "));
            for (String v : List.of("min_value", "max_value")) {
                String cast = type.equals("VARCHAR") ? v : "TRY_CAST(" + v + " AS " + type + ")";
                select.append(", ").append(ids == null ? cast : "CASE WHEN column_id IN (" + ids + ") THEN " + cast + " END");
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT data_file_id, column_id, null_count, contains_nan" + select
                + " FROM " + t("ducklake_file_column_stats") + " WHERE table_id = ?" + (bounds == null ? "" : " ORDER BY data_file_id"))) {
            ps.setLong(1, tableId);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    Long nulls = nullableLong(r, 3);
                    Object nan = r.getObject(4);
                    Boolean containsNan = nan == null ? null : nan instanceof Boolean b ? b
                            : nan instanceof Number n ? n.longValue() != 0 : Boolean.valueOf("true".equalsIgnoreCase(nan.toString()) || "1".equals(nan.toString()));
                    long column = r.getLong(2);
                    int at = bounds == null ? 0 : bounds.containsKey(column) ? types.indexOf(bounds.get(column)) : -1;
                    Object min = at < 0 ? null : r.getObject(5 + 2 * at), max = at < 0 ? null : r.getObject(6 + 2 * at);
                    sink.accept(new FileColumnStats(r.getLong(1), column, nulls == null ? -1 : nulls, min, max, containsNan));
                }
            }
        }
    }

    /** A top-level column row of any snapshot: id, name and its snapshot range ({@code end} null: not ended). */
    public record ColumnHistory(long id, String name, long begin, Long end) {}

    /** Every top-level column row a table ever had (inlined-data tables name columns as they were). */
    public List<ColumnHistory> columnHistory(long tableId) throws SQLException {
        List<ColumnHistory> result = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT column_id, column_name, begin_snapshot, end_snapshot FROM "
                + t("ducklake_column") + " WHERE table_id = ? AND parent_column IS NULL ORDER BY column_id, begin_snapshot")) {
            ps.setLong(1, tableId);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) result.add(new ColumnHistory(r.getLong(1), r.getString(2), r.getLong(3), nullableLong(r, 4)));
            }
        }
        return result;
    }

    /** The largest column id a table ever used (0 for none). */
    public long maxColumnId(long tableId) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT max(column_id) FROM " + t("ducklake_column") + " WHERE table_id = ?")) {
            ps.setLong(1, tableId);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? r.getLong(1) : 0;
            }
        }
    }

    private static final String DATA_FILE_COLUMNS = "data_file_id, table_id, begin_snapshot, path, path_is_relative, "
            + "file_size_bytes, record_count, file_format, encryption_key, mapping_id, partial_max, partition_id";

    /**
     * Streams the data file rows of {@code tableId} (null: every table) visible at {@code snapshot}
     * (null: named in any snapshot); for one table in reading order ({@code file_order}, then id).
     * Rows are streamed, never collected: a catalog may name millions of files.
     */
    public void dataFiles(Long tableId, Long snapshot, Consumer<DataFileRow> sink) throws SQLException {
        String sql = "SELECT " + DATA_FILE_COLUMNS + visibleFrom("ducklake_data_file", "x", tableId, snapshot)
                + (tableId == null ? "" : "ORDER BY file_order NULLS LAST, data_file_id");
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    sink.accept(new DataFileRow(r.getLong(1), r.getLong(2), r.getLong(3), r.getString(4), relative(r, 5),
                            bytes(r, 6), r.getLong(7), r.getString(8), r.getString(9), nullableLong(r, 10),
                            nullableLong(r, 11), nullableLong(r, 12)));
                }
            }
        }
    }

    /**
     * Streams the delete file rows of {@code tableId} (null: every table) visible at
     * {@code snapshot} (null: named in any snapshot); for one table by id. None when the catalog
     * has no {@code ducklake_delete_file} table.
     */
    public void deleteFiles(Long tableId, Long snapshot, Consumer<DeleteFileRow> sink) throws SQLException {
        if (!tableNames.contains("ducklake_delete_file")) return;
        String sql = "SELECT delete_file_id, table_id, data_file_id, path, path_is_relative, file_size_bytes, format, "
                + "encryption_key, partial_max" + visibleFrom("ducklake_delete_file", "x", tableId, snapshot)
                + (tableId == null ? "" : "ORDER BY delete_file_id");
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    sink.accept(new DeleteFileRow(r.getLong(1), r.getLong(2), r.getLong(3), r.getString(4), relative(r, 5),
                            bytes(r, 6), r.getString(7), r.getString(8), nullableLong(r, 9)));
                }
            }
        }
    }

    /**
     * One entry of a name mapping ({@code ducklake_name_mapping}): the file's field {@code sourceName}
     * holds column {@code targetFieldId}; {@code parentColumn} is the entry's parent within the
     * mapping (null: top level); {@code partition} whether its value lives in a hive path instead.
     */
    public record NameMapEntry(long columnId, String sourceName, long targetFieldId, Long parentColumn, boolean partition) {}

    /**
     * A name mapping (DuckLake spec, {@code ducklake_column_mapping}, {@code ducklake_name_mapping}):
     * its type ({@code map_by_name} is the one DuckLake defines) and its entries.
     */
    public record NameMap(long id, String type, List<NameMapEntry> entries) {
        public NameMap {
            entries = List.copyOf(entries);
        }
    }

    /**
     * The name mapping {@code mappingId} a data file's {@code mapping_id} names.
     *
     * @throws FdlException (exit 1) naming the catalog when it holds no such mapping
     */
    public NameMap nameMap(long mappingId) throws SQLException {
        String type = null;
        boolean found = false;
        if (tableNames.contains("ducklake_column_mapping")) {
            try (PreparedStatement ps = conn.prepareStatement("SELECT type FROM " + t("ducklake_column_mapping") + " WHERE mapping_id = ?")) {
                ps.setLong(1, mappingId);
                try (ResultSet r = ps.executeQuery()) {
                    if (r.next()) {
                        found = true;
                        type = r.getString(1);
                    }
                }
            }
        }
        if (!found || !tableNames.contains("ducklake_name_mapping")) {
            throw new FdlException("catalog " + file + " names column mapping " + mappingId + " but holds no such mapping "
                    + "(ducklake_column_mapping)");
        }
        List<NameMapEntry> entries = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT column_id, source_name, target_field_id, parent_column, is_partition FROM "
                + t("ducklake_name_mapping") + " WHERE mapping_id = ? ORDER BY column_id")) {
            ps.setLong(1, mappingId);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    String partition = r.getString(5);
                    entries.add(new NameMapEntry(r.getLong(1), r.getString(2), r.getLong(3), nullableLong(r, 4),
                            partition != null && (partition.equals("1") || partition.equalsIgnoreCase("true"))));
                }
            }
        }
        return new NameMap(mappingId, type, entries);
    }

    /** The table's partitioning as the catalog records it ({@link PartitionKeys}). */
    public PartitionKeys partitions() {
        return new PartitionKeys(this);
    }

    /**
     * The inlined-data tables registered for a table ({@code ducklake_inlined_data_tables}) by
     * schema version, with the spelling of their system columns.
     *
     * @throws FdlException (exit 1) when a registered table does not exist or does not start with
     *     DuckLake's system columns (1.0's {@code row_id}… or 1.1's {@code _ducklake_row_id}…)
     */
    public List<Inlined> inlinedTables(long tableId, String where) throws SQLException {
        if (!tableNames.contains("ducklake_inlined_data_tables")) return List.of();
        List<Inlined> result = new ArrayList<>();
        List<Object[]> regs = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT table_name, schema_version FROM "
                + t("ducklake_inlined_data_tables") + " WHERE table_id = ? ORDER BY schema_version")) {
            ps.setLong(1, tableId);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) regs.add(new Object[] {r.getString(1), r.getLong(2)});
            }
        }
        for (Object[] reg : regs) {
            String name = (String) reg[0];
            if (!tableNames.contains(name)) {
                throw new FdlException("catalog " + file + " registers inlined-data table " + name
                        + " for " + where + ", but that table does not exist; the catalog looks corrupt");
            }
            List<String> names = columns(name);
            DuckLakeSchema.InlinedColumns system = DuckLakeSchema.inlinedColumns(names);
            if (system == null) {
                throw new FdlException("inlined-data table " + name + " in " + file
                        + " does not start with row_id, begin_snapshot, end_snapshot (or their DuckLake 1.1 names"
                        + " _ducklake_row_id, _ducklake_begin_snapshot, _ducklake_end_snapshot); the catalog looks corrupt");
            }
            result.add(new Inlined(name, (Long) reg[1], system, names));
        }
        return result;
    }

    /** The inlined-delete table of a table ({@code ducklake_inlined_delete_<id>}), or null when it has none. */
    public String inlinedDeleteTable(long tableId) {
        String name = DuckLakeSchema.INLINED_DELETE_PREFIX + tableId;
        return tableNames.contains(name) ? name : null;
    }

    /**
     * The rows a reader sees in a table at {@code snapshot} (DUCKLAKE.md "Data"), from catalog
     * metadata alone: record counts of the visible data files, minus the deletes of their visible
     * delete files and their inlined deletes made by then, plus the visible inlined rows; and how
     * many of them come from files and inlined rows that begin at or after {@code since}.
     */
    public RowCount rowCount(long tableId, long snapshot, long since) throws SQLException {
        String s = Long.toString(snapshot);
        StringBuilder files = new StringBuilder("SELECT CASE WHEN f.begin_snapshot >= ").append(since)
                .append(" THEN 1 ELSE 0 END AS added, f.record_count");
        StringBuilder joins = new StringBuilder();
        if (tableNames.contains("ducklake_delete_file")) {
            files.append(" - coalesce(d.n, 0)");
            joins.append(" LEFT JOIN (SELECT x.data_file_id, sum(x.delete_count) AS n")
                    .append(visibleFrom("ducklake_delete_file", "x", tableId, snapshot))
                    .append("GROUP BY x.data_file_id) d ON d.data_file_id = f.data_file_id");
        }
        String inlinedDelete = inlinedDeleteTable(tableId);
        if (inlinedDelete != null) {
            // inlined deletes have no end_snapshot: a deletion, once made, stays
            files.append(" - coalesce(i.n, 0)");
            joins.append(" LEFT JOIN (SELECT file_id, count(*) AS n FROM ").append(t(inlinedDelete))
                    .append(" WHERE begin_snapshot <= ").append(s).append(" GROUP BY file_id) i ON i.file_id = f.data_file_id");
        }
        files.append(" AS n FROM (SELECT x.data_file_id, x.begin_snapshot, x.record_count")
                .append(visibleFrom("ducklake_data_file", "x", tableId, snapshot)).append(") f").append(joins);
        List<String> parts = new ArrayList<>(List.of(files.toString()));
        for (Inlined inlined : inlinedTables(tableId, "table " + tableId)) {
            String begin = SqlQuote.ident(inlined.system().begin());
            parts.add("SELECT CASE WHEN " + begin + " >= " + since + " THEN 1 ELSE 0 END, count(*) FROM " + t(inlined.tableName())
                    + " WHERE" + Visibility.at("", begin, SqlQuote.ident(inlined.system().end()), s) + "GROUP BY 1");
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT coalesce(sum(n), 0), coalesce(sum(CASE WHEN added = 1 THEN n ELSE 0 END), 0)"
                + " FROM (" + String.join(" UNION ALL ", parts) + ") AS x"); ResultSet r = ps.executeQuery()) {
            r.next();
            return new RowCount(r.getLong(1), r.getLong(2));
        }
    }

    /** The views visible at {@code snapshot} whose schema is visible, by view id. None when the catalog has no views table. */
    public List<ViewRow> views(long snapshot) throws SQLException {
        if (!tableNames.contains("ducklake_view")) return List.of();
        Map<Long, String> names = schemaNames(schemas(snapshot));
        List<ViewRow> result = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT schema_id, view_name, dialect, sql, column_aliases"
                + visibleFrom("ducklake_view", "x", null, snapshot) + "ORDER BY view_id"); ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                String schema = names.get(r.getLong(1));
                if (schema != null) result.add(new ViewRow(schema, r.getString(2), r.getString(3), r.getString(4), r.getString(5)));
            }
        }
        return result;
    }

    // ---- column values as both catalog kinds store them ----

    /**
     * {@code path_is_relative} as recorded: DuckDB stores a BOOLEAN, SQLite an integer 0/1 (or, when
     * written as text, {@code true}/{@code false}); null stays null ({@link DuckLakePaths#isRelative}).
     */
    static Boolean relative(ResultSet r, int column) throws SQLException {
        Object v = r.getObject(column);
        if (v == null) return null;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.longValue() != 0;
        String text = v.toString().trim();
        return text.equals("1") || text.equalsIgnoreCase("true");
    }

    private static Long nullableLong(ResultSet r, int column) throws SQLException {
        long v = r.getLong(column);
        return r.wasNull() ? null : v;
    }

    private static long bytes(ResultSet r, int column) throws SQLException {
        long v = r.getLong(column);
        return r.wasNull() ? -1 : v;
    }
}
