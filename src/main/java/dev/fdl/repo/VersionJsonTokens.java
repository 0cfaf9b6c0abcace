package dev.fdl.repo;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.JsonRead;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * version.json read straight from Jackson's tokens, for files of the shape fdl writes: every key
 * {@link VersionInfo#parse} requires present once with its type (in any order; unknown keys kept
 * as trees, unknown keys inside the nested objects skipped, as the tree reader does). {@code fdl
 * log} reads a version.json per version in a fresh JVM, where building the whole tree first cost
 * as much as the tokens themselves. Anything else (a missing or ill-typed key, a number beyond a
 * long, a {@code created_at} of another form, broken JSON) gives null, and the tree reader reads
 * the file and words its error: this class decides no error and accepts nothing the tree reader
 * refuses.
 */
final class VersionJsonTokens {
    private VersionJsonTokens() {}

    /** The values read: null ({@code seqRead} false) until read. */
    private static final class Fields {
        String fdl, id, created, message;
        long seq;
        boolean seqRead;
        List<String> parents;
        VersionInfo.Author author;
        VersionInfo.FileRef catalog, dataset;
        VersionInfo.DuckLakeInfo ducklake;
        final Map<String, JsonNode> extra = new LinkedHashMap<>();
    }

    /**
     * The version {@code bytes} holds when it has the shape above, else null.
     *
     * @throws dev.fdl.FdlException as {@link VersionInfo#parse} for a well-formed file whose values it refuses
     *                              (format version, a path outside the version folder)
     */
    static VersionInfo read(byte[] bytes, String file) {
        Fields f = new Fields();
        try (JsonParser p = JsonRead.parser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                if (!field(p, key, p.nextToken(), f)) return null;
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) return null;
        } catch (IOException e) {
            return null;
        }
        if (f.fdl == null || f.id == null || !f.seqRead || f.parents == null || f.created == null || f.author == null
                || f.message == null || f.catalog == null || f.dataset == null || f.ducklake == null) return null;
        // the tree reader's checks, in its order
        FormatVersion.check(f.fdl, file);
        Instant createdAt;
        try {
            createdAt = dev.fdl.util.Instants.parse(f.created);
        } catch (DateTimeParseException e) {
            return null;
        }
        VersionInfo.checkFolderPath(f.catalog.path(), "catalog.path", file);
        VersionInfo.checkFolderPath(f.dataset.path(), "dataset.path", file);
        return new VersionInfo(f.fdl, f.id, f.seq, f.parents, createdAt, f.author, f.message, f.catalog, f.dataset, f.ducklake, f.extra);
    }

    /** Reads the value of top-level {@code key} (at token {@code t}) into {@code f}; false when it is not of the expected type. A later duplicate wins, as in the tree. */
    private static boolean field(JsonParser p, String key, JsonToken t, Fields f) throws IOException {
        switch (key) {
            case "fdl" -> { return (f.fdl = text(p, t)) != null; }
            case "id" -> { return (f.id = text(p, t)) != null; }
            case "created_at" -> { return (f.created = text(p, t)) != null; }
            case "message" -> { return (f.message = text(p, t)) != null; }
            case "seq" -> {
                f.seqRead = isLong(p, t);
                if (f.seqRead) f.seq = p.getLongValue();
                return f.seqRead;
            }
            case "parents" -> { return (f.parents = parents(p, t)) != null; }
            case "author" -> { return (f.author = author(p, t)) != null; }
            case "catalog" -> { return (f.catalog = fileRef(p, t, true)) != null; }
            case "dataset" -> { return (f.dataset = fileRef(p, t, false)) != null; }
            case "ducklake" -> { return (f.ducklake = ducklake(p, t)) != null; }
            default -> {
                f.extra.put(key, JsonRead.value(p, t));
                return true;
            }
        }
    }

    private static String text(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_STRING ? p.getText() : null;
    }

    /** An integer that fits a long (Jackson reads larger ones as BigInteger; the tree reader refuses or narrows those). */
    private static boolean isLong(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) return false;
        JsonParser.NumberType n = p.getNumberType();
        return n == JsonParser.NumberType.INT || n == JsonParser.NumberType.LONG;
    }

    private static List<String> parents(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_ARRAY) return null;
        List<String> out = new ArrayList<>(2);
        JsonToken e;
        while ((e = p.nextToken()) == JsonToken.VALUE_STRING) out.add(p.getText());
        return e == JsonToken.END_ARRAY ? out : null;
    }

    private static VersionInfo.Author author(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT) return null;
        String name = null, email = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (key.equals("name")) {
                if ((name = text(p, v)) == null) return null;
            } else if (key.equals("email")) {
                if (v == JsonToken.VALUE_NULL) email = null;
                else if ((email = text(p, v)) == null) return null;
            } else {
                p.skipChildren();
            }
        }
        return name == null ? null : new VersionInfo.Author(name, email);
    }

    /** catalog (with {@code storage}) or dataset (without: its storage stays null, as in the tree reader). */
    private static VersionInfo.FileRef fileRef(JsonParser p, JsonToken t, boolean withStorage) throws IOException {
        if (t != JsonToken.START_OBJECT) return null;
        String path = null, storage = null, sha = null;
        long bytes = 0;
        boolean bytesRead = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            switch (key) {
                case "path" -> {
                    if ((path = text(p, v)) == null) return null;
                }
                case "sha256" -> {
                    if ((sha = text(p, v)) == null) return null;
                }
                case "bytes" -> {
                    if (!isLong(p, v)) return null;
                    bytes = p.getLongValue();
                    bytesRead = true;
                }
                default -> {
                    if (withStorage && key.equals("storage")) {
                        if ((storage = text(p, v)) == null) return null;
                    } else {
                        p.skipChildren();
                    }
                }
            }
        }
        if (path == null || sha == null || !bytesRead || (withStorage && storage == null)) return null;
        return new VersionInfo.FileRef(path, withStorage ? storage : null, bytes, sha);
    }

    private static VersionInfo.DuckLakeInfo ducklake(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT) return null;
        String format = null;
        long snapshotId = 0, first = 0, last = 0;
        boolean idRead = false, snapshotsRead = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            switch (key) {
                case "format" -> {
                    if ((format = text(p, v)) == null) return null;
                }
                case "snapshot_id" -> {
                    if (!isLong(p, v)) return null;
                    snapshotId = p.getLongValue();
                    idRead = true;
                }
                case "snapshots" -> {
                    if (v != JsonToken.START_ARRAY || !isLong(p, p.nextToken())) return null;
                    first = p.getLongValue();
                    if (!isLong(p, p.nextToken())) return null;
                    last = p.getLongValue();
                    if (p.nextToken() != JsonToken.END_ARRAY) return null;
                    snapshotsRead = true;
                }
                default -> p.skipChildren();
            }
        }
        return format == null || !idRead || !snapshotsRead ? null : new VersionInfo.DuckLakeInfo(format, snapshotId, first, last);
    }
}
