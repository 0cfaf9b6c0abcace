package dev.fdl.site;

import dev.fdl.FdlException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Store calls for many small objects, 8 at a time: S3 round trips dominate otherwise. */
final class Parallel {
    private Parallel() {}

    /** A store call for one key. */
    interface KeyTask {
        void run(String key);
    }

    /**
     * Runs {@code task} for every key, 8 at a time (in this thread when fewer than 4), and returns
     * when all are done; the pool is shut down before it returns.
     *
     * @throws RuntimeException the first task's failure, as it was thrown
     */
    static void forEach(List<String> keys, KeyTask task) {
        if (keys.size() < 4) {
            for (String k : keys) task.run(k);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (String k : keys) fs.add(pool.submit(() -> task.run(k)));
            for (Future<?> f : fs) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    throw new FdlException(FdlException.Kind.FAILURE, "writing the site failed: " + e.getCause().getMessage(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new FdlException(FdlException.Kind.FAILURE, "interrupted while writing the site", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
