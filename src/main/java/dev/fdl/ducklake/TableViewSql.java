package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;
import java.util.ArrayList;
import java.util.List;

/**
 * The SELECT that shows one DuckLake table at a snapshot with DuckDB core alone:
 * <pre>
 *   SELECT … FROM read_parquet([visible data files], schema = MAP {field id: {name, type, default_value}},
 *                              filename = true, file_row_number = true)
 *     ANTI JOIN (positional deletes ∪ inlined deletes) ON file and row position
 *   UNION ALL SELECT … FROM each inlined-data table WHERE the row is visible at the snapshot
 * </pre>
 * Data files are read by Parquet field id (= DuckLake column id), so renamed, added and dropped
 * columns read right; a column a file lacks reads as its {@code initial_default}. Delete files
 * are matched to data files through {@code ducklake_delete_file.data_file_id}, never through the
 * paths written inside them (they are stale once a repository moves).
 */
final class TableViewSql {
    private final SnapshotCatalog catalog;
    private final SnapshotCatalog.TableEntry table;

    TableViewSql(SnapshotCatalog catalog, SnapshotCatalog.TableEntry table) {
        this.catalog = catalog;
        this.table = table;
    }

    /** The SELECT; its columns are the table's visible columns, in order, with their DuckDB types. */
    String select() {
        List<String> parts = new ArrayList<>();
        if (!table.dataFiles().isEmpty()) parts.add(parquetPart());
        for (SnapshotCatalog.InlinedTable inlined : table.inlined()) parts.add(inlinedPart(inlined));
        if (parts.isEmpty()) parts.add(emptyPart());
        return String.join("\nUNION ALL\n", parts);
    }

    private String parquetPart() {
        StringBuilder files = new StringBuilder("[");
        for (int i = 0; i < table.dataFiles().size(); i++) {
            if (i > 0) files.append(", ");
            files.append(SqlQuote.literal(table.dataFiles().get(i).location()));
        }
        files.append(']');
        StringBuilder schema = new StringBuilder("MAP {");
        List<String> select = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            SnapshotCatalog.ColumnEntry c = table.columns().get(i);
            if (i > 0) schema.append(", ");
            // Internal names c<id> keep user columns apart from the filename/file_row_number columns.
            schema.append(c.id()).append(": {name: ").append(SqlQuote.literal("c" + c.id()))
                    .append(", type: ").append(SqlQuote.literal(c.duckType()))
                    // Every default as VARCHAR text: MAP values need one type, and the reader casts it to the column's.
                    .append(", default_value: CAST(").append(SqlQuote.literal(c.initialDefault())).append(" AS VARCHAR)}");
            select.add("p." + SqlQuote.ident("c" + c.id()) + " AS " + SqlQuote.ident(c.name()));
        }
        schema.append('}');
        String deletes = deletes();
        StringBuilder sb = new StringBuilder("SELECT ");
        sb.append(select.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", select));
        sb.append(" FROM read_parquet(").append(files);
        if (!table.columns().isEmpty()) sb.append(", schema = ").append(schema);
        if (deletes != null) sb.append(", filename = true, file_row_number = true");
        sb.append(") AS p");
        if (deletes != null) {
            sb.append(" ANTI JOIN (").append(deletes).append(") AS d ON p.filename = d.f AND p.file_row_number = d.pos");
        }
        return sb.toString();
    }

    /** The rows deleted at the snapshot as (data file location, 0-based position), or null if none can be. */
    private String deletes() {
        List<String> parts = new ArrayList<>();
        for (SnapshotCatalog.DeleteFileEntry d : table.deleteFiles()) {
            parts.add("SELECT " + SqlQuote.literal(location(d.dataFileId())) + " AS f, pos FROM read_parquet("
                    + SqlQuote.literal(d.location()) + ")");
        }
        if (table.inlinedDeleteTable() != null) {
            StringBuilder values = new StringBuilder();
            for (SnapshotCatalog.DataFileEntry f : table.dataFiles()) {
                if (!values.isEmpty()) values.append(", ");
                values.append('(').append(f.id()).append(", ").append(SqlQuote.literal(f.location())).append(')');
            }
            parts.add("SELECT files.f, i.row_id AS pos FROM " + catalog.catalogTable(table.inlinedDeleteTable())
                    + " AS i JOIN (VALUES " + values + ") AS files(id, f) ON i.file_id = files.id WHERE i.begin_snapshot <= "
                    + catalog.snapshot());
        }
        return parts.isEmpty() ? null : String.join(" UNION ALL ", parts);
    }

    private String location(long dataFileId) {
        for (SnapshotCatalog.DataFileEntry f : table.dataFiles()) {
            if (f.id() == dataFileId) return f.location();
        }
        throw new IllegalStateException("delete file of an invisible data file " + dataFileId);
    }

    private String inlinedPart(SnapshotCatalog.InlinedTable inlined) {
        List<String> select = new ArrayList<>();
        for (SnapshotCatalog.ColumnEntry c : table.columns()) {
            String source = inlined.columnsById().get(c.id());
            String expr = source != null ? "CAST(" + SqlQuote.ident(source) + " AS " + c.duckType() + ")" : defaultValue(c);
            select.add(expr + " AS " + SqlQuote.ident(c.name()));
        }
        long s = catalog.snapshot();
        return "SELECT " + (select.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", select))
                + " FROM " + catalog.catalogTable(inlined.tableName())
                + " WHERE" + Visibility.at(s);
    }

    private String emptyPart() {
        List<String> select = new ArrayList<>();
        for (SnapshotCatalog.ColumnEntry c : table.columns()) {
            select.add("CAST(NULL AS " + c.duckType() + ") AS " + SqlQuote.ident(c.name()));
        }
        return "SELECT " + (select.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", select)) + " WHERE false";
    }

    private static String defaultValue(SnapshotCatalog.ColumnEntry c) {
        return "CAST(" + SqlQuote.literal(c.initialDefault()) + " AS " + c.duckType() + ")";
    }
}
