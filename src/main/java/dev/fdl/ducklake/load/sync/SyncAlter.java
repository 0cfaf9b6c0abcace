package dev.fdl.ducklake.load.sync;

import dev.fdl.ducklake.catalog.ColumnTypes;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.ducklake.working.NewSnapshot;
import dev.fdl.ducklake.working.SnapshotOperation;

/**
 * The schema part of one {@code fdl import --mode sync}, recorded in the same snapshot as its row
 * changes ({@link dev.fdl.ducklake.load.RowDelta}), as the DuckLake extension records an
 * {@code ALTER TABLE} committed with a {@code DELETE} plus {@code INSERT} (DUCKLAKE.md "Snapshots
 * and visibility"): column rows end ({@code end_snapshot}), renamed/retyped columns get a new row
 * under the same column id, added columns a new id; a new schema version
 * ({@code ducklake_schema_versions}), {@code altered_table}.
 */
final class SyncAlter {
    private SyncAlter() {}

    /** The alteration of {@code plan} to table {@code tableId}, as an operation handed to the sync's snapshot. */
    static SnapshotOperation<Void> of(SyncPlan plan, long tableId) {
        return s -> {
            alter(s, plan, tableId);
            s.catalog().update("INSERT INTO ducklake_schema_versions (begin_snapshot, schema_version, table_id) VALUES (?, ?, ?)",
                    s.id(), s.schemaChanged(), tableId);
            s.change("altered_table:" + tableId);
            return null;
        };
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
