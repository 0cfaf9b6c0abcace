package dev.fdl.ducklake.load;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.MemoryBudget;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * Why a Parquet import or sync ran out of its memory budget when the file's row groups are the
 * cause: DuckDB reads a row group whole (its compressed column chunks in one block, then the
 * decompressed pages), one row group per thread, so a file written with one huge row group needs
 * memory by that row group's size whatever the budget. The sizes come from DuckDB's own
 * {@code parquet_metadata()} (the files' footers, read without the data).
 *
 * <p>The memory a row group needs is taken as {@link #IMPORT_NEED} (a sync: {@link #SYNC_NEED}) times its
 * uncompressed size, times the row groups read at once (the budget's threads, at most the row
 * groups): the reader's block and pages and the import's own writer come on top of the data
 * (docs/data.md, "Memory", has the sizes measured).
 */
public final class ParquetRowGroups {
    private ParquetRowGroups() {}

    /** Memory a row group needs while an import reads it, per byte of its uncompressed size. */
    public static final int IMPORT_NEED = 3;
    /** The same while a sync reads it: its rows also fill the join with the table's (docs/data.md, "Memory"). */
    public static final int SYNC_NEED = 5;

    /** The largest row group of some files: where, its rows and sizes in bytes, and how many row groups there are in all. */
    record Largest(Path file, long rowGroup, long rows, long uncompressed, long compressed, long rowGroups) {}

    /**
     * {@code failure} reworded when it is DuckDB running out of memory while {@code files} were
     * read as Parquet and their largest row group needs more than the budget: names the file, the
     * row group's rows and sizes, and a {@code --memory} that holds it; else {@code failure} as it is.
     * {@code perByte}: memory needed per uncompressed byte of a row group ({@link #IMPORT_NEED}, {@link #SYNC_NEED}).
     */
    public static FdlException explain(DuckDbPool pool, List<Path> files, ImportFormat format, int perByte, FdlException failure) {
        MemoryBudget budget = pool.budget();
        if (format != ImportFormat.PARQUET || budget == null || !outOfMemory(failure)) return failure;
        Largest big;
        try (Connection duck = pool.connection()) {
            big = largest(duck, files);
        } catch (SQLException | RuntimeException e) {
            return failure; // the footers cannot be read: DuckDB's own words stand
        }
        // blamed only when reading the row groups alone exceeds the budget; the advice adds what the command does with the rows
        if (big == null || need(big, budget.threads(), IMPORT_NEED) <= budget.bytes()) return failure;
        long memory = memoryFor(big, perByte);
        return new FdlException(FdlException.Kind.FAILURE, String.format(Locale.ROOT, "cannot import %s: its row groups do not fit the "
                + "memory budget (%s): DuckDB reads a row group whole, one per thread, and the largest (row group %d of %d, %,d rows) "
                + "holds %s uncompressed (%s compressed). Give --memory %dMB or more, or write the file with smaller row groups "
                + "(DuckDB: COPY (FROM %s) TO %s (ROW_GROUP_SIZE 122880)); nothing was changed", big.file(), budget,
                big.rowGroup(), big.rowGroups(), big.rows(), mb(big.uncompressed()), mb(big.compressed()), memory / 1_000_000,
                SqlQuote.literal(big.file().toString()), SqlQuote.literal(smaller(big.file()).toString())), failure);
    }

    /** Where the advised rewrite goes: beside {@code file}, named for what it holds ({@code x.parquet} → {@code x-smaller-row-groups.parquet}). */
    static Path smaller(Path file) {
        String name = file.getFileName().toString();
        String stem = name.toLowerCase(Locale.ROOT).endsWith(".parquet") ? name.substring(0, name.length() - ".parquet".length()) : name;
        return file.resolveSibling(stem + "-smaller-row-groups.parquet");
    }

    /** Whether DuckDB's out-of-memory error is behind {@code failure} (anywhere in its causes). */
    public static boolean outOfMemory(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause())
            if (t instanceof SQLException && DuckDbErrors.outOfMemory(t.getMessage()) != null) return true;
        return false;
    }

    /** The largest row group (by uncompressed bytes) of {@code files}, from {@code parquet_metadata()}; null for none. */
    static Largest largest(Connection duck, List<Path> files) throws SQLException {
        String list = "[" + String.join(", ", files.stream().map(f -> SqlQuote.literal(f.toAbsolutePath().toString())).toList()) + "]";
        String groups = "SELECT file_name, row_group_id, any_value(row_group_num_rows) AS n, sum(total_uncompressed_size) AS u, "
                + "sum(total_compressed_size) AS c FROM parquet_metadata(" + list + ") GROUP BY file_name, row_group_id";
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT file_name, row_group_id, n, u, c, (SELECT count(*) FROM (" + groups + ")) FROM ("
                     + groups + ") ORDER BY u DESC LIMIT 1")) {
            if (!rs.next()) return null;
            return new Largest(Path.of(rs.getString(1)), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6));
        }
    }

    /** Bytes needed to read {@code big} with {@code threads} threads: one such row group per thread, at most as many as there are. */
    static long need(Largest big, int threads, int perByte) {
        return perByte * big.uncompressed() * Math.min(threads, big.rowGroups());
    }

    /**
     * The smallest budget, in whole MB, that holds {@link #need} with the threads that budget
     * itself gives ({@link MemoryBudget#of}: more memory, more threads, more row groups at once).
     */
    static long memoryFor(Largest big, int perByte) {
        long bytes = need(big, 1, perByte);
        for (int i = 0; i < 64; i++) {
            long needed = need(big, MemoryBudget.of(Math.max(bytes, MemoryBudget.MINIMUM), null).threads(), perByte);
            if (needed <= bytes) break;
            bytes = needed;
        }
        return (bytes + 999_999) / 1_000_000 * 1_000_000;
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
