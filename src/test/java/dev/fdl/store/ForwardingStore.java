package dev.fdl.store;

import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** A store that forwards every call to another, calling {@link #before} first: the base of test wrappers. */
public class ForwardingStore implements ObjectStore {
    protected final ObjectStore delegate;

    public ForwardingStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    /** Called before every operation with its name and key. */
    protected void before(String op, String key) {}

    @Override public String root() { return delegate.root(); }
    @Override public String location(String key) { return delegate.location(key); }
    @Override public Optional<ObjectBytes> get(String key) { before("get", key); return delegate.get(key); }
    @Override public Optional<ObjectMeta> download(String key, Path target) { before("download", key); return delegate.download(key, target); }
    @Override public Optional<ObjectMeta> head(String key) { before("head", key); return delegate.head(key); }
    @Override public Optional<ObjectMeta> stat(String key) { before("stat", key); return delegate.stat(key); }
    @Override public WriteResult putIfAbsent(String key, Payload body) { before("putIfAbsent", key); return delegate.putIfAbsent(key, body); }
    @Override public WriteResult putIfMatch(String key, Payload body, String etag) { before("putIfMatch", key); return delegate.putIfMatch(key, body, etag); }
    @Override public WriteResult put(String key, Payload body) { before("put", key); return delegate.put(key, body); }
    @Override public Stream<ObjectMeta> list(String prefix) { before("list", prefix); return delegate.list(prefix); }
    @Override public void delete(String key) { before("delete", key); delegate.delete(key); }
    @Override public boolean deleteIfMatch(String key, String etag) { before("deleteIfMatch", key); return delegate.deleteIfMatch(key, etag); }
    @Override public boolean readOnly() { return delegate.readOnly(); }
    @Override public int cleanupIncompleteUploads(java.time.Instant olderThan) { before("cleanupIncompleteUploads", ""); return delegate.cleanupIncompleteUploads(olderThan); }
}
