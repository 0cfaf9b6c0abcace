package dev.fdl.ducklake.catalog;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's partitioning as a DuckLake catalog records it ({@code ducklake_partition_info},
 * {@code ducklake_partition_column}; DuckLake spec, "Partitioning"), read through the one metadata
 * model ({@link MetadataQueries#partitions()}).
 */
public final class PartitionKeys {
    private final MetadataQueries model;

    PartitionKeys(MetadataQueries model) {
        this.model = model;
    }

    /** The ids of the partition columns of a table's partitioning {@code partitionId}. */
    public List<Long> columns(long tableId, long partitionId) throws SQLException {
        List<Long> result = new ArrayList<>();
        try (PreparedStatement ps = model.connection().prepareStatement("SELECT column_id FROM " + model.t("ducklake_partition_column")
                + " WHERE table_id = ? AND partition_id = ?")) {
            ps.setLong(1, tableId);
            ps.setLong(2, partitionId);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) result.add(r.getLong(1));
            }
        }
        return result;
    }

    /** One column of a table's partition key: its column id and DuckLake transform ({@code identity}, {@code year}, …). */
    public record PartitionKeyColumn(long columnId, String transform) {}

    /**
     * The partition key of {@code tableId} at {@code snapshot} ({@code ducklake_partition_info} live
     * at the snapshot, its {@code ducklake_partition_column} rows by {@code partition_key_index});
     * empty when the table is not partitioned then.
     */
    public List<PartitionKeyColumn> key(long tableId, long snapshot) throws SQLException {
        List<PartitionKeyColumn> result = new ArrayList<>();
        if (!model.tableNames().contains("ducklake_partition_info") || !model.tableNames().contains("ducklake_partition_column")) return result;
        try (PreparedStatement ps = model.connection().prepareStatement("SELECT c.column_id, c.transform, i.partition_id FROM " + model.t("ducklake_partition_info") + " i JOIN "
                + model.t("ducklake_partition_column") + " c ON c.partition_id = i.partition_id AND c.table_id = i.table_id"
                + " WHERE i.table_id = ? AND i.begin_snapshot <= ? AND (i.end_snapshot IS NULL OR i.end_snapshot > ?)"
                + " ORDER BY i.partition_id, c.partition_key_index")) {
            ps.setLong(1, tableId);
            ps.setLong(2, snapshot);
            ps.setLong(3, snapshot);
            try (ResultSet r = ps.executeQuery()) {
                long key = -1; // one key is live at a snapshot; should two be, the newest
                while (r.next()) {
                    if (r.getLong(3) != key) result.clear();
                    key = r.getLong(3);
                    result.add(new PartitionKeyColumn(r.getLong(1), r.getString(2)));
                }
            }
        }
        return result;
    }
}
