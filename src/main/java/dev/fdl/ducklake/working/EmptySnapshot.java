package dev.fdl.ducklake.working;

import dev.fdl.FdlException;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.engine.Sql;

/**
 * A DuckLake snapshot that changes no table, view, schema or data: what {@code fdl commit} adds to
 * the working catalog when a version publishes only a new description or DuckLake format (SPEC.md
 * section 4: every version adds at least one snapshot). The rows are those the DuckLake extension
 * writes for a commit with an empty change list (DUCKLAKE.md "Snapshots and visibility"): a
 * {@code ducklake_snapshot} row with the next id and the newest snapshot's {@code schema_version},
 * {@code next_catalog_id} and {@code next_file_id} unchanged, and a {@code ducklake_snapshot_changes}
 * row with {@code changes_made} NULL (the extension writes an empty list as NULL and reads NULL as
 * no change) and the commit's author and message. Nothing else changes, so every reader sees at it
 * exactly what it sees at the snapshot before.
 */
public final class EmptySnapshot {
    private EmptySnapshot() {}

    /**
     * Adds an empty snapshot to the SQLite catalog {@code catalog}, in one SQLite transaction, through
     * {@link SnapshotWriter}, with an operation that changes nothing (a writer that added a snapshot meanwhile makes it a
     * conflict, exit 3, nothing written).
     *
     * @return the new snapshot's id (the newest before + 1)
     * @throws FdlException (exit 1) naming the file when it has no snapshot or cannot be written
     */
    public static long add(Path catalog, String author, String message) {
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            // refused as a conflict if another writer adds a snapshot meanwhile
            return working.newSnapshot(working.newestSnapshot(), "commit", author, message).commit(NewSnapshot::id);
        } catch (SQLException e) {
            throw Sql.failure("adding a snapshot to working catalog", catalog, e);
        }
    }

    /**
     * Takes back snapshot {@code id} that {@link #add} made, when it is still the newest snapshot
     * and still changes nothing (a commit that did not publish it); a snapshot another writer has
     * built on stays (it is harmless: the next commit publishes it).
     *
     * @return true when it was removed
     * @throws FdlException (exit 1) naming the file when it cannot be written
     */
    public static boolean remove(Path catalog, long id) {
        return inWriteTransaction(catalog, "taking back the snapshot of an unfinished commit from working catalog", c -> {
            boolean newestAndEmpty;
            try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT max(snapshot_id) FROM ducklake_snapshot) = ? AND EXISTS ("
                    + "SELECT 1 FROM ducklake_snapshot_changes WHERE snapshot_id = ? AND changes_made IS NULL)")) {
                ps.setLong(1, id);
                ps.setLong(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    newestAndEmpty = rs.next() && rs.getBoolean(1);
                }
            }
            if (newestAndEmpty) {
                for (String table : new String[]{"ducklake_snapshot_changes", "ducklake_snapshot"}) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE snapshot_id = ?")) {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                    }
                }
            }
            return newestAndEmpty;
        });
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Runs {@code work} in one SQLite write transaction ({@link Sql#inWriteTransaction}: what it reads stays true until it commits). */
    private static <T> T inWriteTransaction(Path catalog, String what, Work<T> work) {
        if (CatalogKind.detect(catalog) != CatalogKind.SQLITE)
            throw new FdlException(catalog + " is not a SQLite DuckLake catalog; fdl adds snapshots only to a working catalog");
        try (Connection c = Sql.sqlite(catalog, false)) {
            return Sql.inWriteTransaction(c, () -> work.run(c));
        } catch (SQLException e) {
            throw Sql.failure(what, catalog, e);
        }
    }
}
