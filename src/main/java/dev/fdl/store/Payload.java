package dev.fdl.store;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * The body of a write: either small bytes held in memory, or a local file streamed from disk
 * (catalogs and data files are never held whole in memory, SPEC.md section 2). A payload made
 * {@link #counting} tells a listener the bytes a store sends of it as it sends them, for
 * progress: every stream {@link #open} hands out counts what is read from it, and a store that
 * copies without a stream (a local file copied by the kernel) reports its chunks through {@link #sent}.
 */
public final class Payload {
    private final byte[] bytes;
    private final Path file;
    private final LongConsumer sent;

    private Payload(byte[] bytes, Path file, LongConsumer sent) {
        this.bytes = bytes;
        this.file = file;
        this.sent = sent;
    }

    /** A payload of bytes already in memory (refs, JSON files). */
    public static Payload of(byte[] bytes) {
        return new Payload(Objects.requireNonNull(bytes), null, null);
    }

    /** A payload streamed from a local file. */
    public static Payload of(Path file) {
        return new Payload(null, Objects.requireNonNull(file), null);
    }

    /**
     * This payload, telling {@code sent} each number of bytes a store reads of it to send (from the
     * store's threads, possibly several at once for the parts of one upload). A request the store
     * retries reads its bytes again, and they are told again: the sum is a measure of progress,
     * not a count of what the destination holds.
     */
    public Payload counting(LongConsumer sent) {
        return new Payload(bytes, file, Objects.requireNonNull(sent));
    }

    /** True when made {@link #counting}. */
    public boolean isCounting() {
        return sent != null;
    }

    /** Tells the listener of a {@link #counting} payload that {@code n} more bytes were sent without a stream of {@link #open}. */
    public void sent(long n) {
        if (sent != null && n > 0) sent.accept(n);
    }

    /** The file behind this payload, or null for in-memory bytes. */
    public Path file() {
        return file;
    }

    /** The in-memory bytes, or null for a file payload. */
    public byte[] bytes() {
        return bytes;
    }

    /** Size in bytes. */
    public long size() {
        if (bytes != null) return bytes.length;
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** A fresh stream over the content (counted when {@link #counting}); the caller closes it. */
    public InputStream open() throws IOException {
        return counted(bytes != null ? new ByteArrayInputStream(bytes) : Files.newInputStream(file));
    }

    /**
     * A fresh stream over {@code length} bytes of the content from {@code offset} (a part of a
     * multipart upload), counted when {@link #counting}; the caller closes it.
     */
    public InputStream open(long offset, long length) throws IOException {
        if (bytes != null) return counted(new ByteArrayInputStream(bytes, (int) offset, (int) Math.min(length, bytes.length - offset)));
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            ch.position(offset);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        InputStream in = Channels.newInputStream(ch);
        return counted(new InputStream() {
            private long left = length;

            @Override
            public int read() throws IOException {
                if (left <= 0) return -1;
                int b = in.read();
                if (b >= 0) left--;
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int n) throws IOException {
                if (left <= 0) return -1;
                int r = in.read(buf, off, (int) Math.min(n, left));
                if (r > 0) left -= r;
                return r;
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        });
    }

    private InputStream counted(InputStream in) {
        if (sent == null) return in;
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) sent.accept(1);
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int n) throws IOException {
                int r = super.read(buf, off, n);
                if (r > 0) sent.accept(r);
                return r;
            }

            @Override
            public long skip(long n) throws IOException {
                long r = super.skip(n);
                if (r > 0) sent.accept(r);
                return r;
            }

            @Override
            public boolean markSupported() {
                return false; // a reset would count its bytes twice
            }
        };
    }
}
