package dev.fdl.repo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The files a log reads per version (SPEC.md section 4, log), read on a thread of its own beside
 * the walk, which cannot itself read ahead (a version's parents are known once its version.json
 * is parsed).
 * <ul>
 *   <li>version.json, read ahead: where the store names the version ids in one cheap listing
 *   ({@link VersionDatabase#idsNewestFirst}: newest first by id, nearly the walk's order), the
 *   thread reads them in that order, never more than {@value #AHEAD} past the furthest id the walk
 *   has asked for, so a short log reads few files, and not the one right after it. The walk and the
 *   thread each claim an id before reading it: the walk waits for an id the thread is reading and
 *   reads the others itself. A read
 *   ahead is only a cache of {@link VersionDatabase#read}: when it failed, the walk reads the id
 *   itself and meets the failure as it would without read-ahead.</li>
 *   <li>expired.json of each version the log lists, in the order asked for, handed to the thread
 *   {@value #BATCH} at a time: each hand-over wakes the thread, and a wake-up per version cost the
 *   walk more than its read. {@link #finish} waits for them.</li>
 * </ul>
 * {@link #close} stops the reads ahead and waits for the thread: nothing runs after the log.
 */
final class VersionReads implements AutoCloseable, Function<String, Optional<VersionInfo>> {
    /** Expiry ids handed to the thread at once. */
    static final int BATCH = 8;
    /** How many listed ids past the furthest the walk asked for the thread may read. */
    static final int AHEAD = 16;
    /** A waiting thread is woken for reads ahead once this many are open (a wake-up per id costs more than it saves). */
    private static final int RESUME = AHEAD / 2;

    private final VersionDatabase versions;
    /** Listed ids, newest first; empty: no reads ahead. */
    private final List<String> order;
    private final Map<String, Integer> position;
    /** Who reads an id: the walk ({@link #walkClaim}) or the thread (a claim it completes). */
    private final ConcurrentHashMap<String, Claim> claims = new ConcurrentHashMap<>();
    private final Claim walkClaim = new Claim();
    private final Object lock = new Object();
    /** Under lock: the thread reads order[i] for floor < i < limit (floor: the furthest id the walk asked for, and the next), from next on. */
    private int limit;
    private int floor;
    private int next;
    private boolean waiting;
    private boolean ended;
    private final ArrayDeque<List<String>> expiryBatches = new ArrayDeque<>();
    /** Walk thread only: the limit last set, and expiry ids not handed over yet. */
    private int limitSet;
    private List<String> pending = new ArrayList<>(BATCH);
    /** Thread only until it is joined. */
    private final Map<String, ExpiredInfo> expired = new HashMap<>();
    private Throwable failure;
    private final Thread thread;

    /** Starts the reading thread (a daemon: it never keeps the JVM alive). */
    VersionReads(VersionDatabase versions) {
        this.versions = versions;
        this.order = versions.idsNewestFirst();
        this.position = new HashMap<>(order.size() * 2);
        for (int i = 0; i < order.size(); i++) position.put(order.get(i), i);
        this.thread = new Thread(new Runnable() {
            @Override
            public void run() {
                readUntilEnd();
            }
        }, "fdl-version-reads");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * {@link VersionDatabase#read} of {@code id}, taken from the reads ahead when there. Walk
     * thread only. A walk is handed this object rather than a method reference: the class-data
     * archive did not hold the lambda one made.
     */
    @Override
    public Optional<VersionInfo> apply(String id) {
        Integer at = position.get(id);
        if (at != null) allowUpTo(at);
        Claim c = claims.putIfAbsent(id, walkClaim);
        if (c != null && c != walkClaim) {
            Optional<VersionInfo> v = c.await();
            if (v != null) return v;
        }
        return versions.read(id);
    }

    private void allowUpTo(int asked) {
        int to = Math.min(order.size(), asked + 1 + AHEAD);
        if (to <= limitSet) return;
        limitSet = to;
        synchronized (lock) {
            limit = to;
            floor = Math.max(floor, asked + 1);
            int open = open();
            if (waiting && open > 0 && open >= Math.min(RESUME, order.size() - from())) {
                waiting = false;
                lock.notify();
            }
        }
    }

    /**
     * Under lock: how many reads ahead the thread may make now. It leaves the id next after the
     * walk's to the walk: each reading one, the two alternate instead of the walk waiting for
     * the read the thread has just begun.
     */
    private int open() {
        return limit - from();
    }

    private int from() {
        return Math.max(next, floor + 1);
    }

    /** Asks for the expiry of version {@code id}. Walk thread only. */
    void request(String id) {
        pending.add(id);
        if (pending.size() == BATCH) handOver();
    }

    private void handOver() {
        if (pending.isEmpty()) return;
        synchronized (lock) {
            expiryBatches.add(pending);
            if (waiting) {
                waiting = false;
                lock.notify();
            }
        }
        pending = new ArrayList<>(BATCH);
    }

    /**
     * Waits for every expiry asked for; their expiries by id (an id in retention has none).
     *
     * @throws RuntimeException the first failure of a read (a corrupt expired.json, the store's I/O error), as thrown
     */
    Map<String, ExpiredInfo> finish() {
        end();
        if (failure instanceof RuntimeException e) throw e;
        if (failure instanceof Error e) throw e;
        return expired;
    }

    /** Stops after the expiries asked for so far and waits for the thread; a failure is left to {@link #finish}. */
    @Override
    public void close() {
        end();
    }

    /** Waits until the thread waits for work: it has made the reads ahead the walk allowed so far (tests: the bound). */
    void awaitReadsAhead() {
        synchronized (lock) {
            while (!ended && (!waiting || !expiryBatches.isEmpty())) awaitQuietly(lock);
        }
    }

    private void end() {
        synchronized (lock) {
            if (ended) return;
            if (!pending.isEmpty()) expiryBatches.add(pending); // the thread reads the batches left, no more ids ahead
            pending = new ArrayList<>(0);
            ended = true;
            lock.notifyAll();
        }
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
            String ahead = null;
            List<String> batch = null;
            synchronized (lock) {
                while (!ended && expiryBatches.isEmpty() && open() <= 0) {
                    waiting = true; // whoever gives it work clears this and wakes it
                    lock.notifyAll(); // awaitReadsAhead
                    awaitQuietly(lock);
                }
                waiting = false;
                if (!ended && open() > 0) {
                    next = from();
                    ahead = order.get(next++);
                } else if (!expiryBatches.isEmpty()) {
                    batch = expiryBatches.poll();
                } else if (ended) {
                    return;
                }
            }
            if (ahead != null) readAhead(ahead);
            if (batch != null) readExpiries(batch);
        }
    }

    private void readAhead(String id) {
        Claim mine = new Claim();
        if (claims.putIfAbsent(id, mine) != null) return; // the walk reads it
        Optional<VersionInfo> v = null;
        try {
            v = versions.read(id);
        } catch (RuntimeException | Error e) {
            // the walk reads it itself and meets the failure there
        } finally {
            mine.complete(v);
        }
    }

    private void readExpiries(List<String> batch) {
        for (String id : batch) {
            if (failure != null) return;
            try {
                Optional<ExpiredInfo> e = versions.readExpired(id);
                if (e.isPresent()) expired.put(id, e.get());
            } catch (RuntimeException | Error e) {
                failure = e;
            }
        }
    }

    /** Waits on the monitor held; an interrupt only wakes it (the callers check their condition again). */
    private static void awaitQuietly(Object monitor) {
        try {
            monitor.wait();
        } catch (InterruptedException e) {
            // only end() ends the reads: the walk waits for them
        }
    }

    /** A read ahead of one id: null until done, then its result, or null again when it failed. */
    private static final class Claim {
        private boolean done;
        private Optional<VersionInfo> value;

        synchronized void complete(Optional<VersionInfo> v) {
            value = v;
            done = true;
            notifyAll();
        }

        /** The read's result, or null when it failed (the caller reads the id itself). */
        synchronized Optional<VersionInfo> await() {
            boolean interrupted = false;
            while (!done) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            return value;
        }
    }
}
