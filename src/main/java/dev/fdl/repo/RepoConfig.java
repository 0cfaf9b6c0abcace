package dev.fdl.repo;

import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code fdl.json}, the repository identity (SPEC.md section 3):
 * {@code {"fdl": "0.1", "id": "<uuid>", "data_dir": "data/"}}. {@code data_dir} is relative to the
 * root, ends in {@code /} and stays inside it; anything else is a corrupt repository.
 */
public record RepoConfig(String fdl, String id, String dataDir, Map<String, JsonNode> extra) {
    /**
     * The optional key by which a repository opts into a newer DuckDB storage version for the
     * catalogs it commits ({@code "duckdb-v2.0.0"}); absent: {@code duckdb-v1.5.0}, which DuckDB
     * 1.5 and 2.0 both read (SPEC.md section 3).
     */
    public static final String CATALOG_STORAGE = "catalog_storage";
    /**
     * The optional key giving the size at which a data file written by import, sync or compaction
     * stops and the next begins (DuckLake's {@code target_file_size}): bytes as a number, or a
     * string with a unit ({@code "64MB"}, {@code "1GiB"}); absent: 512 MiB, DuckLake's default.
     * fdl before this key ignores it (unknown keys are kept and ignored, SPEC.md section 3).
     */
    public static final String TARGET_FILE_SIZE = "target_file_size";
    /** The optional key by which {@code fdl commit} writes each version's Iceberg metadata ({@code true}; docs/iceberg.md). */
    public static final String ICEBERG = "iceberg";
    /** The optional key naming the root URL Iceberg readers reach the repository at (docs/iceberg.md, "Locations"). */
    public static final String ICEBERG_LOCATION = "iceberg_location";
    private static final Set<String> KNOWN = Set.of("fdl", "id", "data_dir");

    public RepoConfig {
        extra = Map.copyOf(extra);
        String why = dataDirProblem(dataDir);
        if (why != null) throw FdlException.corrupt(RepoLayout.CONFIG, "key 'data_dir' " + why);
    }

    /** A new identity with a random UUID and {@code data/}. */
    public static RepoConfig fresh() {
        return new RepoConfig(FormatVersion.CURRENT, UUID.randomUUID().toString(), RepoLayout.DEFAULT_DATA_DIR, Map.of());
    }

    /**
     * The catalog storage the repository opted into ({@link #CATALOG_STORAGE}), or empty for fdl's default.
     *
     * @throws FdlException (exit 1) naming fdl.json and the key when the value is not a string
     */
    public java.util.Optional<String> catalogStorage() {
        JsonNode n = extra.get(CATALOG_STORAGE);
        if (n == null || n.isNull()) return java.util.Optional.empty();
        if (!n.isTextual()) throw FdlException.corrupt(RepoLayout.CONFIG, "key '" + CATALOG_STORAGE + "' must be a string such as \"duckdb-v2.0.0\", not " + n);
        return java.util.Optional.of(n.asText());
    }

    /**
     * The target data file size in bytes this repository sets ({@link #TARGET_FILE_SIZE}), or 0
     * when it sets none.
     *
     * @throws FdlException (exit 1) naming fdl.json and the key when the value is not a size
     */
    public long targetFileSize() {
        JsonNode n = extra.get(TARGET_FILE_SIZE);
        if (n == null || n.isNull()) return 0;
        long bytes = n.isIntegralNumber() ? n.asLong() : n.isNumber() ? integral(n) : n.isTextual() ? dev.fdl.util.ByteSize.parse(n.asText()) : -1;
        if (bytes <= 0) throw FdlException.corrupt(RepoLayout.CONFIG, "key '" + TARGET_FILE_SIZE
                + "' must be a size in bytes, a number or a string such as \"512MB\", not " + n);
        return bytes;
    }

    /**
     * Whether commits write Iceberg metadata ({@link #ICEBERG}).
     *
     * @throws FdlException (exit 1) naming fdl.json and the key when the value is not a boolean
     */
    public boolean iceberg() {
        JsonNode n = extra.get(ICEBERG);
        if (n == null || n.isNull()) return false;
        if (!n.isBoolean()) throw FdlException.corrupt(RepoLayout.CONFIG, "key '" + ICEBERG + "' must be true or false, not " + n);
        return n.asBoolean();
    }

    /**
     * The root URL for Iceberg metadata ({@link #ICEBERG_LOCATION}), or empty.
     *
     * @throws FdlException (exit 1) naming fdl.json and the key when the value is not a string
     */
    public java.util.Optional<String> icebergLocation() {
        JsonNode n = extra.get(ICEBERG_LOCATION);
        if (n == null || n.isNull()) return java.util.Optional.empty();
        if (!n.isTextual()) throw FdlException.corrupt(RepoLayout.CONFIG, "key '" + ICEBERG_LOCATION + "' must be a URL string, not " + n);
        return java.util.Optional.of(n.asText());
    }

    /**
     * A JSON number written with a fraction or an exponent ({@code 1e9}, {@code 5.12E8}) as a
     * whole number of bytes (RFC 8259 numbers carry no integer/float distinction), or -1 when it
     * has a fraction or does not fit a long.
     */
    private static long integral(JsonNode n) {
        try {
            return n.decimalValue().longValueExact();
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    static String dataDirProblem(String d) {
        if (d == null || d.isEmpty()) return "is empty";
        if (!d.endsWith("/")) return "must end in '/': \"" + d + "\"";
        if (d.startsWith("/") || d.contains(":") || d.contains("\\")) return "must be a relative path inside the root: \"" + d + "\"";
        for (String seg : d.substring(0, d.length() - 1).split("/", -1))
            if (seg.isEmpty() || seg.equals("..") || seg.equals("."))
                return "must stay inside the root (no '..', '.' or empty segment): \"" + d + "\"";
        return null;
    }

    /** Parses fdl.json strictly, refusing an unknown format version. */
    public static RepoConfig parse(byte[] bytes) {
        ObjectNode o = JsonRead.parseObject(bytes, RepoLayout.CONFIG);
        String fdl = JsonRead.string(o, "fdl", RepoLayout.CONFIG);
        FormatVersion.check(fdl, RepoLayout.CONFIG);
        String id = JsonRead.string(o, "id", RepoLayout.CONFIG);
        String dataDir = JsonRead.string(o, "data_dir", RepoLayout.CONFIG);
        return new RepoConfig(fdl, id, dataDir, JsonRead.extras(o, KNOWN));
    }

    /**
     * The same identity with the key {@code key} (one fdl.json does not define itself, e.g. the
     * saved retention policy) set to {@code value}, or removed when {@code value} is null.
     * Every other key, known or not, is kept.
     */
    public RepoConfig withExtra(String key, JsonNode value) {
        if (KNOWN.contains(key)) throw new IllegalArgumentException("'" + key + "' is part of the identity and never changes");
        Map<String, JsonNode> m = new java.util.LinkedHashMap<>(extra);
        if (value == null) m.remove(key);
        else m.put(key, value);
        return new RepoConfig(fdl, id, dataDir, m);
    }

    /** The JSON form, unknown keys kept. */
    public byte[] toBytes() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("fdl", fdl);
        o.put("id", id);
        o.put("data_dir", dataDir);
        extra.forEach(o::set);
        return Json.bytes(o);
    }
}
