package dev.fdl.ducklake.working;

import java.sql.SQLException;

/**
 * What one new snapshot of the working catalog changes (import, sync, rm, restore, the empty
 * snapshot of a commit): handed to {@link SnapshotWriter#commit}, it writes its rows through
 * {@link NewSnapshot}, inside the writer's transaction, and never writes the snapshot's own rows.
 *
 * @param <R> what the operation reports to its caller
 */
@FunctionalInterface
public interface SnapshotOperation<R> {
    /**
     * Writes this operation's rows at snapshot {@code s.id()}. Throwing (an {@link SQLException},
     * an {@link dev.fdl.FdlException}) rolls the whole snapshot back: the catalog is unchanged.
     */
    R apply(NewSnapshot s) throws SQLException;
}
