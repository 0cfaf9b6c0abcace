package dev.fdl.ducklake.catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.fdl.ducklake.ColumnInfo;
import dev.fdl.ducklake.format.DuckLakeTypes;
import dev.fdl.ducklake.format.Visibility;

/**
 * Reads a table's columns at a snapshot from {@code ducklake_column} (either catalog kind, plain
 * SQL): the one place that builds column type trees ({@code parent_column}) for the inspector, the
 * converter and the built-in reader. Types are named through {@link DuckLakeTypes}; visibility is
 * {@link Visibility}'s rule.
 */
public final class ColumnTypes {
    private ColumnTypes() {}

    /**
     * A visible top-level column with its type tree.
     *
     * @param initialDefault the {@code initial_default} text (null: none)
     */
    public record Column(long id, String name, DuckLakeTypes.Node type, boolean nullsAllowed, String initialDefault) {
        /** The column's DuckLake type ({@code column_type}), as its type tree's root records it. */
        public String lakeType() {
            return type.lakeType();
        }

        /** Whether the column has child columns (a struct, list or map). */
        public boolean nested() {
            return !type.children().isEmpty();
        }
    }

    /** Top-level columns of {@code tableId} visible at {@code snapshot}, in column order, with DuckDB types. */
    public static List<ColumnInfo> at(Connection c, long tableId, long snapshot) throws SQLException {
        String where = "table " + tableId;
        List<ColumnInfo> result = new ArrayList<>();
        for (Column col : trees(c, "", tableId, snapshot)) {
            result.add(new ColumnInfo(col.id(), col.name(), DuckLakeTypes.toDuckDb(col.type(), where), col.nullsAllowed()));
        }
        return result;
    }

    /**
     * A visible {@code ducklake_column} row: a top-level column ({@code parent} null) or a child of
     * a struct, list or map, with its own column id (a nested field's Parquet field id).
     */
    public record Row(long id, String name, String type, boolean nullsAllowed, String initialDefault, Long parent) {}

    /** Every column row of {@code tableId} visible at {@code snapshot}, children included, in column order, then id. */
    static List<Row> rows(Connection c, String qualifier, long tableId, long snapshot) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT column_id, column_name, column_type, nulls_allowed, initial_default, parent_column FROM "
                        + qualifier + "ducklake_column WHERE table_id = ? AND" + Visibility.at(snapshot)
                        + "ORDER BY column_order, column_id")) {
            ps.setLong(1, tableId);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    boolean nulls = r.getBoolean(4);
                    if (r.wasNull()) nulls = true;
                    long parentValue = r.getLong(6);
                    Long parent = r.wasNull() ? null : parentValue;
                    rows.add(new Row(r.getLong(1), r.getString(2), r.getString(3), nulls, r.getString(5), parent));
                }
            }
        }
        return rows;
    }

    /**
     * Top-level columns of {@code tableId} visible at {@code snapshot}, in column order
     * ({@code column_order}, then id), each with the tree of its child columns.
     *
     * @param qualifier what precedes catalog table names in SQL ({@code "alias".main.}, or empty)
     */
    static List<Column> trees(Connection c, String qualifier, long tableId, long snapshot) throws SQLException {
        List<Row> rows = rows(c, qualifier, tableId, snapshot);
        Map<Long, List<Row>> children = new HashMap<>();
        for (Row r : rows) {
            if (r.parent() != null) children.computeIfAbsent(r.parent(), k -> new ArrayList<>()).add(r);
        }
        java.util.function.Function<Row, DuckLakeTypes.Node> node = new java.util.function.Function<>() {
            @Override
            public DuckLakeTypes.Node apply(Row r) {
                List<DuckLakeTypes.Node> kids = new ArrayList<>();
                for (Row child : children.getOrDefault(r.id(), List.of())) kids.add(apply(child));
                return new DuckLakeTypes.Node(r.name(), r.type(), kids);
            }
        };
        List<Column> result = new ArrayList<>();
        for (Row r : rows) {
            if (r.parent() == null) result.add(new Column(r.id(), r.name(), node.apply(r), r.nullsAllowed(), r.initialDefault()));
        }
        return result;
    }

    /**
     * The last snapshot up to {@code snapshot} that began a schema version of table {@code tableId}
     * ({@code ducklake_schema_versions}: its creation, and every change of its columns or name);
     * null when the catalog records none for it (or has no such table, or no {@code table_id} there).
     */
    public static Long lastSchemaChange(Connection c, String qualifier, long tableId, long snapshot) {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT max(begin_snapshot) FROM " + qualifier + "ducklake_schema_versions WHERE table_id = ? AND begin_snapshot <= ?")) {
            ps.setLong(1, tableId);
            ps.setLong(2, snapshot);
            try (ResultSet r = ps.executeQuery()) {
                if (!r.next()) return null;
                long v = r.getLong(1);
                return r.wasNull() ? null : v;
            }
        } catch (SQLException e) {
            return null; // an older catalog without the table or its table_id: the changes are unknown
        }
    }

    /** {@link #snapshotOfSchemaVersion(Connection, String, long, long)} on an unqualified catalog. */
    public static Long snapshotOfSchemaVersion(Connection c, long tableId, long schemaVersion) throws SQLException {
        return snapshotOfSchemaVersion(c, "", tableId, schemaVersion);
    }

    /**
     * The snapshot at which the columns of inlined-data table {@code tableId}/{@code schemaVersion}
     * are read: {@code ducklake_schema_versions.begin_snapshot}, else the first snapshot with that
     * schema version; null if neither is recorded.
     */
    public static Long snapshotOfSchemaVersion(Connection c, String qualifier, long tableId, long schemaVersion) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT min(begin_snapshot) FROM " + qualifier + "ducklake_schema_versions WHERE table_id = ? AND schema_version = ?")) {
            ps.setLong(1, tableId);
            ps.setLong(2, schemaVersion);
            try (ResultSet r = ps.executeQuery()) {
                if (r.next()) {
                    long v = r.getLong(1);
                    if (!r.wasNull()) return v;
                }
            }
        } catch (SQLException e) {
            // older catalogs may lack ducklake_schema_versions; fall back to ducklake_snapshot
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT min(snapshot_id) FROM " + qualifier + "ducklake_snapshot WHERE schema_version = ?")) {
            ps.setLong(1, schemaVersion);
            try (ResultSet r = ps.executeQuery()) {
                if (r.next()) {
                    long v = r.getLong(1);
                    if (!r.wasNull()) return v;
                }
            }
        }
        return null;
    }
}
