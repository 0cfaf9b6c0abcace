package dev.fdl.store;

import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The store contract of SPEC.md section 2: the few verbs every backend implements, so that
 * everything above it (repository, commit, retention) is backend-agnostic.
 *
 * <p>Keys are relative to the repository root and use {@code /} as separator
 * ({@code refs/heads/main}, {@code versions/<id>/version.json}). ETags are unquoted.
 * Conditional writes are atomic against other processes and machines; a refused one returns
 * {@link WriteResult.Status#PRECONDITION_FAILED}. I/O failures throw {@link StoreException};
 * writes to a read-only store throw {@link ReadOnlyStoreException}.
 */
public interface ObjectStore extends AutoCloseable {
    /**
     * Keys and file names starting with this are the stores' own (a folder's lock and temporary
     * files, the conditional-write probe's objects, downloads in progress): never listed, never
     * served, never an object of a repository.
     */
    String INTERNAL_PREFIX = ".fdl-";

    /** The root as users write it ({@code /abs/path/}, {@code s3://bucket/prefix/}); never with credentials. */
    String root();

    /** A small object read whole (refs, JSON files), or empty when the key does not exist. */
    Optional<ObjectBytes> get(String key);

    /** Streams an object to a local file (replacing it), or returns empty when the key does not exist. */
    Optional<ObjectMeta> download(String key, Path target);

    /** Size, ETag and last-modified of an object, or empty when it does not exist. */
    Optional<ObjectMeta> head(String key);

    /**
     * Whether an object exists, with its size and last-modified time, read from the store's
     * metadata alone: never the object's content (commit step 5 and gc check many large data
     * files this way). The ETag may be null. The default is {@link #head} (S3 and HTTP answer
     * HEAD from metadata).
     */
    default Optional<ObjectMeta> stat(String key) {
        return head(key);
    }

    /** Creates the key only if absent ({@code If-None-Match: *}). */
    WriteResult putIfAbsent(String key, Payload body);

    /** Replaces the key only if its current ETag equals {@code etag} ({@code If-Match}); refused when absent. */
    WriteResult putIfMatch(String key, Payload body, String etag);

    /** Plain write, only for keys no one else writes (a new version folder, a new data file). */
    WriteResult put(String key, Payload body);

    /**
     * A plain write of derived data: an object its writer can make again from other objects and
     * checks when it runs again (the site's pages, docs/site.md), so it need not survive a crash.
     * Readers still never see a partial object, but backends may skip what makes a write durable
     * at once (a local folder does not flush the file to disk before the rename); after a power
     * loss such an object may be empty or missing. The default is {@link #put}. It reports no
     * ETag: the writer checks its objects by the content hashes it records itself (the site's
     * manifest). Why and what it saves: docs/stores.md, "Derived objects".
     *
     * @throws StoreException on I/O failure
     */
    default void putDerived(String key, byte[] body) {
        put(key, body);
    }

    /**
     * Every object whose key starts with {@code prefix}, streamed (never all in memory at once).
     * The caller closes the stream. Order is unspecified.
     */
    Stream<ObjectMeta> list(String prefix);

    /** Deletes the key; deleting an absent key succeeds (idempotent). */
    void delete(String key);

    /**
     * Deletes the key only if its current ETag equals {@code etag} ({@code If-Match} on
     * DeleteObject, S3 API): refused when the object changed or is absent. Backends make the check
     * and the delete one step where they can (a local folder: under its lock; S3: the store
     * evaluates the condition). This default, for a backend that cannot, reads the ETag and then
     * deletes, so a write landing between the two is lost; docs/stores.md names that window.
     *
     * @return true when this call deleted the object, false when refused
     * @throws StoreException on I/O failure
     */
    default boolean deleteIfMatch(String key, String etag) {
        Optional<ObjectMeta> now = head(key);
        if (now.isEmpty() || !ETags.same(now.get().etag(), etag)) return false;
        delete(key);
        return true;
    }

    /**
     * Deletes every key; absent keys are fine (idempotent). Backends delete in as few calls as
     * they can (S3 {@code DeleteObjects}: up to 1,000 keys a request; a local folder: one lock).
     * gc uses it for its batches.
     *
     * @throws StoreException when a key could not be deleted (the others may have been)
     */
    default void deleteAll(java.util.Collection<String> keys) {
        for (String k : keys) delete(k);
    }

    /** False for stores that cannot list keys (HTTP(S) roots): readers then work from HEAD and full ids only. */
    default boolean canList() {
        return true;
    }

    /**
     * Removes what uploads interrupted before they completed left behind, if they started before
     * {@code olderThan} (UTC): a local folder's temporary files ({@code .fdl-tmp-*}, {@code .fdl-dl-*}),
     * S3's incomplete multipart uploads (AbortMultipartUpload), which are invisible to {@link #list}
     * but cost storage. An upload still running is younger than the cutoff gc passes (now minus the
     * grace period, SPEC.md section 5), so it is left alone. The default does nothing.
     *
     * @return how many leftovers were removed
     * @throws StoreException when listing or removing fails
     */
    default int cleanupIncompleteUploads(java.time.Instant olderThan) {
        return 0;
    }

    /**
     * The custom S3 endpoint this store reaches (AWS_ENDPOINT_URL, docs/stores.md), which a
     * reader's DuckDB must be told of; empty for AWS S3 itself and for every other kind of store.
     */
    default Optional<S3ReaderEndpoint> customS3Endpoint() {
        return Optional.empty();
    }

    /**
     * The store's objects as files on this machine ({@link LocalFiles}), for a caller that can
     * do better with a file than with a stream (fdl serve); empty for stores that have none. A
     * caller asks this, never the store's class.
     */
    default Optional<LocalFiles> localFiles() {
        return Optional.empty();
    }

    /**
     * Whether the store's conditional writes must be checked by {@link ConditionalWriteProbe}
     * before a repository relies on them (SPEC.md section 2): true for a remote store, which may
     * ignore {@code If-None-Match}; false where this process enforces them itself (a local folder,
     * under its lock).
     */
    default boolean conditionalWritesNeedProbe() {
        return true;
    }

    /** True for stores that only read (HTTP(S) roots). */
    default boolean readOnly() {
        return false;
    }

    /**
     * The absolute location of a key as DuckDB and DuckLake address it: a local path
     * ({@code /abs/root/data/}) or a URL ({@code s3://bucket/prefix/data/}).
     */
    String location(String key);

    /**
     * Streams part of an object: {@code length} bytes from offset {@code from} ({@code length < 0}:
     * to the end), clipped to the object's size, with the whole object's metadata; empty when the
     * key does not exist. Used to serve HTTP Range requests (RFC 9110 section 14). The default
     * reads the whole object with {@link #get}; backends override it to read only the range.
     *
     * @throws StoreException on I/O failure
     */
    default Optional<RangeRead> read(String key, long from, long length) {
        return get(key).map(b -> {
            byte[] all = b.bytes();
            long start = Math.min(Math.max(0, from), all.length);
            long n = length < 0 ? all.length - start : Math.min(length, all.length - start);
            return new RangeRead(new ObjectMeta(key, all.length, b.etag(), null), start, n,
                    new java.io.ByteArrayInputStream(all, (int) start, (int) n));
        });
    }

    /** Releases clients and connections. */
    @Override
    default void close() {}

    /** Convenience: a small in-memory object created only if absent. */
    default WriteResult putIfAbsent(String key, byte[] body) {
        return putIfAbsent(key, Payload.of(body));
    }

    /** Convenience: a small in-memory object replaced only at {@code etag}. */
    default WriteResult putIfMatch(String key, byte[] body, String etag) {
        return putIfMatch(key, Payload.of(body), etag);
    }

    /** Convenience: a plain write of in-memory bytes. */
    default WriteResult put(String key, byte[] body) {
        return put(key, Payload.of(body));
    }
}
