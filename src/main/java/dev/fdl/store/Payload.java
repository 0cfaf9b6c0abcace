package dev.fdl.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The body of a write: either small bytes held in memory, or a local file streamed from disk
 * (catalogs and data files are never held whole in memory, SPEC.md section 2).
 */
public final class Payload {
    private final byte[] bytes;
    private final Path file;

    private Payload(byte[] bytes, Path file) {
        this.bytes = bytes;
        this.file = file;
    }

    /** A payload of bytes already in memory (refs, JSON files). */
    public static Payload of(byte[] bytes) {
        return new Payload(Objects.requireNonNull(bytes), null);
    }

    /** A payload streamed from a local file. */
    public static Payload of(Path file) {
        return new Payload(null, Objects.requireNonNull(file));
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

    /** A fresh stream over the content; the caller closes it. */
    public InputStream open() throws IOException {
        return bytes != null ? new ByteArrayInputStream(bytes) : Files.newInputStream(file);
    }
}
