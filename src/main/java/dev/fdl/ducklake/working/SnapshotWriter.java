package dev.fdl.ducklake.working;

import dev.fdl.FdlException;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import dev.fdl.ducklake.engine.Sql;

/**
 * Writes one new snapshot of the working catalog, in the manner of Iceberg's
 * {@code SnapshotProducer}: {@code catalog.newSnapshot(base, what, author, message).commit(op)}.
 * It owns the SQLite write transaction ({@link Sql#inWriteTransaction}), the check that the newest
 * snapshot is still the one the operation planned on, the new snapshot id, the allocation of
 * catalog and file ids, and the {@code ducklake_snapshot} and {@code ducklake_snapshot_changes}
 * rows (DuckLake spec; DUCKLAKE.md "Snapshots and visibility"), written after the operation's own.
 */
public final class SnapshotWriter {
    private final WorkingCatalog catalog;
    private final SnapshotRow base;
    private final String what;
    private final String author;
    private final String message;

    SnapshotWriter(WorkingCatalog catalog, SnapshotRow base, String what, String author, String message) {
        this.catalog = catalog;
        this.base = base;
        this.what = what;
        this.author = author;
        this.message = message;
    }

    /**
     * Runs {@code op} and records its snapshot, all in one transaction: committed when {@code op}
     * returns, rolled back (catalog unchanged) when it throws.
     *
     * @return what {@code op} returned
     * @throws FdlException conflict when a snapshot other than the base is the newest (another
     *     writer added one since the base was read); nothing is written then
     */
    public <R> R commit(SnapshotOperation<R> op) throws SQLException {
        Connection conn = catalog.connection();
        return Sql.inWriteTransaction(conn, () -> {
            SnapshotRow newest = SnapshotRow.newest(conn, "main");
            if (newest == null || newest.id() != base.id()) {
                throw FdlException.conflict("the working catalog " + catalog.file() + " changed during the " + what + " (snapshot "
                        + (newest == null ? "none" : newest.id()) + " appeared); nothing was changed: run the " + what + " again");
            }
            NewSnapshot s = new NewSnapshot(catalog, base);
            R result = op.apply(s);
            insertRows(s);
            return result;
        });
    }

    /** The snapshot's rows; no change is {@code changes_made} NULL, as the extension writes an empty list. */
    private void insertRows(NewSnapshot s) throws SQLException {
        List<String> changes = s.changes();
        catalog.update("INSERT INTO ducklake_snapshot (snapshot_id, snapshot_time, schema_version, next_catalog_id, next_file_id) "
                + "VALUES (?, ?, ?, ?, ?)", s.id(), WorkingCatalog.snapshotTime(), s.schemaVersion(), s.nextCatalogId(), s.nextFileId());
        catalog.update("INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made, author, commit_message, commit_extra_info) "
                + "VALUES (?, ?, ?, ?, NULL)", s.id(), changes.isEmpty() ? null : String.join(",", changes), author, message);
    }
}
