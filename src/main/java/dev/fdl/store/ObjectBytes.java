package dev.fdl.store;

import java.util.Objects;

/** A small object read whole: its bytes and the ETag (unquoted) they were read at. */
public record ObjectBytes(byte[] bytes, String etag) {
    public ObjectBytes {
        Objects.requireNonNull(bytes, "bytes");
        etag = ETags.normalize(etag);
    }
}
