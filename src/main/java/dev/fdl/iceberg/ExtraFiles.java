package dev.fdl.iceberg;

import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.util.SqlQuote;

import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Parquet files an Iceberg table of a version needs beyond the data files DuckLake names
 * (docs/iceberg.md, "Deletes and inlined rows"), written by DuckDB's {@code COPY}:
 * <ul>
 *   <li>one positional delete file of Iceberg's layout (spec, "Position Delete Files": fields
 *       {@code file_path} id 2147483546 and {@code pos} id 2147483545, sorted by both), holding
 *       every row the snapshot's delete files and inlined deletes remove, each named by its data
 *       file's Iceberg location. DuckLake's own delete files carry other field ids and the paths
 *       the repository was written at, so Iceberg readers cannot take them as they are;</li>
 *   <li>one data file of the rows DuckLake keeps inlined in the catalog, whose columns carry the
 *       table's field ids.</li>
 * </ul>
 */
final class ExtraFiles {
    private ExtraFiles() {}

    /** A file written: where, and how many rows. */
    record Written(Path file, long rows) {}

    /**
     * Writes the delete file of {@code table} to {@code file}.
     *
     * @param readable  each visible delete file's readable local location, by DuckLake delete-file index in {@code table.deleteFiles()}
     * @param locations each visible data file's Iceberg location, by DuckLake data file id
     * @return the file and its row count; null when the snapshot deletes no row
     */
    static Written deletes(Connection duck, SnapshotView catalog, SnapshotView.TableEntry table, List<String> readable,
                           Map<Long, String> locations, Path file) throws SQLException {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < table.deleteFiles().size(); i++) {
            String dataFile = locations.get(table.deleteFiles().get(i).dataFileId());
            parts.add("SELECT " + SqlQuote.literal(dataFile) + " AS file_path, CAST(pos AS BIGINT) AS pos FROM read_parquet("
                    + SqlQuote.literal(readable.get(i)) + ")");
        }
        if (table.inlinedDeleteTable() != null && !locations.isEmpty()) {
            StringBuilder values = new StringBuilder();
            locations.forEach((id, loc) -> values.append(values.isEmpty() ? "" : ", ").append('(').append(id).append(", ")
                    .append(SqlQuote.literal(loc)).append(')'));
            // inlined deletes have no end_snapshot: a deletion, once made, stays (as TableViewSql reads them)
            parts.add("SELECT f.loc AS file_path, CAST(i.row_id AS BIGINT) AS pos FROM " + catalog.catalogTable(table.inlinedDeleteTable())
                    + " AS i JOIN (VALUES " + values + ") AS f(id, loc) ON i.file_id = f.id WHERE i.begin_snapshot <= " + catalog.snapshot());
        }
        if (parts.isEmpty()) return null;
        String sql = "COPY (SELECT DISTINCT file_path, pos FROM (" + String.join(" UNION ALL ", parts) + ") ORDER BY file_path, pos) TO "
                + SqlQuote.literal(file.toAbsolutePath().toString()) + " (FORMAT parquet, FIELD_IDS {file_path: "
                + MetadataColumns.DELETE_FILE_PATH.fieldId() + ", pos: " + MetadataColumns.DELETE_FILE_POS.fieldId() + "})";
        long rows = copy(duck, sql);
        return rows == 0 ? null : new Written(file, rows);
    }

    /**
     * Writes the inlined rows {@code table} shows at the snapshot to {@code file}, columns by field id.
     *
     * @return the file and its row count; null when the table has no inlined row
     */
    static Written inlinedRows(Connection duck, SnapshotView catalog, SnapshotView.TableEntry table, Schema schema, Path file)
            throws SQLException {
        if (table.inlined().isEmpty()) return null;
        SnapshotView.TableEntry inlinedOnly = new SnapshotView.TableEntry(table.id(), table.schema(), table.name(), table.columns(),
                List.of(), List.of(), table.inlined(), null);
        String select = TableViewSql.selectAddedSince(catalog, inlinedOnly, 0);
        String sql = "COPY (" + select + ") TO " + SqlQuote.literal(file.toAbsolutePath().toString())
                + " (FORMAT parquet, FIELD_IDS " + fieldIds(schema.asStruct()) + ")";
        long rows = copy(duck, sql);
        return rows == 0 ? null : new Written(file, rows);
    }

    private static long copy(Connection duck, String sql) throws SQLException {
        try (Statement st = duck.createStatement()) {
            st.execute(sql);
            return st.getUpdateCount();
        }
    }

    /** DuckDB's {@code FIELD_IDS} value for a struct's fields: {@code {'a': 1, 's': {__duckdb_field_id: 2, 'x': 3}}}. */
    static String fieldIds(Types.StructType struct) {
        StringBuilder sb = new StringBuilder("{");
        for (Types.NestedField f : struct.fields()) {
            if (sb.length() > 1) sb.append(", ");
            sb.append(SqlQuote.literal(f.name())).append(": ").append(fieldId(f.fieldId(), f.type()));
        }
        return sb.append('}').toString();
    }

    private static String fieldId(int id, Type type) {
        if (type.isPrimitiveType()) return Integer.toString(id);
        StringBuilder sb = new StringBuilder("{__duckdb_field_id: ").append(id);
        if (type.isStructType()) {
            for (Types.NestedField f : type.asStructType().fields()) {
                sb.append(", ").append(SqlQuote.literal(f.name())).append(": ").append(fieldId(f.fieldId(), f.type()));
            }
        } else if (type.isListType()) {
            Types.NestedField e = type.asListType().fields().get(0);
            sb.append(", element: ").append(fieldId(e.fieldId(), e.type()));
        } else if (type.isMapType()) {
            Types.NestedField k = type.asMapType().fields().get(0), v = type.asMapType().fields().get(1);
            sb.append(", key: ").append(fieldId(k.fieldId(), k.type())).append(", value: ").append(fieldId(v.fieldId(), v.type()));
        }
        return sb.append('}').toString();
    }
}
