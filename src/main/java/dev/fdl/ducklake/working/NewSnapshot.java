package dev.fdl.ducklake.working;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.format.Visibility;

/**
 * The snapshot a {@link SnapshotOperation} writes, inside {@link SnapshotWriter}'s transaction: its
 * id (the newest snapshot's + 1), the catalog ids and file ids it allocates, its
 * {@code changes_made} entries, whether it changes the schema, and the one place rows end at a
 * snapshot (DuckLake spec: a row ends by setting {@code end_snapshot} to the snapshot that no
 * longer sees it, DUCKLAKE.md "Snapshots and visibility"; the condition comes from
 * {@link Visibility#live}).
 */
public final class NewSnapshot {
    private final WorkingCatalog catalog;
    private final SnapshotRow base;
    private long nextCatalogId;
    private long nextFileId;
    private boolean schemaChanged;
    private final List<String> changes = new ArrayList<>();

    NewSnapshot(WorkingCatalog catalog, SnapshotRow base) {
        this.catalog = catalog;
        this.base = base;
        this.nextCatalogId = base.nextCatalogId();
        this.nextFileId = base.nextFileId();
    }

    /** The new snapshot's id. */
    public long id() {
        return base.id() + 1;
    }

    /** The newest snapshot before this one, which the operation planned on. */
    public SnapshotRow base() {
        return base;
    }

    /** The working catalog, for the operation's own rows. */
    public WorkingCatalog catalog() {
        return catalog;
    }

    /** A new catalog id (schema, table, view; DuckLake's {@code next_catalog_id}), never handed out before. */
    public long newCatalogId() {
        return nextCatalogId++;
    }

    /** A new file id (data or delete file; DuckLake's {@code next_file_id}), never handed out before. */
    public long newFileId() {
        return nextFileId++;
    }

    /**
     * Ids below {@code catalogIds} and {@code fileIds} are taken (rows copied from another catalog
     * keep theirs): later allocations start at them if they are above the next ids.
     */
    public void reserveIdsBelow(long catalogIds, long fileIds) {
        nextCatalogId = Math.max(nextCatalogId, catalogIds);
        nextFileId = Math.max(nextFileId, fileIds);
    }

    /** Adds an entry ({@code kind:value}, DuckLake spec {@code changes_made}) to the snapshot's change list. */
    public void change(String entry) {
        changes.add(entry);
    }

    /** The change list so far, in order. */
    public List<String> changes() {
        return List.copyOf(changes);
    }

    /**
     * Says the snapshot changes the schema (DDL): the snapshot's {@code schema_version} is the
     * newest's + 1, however often this is called.
     *
     * @return the new snapshot's schema version
     */
    public long schemaChanged() {
        schemaChanged = true;
        return schemaVersion();
    }

    /** The new snapshot's schema version: the newest's, + 1 once {@link #schemaChanged()} was called. */
    public long schemaVersion() {
        return base.schemaVersion() + (schemaChanged ? 1 : 0);
    }

    long nextCatalogId() {
        return nextCatalogId;
    }

    long nextFileId() {
        return nextFileId;
    }

    /**
     * Ends at this snapshot the rows of catalog table {@code table} (an SQL table reference, with an
     * alias if {@code where} needs one) that have not ended and match {@code where}, whose
     * {@code ?} take {@code args} in order.
     *
     * @return the number of rows ended
     */
    public int endRows(String table, String where, Object... args) throws SQLException {
        return endRowsOf(table, "end_snapshot", where, args);
    }

    /**
     * As {@link #endRows(String, String, Object...)} for an inlined-data table, whose end column is
     * {@code endColumn} (an SQL column reference: DuckLake 1.0 and 1.1 spell it differently).
     */
    public int endInlinedRows(String table, String endColumn, String where, Object... args) throws SQLException {
        return endRowsOf(table, endColumn, where, args);
    }

    private int endRowsOf(String table, String endColumn, String where, Object... args) throws SQLException {
        try (PreparedStatement ps = catalog.connection().prepareStatement("UPDATE " + table + " SET " + endColumn + " = ? WHERE"
                + Visibility.live("", endColumn) + "AND (" + where + ")")) {
            ps.setLong(1, id());
            for (int i = 0; i < args.length; i++) ps.setObject(i + 2, args[i]);
            return ps.executeUpdate();
        }
    }

    /**
     * Ends at this snapshot the rows of inlined-data table {@code table} (an SQL table reference)
     * whose {@code rowIdColumn} is one of {@code rowIds}, in one batch.
     *
     * @return the number of row ids given
     */
    public int endInlinedRowsById(String table, String endColumn, String rowIdColumn, List<Long> rowIds) throws SQLException {
        try (PreparedStatement ps = catalog.connection().prepareStatement("UPDATE " + table + " SET " + endColumn + " = ? WHERE"
                + Visibility.live("", endColumn) + "AND " + rowIdColumn + " = ?")) {
            for (Long rowId : rowIds) {
                ps.setLong(1, id());
                ps.setLong(2, rowId);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return rowIds.size();
    }

    /**
     * Records {@code key} (empty: none) as table {@code tableId}'s row identity at this snapshot
     * ({@link RowKey}: ends the visible tag row, begins the new one), unless the visible tag
     * already says the same.
     */
    public void recordRowKey(long tableId, List<String> key) throws SQLException {
        if (RowKey.current(catalog.connection(), tableId).equals(key)) return;
        endRows("ducklake_tag", "object_id = ? AND key = ?", tableId, RowKey.TAG);
        if (!key.isEmpty())
            catalog.update("INSERT INTO ducklake_tag (object_id, begin_snapshot, end_snapshot, key, value) VALUES (?, ?, NULL, ?, ?)",
                    tableId, id(), RowKey.TAG, RowKey.json(key));
    }
}
