package dev.fdl.trust;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.RangeRead;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The size and SHA-256 of an object as the store holds it, read once, streamed (any store: a
 * folder, S3, HTTP).
 *
 * @param bytes  the bytes read
 * @param sha256 hex
 */
record StoredDigest(long bytes, String sha256) {
    /**
     * Reads {@code key} through; empty when it does not exist.
     *
     * @throws FdlException exit 1 naming the key when it cannot be read
     */
    static Optional<StoredDigest> of(ObjectStore store, String key) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Optional<RangeRead> r = store.read(key, 0, -1);
        if (r.isEmpty()) return Optional.empty();
        long n = 0;
        byte[] buf = new byte[1 << 17];
        try (RangeRead rr = r.get(); InputStream in = rr.body()) {
            for (int k; (k = in.read(buf)) > 0; n += k) md.update(buf, 0, k);
        } catch (IOException e) {
            throw new FdlException("cannot read " + store.root() + key + ": " + e.getMessage());
        }
        return Optional.of(new StoredDigest(n, HexFormat.of().formatHex(md.digest())));
    }
}
