package dev.fdl.store;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Counts the calls a store receives, for tests and benchmarks: LIST pages (S3 returns at most
 * 1,000 keys per page, so a listing of n keys costs max(1, ceil(n / 1000)) pages), GETs (get and
 * download), HEADs, metadata-only stats, writes and deletes, and the keys whose content may have
 * been read. Optionally runs a hook when a listing of a prefix starts
 * (to interleave a concurrent writer deterministically).
 */
public final class CountingStore implements ObjectStore {
    private final ObjectStore inner;
    public final AtomicLong listCalls = new AtomicLong(), listed = new AtomicLong(), listPages = new AtomicLong(),
            gets = new AtomicLong(), downloads = new AtomicLong(), heads = new AtomicLong(),
            writes = new AtomicLong(), deletes = new AtomicLong(), stats = new AtomicLong();
    /** Keys whose content the store may have read: every get, download and head (a local head hashes small files). */
    public final java.util.Queue<String> contentReads = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile String hookPrefix;
    private volatile Consumer<String> hook;

    public CountingStore(ObjectStore inner) {
        this.inner = inner;
    }

    /** Runs {@code action} once, when a listing of exactly {@code prefix} is first opened. */
    public void onFirstList(String prefix, Consumer<String> action) {
        this.hookPrefix = prefix;
        this.hook = action;
    }

    /** Zeroes every counter. */
    public void reset() {
        for (AtomicLong a : new AtomicLong[]{listCalls, listed, listPages, gets, downloads, heads, writes, deletes, stats}) a.set(0);
        contentReads.clear();
    }

    @Override public String root() { return inner.root(); }
    @Override public String location(String key) { return inner.location(key); }
    @Override public boolean readOnly() { return inner.readOnly(); }
    @Override public int cleanupIncompleteUploads(java.time.Instant olderThan) { return inner.cleanupIncompleteUploads(olderThan); }

    @Override
    public Optional<ObjectBytes> get(String key) {
        gets.incrementAndGet();
        contentReads.add(key);
        return inner.get(key);
    }

    @Override
    public Optional<ObjectMeta> download(String key, Path target) {
        downloads.incrementAndGet();
        contentReads.add(key);
        return inner.download(key, target);
    }

    @Override
    public Optional<ObjectMeta> head(String key) {
        heads.incrementAndGet();
        contentReads.add(key);
        return inner.head(key);
    }

    @Override
    public Optional<ObjectMeta> stat(String key) {
        stats.incrementAndGet();
        return inner.stat(key);
    }

    @Override
    public WriteResult putIfAbsent(String key, Payload body) {
        writes.incrementAndGet();
        return inner.putIfAbsent(key, body);
    }

    @Override
    public WriteResult putIfMatch(String key, Payload body, String etag) {
        writes.incrementAndGet();
        return inner.putIfMatch(key, body, etag);
    }

    @Override
    public void putDerived(String key, byte[] body) {
        writes.incrementAndGet();
        inner.putDerived(key, body);
    }

    @Override
    public WriteResult put(String key, Payload body) {
        writes.incrementAndGet();
        return inner.put(key, body);
    }

    @Override
    public void deleteAll(java.util.Collection<String> keys) {
        deletes.addAndGet(keys.size());
        inner.deleteAll(keys);
    }

    @Override
    public void delete(String key) {
        deletes.incrementAndGet();
        inner.delete(key);
    }

    @Override
    public boolean deleteIfMatch(String key, String etag) {
        deletes.incrementAndGet();
        return inner.deleteIfMatch(key, etag);
    }

    @Override
    public Stream<ObjectMeta> list(String prefix) {
        Consumer<String> h = hook;
        if (h != null && prefix.equals(hookPrefix)) {
            hook = null;
            h.accept(prefix);
        }
        listCalls.incrementAndGet();
        long[] n = {0};
        return inner.list(prefix).peek(m -> {
            n[0]++;
            listed.incrementAndGet();
            if (n[0] % 1000 == 1) listPages.incrementAndGet();
        }).onClose(() -> {
            if (n[0] == 0) listPages.incrementAndGet();
        });
    }
}
