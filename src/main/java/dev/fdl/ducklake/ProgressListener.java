package dev.fdl.ducklake;

/** Told about the progress of a long catalog operation (conversion); for terminal output only. */
@FunctionalInterface
public interface ProgressListener {
    /** Ignores all progress. */
    ProgressListener NONE = (table, rows, done, total) -> { };

    /**
     * A table was copied.
     *
     * @param table the {@code ducklake_*} table
     * @param rows rows copied for it
     * @param tablesDone tables copied so far, including this one
     * @param tablesTotal tables to copy
     */
    void tableCopied(String table, long rows, int tablesDone, int tablesTotal);
}
