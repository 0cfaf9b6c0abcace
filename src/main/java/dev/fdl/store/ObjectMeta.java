package dev.fdl.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What a store knows about one object without reading it: key, size in bytes, ETag (unquoted,
 * may be null where a listing does not give one) and last-modified time (UTC).
 */
public record ObjectMeta(String key, long size, String etag, Instant lastModified) {
    public ObjectMeta {
        Objects.requireNonNull(key, "key");
        if (size < 0) throw new IllegalArgumentException("negative size for " + key);
        etag = ETags.normalize(etag);
    }
}
