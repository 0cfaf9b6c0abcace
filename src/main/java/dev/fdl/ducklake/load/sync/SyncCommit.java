package dev.fdl.ducklake.load.sync;

import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.working.DeleteFiles;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.NewSnapshot;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.working.WorkingCatalog;

/**
 * Records one {@code fdl import --mode sync} in the working catalog as one DuckLake snapshot, in
 * one SQLite transaction, as the DuckLake extension records an {@code ALTER TABLE} plus
 * {@code DELETE} plus {@code INSERT} committed together (DUCKLAKE.md "Snapshots and visibility",
 * "Data"):
 * <ul>
 *   <li>schema changes: column rows end ({@code end_snapshot}), renamed/retyped columns get a new
 *       row under the same column id, added columns a new id; a new schema version
 *       ({@code ducklake_schema_versions}), {@code altered_table};</li>
 *   <li>deletes from a data file: its previous delete file ends and a new one holding every
 *       deleted position begins (one visible delete file per data file, as the extension keeps
 *       it); a data file whose every row is deleted ends instead; {@code deleted_from_table};</li>
 *   <li>deletes of inlined rows: their {@code end_snapshot} is set; {@code inlined_delete};</li>
 *   <li>new and changed rows: one new data file, appended as {@link WorkingCatalog} records an
 *       {@code INSERT}; {@code inserted_into_table};</li>
 *   <li>the row identity ({@code --key}, none without it) as the table's {@link RowKey} tag.</li>
 * </ul>
 */
final class SyncCommit {
    /** The new rows' data files (several when they outgrew the target file size); null when the sync adds no row. */
    record Insert(List<WorkingCatalog.NewDataFile> files) {
        /** The files' sizes together. */
        long bytes() {
            return files.stream().mapToLong(f -> f.stats().fileSizeBytes()).sum();
        }
    }

    /**
     * One sync's inputs to {@link #commit}.
     *
     * @param state          the catalog as the plan read it
     * @param insert         the new rows' data file, or null
     * @param inlinedDeletes inlined-data table name → row ids whose rows end
     */
    record Input(WorkingCatalog.State state, TableName name, SyncPlan plan, Insert insert, List<DeleteFiles.Written> deletes,
                 List<DeleteFiles.Ended> ended, Map<String, List<Long>> inlinedDeletes) {}

    private SyncCommit() {}

    /**
     * Writes the sync as the snapshot after {@code in.state()}'s ({@link dev.fdl.ducklake.working.SnapshotWriter}).
     *
     * @param duck a DuckDB connection, used to compare statistics values by their type
     * @return the new snapshot id
     * @throws FdlException conflict when another writer added a snapshot since {@code in.state()} was read
     */
    static long commit(WorkingCatalog catalog, Input in, String author, String message, Connection duck) throws SQLException {
        return catalog.newSnapshot(in.state().base(), "import", author, message).commit(s -> {
            write(s, in, duck);
            return s.id();
        });
    }

    private static void write(NewSnapshot s, Input in, Connection duck) throws SQLException {
        WorkingCatalog catalog = s.catalog();
        Connection conn = catalog.connection();
        WorkingCatalog.State state = in.state();
        SyncPlan plan = in.plan();
        long tableId = state.table().id();
        if (plan.altersTable()) {
            alter(s, plan, tableId);
            catalog.update("INSERT INTO ducklake_schema_versions (begin_snapshot, schema_version, table_id) VALUES (?, ?, ?)",
                    s.id(), s.schemaChanged(), tableId);
            s.change("altered_table:" + tableId);
        }
        DeleteFiles.record(s, tableId, in.deletes(), in.ended());
        int inlined = 0;
        for (Map.Entry<String, List<Long>> e : in.inlinedDeletes().entrySet()) {
            // DuckLake 1.0 and 1.1 spell the system columns differently (DUCKLAKE.md "DuckLake 1.1")
            DuckLakeSchema.InlinedColumns system = DuckLakeSchema.inlinedColumns(Sql.sqliteColumns(conn, e.getKey()));
            if (system == null) throw new FdlException("inlined-data table " + e.getKey()
                    + " does not start with DuckLake's system columns; the working catalog looks corrupt");
            inlined += s.endInlinedRowsById(SqlQuote.ident(e.getKey()), SqlQuote.ident(system.end()), SqlQuote.ident(system.rowId()), e.getValue());
        }
        if (inlined > 0) s.change("inlined_delete:" + tableId);
        if (in.insert() != null) {
            catalog.insertDataFiles(s, tableId, ImportPlan.append(in.name(), state, plan.columns()), in.insert().files(), duck);
            s.change("inserted_into_table:" + tableId);
        }
        s.recordRowKey(tableId, plan.keys().stream().map(ImportPlan.Column::name).toList());
    }

    /** The column rows of an {@code ALTER TABLE}: drops end, renames/retypes continue the id in a new row, adds begin. */
    private static void alter(NewSnapshot ns, SyncPlan plan, long tableId) throws SQLException {
        WorkingCatalog catalog = ns.catalog();
        long s = ns.id();
        for (ColumnTypes.Column c : plan.dropped()) {
            ns.endRows("ducklake_column", "table_id = ? AND column_id = ?", tableId, c.id());
            catalog.update("DELETE FROM ducklake_table_column_stats WHERE table_id = ? AND column_id = ?", tableId, c.id());
        }
        for (ImportPlan.Column c : plan.redefined()) {
            ns.endRows("ducklake_column", "table_id = ? AND column_id = ?", tableId, c.id());
            catalog.update("INSERT INTO ducklake_column (column_id, begin_snapshot, end_snapshot, table_id, column_order, column_name, "
                    + "column_type, initial_default, default_value, nulls_allowed, parent_column, default_value_type, "
                    + "default_value_dialect) SELECT column_id, ?, NULL, table_id, column_order, ?, ?, initial_default, default_value, "
                    + "nulls_allowed, parent_column, default_value_type, default_value_dialect FROM ducklake_column "
                    + "WHERE table_id = ? AND column_id = ? AND end_snapshot = ? AND parent_column IS NULL",
                    s, c.name(), c.lakeType(), tableId, c.id(), s);
        }
        long order;
        try (PreparedStatement ps = catalog.connection().prepareStatement(
                "SELECT coalesce(max(column_order), 0) FROM ducklake_column WHERE table_id = ?")) {
            ps.setLong(1, tableId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                order = rs.getLong(1);
            }
        }
        for (ImportPlan.Column c : plan.added()) {
            catalog.update("INSERT INTO ducklake_column (column_id, begin_snapshot, end_snapshot, table_id, column_order, column_name, "
                    + "column_type, initial_default, default_value, nulls_allowed, parent_column, default_value_type, "
                    + "default_value_dialect) VALUES (?, ?, NULL, ?, ?, ?, ?, NULL, 'NULL', 1, NULL, 'literal', 'duckdb')",
                    c.id(), s, tableId, ++order, c.name(), c.lakeType());
        }
    }
}
