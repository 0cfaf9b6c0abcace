package dev.fdl.ducklake.load;

import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.engine.QueryProgressWatch;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The one writer of new data files for import, sync and compaction: DuckDB's {@code COPY … TO}
 * a folder as Parquet with the columns' field ids (the DuckLake column ids) and
 * {@code FILE_SIZE_BYTES}, so a file stops once it reaches the target size and the next begins
 * (DuckLake's {@code target_file_size}). DuckDB checks the size after each row group, so a file may
 * pass the target by up to one row group. Row ids are given file by file in the files' order
 * (DuckDB numbers them {@code data_0.parquet}, {@code data_1.parquet}, …; {@code
 * ducklake_data_file.row_id_start}) and by position within a file. A file holds its rows in the
 * query's order, but DuckDB's parallel writer does not keep that order across files: nothing may
 * assume that a row's id follows its place in the source.
 */
public final class DataFileWriter {
    /** DuckLake's default {@code target_file_size}: 512 MiB. */
    public static final long DEFAULT_TARGET_FILE_SIZE = 512L << 20;

    private DataFileWriter() {}

    /**
     * The rows of {@code select} (a query whose columns are {@code columns}' names, in order) written
     * into the empty or missing folder {@code folder}.
     *
     * @param targetBytes the target file size in bytes (0: {@link #DEFAULT_TARGET_FILE_SIZE})
     * @param progress    told the rows DuckDB has processed while it writes
     * @return the files written, in the order their row ids are given (empty when the query had no row)
     */
    public static Written write(Connection duck, String select, List<ImportPlan.Column> columns, Path folder, long targetBytes,
                                DataProgress progress) throws SQLException {
        return write(duck, select, columns, folder, targetBytes, progress, -1);
    }

    /**
     * {@link #write(Connection, String, List, Path, long, DataProgress)}, progress told in bytes of
     * the source files {@code select} reads ({@code sourceBytes} of them; DuckDB's share of the work
     * done): a CSV reader's progress counts units of its own, not rows. {@code sourceBytes < 0}: in rows.
     */
    public static Written write(Connection duck, String select, List<ImportPlan.Column> columns, Path folder, long targetBytes,
                                DataProgress progress, long sourceBytes) throws SQLException {
        StringBuilder fieldIds = new StringBuilder("{");
        for (ImportPlan.Column c : columns) {
            if (fieldIds.length() > 1) fieldIds.append(", ");
            fieldIds.append(SqlQuote.literal(c.name())).append(": ").append(c.id());
        }
        fieldIds.append('}');
        long target = targetBytes > 0 ? targetBytes : DEFAULT_TARGET_FILE_SIZE;
        String sql = "COPY (" + select + ") TO " + SqlQuote.literal(folder.toAbsolutePath().toString())
                + " (FORMAT parquet, FIELD_IDS " + fieldIds + ", FILE_SIZE_BYTES " + target + ", OVERWRITE_OR_IGNORE true)";
        long rows;
        progress.update("writing data files", 0, sourceBytes, sourceBytes < 0 ? "rows" : "bytes");
        try (Statement st = duck.createStatement()) {
            rows = QueryProgressWatch.watchShare(st, progress, "writing data files", sourceBytes, sourceBytes < 0 ? "rows" : "bytes", () -> {
                st.execute(sql);
                return (long) st.getUpdateCount();
            });
        }
        return new Written(rows, rows == 0 ? List.of() : files(folder));
    }

    /** What {@link #write} wrote: the row count and the files in the order their row ids are given. */
    public record Written(long rows, List<Path> files) {
        public Written {
            files = List.copyOf(files);
        }
    }

    /** The {@code data_N.parquet} files of {@code folder}, by N. */
    private static List<Path> files(Path folder) {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .sorted(Comparator.comparingLong(DataFileWriter::index).thenComparing(Comparator.naturalOrder()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder, e);
        }
    }

    /** The number DuckDB gave the file ({@code data_N.parquet}: N). */
    static long index(Path p) {
        String n = p.getFileName().toString().replaceAll("\\D", "");
        return n.isEmpty() ? 0 : Long.parseLong(n.length() > 18 ? n.substring(0, 18) : n);
    }
}
