package dev.fdl.store;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Crash injection for tests: fails the k-th counted store call (1-based) and every one after it
 * with a {@link StoreException}, as if the process had died there. Counted are either only the
 * mutating calls (put, putIfAbsent, putIfMatch, delete; reads keep working so the test can
 * inspect the state) or every call ({@link #atCall}).
 */
public final class FaultyStore extends ForwardingStore {
    private final int failAt;
    private final boolean everyCall;
    private final AtomicInteger mutations = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();

    /** Fails mutating call number {@code failAt} and all later ones. */
    public FaultyStore(ObjectStore inner, int failAt) {
        this(inner, failAt, false);
    }

    private FaultyStore(ObjectStore inner, int failAt, boolean everyCall) {
        super(inner);
        this.failAt = failAt;
        this.everyCall = everyCall;
    }

    /** Fails store call number {@code k} (reads included) and all later ones. */
    public static FaultyStore atCall(ObjectStore inner, int k) {
        return new FaultyStore(inner, k, true);
    }

    /** Mutating calls attempted so far. */
    public int mutations() {
        return mutations.get();
    }

    /** Calls of any kind attempted so far. */
    public int calls() {
        return calls.get();
    }

    @Override
    protected void before(String op, String key) {
        int c = calls.incrementAndGet();
        boolean mutating = op.startsWith("put") || op.equals("delete");
        int m = mutating ? mutations.incrementAndGet() : mutations.get();
        if (everyCall ? c >= failAt : mutating && m >= failAt)
            throw new StoreException(key, "injected crash at " + (everyCall ? "call " : "mutation ") + failAt + " (" + op + " " + key + ")");
    }
}
