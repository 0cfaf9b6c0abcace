package dev.fdl.store;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A small object read whole: its bytes and the ETag (unquoted) they were read at.
 *
 * <p>A store may compute the ETag only when asked ({@link #lazy}): a local folder's ETag is the
 * MD5 of the bytes already read, and commands that only read (fdl log over a hundred versions)
 * never ask, so they never load the JDK's security providers. Either way the ETag is
 * that of exactly these bytes.
 */
public final class ObjectBytes {
    private final byte[] bytes;
    private Supplier<String> etagSource;
    private String etag;

    /** Bytes read at ETag {@code etag} (quoted or not; kept unquoted). */
    public ObjectBytes(byte[] bytes, String etag) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.etag = ETags.normalize(etag);
    }

    private ObjectBytes(byte[] bytes, Supplier<String> etagSource) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.etagSource = Objects.requireNonNull(etagSource, "etagSource");
    }

    /** Bytes whose ETag {@code etagSource} computes from them on the first {@link #etag()} call, once. */
    static ObjectBytes lazy(byte[] bytes, Supplier<String> etagSource) {
        return new ObjectBytes(bytes, etagSource);
    }

    /** The content (not copied). */
    public byte[] bytes() {
        return bytes;
    }

    /** The ETag the bytes were read at, unquoted. */
    public synchronized String etag() {
        if (etagSource != null) {
            etag = ETags.normalize(etagSource.get());
            etagSource = null;
        }
        return etag;
    }
}
