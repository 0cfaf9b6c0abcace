package dev.fdl.repo;

import dev.fdl.util.BatchedWorker;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The expired.json of each version a log lists (SPEC.md section 4, log), read on a thread of its
 * own while the walk reads the versions' version.json: the reads do not depend on each other, and
 * the walk cannot read ahead (a version's parents are known once its version.json is parsed).
 * Ids are read in the order they are asked for, handed to the thread {@value #BATCH} at a time:
 * each hand-over wakes the thread, and a wake-up per version cost the walk more than its read.
 * {@link #finish} waits for them.
 */
final class ExpiryReads implements AutoCloseable {
    /** Ids handed to the thread at once. */
    static final int BATCH = 8;

    private final Map<String, ExpiredInfo> expired = new HashMap<>();
    private final BatchedWorker<String> worker;

    /** Starts the reading thread (a daemon: it never keeps the JVM alive). */
    ExpiryReads(VersionDatabase versions) {
        // not lambdas: classes fewer to spin up at the start of fdl log
        this.worker = new BatchedWorker<>("fdl-expiry-reads", BATCH, Integer.MAX_VALUE, new Consumer<String>() {
            @Override
            public void accept(String id) {
                Optional<ExpiredInfo> e = versions.readExpired(id);
                if (e.isPresent()) expired.put(id, e.get());
            }
        }, new Runnable() {
            @Override
            public void run() {
                // nothing: every read is in the map
            }
        });
    }

    /** Asks for the expiry of version {@code id}. */
    void request(String id) {
        worker.add(id);
    }

    /**
     * Waits for every id asked for; their expiries by id (an id in retention has none).
     *
     * @throws RuntimeException the first failure of a read (a corrupt expired.json, the store's I/O error), as thrown
     */
    Map<String, ExpiredInfo> finish() {
        worker.finish();
        return expired;
    }

    /** Stops after the ids asked for so far and waits for the thread; a failure is left to {@link #finish}. */
    @Override
    public void close() {
        worker.close();
    }
}
