package dev.fdl.store;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Crash injection for tests: wraps a store and fails the {@code k}-th mutating call (put,
 * putIfAbsent, putIfMatch, delete) and every one after it with a {@link StoreException}, as if the
 * process had died there. Reads keep working so the test can inspect the state.
 */
public final class FaultyStore implements ObjectStore {
    private final ObjectStore inner;
    private final int failAt;
    private final AtomicInteger mutations = new AtomicInteger();

    /** Fails mutating call number {@code failAt} (1-based) and all later ones. */
    public FaultyStore(ObjectStore inner, int failAt) {
        this.inner = inner;
        this.failAt = failAt;
    }

    /** Mutating calls attempted so far. */
    public int mutations() {
        return mutations.get();
    }

    private void mutate(String key) {
        if (mutations.incrementAndGet() >= failAt) throw new StoreException(key, "injected crash at mutation " + failAt);
    }

    @Override public String root() { return inner.root(); }
    @Override public Optional<ObjectBytes> get(String key) { return inner.get(key); }
    @Override public Optional<ObjectMeta> download(String key, Path target) { return inner.download(key, target); }
    @Override public Optional<ObjectMeta> head(String key) { return inner.head(key); }
    @Override public Stream<ObjectMeta> list(String prefix) { return inner.list(prefix); }
    @Override public String location(String key) { return inner.location(key); }

    @Override
    public WriteResult putIfAbsent(String key, Payload body) {
        mutate(key);
        return inner.putIfAbsent(key, body);
    }

    @Override
    public WriteResult putIfMatch(String key, Payload body, String etag) {
        mutate(key);
        return inner.putIfMatch(key, body, etag);
    }

    @Override
    public WriteResult put(String key, Payload body) {
        mutate(key);
        return inner.put(key, body);
    }

    @Override
    public void delete(String key) {
        mutate(key);
        inner.delete(key);
    }
}
