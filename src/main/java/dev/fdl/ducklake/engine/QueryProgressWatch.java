package dev.fdl.ducklake.engine;

import dev.fdl.ducklake.DataProgress;
import org.duckdb.DuckDBPreparedStatement;
import org.duckdb.QueryProgress;

import java.sql.Statement;
import java.sql.SQLException;

/**
 * Reports the progress of one long DuckDB statement (rows processed of rows to process, as DuckDB's
 * own progress bar counts them, {@code DuckDBPreparedStatement.getQueryProgress}) while it runs, polled from
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
                    if (p != null && p.getTotalRowsToProcess() > 0 && p.getRowsProcessed() < p.getTotalRowsToProcess()) {
                        total[0] = p.getTotalRowsToProcess();
                        progress.update(phase, p.getRowsProcessed(), total[0], "rows");
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
            if (total[0] > 0) progress.update(phase, total[0], total[0], "rows"); // the step ended: its line goes
        }
    }
}
