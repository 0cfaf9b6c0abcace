package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a reader needs of a DuckLake catalog at one snapshot, read with plain SQL from the
 * catalog's tables (DUCKLAKE.md "Snapshots and visibility", "Paths", "Data"): the visible tables
 * with their columns, data files, delete files and inlined-data tables, and the visible views.
 * Loading refuses, with an {@link FdlException}, anything the built-in reader cannot read exactly.
 */
final class SnapshotCatalog {

    /** A visible top-level column: DuckLake column id, current name, DuckDB type, initial default as text. */
    record ColumnEntry(long id, String name, String duckType, String initialDefault) {
        ColumnEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(duckType, "duckType");
        }
    }

    /** A visible Parquet data file at its resolved location. */
    record DataFileEntry(long id, String location) {}

    /** A visible positional delete file (Parquet {@code file_path, pos}) and the data file it belongs to. */
    record DeleteFileEntry(long dataFileId, String location) {}

    /**
     * An inlined-data table: its name in the catalog, the spelling of its system columns (1.0's
     * {@code row_id}… or 1.1's {@code _ducklake_row_id}…) and which of its columns holds which column id.
     */
    record InlinedTable(String tableName, DuckLakeSchema.InlinedColumns system, Map<Long, String> columnsById) {
        InlinedTable {
            Objects.requireNonNull(system, "system");
            columnsById = Map.copyOf(columnsById);
        }
    }

    /** A table visible at the snapshot and everything needed to read it. */
    record TableEntry(long id, String schema, String name, List<ColumnEntry> columns,
                      List<DataFileEntry> dataFiles, List<DeleteFileEntry> deleteFiles,
                      List<InlinedTable> inlined, String inlinedDeleteTable) {
        TableEntry {
            columns = List.copyOf(columns);
            dataFiles = List.copyOf(dataFiles);
            deleteFiles = List.copyOf(deleteFiles);
            inlined = List.copyOf(inlined);
        }
    }

    /** A DuckLake view visible at the snapshot. */
    record ViewEntry(String schema, String name, String dialect, String sql, String columnAliases) {}

    private final String alias;
    private final long snapshot;
    private final List<TableEntry> tables;
    private final List<ViewEntry> views;

    private SnapshotCatalog(String alias, long snapshot, List<TableEntry> tables, List<ViewEntry> views) {
        this.alias = alias;
        this.snapshot = snapshot;
        this.tables = List.copyOf(tables);
        this.views = List.copyOf(views);
    }

    long snapshot() {
        return snapshot;
    }

    List<TableEntry> tables() {
        return tables;
    }

    List<ViewEntry> views() {
        return views;
    }

    /** {@code "alias"."main"."table"}: a catalog table as the reader's DuckDB addresses it. */
    String catalogTable(String table) {
        return SqlQuote.ident(alias) + ".main." + SqlQuote.ident(table);
    }

    /**
     * Loads the catalog attached as {@code alias} at {@code requested} (null: newest).
     *
     * @param file             the catalog file, for messages
     * @param dataPathOverride replaces the catalog's {@code data_path} (null keeps it)
     */
    static SnapshotCatalog load(Connection conn, String alias, String file, String dataPathOverride, Long requested)
            throws SQLException {
        Loader l = new Loader(conn, alias, file, true);
        return l.load(dataPathOverride, requested);
    }

    /**
     * Loads the catalog without opening any data file, with locations relative to the data path
     * (the data path is taken as the empty string).
     */
    static SnapshotCatalog loadRelative(Connection conn, String alias, String file, Long requested) throws SQLException {
        Loader l = new Loader(conn, alias, file, false);
        return l.load("", requested);
    }

    private static final class Loader {
        private final Connection conn;
        private final String alias;
        private final String file;
        private final boolean openFiles;
        private long s;

        Loader(Connection conn, String alias, String file, boolean openFiles) {
            this.conn = conn;
            this.alias = alias;
            this.file = file;
            this.openFiles = openFiles;
        }

        private String qualifier() {
            return SqlQuote.ident(alias) + ".main.";
        }

        private String t(String table) {
            return qualifier() + SqlQuote.ident(table);
        }

        private String visible() {
            return Visibility.at(s);
        }

        SnapshotCatalog load(String dataPathOverride, Long requested) throws SQLException {
            Set<String> catalogTables = catalogTables();
            for (String required : List.of("ducklake_metadata", "ducklake_snapshot", "ducklake_schema",
                    "ducklake_table", "ducklake_column", "ducklake_data_file", "ducklake_delete_file")) {
                if (!catalogTables.contains(required)) {
                    throw new FdlException(file + " is not a DuckLake catalog: it has no " + required + " table");
                }
            }
            Map<String, String> meta = new HashMap<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT key, value FROM " + t("ducklake_metadata")
                    + " WHERE scope IS NULL"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) meta.put(rs.getString(1), rs.getString(2));
            }
            String format = meta.get("version");
            Map<String, List<String>> columnsOf = new HashMap<>();
            for (String table : DuckLakeSchema.DECISIVE_TABLES) {
                if (catalogTables.contains(table)) columnsOf.put(table, Sql.duckDbColumns(conn, alias, table));
            }
            DuckLakeSchema.requireKnown(file, format, columnsOf);
            boolean nested = columnsOf.get("ducklake_schema").contains("parent_schema_id");
            if ("true".equalsIgnoreCase(meta.get("encrypted"))) {
                throw new FdlException("catalog " + file + " is encrypted (ducklake_metadata encrypted=true); "
                        + "fdl's built-in reader cannot read encrypted data files: attach it with the DuckLake extension");
            }
            s = resolveSnapshot(requested);
            String originalDataPath = meta.get("data_path");
            String dataPath = dataPathOverride != null ? dataPathOverride : originalDataPath;
            if (dataPath == null) {
                throw new FdlException("catalog " + file + " has no data_path in ducklake_metadata; pass a data path to read it");
            }
            DuckLakePaths paths = DuckLakePaths.of(originalDataPath, dataPathOverride);

            Map<Long, String[]> schemas = new LinkedHashMap<>();
            List<DuckLakePaths.SchemaRow> pathRows = new ArrayList<>();
            List<DuckLakeSchema.SchemaName> nameRows = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT schema_id, schema_name, path, path_is_relative, "
                    + (nested ? "parent_schema_id" : "CAST(NULL AS BIGINT)") + " FROM "
                    + t("ducklake_schema") + " WHERE" + visible() + "ORDER BY schema_id"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long parent = rs.getLong(5);
                    Long parentId = rs.wasNull() ? null : parent;
                    pathRows.add(new DuckLakePaths.SchemaRow(rs.getLong(1), parentId, rs.getString(3), nullableBool(rs, 4)));
                    nameRows.add(new DuckLakeSchema.SchemaName(rs.getLong(1), parentId, rs.getString(2)));
                }
            }
            Map<Long, String> folders = paths.schemaFolders(pathRows, file);
            Map<Long, String> names = DuckLakeSchema.qualifiedSchemaNames(nameRows, file);
            for (DuckLakeSchema.SchemaName n : nameRows) {
                if (names.containsKey(n.id())) schemas.put(n.id(), new String[]{names.get(n.id()), folders.get(n.id())});
            }
            List<TableEntry> tables = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT table_id, schema_id, table_name, path, path_is_relative FROM "
                    + t("ducklake_table") + " WHERE" + visible() + "ORDER BY table_id"); ResultSet rs = ps.executeQuery()) {
                List<Object[]> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new Object[]{rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), nullableBool(rs, 5)});
                }
                for (Object[] r : rows) {
                    String[] schema = schemas.get((Long) r[1]);
                    if (schema == null) {
                        throw new FdlException("catalog " + file + ": table " + r[2] + " belongs to schema id " + r[1]
                                + ", which is not visible at snapshot " + s + "; the catalog looks corrupt");
                    }
                    String base = paths.tableFolder(schema[1], (String) r[3], (Boolean) r[4]);
                    tables.add(table((Long) r[0], schema[0], (String) r[2], base, paths, catalogTables));
                }
            }
            List<ViewEntry> views = new ArrayList<>();
            if (catalogTables.contains("ducklake_view")) {
                try (PreparedStatement ps = conn.prepareStatement("SELECT schema_id, view_name, dialect, sql, column_aliases FROM "
                        + t("ducklake_view") + " WHERE" + visible() + "ORDER BY view_id"); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String[] schema = schemas.get(rs.getLong(1));
                        if (schema == null) continue;
                        views.add(new ViewEntry(schema[0], rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
                    }
                }
            }
            return new SnapshotCatalog(alias, s, tables, views);
        }

        private long resolveSnapshot(Long requested) throws SQLException {
            long min;
            long max;
            try (PreparedStatement ps = conn.prepareStatement("SELECT min(snapshot_id), max(snapshot_id) FROM "
                    + t("ducklake_snapshot")); ResultSet rs = ps.executeQuery()) {
                rs.next();
                min = rs.getLong(1);
                if (rs.wasNull()) throw new FdlException("catalog " + file + " has no snapshot; the catalog looks corrupt");
                max = rs.getLong(2);
            }
            if (requested == null) return max;
            try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM " + t("ducklake_snapshot")
                    + " WHERE snapshot_id = ?")) {
                ps.setLong(1, requested);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) == 0) {
                        throw FdlException.notFound("snapshot " + requested + " is not in catalog " + file
                                + "; it keeps snapshots " + min + " to " + max);
                    }
                }
            }
            return requested;
        }

        private Set<String> catalogTables() throws SQLException {
            Set<String> names = new HashSet<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT table_name FROM duckdb_tables() "
                    + "WHERE database_name = ? AND schema_name = 'main'")) {
                ps.setString(1, alias);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) names.add(rs.getString(1));
                }
            }
            return names;
        }

        private TableEntry table(long tableId, String schema, String name, String base, DuckLakePaths paths,
                                 Set<String> catalogTables) throws SQLException {
            String where = schema + "." + name;
            List<ColumnEntry> columns = columns(tableId, where);
            Map<Long, String> dataFiles = new LinkedHashMap<>();
            List<DataFileEntry> files = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT data_file_id, path, path_is_relative, file_format, "
                    + "encryption_key, mapping_id, partial_max, partition_id FROM " + t("ducklake_data_file")
                    + " WHERE table_id = ? AND" + visible() + "ORDER BY file_order NULLS LAST, data_file_id")) {
                ps.setLong(1, tableId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long id = rs.getLong(1);
                        String location = paths.file(base, rs.getString(2), nullableBool(rs, 3),
                                "data file " + id + " of table " + where + " in catalog " + file);
                        String format = rs.getString(4);
                        if (format != null && !format.equalsIgnoreCase("parquet")) {
                            throw refuse(where, "data file " + location + " has format '" + format + "'");
                        }
                        if (rs.getString(5) != null) throw refuse(where, "data file " + location + " is encrypted");
                        rs.getLong(6);
                        if (!rs.wasNull()) {
                            throw refuse(where, "data file " + location + " was added with a column name mapping (mapping_id)");
                        }
                        long partialMax = rs.getLong(7);
                        if (!rs.wasNull() && s < partialMax) {
                            throw refuse(where, "data file " + location + " holds rows of several snapshots (partial_max "
                                    + partialMax + ") and snapshot " + s + " sees only some of them");
                        }
                        rs.getLong(8);
                        if (!rs.wasNull() && openFiles) checkPartitioned(where, tableId, rs.getLong(8), location);
                        dataFiles.put(id, location);
                        files.add(new DataFileEntry(id, location));
                    }
                }
            }
            List<DeleteFileEntry> deletes = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT data_file_id, path, path_is_relative, format, "
                    + "encryption_key, partial_max FROM " + t("ducklake_delete_file")
                    + " WHERE table_id = ? AND" + visible() + "ORDER BY delete_file_id")) {
                ps.setLong(1, tableId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long dataFileId = rs.getLong(1);
                        if (!dataFiles.containsKey(dataFileId)) continue;
                        String location = paths.file(base, rs.getString(2), nullableBool(rs, 3),
                                "a delete file of table " + where + " in catalog " + file);
                        String format = rs.getString(4);
                        if ((format != null && !format.equalsIgnoreCase("parquet")) || isPuffin(location)) {
                            throw refuse(where, "delete file " + location + " is a deletion vector (format '" + format
                                    + "'): deletion vectors are not read by the built-in reader, which applies only Parquet positional delete files");
                        }
                        if (rs.getString(5) != null) throw refuse(where, "delete file " + location + " is encrypted");
                        long partialMax = rs.getLong(6);
                        if (!rs.wasNull() && s < partialMax) {
                            throw refuse(where, "delete file " + location + " holds deletes of several snapshots (partial_max "
                                    + partialMax + ") and snapshot " + s + " sees only some of them");
                        }
                        deletes.add(new DeleteFileEntry(dataFileId, location));
                    }
                }
            }
            List<InlinedTable> inlined = catalogTables.contains("ducklake_inlined_data_tables")
                    ? inlinedTables(tableId, where, catalogTables) : List.of();
            String inlinedDelete = "ducklake_inlined_delete_" + tableId;
            return new TableEntry(tableId, schema, name, columns, files, deletes, inlined,
                    catalogTables.contains(inlinedDelete) ? inlinedDelete : null);
        }

        /** Partition values are not re-added from the catalog: the file itself must hold every partition column. */
        private void checkPartitioned(String where, long tableId, long partitionId, String location) throws SQLException {
            List<Long> partitionColumns = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT column_id FROM " + t("ducklake_partition_column")
                    + " WHERE table_id = ? AND partition_id = ?")) {
                ps.setLong(1, tableId);
                ps.setLong(2, partitionId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) partitionColumns.add(rs.getLong(1));
                }
            }
            if (partitionColumns.isEmpty()) return;
            Set<Long> fieldIds = new HashSet<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT field_id FROM parquet_schema(?) WHERE field_id IS NOT NULL")) {
                ps.setString(1, location);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) fieldIds.add(rs.getLong(1));
                }
            } catch (SQLException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "table " + where + ": cannot read data file " + location + ": "
                        + CatalogReader.firstLine(e), e);
            }
            for (Long id : partitionColumns) {
                if (!fieldIds.contains(id)) {
                    throw refuse(where, "data file " + location + " does not store its partition column (id " + id
                            + "); its value lives only in the catalog");
                }
            }
        }

        private List<ColumnEntry> columns(long tableId, String where) throws SQLException {
            List<ColumnEntry> result = new ArrayList<>();
            for (ColumnTypes.Column c : ColumnTypes.trees(conn, qualifier(), tableId, s)) {
                DuckLakeTypes.requireReadable(c.type(), where);
                result.add(new ColumnEntry(c.id(), c.name(), DuckLakeTypes.toDuckDb(c.type(), where), c.initialDefault()));
            }
            return result;
        }

        /**
         * Inlined-data tables name their columns as the table's columns were named at that schema
         * version; map each back to its column id through the columns visible when the schema
         * version began.
         */
        private List<InlinedTable> inlinedTables(long tableId, String where, Set<String> catalogTables) throws SQLException {
            record Reg(String table, long schemaVersion) {}
            List<Reg> regs = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT table_name, schema_version FROM "
                    + t("ducklake_inlined_data_tables") + " WHERE table_id = ? ORDER BY schema_version")) {
                ps.setLong(1, tableId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) regs.add(new Reg(rs.getString(1), rs.getLong(2)));
                }
            }
            if (regs.isEmpty()) return List.of();
            record Col(long id, String name, long begin, Long end) {}
            List<Col> allColumns = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT column_id, column_name, begin_snapshot, end_snapshot FROM "
                    + t("ducklake_column") + " WHERE table_id = ? AND parent_column IS NULL")) {
                ps.setLong(1, tableId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long end = rs.getLong(4);
                        Long endSnapshot = rs.wasNull() ? null : end;
                        allColumns.add(new Col(rs.getLong(1), rs.getString(2), rs.getLong(3), endSnapshot));
                    }
                }
            }
            List<InlinedTable> result = new ArrayList<>();
            for (Reg reg : regs) {
                if (!catalogTables.contains(reg.table())) {
                    throw new FdlException("catalog " + file + " registers inlined-data table " + reg.table()
                            + " for " + where + ", but that table does not exist; the catalog looks corrupt");
                }
                List<String> names = new ArrayList<>();
                try (PreparedStatement ps = conn.prepareStatement("SELECT column_name FROM duckdb_columns() WHERE "
                        + "database_name = ? AND schema_name = 'main' AND table_name = ? ORDER BY column_index")) {
                    ps.setString(1, alias);
                    ps.setString(2, reg.table());
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) names.add(rs.getString(1));
                    }
                }
                DuckLakeSchema.InlinedColumns system = DuckLakeSchema.inlinedColumns(names);
                if (system == null) {
                    throw new FdlException("inlined-data table " + reg.table() + " in " + file
                            + " does not start with row_id, begin_snapshot, end_snapshot (or their DuckLake 1.1 names"
                            + " _ducklake_row_id, _ducklake_begin_snapshot, _ducklake_end_snapshot); the catalog looks corrupt");
                }
                Long begin = ColumnTypes.snapshotOfSchemaVersion(conn, qualifier(), tableId, reg.schemaVersion());
                Map<Long, String> byId = new HashMap<>();
                for (String col : names.subList(3, names.size())) {
                    Set<Long> ids = new HashSet<>();
                    if (begin != null) {
                        for (Col c : allColumns) {
                            if (c.name().equals(col) && Visibility.visible(c.begin(), c.end(), begin)) ids.add(c.id());
                        }
                    }
                    if (ids.isEmpty()) {
                        for (Col c : allColumns) if (c.name().equals(col)) ids.add(c.id());
                    }
                    if (ids.size() != 1) {
                        throw new FdlException("cannot tell which column of " + where + " the column '" + col
                                + "' of inlined-data table " + reg.table() + " holds (" + ids.size()
                                + " candidates); the built-in reader refuses rather than guess");
                    }
                    byId.put(ids.iterator().next(), col);
                }
                result.add(new InlinedTable(reg.table(), system, byId));
            }
            return result;
        }

        private FdlException refuse(String where, String what) {
            return new FdlException("table " + where + " at snapshot " + s + " cannot be read by fdl's built-in reader: "
                    + what + ". Attach catalog " + file + " with DuckDB's DuckLake extension to read it");
        }
    }

    /**
     * Whether a delete file is an Iceberg Puffin deletion vector by its name ({@code .puffin},
     * DuckLake "Deletion Vectors"), whatever its {@code format} column says: reading one as Parquet
     * would fail or, worse, apply nothing.
     */
    static boolean isPuffin(String location) {
        return location.toLowerCase(java.util.Locale.ROOT).endsWith(".puffin");
    }

    private static Boolean nullableBool(ResultSet rs, int i) throws SQLException {
        boolean b = rs.getBoolean(i);
        return rs.wasNull() ? null : b;
    }
}
