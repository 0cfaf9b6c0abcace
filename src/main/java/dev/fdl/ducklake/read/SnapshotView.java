package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.DuckDbErrors;
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
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.format.DuckLakeTypes;
import dev.fdl.ducklake.format.Visibility;

/**
 * What a reader needs of a DuckLake catalog at one snapshot, read with plain SQL from the
 * catalog's tables (DUCKLAKE.md "Snapshots and visibility", "Paths", "Data"): the visible tables
 * with their columns, data files, delete files and inlined-data tables, and the visible views.
 * Loading refuses, with an {@link FdlException}, anything the built-in reader cannot read exactly.
 */
public final class SnapshotView {

    /** A visible top-level column: DuckLake column id, current name, DuckDB type, initial default as text. */
    public record ColumnEntry(long id, String name, String duckType, String initialDefault) {
        public ColumnEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(duckType, "duckType");
        }
    }

    /**
     * A visible Parquet data file at its resolved location, with its {@code record_count},
     * {@code file_size_bytes} (-1 when not recorded), the snapshot that added it ({@code begin_snapshot})
     * and, for a file without Parquet field ids, its name mapping: column id to the file's field name
     * (null: the file is read by field id).
     */
    public record DataFileEntry(long id, String location, long recordCount, long bytes, long beginSnapshot, Map<Long, String> nameMap) {
        public DataFileEntry {
            if (nameMap != null) nameMap = Map.copyOf(nameMap);
        }

        /** A file read by field id. */
        public DataFileEntry(long id, String location, long recordCount, long bytes, long beginSnapshot) {
            this(id, location, recordCount, bytes, beginSnapshot, null);
        }

        /** This entry at another location (a local mirror of the same file). */
        public DataFileEntry at(String otherLocation) {
            return new DataFileEntry(id, otherLocation, recordCount, bytes, beginSnapshot, nameMap);
        }
    }

    /** A visible positional delete file (Parquet {@code file_path, pos}) and the data file it belongs to. */
    public record DeleteFileEntry(long dataFileId, String location) {}

    /**
     * An inlined-data table: its name in the catalog, the spelling of its system columns (1.0's
     * {@code row_id}… or 1.1's {@code _ducklake_row_id}…) and which of its columns holds which column id.
     */
    public record InlinedTable(String tableName, DuckLakeSchema.InlinedColumns system, Map<Long, String> columnsById) {
        public InlinedTable {
            Objects.requireNonNull(system, "system");
            columnsById = Map.copyOf(columnsById);
        }
    }

    /** A table visible at the snapshot and everything needed to read it. */
    public record TableEntry(long id, String schema, String name, List<ColumnEntry> columns,
                      List<DataFileEntry> dataFiles, List<DeleteFileEntry> deleteFiles,
                      List<InlinedTable> inlined, String inlinedDeleteTable) {
        public TableEntry {
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

    /** The catalog's queries it was loaded with, for more reads of the same attached catalog. */
    private MetadataQueries model;

    private SnapshotView(String alias, long snapshot, List<TableEntry> tables, List<ViewEntry> views) {
        this.alias = alias;
        this.snapshot = snapshot;
        this.tables = List.copyOf(tables);
        this.views = List.copyOf(views);
    }

    /**
     * A view made directly from its parts, for in-package readers' tests: {@code alias} is the
     * attached catalog holding any inlined tables {@code tables} name.
     */
    static SnapshotView of(String alias, long snapshot, List<TableEntry> tables) {
        return new SnapshotView(alias, snapshot, tables, List.of());
    }

    /** The snapshot this view shows. */
    public long snapshot() {
        return snapshot;
    }

    /** The queries over the attached catalog the view was loaded with (its checks done once). */
    MetadataQueries model() {
        return model;
    }

    public List<TableEntry> tables() {
        return tables;
    }

    List<ViewEntry> views() {
        return views;
    }

    /** {@code "alias"."main"."table"}: a catalog table as the reader's DuckDB addresses it. */
    public String catalogTable(String table) {
        return SqlQuote.ident(alias) + ".main." + SqlQuote.ident(table);
    }

    /**
     * Loads the catalog attached as {@code alias} at {@code requested} (null: newest).
     *
     * @param file             the catalog file, for messages
     * @param dataPathOverride replaces the catalog's {@code data_path} (null keeps it)
     */
    public static SnapshotView load(Connection conn, String alias, String file, String dataPathOverride, Long requested)
            throws SQLException {
        Loader l = new Loader(conn, alias, file, true);
        return l.load(dataPathOverride, requested);
    }

    /**
     * As {@link #load}, with only table {@code tableId} among the tables (the others are neither
     * read nor their data files opened: a writer changing one table reads just that one; absent
     * when the table is not visible at the snapshot).
     */
    public static SnapshotView loadTable(Connection conn, String alias, String file, String dataPathOverride, Long requested,
                                         long tableId) throws SQLException {
        Loader l = new Loader(conn, alias, file, true);
        l.onlyTable = tableId;
        return l.load(dataPathOverride, requested);
    }

    /**
     * Loads the catalog without opening any data file, with locations relative to the data path
     * (the data path is taken as the empty string).
     */
    public static SnapshotView loadRelative(Connection conn, String alias, String file, Long requested) throws SQLException {
        Loader l = new Loader(conn, alias, file, false);
        return l.load("", requested);
    }

    private static final class Loader {
        private final Connection conn;
        private final String alias;
        private final String file;
        private final boolean openFiles;
        /** The one table to load (null: all). */
        private Long onlyTable;
        private MetadataQueries model;
        /** Name mappings read so far, by mapping id. */
        private final Map<Long, Map<Long, String>> nameMaps = new HashMap<>();
        private long s;

        Loader(Connection conn, String alias, String file, boolean openFiles) {
            this.conn = conn;
            this.alias = alias;
            this.file = file;
            this.openFiles = openFiles;
        }

        public SnapshotView load(String dataPathOverride, Long requested) throws SQLException {
            Set<String> present = new HashSet<>(Sql.duckDbTables(conn, alias));
            for (String required : List.of("ducklake_metadata", "ducklake_snapshot", "ducklake_schema",
                    "ducklake_table", "ducklake_column", "ducklake_data_file", "ducklake_delete_file")) {
                if (!present.contains(required)) {
                    throw new FdlException(file + " is not a DuckLake catalog: it has no " + required + " table");
                }
            }
            model = new MetadataQueries(conn, alias, file);
            if ("true".equalsIgnoreCase(model.metadata("encrypted"))) {
                throw new FdlException("catalog " + file + " is encrypted (ducklake_metadata encrypted=true); "
                        + "fdl's built-in reader cannot read encrypted data files: attach it with the DuckLake extension");
            }
            s = resolveSnapshot(requested);
            String originalDataPath = model.metadata("data_path");
            String dataPath = dataPathOverride != null ? dataPathOverride : originalDataPath;
            if (dataPath == null) {
                throw new FdlException("catalog " + file + " has no data_path in ducklake_metadata; pass a data path to read it");
            }
            DuckLakePaths paths = DuckLakePaths.of(originalDataPath, dataPathOverride);
            List<TableEntry> tables = new ArrayList<>();
            for (MetadataQueries.Table t : model.tables(s, paths)) {
                if (onlyTable != null && t.id() != onlyTable) continue;
                tables.add(table(t, paths));
            }
            List<ViewEntry> views = new ArrayList<>();
            for (MetadataQueries.ViewRow v : model.views(s)) {
                views.add(new ViewEntry(v.schema(), v.name(), v.dialect(), v.sql(), v.columnAliases()));
            }
            SnapshotView view = new SnapshotView(alias, s, tables, views);
            view.model = model;
            return view;
        }

        private long resolveSnapshot(Long requested) throws SQLException {
            long[] range = model.snapshotRange();
            if (requested == null) return range[1];
            if (!model.hasSnapshot(requested)) {
                throw FdlException.notFound("snapshot " + requested + " is not in catalog " + file
                        + "; it keeps snapshots " + range[0] + " to " + range[1]);
            }
            return requested;
        }

        private TableEntry table(MetadataQueries.Table t, DuckLakePaths paths) throws SQLException {
            long tableId = t.id();
            String where = t.schema() + "." + t.name();
            List<ColumnEntry> columns = columns(tableId, where);
            Map<Long, String> dataFiles = new LinkedHashMap<>();
            List<DataFileEntry> files = new ArrayList<>();
            List<SQLException> failed = new ArrayList<>();
            Map<Long, Long> mappingOf = new HashMap<>();
            model.dataFiles(tableId, s, f -> {
                String location = paths.file(t.folder(), f.path(), f.relative(),
                        "data file " + f.id() + " of table " + where + " in catalog " + file);
                if (f.format() != null && !f.format().equalsIgnoreCase("parquet")) {
                    throw refuse(where, "data file " + location + " has format '" + f.format() + "'");
                }
                if (f.encryptionKey() != null) throw refuse(where, "data file " + location + " is encrypted");
                if (f.mappingId() != null) mappingOf.put(f.id(), f.mappingId()); // read after the stream ends
                if (f.partialMax() != null && s < f.partialMax()) {
                    throw refuse(where, "data file " + location + " holds rows of several snapshots (partial_max "
                            + f.partialMax() + ") and snapshot " + s + " sees only some of them");
                }
                if (f.partitionId() != null && openFiles) {
                    try {
                        checkPartitioned(where, tableId, f.partitionId(), location);
                    } catch (SQLException e) {
                        failed.add(e);
                    }
                }
                dataFiles.put(f.id(), location);
                files.add(new DataFileEntry(f.id(), location, f.recordCount(), f.bytes(), f.beginSnapshot()));
            });
            if (!failed.isEmpty()) throw failed.get(0);
            for (int i = 0; i < files.size(); i++) {
                DataFileEntry e = files.get(i);
                Long mappingId = mappingOf.get(e.id());
                if (mappingId != null) {
                    files.set(i, new DataFileEntry(e.id(), e.location(), e.recordCount(), e.bytes(), e.beginSnapshot(),
                            nameMap(where, e.location(), mappingId)));
                }
            }
            List<DeleteFileEntry> deletes = new ArrayList<>();
            model.deleteFiles(tableId, s, d -> {
                if (!dataFiles.containsKey(d.dataFileId())) return;
                String location = paths.file(t.folder(), d.path(), d.relative(),
                        "a delete file of table " + where + " in catalog " + file);
                if ((d.format() != null && !d.format().equalsIgnoreCase("parquet")) || isPuffin(location)) {
                    throw refuse(where, "delete file " + location + " is a deletion vector (format '" + d.format()
                            + "'): deletion vectors are not read by the built-in reader, which applies only Parquet positional delete files");
                }
                if (d.encryptionKey() != null) throw refuse(where, "delete file " + location + " is encrypted");
                if (d.partialMax() != null && s < d.partialMax()) {
                    throw refuse(where, "delete file " + location + " holds deletes of several snapshots (partial_max "
                            + d.partialMax() + ") and snapshot " + s + " sees only some of them");
                }
                deletes.add(new DeleteFileEntry(d.dataFileId(), location));
            });
            return new TableEntry(tableId, t.schema(), t.name(), columns, files, deletes, inlinedTables(tableId, where),
                    model.inlinedDeleteTable(tableId));
        }

        /**
         * A file's name mapping as column id to field name (mappings are shared by files and never
         * change: each is read once). Only what the built-in reader reads exactly is taken: a
         * {@code map_by_name} mapping of top-level fields whose values are in the file.
         */
        private Map<Long, String> nameMap(String where, String location, long mappingId) throws SQLException {
            Map<Long, String> known = nameMaps.get(mappingId);
            if (known != null) return known;
            MetadataQueries.NameMap m = model.nameMap(mappingId);
            if (!"map_by_name".equals(m.type())) {
                throw refuse(where, "data file " + location + " has a column mapping of type '" + m.type() + "' (DuckLake defines map_by_name)");
            }
            Map<Long, String> byId = new HashMap<>();
            for (MetadataQueries.NameMapEntry e : m.entries()) {
                if (e.parentColumn() != null) continue; // a nested field's entry: its top-level column is read whole
                if (e.partition()) {
                    throw refuse(where, "data file " + location + " takes column '" + e.sourceName() + "' from its hive partition path");
                }
                byId.put(e.targetFieldId(), e.sourceName());
            }
            nameMaps.put(mappingId, byId);
            return byId;
        }

        /** Partition values are not re-added from the catalog: the file itself must hold every partition column. */
        private void checkPartitioned(String where, long tableId, long partitionId, String location) throws SQLException {
            List<Long> partitionColumns = model.partitions().columns(tableId, partitionId);
            if (partitionColumns.isEmpty()) return;
            Set<Long> fieldIds = new HashSet<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT field_id FROM parquet_schema(?) WHERE field_id IS NOT NULL")) {
                ps.setString(1, location);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) fieldIds.add(rs.getLong(1));
                }
            } catch (SQLException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "table " + where + ": cannot read data file " + location + ": "
                        + DuckDbErrors.firstLine(e), e);
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
            for (ColumnTypes.Column c : model.columns(tableId, s)) {
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
        private List<InlinedTable> inlinedTables(long tableId, String where) throws SQLException {
            List<MetadataQueries.Inlined> registered = model.inlinedTables(tableId, where);
            if (registered.isEmpty()) return List.of();
            List<MetadataQueries.ColumnHistory> allColumns = model.columnHistory(tableId);
            List<InlinedTable> result = new ArrayList<>();
            for (MetadataQueries.Inlined reg : registered) {
                List<String> names = reg.columnNames();
                Long begin = ColumnTypes.snapshotOfSchemaVersion(conn, model.qualifier(), tableId, reg.schemaVersion());
                Map<Long, String> byId = new HashMap<>();
                for (String col : names.subList(3, names.size())) {
                    Set<Long> ids = new HashSet<>();
                    if (begin != null) {
                        for (MetadataQueries.ColumnHistory c : allColumns) {
                            if (c.name().equals(col) && Visibility.visible(c.begin(), c.end(), begin)) ids.add(c.id());
                        }
                    }
                    if (ids.isEmpty()) {
                        for (MetadataQueries.ColumnHistory c : allColumns) if (c.name().equals(col)) ids.add(c.id());
                    }
                    if (ids.size() != 1) {
                        throw new FdlException("cannot tell which column of " + where + " the column '" + col
                                + "' of inlined-data table " + reg.tableName() + " holds (" + ids.size()
                                + " candidates); the built-in reader refuses rather than guess");
                    }
                    byId.put(ids.iterator().next(), col);
                }
                result.add(new InlinedTable(reg.tableName(), reg.system(), byId));
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
}
