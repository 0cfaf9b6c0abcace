package dev.fdl.ducklake.catalog;

import java.util.Objects;

/**
 * A data or delete file named by a catalog.
 *
 * @param location the file's location resolved against data path, schema path and table path
 *     (absolute when the data path is)
 * @param deleteFile true for a positional delete file, false for a data file
 * @param bytes file size in bytes as recorded ({@code file_size_bytes}), -1 if not recorded
 * @param relative whether the catalog records the file path relative to its table path
 */
public record CatalogFile(String location, boolean deleteFile, long bytes, boolean relative) {
    public CatalogFile {
        Objects.requireNonNull(location, "location");
    }
}
