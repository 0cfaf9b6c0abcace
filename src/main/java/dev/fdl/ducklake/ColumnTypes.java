package dev.fdl.ducklake;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a table's columns at a snapshot from {@code ducklake_column} (either catalog kind, plain
 * SQL) and turns DuckLake type names into DuckDB type text, nested types built from their child
 * columns ({@code parent_column}).
 */
final class ColumnTypes {
    private ColumnTypes() {}

    /** Top-level columns of {@code tableId} visible at {@code snapshot}, in column order. */
    static List<ColumnInfo> at(Connection c, long tableId, long snapshot) throws SQLException {
        record Row(long id, String name, String type, boolean nullsAllowed, Long parent) {}
        Map<Long, Row> rows = new LinkedHashMap<>();
        Map<Long, List<Long>> children = new HashMap<>();
        List<Long> top = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT column_id, column_name, column_type, nulls_allowed, parent_column FROM ducklake_column"
                        + " WHERE table_id = ? AND begin_snapshot <= ? AND (end_snapshot IS NULL OR end_snapshot > ?)"
                        + " ORDER BY column_order, column_id")) {
            ps.setLong(1, tableId);
            ps.setLong(2, snapshot);
            ps.setLong(3, snapshot);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    long parentValue = r.getLong(5);
                    Long parent = r.wasNull() ? null : parentValue;
                    boolean nulls = r.getBoolean(4);
                    if (r.wasNull()) {
                        nulls = true;
                    }
                    Row row = new Row(r.getLong(1), r.getString(2), r.getString(3), nulls, parent);
                    rows.put(row.id(), row);
                    if (parent == null) {
                        top.add(row.id());
                    } else {
                        children.computeIfAbsent(parent, k -> new ArrayList<>()).add(row.id());
                    }
                }
            }
        }
        Map<Long, String> memo = new HashMap<>();
        java.util.function.Function<Long, String> typeOf = new java.util.function.Function<>() {
            @Override
            public String apply(Long id) {
                String known = memo.get(id);
                if (known != null) {
                    return known;
                }
                Row row = rows.get(id);
                List<String> names = new ArrayList<>();
                List<String> types = new ArrayList<>();
                for (Long child : children.getOrDefault(id, List.of())) {
                    names.add(rows.get(child).name());
                    types.add(apply(child));
                }
                String t = DuckLakeSchema.duckType(row.type(), names, types);
                memo.put(id, t);
                return t;
            }
        };
        List<ColumnInfo> result = new ArrayList<>();
        for (Long id : top) {
            Row row = rows.get(id);
            result.add(new ColumnInfo(row.id(), row.name(), typeOf.apply(id), row.nullsAllowed()));
        }
        return result;
    }

    /**
     * The snapshot at which the columns of inlined-data table {@code tableId}/{@code schemaVersion}
     * are read: {@code ducklake_schema_versions.begin_snapshot}, else the first snapshot with that
     * schema version; null if neither is recorded.
     */
    static Long snapshotOfSchemaVersion(Connection c, long tableId, long schemaVersion) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT min(begin_snapshot) FROM ducklake_schema_versions WHERE table_id = ? AND schema_version = ?")) {
            ps.setLong(1, tableId);
            ps.setLong(2, schemaVersion);
            try (ResultSet r = ps.executeQuery()) {
                if (r.next()) {
                    long v = r.getLong(1);
                    if (!r.wasNull()) {
                        return v;
                    }
                }
            }
        } catch (SQLException e) {
            // older catalogs may lack ducklake_schema_versions; fall back to ducklake_snapshot
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT min(snapshot_id) FROM ducklake_snapshot WHERE schema_version = ?")) {
            ps.setLong(1, schemaVersion);
            try (ResultSet r = ps.executeQuery()) {
                if (r.next()) {
                    long v = r.getLong(1);
                    if (!r.wasNull()) {
                        return v;
                    }
                }
            }
        }
        return null;
    }
}
