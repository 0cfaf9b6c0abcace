package dev.fdl.store;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Checks that a store honours conditional writes: a store that silently ignores
 * {@code If-None-Match: *} would let two writers both create the same ref and both "win".
 * The probe writes a fresh object {@code .fdl-probe/<uuid>} twice with create-only writes,
 * expects the second to be refused, and deletes the object.
 *
 * <p>Run by {@code Repository.init} for every store whose {@link ObjectStore#conditionalWritesNeedProbe()} says so, and by
 * {@link S3Store} once per store ({@link S3Probes}) before its first conditional write.
 */
public final class ConditionalWriteProbe {
    /** The folder of probe objects; names beginning with {@code .fdl-} are never listed. */
    static final String PREFIX = ObjectStore.INTERNAL_PREFIX + "probe/";

    private ConditionalWriteProbe() {}

    /**
     * Probes {@code store} now.
     *
     * @throws ReadOnlyStoreException for a read-only store
     * @throws StoreException         when the store accepts both create-only writes (it ignores
     *                                conditional headers), or cannot create the probe object
     */
    public static void check(ObjectStore store) {
        if (store.readOnly()) throw new ReadOnlyStoreException(store.root());
        if (store instanceof S3Store s3) {
            s3.probeConditionalWrites(); // also remembers the result for this store
            return;
        }
        probe(store);
    }

    /** The probe itself, through the store's public contract. */
    static void probe(ObjectStore store) {
        String key = PREFIX + UUID.randomUUID();
        try {
            WriteResult first = store.putIfAbsent(key, ("fdl probe 1 " + key + "\n").getBytes(StandardCharsets.UTF_8));
            if (!first.isWritten())
                throw new StoreException(key, "the store at " + store.root() + " refused to create the new object "
                        + store.location(key) + " with If-None-Match: *; fdl cannot check that it supports conditional writes");
            WriteResult second = store.putIfAbsent(key, ("fdl probe 2 " + key + "\n").getBytes(StandardCharsets.UTF_8));
            if (second.isWritten())
                throw new StoreException(key, "the store at " + store.root() + " ignores conditional writes: it accepted "
                        + "a second create-only write (If-None-Match: *) of " + store.location(key)
                        + ", so two writers could both win; fdl refuses it. Use AWS S3, Cloudflare R2, MinIO or another store "
                        + "that answers 412 Precondition Failed");
        } finally {
            try {
                store.delete(key);
            } catch (StoreException ignored) {
                // the failure above (or the store's) is what the user needs to see
            }
        }
    }
}
