package dev.fdl.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * Part of an object being read: the object's metadata (its whole size, ETag, last-modified) and
 * a stream of bytes {@code [from, from + length)}. The caller closes it.
 *
 * @param meta   the whole object's metadata, as of this read
 * @param from   offset of the first byte streamed
 * @param length bytes streamed
 */
public record RangeRead(ObjectMeta meta, long from, long length, InputStream body) implements Closeable {
    @Override
    public void close() throws IOException {
        body.close();
    }
}
