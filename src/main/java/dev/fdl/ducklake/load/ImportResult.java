package dev.fdl.ducklake.load;

import java.util.List;
import java.util.Objects;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.working.ImportPlan;

/**
 * What one {@code fdl import} recorded in the working catalog.
 *
 * @param table         the table written
 * @param snapshot      the DuckLake snapshot the import created
 * @param rows          rows written (the data file's record count)
 * @param dataFileKey   the store key of the first new Parquet data file
 * @param fileSizeBytes the size in bytes of all new data files together
 * @param createdTable  true when the import created the table (mode create, or replace of a missing table)
 * @param columns       the table's columns after the import, in table order
 * @param dataFileKeys  the store keys of every new data file, in row order ({@code dataFileKey} first): more than one
 *                      when the rows outgrew the target file size
 * @param warnings      what the user should know about how the file was read (a column a late value made text), in words
 */
public record ImportResult(TableName table, long snapshot, long rows, String dataFileKey, long fileSizeBytes,
                           boolean createdTable, List<Column> columns, List<String> dataFileKeys, List<String> warnings) {
    public ImportResult {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        dataFileKeys = dataFileKeys == null ? List.of(dataFileKey) : List.copyOf(dataFileKeys);
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(dataFileKey, "dataFileKey");
        if (rows < 0 || fileSizeBytes < 0) throw new IllegalArgumentException("negative rows or size");
        columns = List.copyOf(columns);
    }

    /** An import without warnings. */
    public ImportResult(TableName table, long snapshot, long rows, String dataFileKey, long fileSizeBytes,
                        boolean createdTable, List<Column> columns, List<String> dataFileKeys) {
        this(table, snapshot, rows, dataFileKey, fileSizeBytes, createdTable, columns, dataFileKeys, List.of());
    }

    /**
     * A column of the table after an import (or sync).
     *
     * @param name the column's name
     * @param type its DuckDB type, e.g. {@code BIGINT}, {@code DECIMAL(10,2)}, {@code STRUCT(a INTEGER)}
     */
    public record Column(String name, String type) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }

        /** {@code name TYPE}, as people read it (ambiguous when the name holds a space: scripts use the parts). */
        public String text() {
            return name + " " + type;
        }
    }

    /** The columns a plan writes, in table order. */
    public static List<Column> of(List<ImportPlan.Column> planned) {
        return planned.stream().map(c -> new Column(c.name(), c.duckType())).toList();
    }
}
