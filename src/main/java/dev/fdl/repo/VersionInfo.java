package dev.fdl.repo;

import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code versions/<id>/version.json}, written last in a version folder: it marks the version
 * finished (SPEC.md section 3). Parsing is strict; unknown keys are kept.
 *
 * @param id        UUIDv7 of the version
 * @param seq       1 without parents, else 1 + the largest parent seq
 * @param parents   the version(s) the working copy was checked out from
 * @param createdAt UTC, second precision or finer
 */
public record VersionInfo(String fdl, String id, long seq, List<String> parents, Instant createdAt,
                          Author author, String message, FileRef catalog, FileRef dataset,
                          DuckLakeInfo ducklake, Map<String, JsonNode> extra) {

    /**
     * The optional key recording what the commit checked (docs/checks.md): counts, mode, warnings,
     * the row constraints that held. Kept among {@link #extra()}, so fdl versions that do not know
     * it read and keep it as any unknown key.
     */
    public static final String CHECKS = "checks";

    private static final Set<String> KNOWN = Set.of("fdl", "id", "seq", "parents", "created_at", "author",
            "message", "catalog", "dataset", "ducklake");

    /** The author: name required, email optional. */
    public record Author(String name, String email) {
        public Author {
            Objects.requireNonNull(name, "author name");
        }

        /** {@code Name <email>} or just the name. */
        @Override
        public String toString() {
            return email == null || email.isEmpty() ? name : name + " <" + email + ">";
        }
    }

    /**
     * A file of the version folder: path relative to the folder, size in bytes, hex SHA-256, and
     * for the catalog the storage string ({@code duckdb-v1.5.0}); storage is null for dataset.json.
     */
    public record FileRef(String path, String storage, long bytes, String sha256) {}

    /**
     * The DuckLake side: catalog format ({@code ducklake_metadata.version}), newest snapshot id, and
     * the [first, last] snapshots the catalog keeps.
     */
    public record DuckLakeInfo(String format, long snapshotId, long firstSnapshot, long lastSnapshot) {}

    public VersionInfo {
        parents = List.copyOf(parents);
        extra = Map.copyOf(extra);
    }

    /** What the commit checked ({@link #CHECKS}), when recorded. */
    public java.util.Optional<JsonNode> checks() {
        return java.util.Optional.ofNullable(extra.get(CHECKS)).filter(JsonNode::isObject);
    }

    /**
     * The warnings the commit's checks recorded, one line each ({@code check: detail} or
     * {@code check (N rows)}); empty when none or not recorded.
     */
    public List<String> checkWarnings() {
        List<String> out = new ArrayList<>();
        checks().ifPresent(c -> {
            for (JsonNode w : c.path("warnings")) {
                String line = w.path("check").asText();
                if (w.path("detail").isTextual()) line += ": " + w.get("detail").asText();
                else if (w.path("count").asLong() > 0) line += " (" + dev.fdl.util.Plural.of(w.get("count").asLong(), "row") + ")";
                out.add(line);
            }
        });
        return out;
    }

    /**
     * Parses version.json strictly; {@code file} names it in errors.
     *
     * @throws FdlException exit 1 naming {@code file} and the key when it is not valid JSON, lacks a key, has one of
     *                      the wrong type, or a format this build does not read (SPEC.md section 3)
     */
    public static VersionInfo parse(byte[] bytes, String file) {
        ObjectNode o = JsonRead.parseObject(bytes, file);
        String fdl = JsonRead.string(o, "fdl", file);
        FormatVersion.check(fdl, file);
        String id = JsonRead.string(o, "id", file);
        long seq = JsonRead.integer(o, "seq", file);
        JsonNode p = o.get("parents");
        if (p == null || p.isNull()) throw FdlException.corrupt(file, "missing key 'parents'");
        if (!p.isArray()) throw FdlException.corrupt(file, "key 'parents' must be an array of version ids");
        List<String> parents = new ArrayList<>();
        for (JsonNode e : p) {
            if (!e.isTextual()) throw FdlException.corrupt(file, "key 'parents' must hold strings, found " + e);
            parents.add(e.asText());
        }
        String created = JsonRead.string(o, "created_at", file);
        Instant createdAt;
        try {
            createdAt = dev.fdl.util.Instants.parse(created);
        } catch (DateTimeParseException e) {
            throw FdlException.corrupt(file, "key 'created_at' is not an RFC 3339 UTC time: \"" + created + "\"");
        }
        ObjectNode a = JsonRead.object(o, "author", file);
        Author author = new Author(JsonRead.string(a, "name", file + " author"), JsonRead.optString(a, "email", file + " author"));
        String message = JsonRead.string(o, "message", file);
        ObjectNode c = JsonRead.object(o, "catalog", file);
        FileRef catalog = new FileRef(JsonRead.string(c, "path", file + " catalog"), JsonRead.string(c, "storage", file + " catalog"),
                JsonRead.integer(c, "bytes", file + " catalog"), JsonRead.string(c, "sha256", file + " catalog"));
        checkFolderPath(catalog.path(), "catalog.path", file);
        ObjectNode d = JsonRead.object(o, "dataset", file);
        FileRef dataset = new FileRef(JsonRead.string(d, "path", file + " dataset"), null,
                JsonRead.integer(d, "bytes", file + " dataset"), JsonRead.string(d, "sha256", file + " dataset"));
        checkFolderPath(dataset.path(), "dataset.path", file);
        ObjectNode dl = JsonRead.object(o, "ducklake", file);
        JsonNode snaps = dl.get("snapshots");
        if (snaps == null || !snaps.isArray() || snaps.size() != 2 || !snaps.get(0).isIntegralNumber() || !snaps.get(1).isIntegralNumber())
            throw FdlException.corrupt(file, "key 'ducklake.snapshots' must be [first, last]");
        DuckLakeInfo ducklake = new DuckLakeInfo(JsonRead.string(dl, "format", file + " ducklake"),
                JsonRead.integer(dl, "snapshot_id", file + " ducklake"), snaps.get(0).asLong(), snaps.get(1).asLong());
        return new VersionInfo(fdl, id, seq, parents, createdAt, author, message, catalog, dataset, ducklake,
                JsonRead.extras(o, KNOWN));
    }

    /** A file path inside the version folder: relative, '/'-separated, no '.', '..' or empty segment. */
    private static void checkFolderPath(String path, String key, String file) {
        boolean ok = !path.isEmpty() && !path.startsWith("/") && !path.contains("\\") && !path.contains(":");
        for (String seg : path.split("/", -1)) ok &= !seg.isEmpty() && !seg.equals(".") && !seg.equals("..");
        if (!ok) throw FdlException.corrupt(file, "key '" + key + "' must be a path inside the version folder, found \"" + path + "\"");
    }

    /** The JSON form in SPEC.md's key order, unknown keys kept. */
    public byte[] toBytes() {
        return Json.bytes(toJson());
    }

    /** The JSON tree in SPEC.md's key order, unknown keys kept. */
    public ObjectNode toJson() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("fdl", fdl);
        o.put("id", id);
        o.put("seq", seq);
        ArrayNode ps = o.putArray("parents");
        parents.forEach(ps::add);
        o.put("created_at", createdAt.truncatedTo(ChronoUnit.SECONDS).toString());
        ObjectNode a = o.putObject("author");
        a.put("name", author.name());
        if (author.email() != null && !author.email().isEmpty()) a.put("email", author.email());
        o.put("message", message);
        ObjectNode c = o.putObject("catalog");
        c.put("path", catalog.path());
        c.put("storage", catalog.storage());
        c.put("bytes", catalog.bytes());
        c.put("sha256", catalog.sha256());
        ObjectNode d = o.putObject("dataset");
        d.put("path", dataset.path());
        d.put("bytes", dataset.bytes());
        d.put("sha256", dataset.sha256());
        ObjectNode dl = o.putObject("ducklake");
        dl.put("format", ducklake.format());
        dl.put("snapshot_id", ducklake.snapshotId());
        ArrayNode s = dl.putArray("snapshots");
        s.add(ducklake.firstSnapshot());
        s.add(ducklake.lastSnapshot());
        extra.forEach(o::set);
        return o;
    }
}
