package dev.fdl.store;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * What one {@link S3Store} found out about its endpoint and bucket, each probed once per store,
 * before the first request that depends on it: that a second create-only write is refused
 * (SPEC.md section 2, {@link ConditionalWriteProbe}: a store that ignores conditional headers is
 * refused), and whether {@code If-Match} on DeleteObject is honoured. The answers are held here,
 * per store (a command opens its repository's store once), never in static state.
 */
final class S3Probes {
    private final S3Store store;
    private final Object lock = new Object();
    private volatile boolean writesProbed;
    private volatile Thread probing;
    private volatile Boolean conditionalDeletes;

    S3Probes(S3Store store) {
        this.store = store;
    }

    /** Runs the conditional-write probe unless it passed already (or is running on this thread: the probe's own writes). */
    void ensureWritesProbed() {
        if (writesProbed || probing == Thread.currentThread()) return;
        probeWrites();
    }

    /**
     * Runs {@link ConditionalWriteProbe} against the store now (even if done before) and
     * remembers that it passed.
     *
     * @throws StoreException when the store accepts a second create-only write of the probe object
     */
    void probeWrites() {
        synchronized (lock) {
            probing = Thread.currentThread();
            try {
                ConditionalWriteProbe.probe(store);
                writesProbed = true;
            } finally {
                probing = null;
            }
        }
    }

    /**
     * Whether the store honours {@code If-Match} on DeleteObject: probed once by deleting a fresh
     * probe object with a wrong ETag. A store that deletes it anyway, or refuses the header as
     * unsupported (400, 501), does not.
     */
    boolean honoursConditionalDeletes() {
        Boolean known = conditionalDeletes;
        if (known != null) return known;
        synchronized (lock) {
            if (conditionalDeletes == null) conditionalDeletes = probeConditionalDeletes();
            return conditionalDeletes;
        }
    }

    private boolean probeConditionalDeletes() {
        String key = ConditionalWriteProbe.PREFIX + UUID.randomUUID();
        String k = store.objectKey(key);
        WriteResult w = store.put(key, ("fdl delete probe " + key + "\n").getBytes(StandardCharsets.UTF_8));
        String wrong = ETags.same(w.etag(), "0".repeat(32)) ? "1".repeat(32) : "0".repeat(32);
        try {
            store.conditionalClient().deleteObject(b -> b.bucket(store.s3Location().bucket()).key(k).ifMatch(ETags.quoted(wrong)));
            return false; // deleted despite the wrong ETag: the header is ignored
        } catch (S3Exception e) {
            if (e.statusCode() == 412) return store.head(key).isPresent();
            if (e.statusCode() == 400 || e.statusCode() == 501) return false;
            throw store.errors().fail("delete", key, e);
        } catch (SdkException e) {
            throw store.errors().fail("delete", key, e);
        } finally {
            store.delete(key);
        }
    }
}
