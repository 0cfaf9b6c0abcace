package dev.fdl.store;

import dev.fdl.FdlException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Store calls for many small objects, up to 8 at a time: S3 round trips (and, in a folder, the
 * flush of each file to disk) dominate otherwise. Used for the site's pages and the Iceberg
 * metadata files of a table.
 */
public final class ParallelCalls {
    private static final int THREADS = 8;

    private ParallelCalls() {}

    /** A store call for one key. */
    public interface KeyTask {
        void run(String key);
    }

    /**
     * Runs {@code task} for every key, up to 8 at a time (in this thread when there is one key),
     * and returns when all are done; the threads are ended before it returns.
     *
     * @throws RuntimeException the first failed task's exception (in key order), as it was thrown
     */
    public static void forEach(List<String> keys, KeyTask task) {
        if (keys.size() < 2) {
            for (String k : keys) task.run(k);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, keys.size()), r -> {
            Thread t = new Thread(r, "fdl-store-call");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (String k : keys) fs.add(pool.submit(() -> task.run(k)));
            for (Future<?> f : fs) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    if (e.getCause() instanceof Error err) throw err;
                    throw new FdlException(FdlException.Kind.FAILURE, "a store call failed: " + e.getCause().getMessage(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new FdlException(FdlException.Kind.FAILURE, "interrupted while calling the store", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
