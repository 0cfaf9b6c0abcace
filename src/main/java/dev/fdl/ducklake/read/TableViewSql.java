package dev.fdl.ducklake.read;

import dev.fdl.util.SqlQuote;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.format.Visibility;

/**
 * The SELECT that shows one DuckLake table at a snapshot with DuckDB core alone:
 * <pre>
 *   SELECT … FROM read_parquet([visible data files], schema = MAP {field id: {name, type, default_value}},
 *                              file_row_number = true)
 *     WHERE (file index, row position) NOT IN (positional deletes ∪ inlined deletes)
 *   UNION ALL SELECT … FROM each inlined-data table WHERE the row is visible at the snapshot
 * </pre>
 * Deletes are applied by position: each deleted row is one BIGINT key, the data file's index in
 * the list read shifted left by {@value #POSITION_BITS} bits, or-ed with its 0-based position
 * (DuckLake delete files hold {@code pos}; DuckDB's {@code file_index} and {@code file_row_number}
 * give both for a data row). {@code NOT IN} a subquery is planned as a MARK join, whose hash table
 * is built over the subquery (the deletes) and never over the data rows, so memory grows with the
 * deleted rows, not the table (an anti join on file name and position could be flipped by the
 * planner to hash every data row: the schema-mapped scan's row estimate is unknown to it).
 * Data files are read by Parquet field id (= DuckLake column id), so renamed, added and dropped
 * columns read right; a column a file lacks reads as its {@code initial_default}. Delete files
 * are matched to data files through {@code ducklake_delete_file.data_file_id}, never through the
 * paths written inside them (they are stale once a repository moves).
 */
public final class TableViewSql {
    private final SnapshotView catalog;
    private final SnapshotView.TableEntry table;
    /** Inlined rows shown are those beginning at or after this snapshot (0: all visible ones). */
    private final long addedSince;

    public TableViewSql(SnapshotView catalog, SnapshotView.TableEntry table) {
        this(catalog, table, 0);
    }

    /**
     * The visible data files in the order read: those read by field id first, then those of each
     * name mapping, a group after the other; a file's index here is the one its deletes are keyed by.
     */
    private final List<SnapshotView.DataFileEntry> files;
    /** The groups of {@link #files} read by one {@code read_parquet} each: index of the first file, and the count. */
    private final List<int[]> groups = new ArrayList<>();

    private TableViewSql(SnapshotView catalog, SnapshotView.TableEntry table, long addedSince) {
        this.catalog = catalog;
        this.table = table;
        this.addedSince = addedSince;
        java.util.Map<java.util.Map<Long, String>, List<SnapshotView.DataFileEntry>> byMap = new java.util.LinkedHashMap<>();
        List<SnapshotView.DataFileEntry> byId = new ArrayList<>();
        for (SnapshotView.DataFileEntry f : table.dataFiles()) {
            if (f.nameMap() == null) byId.add(f);
            else byMap.computeIfAbsent(f.nameMap(), k -> new ArrayList<>()).add(f);
        }
        List<SnapshotView.DataFileEntry> all = new ArrayList<>();
        for (List<SnapshotView.DataFileEntry> g : java.util.stream.Stream.concat(java.util.stream.Stream.of(byId), byMap.values().stream()).toList()) {
            if (g.isEmpty()) continue;
            groups.add(new int[]{all.size(), g.size()});
            all.addAll(g);
        }
        this.files = List.copyOf(all);
    }

    /**
     * The SELECT of the rows visible at the snapshot that snapshots {@code since} and later added:
     * the rows of data files whose {@code begin_snapshot >= since} and the inlined rows whose begin
     * snapshot is {@code >= since}, deletes applied as in {@link #select()}. Every other visible row
     * was visible, unchanged, before {@code since}: DuckLake never changes a row in place, it ends it
     * and adds the new one (DUCKLAKE.md "Data"). Columns as {@link #select()}.
     */
    public static String selectAddedSince(SnapshotView catalog, SnapshotView.TableEntry table, long since) {
        List<SnapshotView.DataFileEntry> files = table.dataFiles().stream().filter(f -> f.beginSnapshot() >= since).toList();
        java.util.Set<Long> ids = new java.util.HashSet<>();
        files.forEach(f -> ids.add(f.id()));
        SnapshotView.TableEntry added = new SnapshotView.TableEntry(table.id(), table.schema(), table.name(), table.columns(), files,
                table.deleteFiles().stream().filter(d -> ids.contains(d.dataFileId())).toList(), table.inlined(), table.inlinedDeleteTable());
        return new TableViewSql(catalog, added, Math.max(0, since)).select();
    }

    /** Row identity columns of {@link #selectWithRowIds()}: data file id (NULL for inlined rows). */
    public static final String FILE_ID = "__fdl_file";
    /** Row identity: 0-based position in the data file, or the inlined row's {@code row_id}. */
    public static final String POS = "__fdl_pos";
    /** Row identity: index of the inlined-data table in {@code table.inlined()}, NULL for rows of data files. */
    public static final String INLINED = "__fdl_inlined";

