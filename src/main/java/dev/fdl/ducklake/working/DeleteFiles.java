package dev.fdl.ducklake.working;

import dev.fdl.ducklake.format.DeleteFileLayout;
import dev.fdl.util.SqlQuote;
import dev.fdl.util.VersionIds;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Rows deleted from a table's data files, as the DuckLake extension records a {@code DELETE}
 * (DUCKLAKE.md "Data"; DuckLake spec, "Delete files"): a data file keeps one visible delete file,
 * so a data file with new deletes gets a new delete file holding every deleted position and its
 * previous one ends; a data file whose every row is deleted ends instead, and the table's
 * statistics lose its rows and bytes. Used by sync and by the merge alike.
 */
public final class DeleteFiles {
    /** A new delete file for data file {@code dataFileId}: its name in the table's folder, positions held and sizes in bytes. */
    public record Written(long dataFileId, String fileName, long deleteCount, long fileSizeBytes, long footerSize) {}

    /** A data file whose every row is deleted: it ends, with its row count and size in bytes. */
    public record Ended(long dataFileId, long recordCount, long fileSizeBytes) {}

    private DeleteFiles() {}

    /**
     * Writes the delete file {@code file} of data file {@code dataFileId}, whose path as the
     * catalog resolves it is {@code dataFilePath}, from {@code positions} (a query of one column
     * {@code pos}: every position deleted afterwards, the earlier deletes included), under a new
     * name {@code ducklake-<uuidv7>-delete.parquet} for the caller to upload.
     */
    public static Written write(Connection duck, long dataFileId, String dataFilePath, String positions, Path file) throws SQLException {
        long count;
        try (Statement st = duck.createStatement()) {
            st.execute(DeleteFileLayout.copy(dataFilePath, positions, file));
            count = st.getUpdateCount();
        }
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT file_size_bytes, footer_size FROM parquet_file_metadata("
                     + SqlQuote.literal(file.toAbsolutePath().toString()) + ")")) {
            rs.next();
            return new Written(dataFileId, "ducklake-" + VersionIds.next() + "-delete.parquet", count, rs.getLong(1), rs.getLong(2));
        }
    }

    /**
     * Records in snapshot {@code s} the ended data files and the new delete files of table
     * {@code tableId}, and {@code deleted_from_table} when there is either.
     */
    public static void record(NewSnapshot s, long tableId, List<Written> deletes, List<Ended> ended) throws SQLException {
        WorkingCatalog catalog = s.catalog();
        for (Ended f : ended) {
            s.endRows("ducklake_data_file", "data_file_id = ?", f.dataFileId());
            s.endRows("ducklake_delete_file", "data_file_id = ?", f.dataFileId());
            catalog.update("UPDATE ducklake_table_stats SET record_count = max(record_count - ?, 0), "
                    + "file_size_bytes = max(file_size_bytes - ?, 0) WHERE table_id = ?", f.recordCount(), f.fileSizeBytes(), tableId);
        }
        for (Written d : deletes) {
            s.endRows("ducklake_delete_file", "data_file_id = ?", d.dataFileId());
            catalog.update("INSERT INTO ducklake_delete_file (delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, "
                    + "path, path_is_relative, format, delete_count, file_size_bytes, footer_size, encryption_key, partial_max) "
                    + "VALUES (?, ?, ?, NULL, ?, ?, 1, 'parquet', ?, ?, ?, NULL, NULL)",
                    s.newFileId(), tableId, s.id(), d.dataFileId(), d.fileName(), d.deleteCount(), d.fileSizeBytes(), d.footerSize());
        }
        if (!deletes.isEmpty() || !ended.isEmpty()) s.change("deleted_from_table:" + tableId);
    }
}
