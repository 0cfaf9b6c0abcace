package dev.fdl.ducklake.working;

import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;
import dev.fdl.util.VersionIds;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;

/**
 * The working catalog (a SQLite DuckLake catalog, DUCKLAKE.md "The SQLite-backed catalog") as
 * the importer reads and extends it with sqlite-jdbc: booleans are stored as 0/1, timestamps and
 * UUIDs as DuckDB's text of them. One import is one SQLite transaction.
 */
public final class WorkingCatalog implements AutoCloseable {
    private static final DateTimeFormatter SNAPSHOT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    /** Now, as a new snapshot's {@code snapshot_time} in a SQLite catalog (DuckDB's text of a TIMESTAMPTZ, DUCKLAKE.md). */
    static String snapshotTime() {
        return SNAPSHOT_TIME.format(LocalDateTime.now(ZoneOffset.UTC)) + "+00";
    }

    /**
     * The newest snapshot and what an import of one table needs of it.
     *
     * @param schemas     the schemas visible at the newest snapshot (their paths place the table's files)
     * @param schema      null when the schema does not exist
     * @param table       null when the table does not exist
     * @param maxColumnId the largest column id the table ever used (0 for none)
     * @param stats       the table's {@code ducklake_table_stats} row (record_count, next_row_id,
     *                    file_size_bytes), or null when it has none
     */
    public record State(long snapshot, long schemaVersion, long nextCatalogId, long nextFileId, String dataPath,
                 List<MetadataQueries.SchemaRow> schemas, MetadataQueries.SchemaRow schema, MetadataQueries.TableRow table,
                 List<ColumnTypes.Column> columns, long maxColumnId, long[] stats) {
        public State {
            schemas = List.copyOf(schemas);
            columns = List.copyOf(columns);
        }

        /** The newest snapshot's row this state was read at: the base of the snapshot an import writes. */
        public SnapshotRow base() {
            return new SnapshotRow(snapshot, schemaVersion, nextCatalogId, nextFileId);
        }
    }

    /**
     * One import's inputs to {@link #commit}.
     *
     * @param state    the catalog as the plan read it
     * @param files    the new data files, in the order their row ids are given
     * @param rowKey   the table's {@link dev.fdl.ducklake.format.RowKey} to record (empty: none), or null to leave it as it is
     */
    public record ImportCommit(State state, ImportPlan plan, List<NewDataFile> files, List<String> rowKey) {
        public ImportCommit {
            files = List.copyOf(files);
            if (files.isEmpty()) throw new IllegalArgumentException("an import records at least one data file");
        }
    }

    /**
     * A data file to record.
     *
     * @param fileName its path relative to the table's folder, or its absolute location when {@code relative} is false
     * @param stats    its statistics, as measured on the file
     * @param relative whether {@code fileName} is relative to the table's folder ({@code path_is_relative})
     * @param nameMap  for a file without Parquet field ids: column id to the file's field name, recorded
     *                 as the file's name mapping ({@code mapping_id}); null for a file read by field id
     */
    public record NewDataFile(String fileName, FileStats stats, boolean relative, Map<Long, String> nameMap) {
        public NewDataFile {
            if (nameMap != null) nameMap = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(nameMap));
        }

        /** A file written into the table's folder: its path relative to it. */
        public NewDataFile(String fileName, FileStats stats) {
            this(fileName, stats, true, null);
        }

