package dev.fdl.ducklake.load.sync;

import java.util.List;
import java.util.Objects;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.load.ImportResult;

/**
 * What one {@code fdl import --mode sync} did.
 *
 * @param table          the table synced
 * @param snapshot       the DuckLake snapshot it created, or null when the file equals the table
 *                       (nothing was written)
 * @param rows           rows of the table afterwards (the file's rows)
 * @param added          rows new in the file (with a key: keys the table did not have)
 * @param removed        rows of the table the file no longer has
 * @param changed        with a key: rows whose key stayed and whose other values changed (each is
 *                       deleted and written again); 0 without a key
 * @param dataFileKey    the store key of the new Parquet data file, or null when no row was added
 * @param dataBytes      its size in bytes (0 for none)
 * @param deleteFiles    positional delete files written
 * @param deleteBytes    their total size in bytes
 * @param endedFiles     data files whose every row was deleted (they end instead of getting a delete file)
 * @param schemaChanges  the schema changes applied, in words
 * @param createdTable   true when the table did not exist and was created from the file
 * @param key            the key columns the rows were matched on (empty: the whole row)
 * @param keyRecorded    true when {@code key} is the one an earlier {@code sync --key} recorded,
 *                       used because no key was given
 * @param columns        the table's columns after the sync, in table order
 * @param warnings       what the user should know about how the file was read (a column a late value made text), in words
 */
public record SyncResult(TableName table, Long snapshot, long rows, long added, long removed, long changed,
                         String dataFileKey, long dataBytes, int deleteFiles, long deleteBytes, int endedFiles,
                         List<String> schemaChanges, boolean createdTable, List<String> key, boolean keyRecorded,
                         List<ImportResult.Column> columns, List<String> warnings) {
    public SyncResult {
        Objects.requireNonNull(table, "table");
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        schemaChanges = List.copyOf(schemaChanges);
        key = List.copyOf(key);
        columns = List.copyOf(columns);
    }

    /** A sync without warnings. */
    public SyncResult(TableName table, Long snapshot, long rows, long added, long removed, long changed,
                      String dataFileKey, long dataBytes, int deleteFiles, long deleteBytes, int endedFiles,
                      List<String> schemaChanges, boolean createdTable, List<String> key, boolean keyRecorded,
                      List<ImportResult.Column> columns) {
        this(table, snapshot, rows, added, removed, changed, dataFileKey, dataBytes, deleteFiles, deleteBytes, endedFiles,
                schemaChanges, createdTable, key, keyRecorded, columns, List.of());
    }

    /** The same result with {@code more} warnings after its own. */
    public SyncResult withWarnings(List<String> more) {
        List<String> all = new java.util.ArrayList<>(warnings);
        for (String w : more) if (!all.contains(w)) all.add(w);
        return new SyncResult(table, snapshot, rows, added, removed, changed, dataFileKey, dataBytes, deleteFiles, deleteBytes,
                endedFiles, schemaChanges, createdTable, key, keyRecorded, columns, all);
    }

    /** True when the file held exactly the table's rows and columns: no snapshot was made. */
    public boolean unchanged() {
        return snapshot == null;
    }
}
