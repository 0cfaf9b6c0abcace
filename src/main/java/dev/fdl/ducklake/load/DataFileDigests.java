package dev.fdl.ducklake.load;

import dev.fdl.util.Sha256;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The SHA-256 of each data file this working copy uploaded, taken as the file was uploaded (the
 * bytes were just written and are in the page cache), so that commit's digest manifest
 * (docs/signing.md) need not read them again: a line {@code <sha256> <bytes> <key>} per file,
 * appended to {@code digests} beside the working catalog. A later line for a key wins; a line
 * that does not parse (a crash mid-append) is skipped. The file is a cache: losing it only
 * makes commit hash the files it no longer knows.
 */
public final class DataFileDigests {
    /** Records nothing. */
    public static final DataFileDigests NONE = new DataFileDigests(null);
    /** The book's file name, beside the working catalog in {@code .fdl/}. */
    static final String FILE = "digests";

    /** One recorded digest: size in bytes and hex SHA-256. */
    public record Digest(long bytes, String sha256) {}

    private final Path file;

    private DataFileDigests(Path file) {
        this.file = file;
    }

    /** The book beside the working catalog {@code catalog}. */
    public static DataFileDigests beside(Path catalog) {
        return new DataFileDigests(catalog.toAbsolutePath().resolveSibling(FILE));
    }

    /** Hashes the local file {@code local}, just uploaded as {@code key}, and records it. */
    void hashAndRecord(String key, Path local, long bytes) {
        if (file == null) return;
        record(key, bytes, Sha256.of(local));
    }

    /**
     * Records that {@code key} has {@code bytes} bytes and SHA-256 {@code sha256}. A failure to
     * write is ignored: the book only spares work.
     */
    public synchronized void record(String key, long bytes, String sha256) {
        if (file == null || key.contains("\n")) return;
        try {
            Files.writeString(file, sha256 + " " + bytes + " " + key + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException ignored) {
            // the commit hashes what the book does not know
        }
    }

    /**
     * Drops every entry whose key is not in {@code keys} (files the working copy no longer names,
     * or that are gone), rewriting the book in one atomic rename; one line per key remains. A
     * failure leaves the book as it was: it only spares work.
     */
    public synchronized void retain(java.util.Set<String> keys) {
        if (file == null || !Files.exists(file)) return;
        StringBuilder kept = new StringBuilder();
        new java.util.TreeMap<>(read()).forEach((key, d) -> {
            if (keys.contains(key)) kept.append(d.sha256()).append(' ').append(d.bytes()).append(' ').append(key).append('\n');
        });
        try {
            dev.fdl.util.AtomicFile.write(file, kept.toString().getBytes(StandardCharsets.UTF_8), () -> { });
        } catch (RuntimeException ignored) {
            // the book stays as it was
        }
    }

    /** What the book holds, by key; empty when there is no book. */
    public Map<String, Digest> read() {
        Map<String, Digest> out = new HashMap<>();
        if (file == null) return out;
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] p = line.split(" ", 3);
                if (p.length == 3 && p[0].matches("[0-9a-f]{64}") && p[1].matches("[0-9]{1,19}")) out.put(p[2], new Digest(Long.parseLong(p[1]), p[0]));
            }
        } catch (NoSuchFileException e) {
            return out;
        } catch (IOException | java.io.UncheckedIOException e) {
            return out; // an unreadable book is no book
        }
        return out;
    }
}
