package dev.fdl.ducklake;

import java.time.Instant;

/**
 * One DuckLake snapshot (a row of {@code ducklake_snapshot} with its
 * {@code ducklake_snapshot_changes}).
 *
 * @param id snapshot id
 * @param time commit time, UTC
 * @param changes DuckLake's {@code changes_made} list, e.g. {@code inlined_insert:1}; may be null
 * @param author commit author, or null
 * @param message commit message, or null
 */
public record SnapshotInfo(long id, Instant time, String changes, String author, String message) {
    public SnapshotInfo {
        if (id < 0) {
            throw new IllegalArgumentException("snapshot id must not be negative: " + id);
        }
    }
}
