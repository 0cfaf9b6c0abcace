package dev.fdl.store;

/** Fails the k-th store call (1-based) with a StoreException, as a crash at that point would stop the caller. */
public class FaultyStore extends ForwardingStore {
    private final int failAt;
    private int calls;

    public FaultyStore(ObjectStore delegate, int failAt) {
        super(delegate);
        this.failAt = failAt;
    }

    @Override
    protected synchronized void before(String op, String key) {
        if (++calls == failAt) throw new StoreException(key, "injected crash at call " + failAt + " (" + op + " " + key + ")");
    }

    /** Calls seen so far. */
    public synchronized int calls() {
        return calls;
    }
}