    /** The name {@link #selectWithRowIds()} gives the column with DuckLake column id {@code id}. */
    public static String idColumn(long id) {
        return "c" + id;
    }

    /**
     * The table's rows as {@link #select()} shows them, but with each row's identity, for writers
     * that delete rows as DuckLake does (by position in a data file, or by inlined {@code row_id}):
     * the columns are named {@code c<column id>} ({@link #idColumn}), followed by {@link #FILE_ID},
     * {@link #POS} and {@link #INLINED}.
     */
    public String selectWithRowIds() {
        List<String> parts = new ArrayList<>();
        if (!table.dataFiles().isEmpty()) parts.add(parquetPart(true));
        for (int i = 0; i < table.inlined().size(); i++) parts.add(inlinedPart(table.inlined().get(i), i));
        if (parts.isEmpty()) parts.add(emptyPart(true));
        return String.join("\nUNION ALL\n", parts);
    }

    /** The SELECT; its columns are the table's visible columns, in order, with their DuckDB types. */
    String select() {
        List<String> parts = new ArrayList<>();
        if (!table.dataFiles().isEmpty()) parts.add(parquetPart());
        for (SnapshotView.InlinedTable inlined : table.inlined()) parts.add(inlinedPart(inlined));
        if (parts.isEmpty()) parts.add(emptyPart());
        return String.join("\nUNION ALL\n", parts);
    }

    private String parquetPart() {
        return parquetPart(false);
    }

    /**
     * The rows of the visible data files with their deletes applied; with {@code rowIds} the
     * columns are named {@code c<column id>} and each row carries its data file id and position.
     * One {@code read_parquet} per group of files read alike: by field id, or by the field names
     * of one name mapping (DuckDB's {@code schema} MAP keyed by name); a column a mapping does not
     * name reads as its {@code initial_default}.
     */
    private String parquetPart(boolean rowIds) {
        String deletes = deletes();
        List<String> parts = new ArrayList<>();
        for (int[] g : groups) parts.add(groupPart(files.subList(g[0], g[0] + g[1]), g[0], rowIds, deletes));
        return String.join("\nUNION ALL\n", parts);
    }

    /** The rows of {@code group}, whose first file has index {@code offset} in {@link #files}. */
    private String groupPart(List<SnapshotView.DataFileEntry> group, int offset, boolean rowIds, String deletes) {
        StringBuilder list = new StringBuilder("[");
        for (int i = 0; i < group.size(); i++) {
            if (i > 0) list.append(", ");
            list.append(SqlQuote.literal(group.get(i).location()));
        }
        list.append(']');
        java.util.Map<Long, String> names = group.get(0).nameMap();
        StringBuilder schema = new StringBuilder("MAP {");
        List<String> select = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            SnapshotView.ColumnEntry c = table.columns().get(i);
            if (i > 0) schema.append(", ");
            if (names == null) {
                schema.append(c.id());
            } else {
                // a name no Parquet field has stands for a column the mapping does not name: it reads as its default
                String source = names.get(c.id());
                schema.append(SqlQuote.literal(source != null ? source : "__fdl_unmapped_" + c.id() + "__"));
            }
            // Internal names c<id> keep user columns apart from the filename/file_row_number columns.
            schema.append(": {name: ").append(SqlQuote.literal("c" + c.id()))
                    .append(", type: ").append(SqlQuote.literal(c.duckType()))
                    // Every default as VARCHAR text: MAP values need one type, and the reader casts it to the column's.
                    .append(", default_value: CAST(").append(SqlQuote.literal(c.initialDefault())).append(" AS VARCHAR)}");
            select.add("p." + SqlQuote.ident("c" + c.id()) + " AS " + SqlQuote.ident(rowIds ? idColumn(c.id()) : c.name()));
        }
        schema.append('}');
        String fileIndex = offset == 0 ? "p.file_index::BIGINT" : "(p.file_index::BIGINT + " + offset + ")";
        StringBuilder sb = new StringBuilder("SELECT ");
        sb.append(select.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", select));
        if (rowIds) {
            sb.append(", [").append(fileIdList()).append("][" + fileIndex + " + 1] AS " + FILE_ID
                    + ", p.file_row_number AS " + POS + ", CAST(NULL AS INTEGER) AS " + INLINED);
        }
        sb.append(" FROM read_parquet(").append(list);
        if (!table.columns().isEmpty()) sb.append(", schema = ").append(schema);
        if (deletes != null || rowIds) sb.append(", file_row_number = true");
        sb.append(") AS p");
        if (deletes != null) {
            sb.append(" WHERE ").append(rowKey(fileIndex, "p.file_row_number"))
                    .append(" NOT IN (SELECT k FROM (").append(deletes).append(") AS d WHERE k IS NOT NULL)");
        }
        return sb.toString();
    }