        /** A file read by field id. */
        public NewDataFile(String fileName, FileStats stats, boolean relative) {
            this(fileName, stats, relative, null);
        }
    }

    private final Path file;
    private final Connection conn;
    private final MetadataQueries model;

    private WorkingCatalog(Path file, Connection conn, MetadataQueries model) {
        this.file = file;
        this.conn = conn;
        this.model = model;
    }

    public static WorkingCatalog open(Path file) throws SQLException {
        Connection conn = Sql.sqlite(file, false);
        try (Statement st = conn.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'ducklake_snapshot'")) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    conn.close();
                    throw new FdlException(file + " is not a DuckLake catalog: it has no ducklake_snapshot table");
                }
            }
            return new WorkingCatalog(file, conn, new MetadataQueries(conn, null, file.toString()));
        } catch (SQLException e) {
            conn.close();
            throw new FdlException(FdlException.Kind.FAILURE, "cannot open working catalog " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            conn.close();
            throw e;
        }
    }

    /**
     * Schema names a DuckDB reader cannot hold beside its own: the system schemas (a view there is
     * refused: "Cannot create schema in system catalog"), the names of DuckDB's own databases (a
     * schema named so makes every reference ambiguous) and the name fdl's reader attaches the
     * catalog as ({@link MetadataQueries#CATALOG_ALIAS}). Compared ignoring ASCII case, as DuckDB does.
     */
    static final List<String> RESERVED_SCHEMAS = List.of("information_schema", "pg_catalog", "temp", "system", "memory",
            MetadataQueries.CATALOG_ALIAS);

    /** DuckDB's comparison of identifiers ({@link Identifiers#same}: 'É' and 'é' differ). */
    static boolean sameButAsciiCase(String a, String b) {
        return Identifiers.same(a, b);
    }

    /**
     * The newest {@code ducklake_snapshot} row.
     *
     * @throws FdlException (exit 1) naming the file when it has no snapshot
     */
    public SnapshotRow newestSnapshot() throws SQLException {
        SnapshotRow newest = SnapshotRow.newest(conn, "main");
        if (newest == null) throw new FdlException("working catalog " + file + " has no snapshot; it looks corrupt");
        return newest;
    }

    /**
     * A writer of the snapshot after {@code base}, which an operation planned on (see
     * {@link SnapshotWriter}); {@code what} names the operation in a conflict's message.
     */
    public SnapshotWriter newSnapshot(SnapshotRow base, String what, String author, String message) {
        return new SnapshotWriter(this, base, what, author, message);
    }

    /** The catalog file. */
    Path file() {
        return file;
    }

    /** The tables visible at {@code snapshot} by name ({@code schema.table}, names as stored), to their table ids, by id. */
    Map<TableName, Long> tables(long snapshot) throws SQLException {
        Map<Long, String> schemaNames = model.schemaNames(model.schemas(snapshot));
        Map<TableName, Long> tables = new java.util.LinkedHashMap<>();
        for (MetadataQueries.TableRow r : model.tableRows(snapshot)) {
            String schema = schemaNames.get(r.schemaId());
            if (schema != null) tables.put(new TableName(schema, r.name()), r.id());
        }
        return tables;
    }

    /** Whether the catalog file has the catalog table {@code name} (a newer DuckLake may add some, an older lack them). */
    boolean hasTable(String name) {
        return model.tableNames().contains(name);
    }

    public State state(TableName name) throws SQLException {
        SnapshotRow newest = newestSnapshot();
        long s = newest.id();
        long schemaVersion = newest.schemaVersion();
        long nextCatalogId = newest.nextCatalogId();
        long nextFileId = newest.nextFileId();
        String dataPath = model.metadata("data_path");
        if (dataPath == null) throw new FdlException("working catalog " + file + " has no data_path; it looks corrupt");
        if ("true".equalsIgnoreCase(model.metadata("encrypted"))) {
            throw new FdlException("working catalog " + file + " is encrypted; fdl import cannot write encrypted data files");
        }
        List<MetadataQueries.SchemaRow> schemas = model.schemas(s);
        Map<Long, String> schemaNames = model.schemaNames(schemas);
        MetadataQueries.SchemaRow schema = null;
        for (MetadataQueries.SchemaRow r : schemas) {
            if (name.schema().equals(schemaNames.get(r.id()))) schema = r;
        }
        // DuckDB compares identifiers ignoring case: a schema or table named like an existing one
        // but for case would make every reader's views of the catalog fail ("already exists")
        if (schema == null) {
            for (String reserved : RESERVED_SCHEMAS) {
                if (sameButAsciiCase(reserved, name.schema()))
                    throw FdlException.usage("cannot create schema '" + name.schema() + "': DuckDB keeps the name '" + reserved
                            + "' for its own catalogs and schemas, so no reader could query the version; choose another schema name");
            }
            for (MetadataQueries.SchemaRow r : schemas) {
                String other = schemaNames.get(r.id());
                if (other != null && sameButAsciiCase(other, name.schema()))
                    throw FdlException.usage("cannot create schema '" + name.schema() + "': the working catalog has schema '" + other
                            + "', and DuckDB compares names ignoring case; import into " + new TableName(other, name.name())
                            + ", or choose another name");
            }
        }
        MetadataQueries.TableRow table = null;
        if (schema != null) {
            MetadataQueries.TableRow sameButCase = null;
            for (MetadataQueries.TableRow r : model.tableRows(s)) {
                if (r.schemaId() != schema.id()) continue;
                if (r.name().equals(name.name())) table = r;
                else if (sameButAsciiCase(r.name(), name.name())) sameButCase = r;
            }
            if (table == null && sameButCase != null)
                throw FdlException.usage("cannot create table " + name + ": the working catalog has table "
                        + new TableName(name.schema(), sameButCase.name()) + ", and DuckDB compares names ignoring case; import into "
                        + new TableName(name.schema(), sameButCase.name()) + ", or choose another name");
        }
        List<ColumnTypes.Column> columns = new ArrayList<>();
        long maxColumnId = 0;
        long[] stats = null;
        if (table != null) {
            columns.addAll(model.columns(table.id(), s));
            maxColumnId = model.maxColumnId(table.id());
            try (PreparedStatement ps = conn.prepareStatement("SELECT record_count, next_row_id, file_size_bytes FROM "
                    + "ducklake_table_stats WHERE table_id = ?")) {
                ps.setLong(1, table.id());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) stats = new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3)};
                }
            }
        }
        return new State(s, schemaVersion, nextCatalogId, nextFileId, dataPath, schemas, schema, table, columns, maxColumnId, stats);
    }

    /**
     * Records the import as snapshot {@code in.state().snapshot() + 1} ({@link SnapshotWriter}).
     *
     * @param duck a DuckDB connection, used to compare statistics values by their type
     * @return the new snapshot id
     * @throws FdlException conflict when another writer added a snapshot since {@code in.state()} was read
     */
    public long commit(ImportCommit in, String author, String message, Connection duck) throws SQLException {
        return commit(in, "import", author, message, duck);
    }

    /**
     * {@link #commit(ImportCommit, String, String, Connection)} for the operation {@code what}
     * (named in a conflict's message): import, or add-files, which records files already in the
     * data folder the same way.
     */
    public long commit(ImportCommit in, String what, String author, String message, Connection duck) throws SQLException {
        return newSnapshot(in.state().base(), what, author, message).commit(s -> {
            writeImport(s, in, duck);
            return s.id();
        });
    }

    private void writeImport(NewSnapshot s, ImportCommit in, Connection duck) throws SQLException {
        State state = in.state();
        ImportPlan plan = in.plan();
        long schemaId;
        if (plan.createsSchema()) {
            schemaId = s.newCatalogId();
            update("INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, end_snapshot, schema_name, path, "
                    + "path_is_relative) VALUES (?, ?, ?, NULL, ?, ?, 1)",
                    schemaId, VersionIds.next(), s.id(), plan.table().schema(), DuckLakePaths.newFolder(plan.table().schema()));
            s.change("created_schema:" + SqlQuote.ident(plan.table().schema()));
        } else {
            schemaId = state.schema().id();
        }
        long tableId;
        if (plan.createsTable()) {
            tableId = s.newCatalogId();
            update("INSERT INTO ducklake_table (table_id, table_uuid, begin_snapshot, end_snapshot, schema_id, table_name, path, "
                    + "path_is_relative) VALUES (?, ?, ?, NULL, ?, ?, ?, 1)",
                    tableId, VersionIds.next(), s.id(), schemaId, plan.table().name(), DuckLakePaths.newFolder(plan.table().name()));
            s.change("created_table:" + SqlQuote.qualified(plan.table().schema(), plan.table().name()));
        } else {
            tableId = state.table().id();
        }
        if (plan.altersTable()) s.change("altered_table:" + tableId);
        for (Long ended : plan.endedColumns()) {
            s.endRows("ducklake_column", "table_id = ? AND column_id = ?", tableId, ended);
        }
        if (plan.createsTable() || plan.altersTable()) {
            long order = 1;
            for (ImportPlan.Column c : plan.columns()) {
                update("INSERT INTO ducklake_column (column_id, begin_snapshot, end_snapshot, table_id, column_order, column_name, "
                        + "column_type, initial_default, default_value, nulls_allowed, parent_column, default_value_type, "
                        + "default_value_dialect) VALUES (?, ?, NULL, ?, ?, ?, ?, NULL, 'NULL', 1, NULL, 'literal', 'duckdb')",
                        c.id(), s.id(), tableId, order++, c.name(), c.lakeType());
            }
        }
        if (plan.isDdl()) s.schemaChanged();
        if (plan.createsTable() || plan.altersTable()) {
            update("INSERT INTO ducklake_schema_versions (begin_snapshot, schema_version, table_id) VALUES (?, ?, ?)",
                    s.id(), s.schemaVersion(), tableId);
        }
        if (plan.replacesRows()) {
            s.change("deleted_from_table:" + tableId);
            s.endRows("ducklake_data_file", "table_id = ?", tableId);
            s.endRows("ducklake_delete_file", "table_id = ?", tableId);
            for (MetadataQueries.Inlined inlined : model.inlinedTables(tableId, plan.table().toString())) {
                s.endInlinedRows(SqlQuote.ident(inlined.tableName()), SqlQuote.ident(inlined.system().end()), "1 = 1");
            }
        }
        s.change("inserted_into_table:" + tableId);

        insertDataFiles(s, tableId, plan, in.files(), duck);
        if (in.rowKey() != null) s.recordRowKey(tableId, in.rowKey());
    }

    /**
     * Records a new data file of {@code tableId} at snapshot {@code s}: its {@code ducklake_data_file}
     * row (row ids continuing the table's {@code next_row_id}), per-file column stats, and the
     * table's stats and column stats (replaced or merged as {@code plan} says).
     */
    public void insertDataFile(long s, long tableId, long fileId, ImportPlan plan, String fileName, FileStats stats,
                        Connection duck) throws SQLException {
        WorkingCatalog.State state = plan.state();
        long[] old = plan.createsTable() ? null : state.stats();
        long rowIdStart = old == null ? 0 : old[1];
        dataFileRows(s, tableId, fileId, new NewDataFile(fileName, stats), rowIdStart);
        tableStats(tableId, plan, stats, old, rowIdStart);
        tableColumnStats(tableId, plan, stats, plan.createsTable() || plan.replacesRows(), duck);
    }

    /**
     * Records the new data files {@code files} of {@code tableId} at snapshot {@code s}, each with a
     * new file id: as {@link #insertDataFile} one after the other, row ids continuing from file to
     * file (each file's {@code row_id_start} is the previous one's plus its record count), the
     * table's stats once for all of them.
     */
    public void insertDataFiles(NewSnapshot s, long tableId, ImportPlan plan, List<NewDataFile> files, Connection duck)
            throws SQLException {
        long[] old = plan.createsTable() ? null : plan.state().stats();
        long rowIdStart = old == null ? 0 : old[1];
        long rows = 0, bytes = 0;
        boolean fresh = plan.createsTable() || plan.replacesRows();
        Map<Map<Long, String>, Long> mappings = new HashMap<>();
        for (NewDataFile f : files) {
            Long mappingId = null;
            if (f.nameMap() != null) {
                mappingId = mappings.get(f.nameMap());
                if (mappingId == null) {
                    mappingId = s.newCatalogId();
                    nameMapping(mappingId, tableId, f.nameMap());
                    mappings.put(f.nameMap(), mappingId);
                }
            }
            dataFileRows(s.id(), tableId, s.newFileId(), f, rowIdStart + rows, mappingId);
            rows += f.stats().recordCount();
            bytes += f.stats().fileSizeBytes();
            tableColumnStats(tableId, plan, f.stats(), fresh, duck);
            fresh = false;
        }
        tableStats(tableId, plan, new FileStats(rows, bytes, 0, List.of()), old, rowIdStart);
    }

    /**
     * Records a name mapping (DuckLake spec, {@code ducklake_column_mapping} and
     * {@code ducklake_name_mapping}): mapping {@code mappingId} of table {@code tableId}, of type
     * {@code map_by_name}, mapping each top-level field name of a file to the column id it holds.
     * Each entry's {@code column_id} (its id within the mapping, which nested entries would name as
     * {@code parent_column}) is the column id it maps to; {@code target_field_id} is that column id.
     */
    private void nameMapping(long mappingId, long tableId, Map<Long, String> nameMap) throws SQLException {
        update("INSERT INTO ducklake_column_mapping (mapping_id, table_id, type) VALUES (?, ?, 'map_by_name')", mappingId, tableId);
        for (Map.Entry<Long, String> e : nameMap.entrySet()) {
            update("INSERT INTO ducklake_name_mapping (mapping_id, column_id, source_name, target_field_id, parent_column, is_partition) "
                    + "VALUES (?, ?, ?, ?, NULL, 0)", mappingId, e.getKey(), e.getValue(), e.getKey());
        }
    }

    private void dataFileRows(long s, long tableId, long fileId, NewDataFile file, long rowIdStart) throws SQLException {
        dataFileRows(s, tableId, fileId, file, rowIdStart, null);
    }

    private void dataFileRows(long s, long tableId, long fileId, NewDataFile file, long rowIdStart, Long mappingId) throws SQLException {
        FileStats stats = file.stats();
        update("INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, end_snapshot, file_order, path, "
                + "path_is_relative, file_format, record_count, file_size_bytes, footer_size, row_id_start, partition_id, "
                + "encryption_key, mapping_id, partial_max) VALUES (?, ?, ?, NULL, NULL, ?, ?, 'parquet', ?, ?, ?, ?, NULL, "
                + "NULL, ?, NULL)",
                fileId, tableId, s, file.fileName(), file.relative() ? 1 : 0, stats.recordCount(), stats.fileSizeBytes(),
                stats.footerSize(), rowIdStart, mappingId);
        for (FileStats.ColumnStats c : stats.columns()) {
            update("INSERT INTO ducklake_file_column_stats (data_file_id, table_id, column_id, column_size_bytes, value_count, "
                    + "null_count, min_value, max_value, contains_nan, extra_stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                    fileId, tableId, c.columnId(), c.columnSizeBytes(), c.valueCount(), c.nullCount(), c.min(), c.max(),
                    c.containsNan() == null ? null : (c.containsNan() ? 1 : 0));
        }
    }

    private void tableStats(long tableId, ImportPlan plan, FileStats stats, long[] old, long rowIdStart) throws SQLException {
        long nextRowId = rowIdStart + stats.recordCount();
        if (old == null) {
            update("DELETE FROM ducklake_table_stats WHERE table_id = ?", tableId);
            update("INSERT INTO ducklake_table_stats (table_id, record_count, next_row_id, file_size_bytes) VALUES (?, ?, ?, ?)",
                    tableId, stats.recordCount(), nextRowId, stats.fileSizeBytes());
        } else if (plan.replacesRows()) {
            update("UPDATE ducklake_table_stats SET record_count = ?, next_row_id = ?, file_size_bytes = ? WHERE table_id = ?",
                    stats.recordCount(), nextRowId, stats.fileSizeBytes(), tableId);
        } else {
            update("UPDATE ducklake_table_stats SET record_count = record_count + ?, next_row_id = ?, "
                    + "file_size_bytes = file_size_bytes + ? WHERE table_id = ?",
                    stats.recordCount(), nextRowId, stats.fileSizeBytes(), tableId);
        }
    }

    /**
     * Table-wide column stats: replaced for a new or replaced table, merged (by the column's type,
     * not as text) for an append. Booleans read {@code false}/{@code true} here, as the extension writes them.
     */
    private void tableColumnStats(long tableId, ImportPlan plan, FileStats stats, boolean fresh, Connection duck) throws SQLException {
        for (FileStats.ColumnStats c : stats.columns()) {
            FileStats.Kind kind = FileStats.kind(c.duckType());
            String min = tableValue(kind, c.min());
            String max = tableValue(kind, c.max());
            boolean containsNull = c.nullCount() > 0;
            Boolean containsNan = c.containsNan();
            if (!fresh) {
                try (PreparedStatement ps = conn.prepareStatement("SELECT contains_null, contains_nan, min_value, max_value FROM "
                        + "ducklake_table_column_stats WHERE table_id = ? AND column_id = ?")) {
                    ps.setLong(1, tableId);
                    ps.setLong(2, c.columnId());
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            containsNull |= truthy(rs.getString(1));
                            String oldNan = rs.getString(2);
                            if (oldNan != null) containsNan = (containsNan != null && containsNan) || truthy(oldNan);
                            min = kind == FileStats.Kind.BLOB || kind == FileStats.Kind.NONE ? null
                                    : merge(duck, "least", c.duckType(), rs.getString(3), min);
                            max = kind == FileStats.Kind.BLOB || kind == FileStats.Kind.NONE ? null
                                    : merge(duck, "greatest", c.duckType(), rs.getString(4), max);
                        }
                    }
                }
            }
            update("DELETE FROM ducklake_table_column_stats WHERE table_id = ? AND column_id = ?", tableId, c.columnId());
            update("INSERT INTO ducklake_table_column_stats (table_id, column_id, contains_null, contains_nan, min_value, max_value, "
                    + "extra_stats) VALUES (?, ?, ?, ?, ?, ?, NULL)", tableId, c.columnId(), containsNull ? 1 : 0,
                    containsNan == null ? null : (containsNan ? 1 : 0), min, max);
        }
        if (plan.altersTable()) {
            for (Long ended : plan.endedColumns()) {
                update("DELETE FROM ducklake_table_column_stats WHERE table_id = ? AND column_id = ?", tableId, ended);
            }
        }
    }

    private static String tableValue(FileStats.Kind kind, String fileValue) {
        if (fileValue == null) return null;
        if (kind == FileStats.Kind.BOOLEAN) return fileValue.equals("1") ? "true" : "false";
        if (kind == FileStats.Kind.BLOB) return null;
        return fileValue;
    }

    private static boolean truthy(String v) {
        return v != null && (v.equals("1") || v.equalsIgnoreCase("true"));
    }

    /** least/greatest of two stats values compared as {@code type}; a null side is unknown, so the result is too. */
    private static String merge(Connection duck, String fn, String type, String a, String b) throws SQLException {
        if (a == null || b == null) return null;
        try (PreparedStatement ps = duck.prepareStatement("SELECT CAST(" + fn + "(CAST(? AS " + type + "), CAST(? AS " + type
                + ")) AS VARCHAR)")) {
            ps.setString(1, a);
            ps.setString(2, b);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            return null; // an old value that does not parse as the type: record the stat as unknown
        }
    }

    /** The SQLite connection, for operations that add to a snapshot's transaction ({@link dev.fdl.ducklake.load.RowDelta}). */
    public Connection connection() {
        return conn;
    }

    /** Runs one statement with {@code args} bound in order. */
    public void update(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            ps.executeUpdate();
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
