package dev.fdl.repo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;

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

    private final VersionDatabase versions;
    /** Batches of ids; an empty one marks the end. */
    private final LinkedBlockingQueue<List<String>> ids = new LinkedBlockingQueue<>();
    /** Ids asked for and not handed over yet (only the asking thread uses it). */
    private List<String> pending = new ArrayList<>(BATCH);
    private final Map<String, ExpiredInfo> expired = new HashMap<>();
    private final Thread thread;
    private Throwable failure;
    private boolean ended;

    /** Starts the reading thread (a daemon: it never keeps the JVM alive). */
    ExpiryReads(VersionDatabase versions) {
        this.versions = versions;
        this.thread = new Thread(new Runnable() {
            @Override
            public void run() {
                readUntilEnd();
            }
        }, "fdl-expiry-reads");
        thread.setDaemon(true);
        thread.start();
    }

    /** Asks for the expiry of version {@code id}. */
    void request(String id) {
        pending.add(id);
        if (pending.size() == BATCH) handOver();
    }

    private void handOver() {
        if (pending.isEmpty()) return;
        ids.add(pending);
        pending = new ArrayList<>(BATCH);
    }

    /**
     * Waits for every id asked for; their expiries by id (an id in retention has none).
     *
     * @throws RuntimeException the first failure of a read (a corrupt expired.json, the store's I/O error), as thrown
     */
    Map<String, ExpiredInfo> finish() {
        end();
        if (failure instanceof RuntimeException e) throw e;
        if (failure instanceof Error e) throw e;
        return expired;
    }

    /** Stops after the ids asked for so far and waits for the thread; a failure is left to {@link #finish}. */
    @Override
    public void close() {
        end();
    }

    private void end() {
        if (ended) return;
        ended = true;
        handOver();
        ids.add(List.of());
        boolean interrupted = false;
        while (true) {
            try {
                thread.join(); // its writes to expired and failure happen-before join's return
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void readUntilEnd() {
        while (true) {
            List<String> batch;
            try {
                batch = ids.take();
            } catch (InterruptedException e) {
                continue; // only end() ends the reads: the caller waits for them
            }
            if (batch.isEmpty()) return;
            for (String id : batch) {
                if (failure != null) break;
                try {
                    Optional<ExpiredInfo> e = versions.readExpired(id);
                    if (e.isPresent()) expired.put(id, e.get());
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
            }
        }
    }
}
