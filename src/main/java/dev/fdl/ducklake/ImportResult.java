package dev.fdl.ducklake;

import java.util.List;
import java.util.Objects;

/**
 * What one {@code fdl import} recorded in the working catalog.
 *
 * @param table         the table written
 * @param snapshot      the DuckLake snapshot the import created
 * @param rows          rows written (the data file's record count)
 * @param dataFileKey   the store key of the new Parquet data file
 * @param fileSizeBytes its size in bytes
 * @param createdTable  true when the import created the table (mode create, or replace of a missing table)
 * @param columns       the table's columns after the import, as {@code name DuckDB-type}
 */
public record ImportResult(TableName table, long snapshot, long rows, String dataFileKey, long fileSizeBytes,
                           boolean createdTable, List<String> columns) {
    public ImportResult {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(dataFileKey, "dataFileKey");
        if (rows < 0 || fileSizeBytes < 0) throw new IllegalArgumentException("negative rows or size");
        columns = List.copyOf(columns);
    }
}