    /**
     * Bits of a deleted row's key given to its position in the data file: positions below 2^40
     * (a trillion rows a file), file indexes below 2^23.
     */
    static final int POSITION_BITS = 40;

    /** The one BIGINT key of the row at {@code pos} of the data file at {@code fileIndex} in the list read. */
    private static String rowKey(String fileIndex, String pos) {
        return "((" + fileIndex + " << " + POSITION_BITS + ") | " + pos + ")";
    }

    /**
     * The rows deleted at the snapshot as one column {@code k}, each the key {@link #rowKey} gives
     * (data file index in the list read, 0-based position), from the visible delete files and
     * inlined deletes of the table's visible data files; null if none can be.
     */
    String deletes() {
        List<String> parts = new ArrayList<>();
        for (SnapshotView.DeleteFileEntry d : table.deleteFiles()) {
            parts.add("SELECT " + rowKey(index(d.dataFileId()) + "::BIGINT", "pos") + " AS k FROM read_parquet("
                    + SqlQuote.literal(d.location()) + ")");
        }
        if (table.inlinedDeleteTable() != null && !table.dataFiles().isEmpty()) {
            parts.add("SELECT " + rowKey("files.idx", "i.row_id") + " AS k FROM " + catalog.catalogTable(table.inlinedDeleteTable())
                    + " AS i JOIN (VALUES " + fileIndexes() + ") AS files(id, idx) ON i.file_id = files.id WHERE i.begin_snapshot <= "
                    + catalog.snapshot());
        }
        return parts.isEmpty() ? null : String.join(" UNION ALL ", parts);
    }

    /** {@code id, id, …}: the visible data files' ids as a BIGINT list literal's items, in the order read. */
    private String fileIdList() {
        StringBuilder ids = new StringBuilder();
        for (SnapshotView.DataFileEntry f : files) {
            ids.append(ids.isEmpty() ? "" : ", ").append(f.id()).append("::BIGINT");
        }
        return ids.toString();
    }

    /** {@code (id, index), …} for every visible data file: its id and 0-based index in the list read. */
    private String fileIndexes() {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < files.size(); i++) {
            if (!values.isEmpty()) values.append(", ");
            values.append('(').append(files.get(i).id()).append(", ").append(i).append("::BIGINT)");
        }
        return values.toString();
    }

    private int index(long dataFileId) {
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).id() == dataFileId) return i;
        }
        throw new IllegalStateException("delete file of an invisible data file " + dataFileId);
    }

    private String inlinedPart(SnapshotView.InlinedTable inlined) {
        return inlinedPart(inlined, -1);
    }

    /** The visible rows of one inlined-data table; with {@code index >= 0} as {@link #selectWithRowIds()} shows them. */
    private String inlinedPart(SnapshotView.InlinedTable inlined, int index) {
        List<String> select = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : table.columns()) {
            String source = inlined.columnsById().get(c.id());
            String expr = source != null ? "CAST(" + SqlQuote.ident(source) + " AS " + c.duckType() + ")" : defaultValue(c);
            select.add(expr + " AS " + SqlQuote.ident(index >= 0 ? idColumn(c.id()) : c.name()));
        }
        DuckLakeSchema.InlinedColumns system = inlined.system();
        if (index >= 0) {
            select.add("CAST(NULL AS BIGINT) AS " + FILE_ID + ", " + SqlQuote.ident(system.rowId()) + " AS " + POS + ", "
                    + index + " AS " + INLINED);
        }
        long s = catalog.snapshot();
        return "SELECT " + (select.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", select))
                + " FROM " + catalog.catalogTable(inlined.tableName())
                + " WHERE" + Visibility.at("", SqlQuote.ident(system.begin()), SqlQuote.ident(system.end()), Long.toString(s))
                + (addedSince > 0 ? " AND " + SqlQuote.ident(system.begin()) + " >= " + addedSince : "");
    }

    private String emptyPart() {
        return emptyPart(false);
    }

    private String emptyPart(boolean rowIds) {
        List<String> select = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : table.columns()) {
            select.add("CAST(NULL AS " + c.duckType() + ") AS " + SqlQuote.ident(rowIds ? idColumn(c.id()) : c.name()));
        }
        if (rowIds) select.add("CAST(NULL AS BIGINT) AS " + FILE_ID + ", CAST(NULL AS BIGINT) AS " + POS + ", CAST(NULL AS INTEGER) AS " + INLINED);
        return "SELECT " + (select.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", select)) + " WHERE false";
    }

    private static String defaultValue(SnapshotView.ColumnEntry c) {
        return "CAST(" + SqlQuote.literal(c.initialDefault()) + " AS " + c.duckType() + ")";
    }
}
