package dev.fdl.ducklake.engine;

import dev.fdl.ducklake.DataProgress;
import org.duckdb.DuckDBPreparedStatement;
import org.duckdb.QueryProgress;

import java.sql.Statement;
import java.sql.SQLException;

/**
 * Reports the progress of one long DuckDB statement (rows processed of rows to process, as DuckDB's
 * own progress bar counts them, or its share of the work done as a share of a known amount; {@code DuckDBPreparedStatement.getQueryProgress}) while it runs, polled from
 * a daemon thread every 250 ms. With {@link DataProgress#NONE} the statement just runs.
 */
public final class QueryProgressWatch {
    /** A statement to run. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws SQLException;
    }

    private QueryProgressWatch() {}

    /** Runs {@code call}, which executes one statement on {@code st}, reporting its progress as {@code phase} in rows. */
    public static <T> T watch(Statement st, DataProgress progress, String phase, Call<T> call) throws SQLException {
        return watch(st, progress, phase, -1, "rows", call);
    }

    /**
     * Runs {@code call}, which executes statements on {@code st}'s connection, reporting as {@code phase}
     * DuckDB's share of the work done ({@code QueryProgress.getPercentage}) of {@code total}
     * {@code unit}s: the bytes of the file a statement reads, say, whose rows DuckDB counts in units
     * of its own (a CSV reader's are not rows). With {@code total < 0}, DuckDB's own row counts, as
     * rows: for statements over tables and Parquet files, whose units are rows.
     */
    public static <T> T watchShare(Statement st, DataProgress progress, String phase, long total, String unit, Call<T> call)
            throws SQLException {
        return watch(st, progress, phase, total, unit, call);
    }

    private static <T> T watch(Statement st, DataProgress progress, String phase, long share, String unit, Call<T> call)
            throws SQLException {
        if (!progress.shown()) return call.run();
        DuckDBPreparedStatement conn = st.unwrap(DuckDBPreparedStatement.class);
        st.execute("SET enable_progress_bar = true");
        st.execute("SET enable_progress_bar_print = false");
        long[] total = {0};
        Thread watcher = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(250);
                    QueryProgress p = conn.getQueryProgress();
                    if (p == null) continue;
                    if (share > 0 && p.getPercentage() >= 0 && p.getPercentage() < 100) {
                        total[0] = share;
                        progress.update(phase, (long) (p.getPercentage() / 100 * share), share, unit);
                    } else if (share < 0 && p.getTotalRowsToProcess() > 0 && p.getRowsProcessed() < p.getTotalRowsToProcess()) {
                        total[0] = p.getTotalRowsToProcess();
                        progress.update(phase, p.getRowsProcessed(), total[0], unit);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (SQLException | RuntimeException e) {
                // progress is only shown, never needed: stop showing it
            }
        }, "fdl-query-progress");
        watcher.setDaemon(true);
        watcher.start();
        try {
            return call.run();
        } finally {
            watcher.interrupt();
            try {
                watcher.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (total[0] > 0) progress.update(phase, total[0], total[0], unit); // the step ended: its line goes
        }
    }
}
