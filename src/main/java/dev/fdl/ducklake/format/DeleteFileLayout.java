package dev.fdl.ducklake.format;

import dev.fdl.util.SqlQuote;

import java.nio.file.Path;

/**
 * The layout of a DuckLake positional delete file (DuckLake spec, "Delete files"; DUCKLAKE.md):
 * a Parquet file of {@code file_path VARCHAR, pos BIGINT} sorted by {@code pos}, whose columns
 * carry Iceberg's reserved field ids, as the DuckLake extension writes them.
 */
public final class DeleteFileLayout {
    /** Parquet field id of {@code file_path}. */
    public static final long FILE_PATH_FIELD_ID = 2147483646L;
    /** Parquet field id of {@code pos}. */
    public static final long POS_FIELD_ID = 2147483645L;

    private DeleteFileLayout() {}

    /**
     * The DuckDB statement that writes the delete file {@code file} for the data file at
     * {@code dataFilePath} (as the catalog resolves it) from {@code positions}, a query of one
     * column {@code pos} (row positions, 0-based); its update count is the number of rows written.
     */
    public static String copy(String dataFilePath, String positions, Path file) {
        return "COPY (SELECT CAST(" + SqlQuote.literal(dataFilePath) + " AS VARCHAR) AS file_path, CAST(pos AS BIGINT) AS pos "
                + "FROM (" + positions + ") ORDER BY pos) TO " + SqlQuote.literal(file.toAbsolutePath().toString())
                + " (FORMAT parquet, FIELD_IDS {file_path: " + FILE_PATH_FIELD_ID + ", pos: " + POS_FIELD_ID + "})";
    }
}
