package dev.fdl.ducklake;

/** What happens to an existing table. */
public enum ImportMode {
    /** Create the table; refused when it exists. */
    CREATE,
    /** Replace the table's rows (and columns) with the file's; creates the table when missing. */
    REPLACE,
    /** Add the file's rows to the existing table; the file's columns must be the table's. */
    APPEND,
    /**
     * Make the table hold exactly the file's rows, writing only the difference (rows matched on a
     * key or on whole rows); creates the table when missing. Run by {@code load.sync.Syncer}.
     */
    SYNC
}
