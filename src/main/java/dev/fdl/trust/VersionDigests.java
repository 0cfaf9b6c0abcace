package dev.fdl.trust;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.ducklake.load.DataFileDigests;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectBytes;
import dev.fdl.util.Sha256;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The digest manifest of a version being committed (docs/signing.md): the catalog's and
 * dataset.json's SHA-256 as version.json records them, the version folder's other files commit
 * wrote (its Iceberg metadata, digests taken from the bytes written), and every data and delete
 * file the catalog names, in any snapshot. A data file's digest is taken, in this order, from the working
 * copy's record of what it uploaded ({@link DataFileDigests}, when the size matches the
 * catalog's), from the parent versions' manifests (a file they list never changes), and only
 * then by reading the file from the store once (a file written before digests existed, or by
 * another machine), which is then recorded.
 */
public final class VersionDigests {
    /** version.json's key recording the manifest: {@code {"path", "bytes", "sha256"}}. */
    public static final String KEY = "manifest";

    private VersionDigests() {}

    /**
     * @param book    the working copy's record of uploaded files (read, and added to)
     * @param written the version folder's other files, key to hex SHA-256, listed after dataset.json in key order
     * @throws FdlException exit 1 naming the file when a data file cannot be read or differs in
     *                      size from the catalog's record
     */
    public static Manifest of(Repository repo, VersionInfo v, Path catalog, DataFileDigests book, Map<String, String> written) {
        Map<String, DataFileDigests.Digest> known = book.read();
        Map<String, String> parents = new java.util.HashMap<>();
        for (String p : v.parents()) parents.putAll(parentManifest(repo, p));
        TreeMap<String, Long> files = new TreeMap<>();
        String dataLocation = repo.dataLocation();
        CatalogFiles.duckLake().forEach(catalog, f -> {
            String name = f.nameIn(dataLocation);
            if (name != null) files.put(repo.dataDir() + name, f.bytes()); // step 2 refused any other
        });
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put(RepoLayout.versionFile(v.id(), v.catalog().path()), v.catalog().sha256());
        entries.put(RepoLayout.versionFile(v.id(), v.dataset().path()), v.dataset().sha256());
        entries.putAll(new TreeMap<>(written));
        files.forEach((key, bytes) -> {
            DataFileDigests.Digest d = known.get(key);
            String sha = d != null && d.bytes() == bytes ? d.sha256() : parents.get(key);
            if (sha == null) sha = hashStored(repo, key, bytes, book);
            entries.put(key, sha);
        });
        book.retain(files.keySet()); // what the version no longer names is never asked for again
        return new Manifest(entries);
    }

    private static String hashStored(Repository repo, String key, long bytes, DataFileDigests book) {
        StoredDigest d = StoredDigest.of(repo.store(), key).orElseThrow(() -> new FdlException(
                "the catalog names " + key + ", which is not in " + repo.root() + "; nothing was uploaded"));
        if (d.bytes() != bytes)
            throw new FdlException("the data file " + repo.store().root() + key + " has " + d.bytes() + " bytes but the catalog records "
                    + bytes + ": it was changed after it was written; nothing was uploaded");
        book.record(key, d.bytes(), d.sha256());
        return d.sha256();
    }

    /**
     * The data file digests a parent's manifest lists, when the parent has one that matches its
     * version.json; empty otherwise (its files are then hashed).
     */
    private static Map<String, String> parentManifest(Repository repo, String parent) {
        Optional<VersionInfo> pv = repo.readVersion(parent);
        Optional<Recorded> rec = pv.flatMap(VersionDigests::recorded);
        if (rec.isEmpty()) return Map.of();
        String key = RepoLayout.versionFile(parent, rec.get().path());
        Optional<ObjectBytes> b = repo.store().get(key);
        if (b.isEmpty() || !Sha256.of(b.get().bytes()).equals(rec.get().sha256())) return Map.of();
        Map<String, String> out = new java.util.HashMap<>(Manifest.parse(b.get().bytes(), key).entries());
        out.keySet().removeIf(k -> k.startsWith(RepoLayout.VERSIONS));
        return out;
    }

    /** What version.json records of its manifest. */
    public record Recorded(String path, long bytes, String sha256) {}

    /** The manifest version.json records ({@link #KEY}), when it records one. */
    public static Optional<Recorded> recorded(VersionInfo v) {
        JsonNode m = v.extra().get(KEY);
        if (m == null || !m.isObject() || !m.path("path").isTextual() || !m.path("sha256").isTextual()) return Optional.empty();
        return Optional.of(new Recorded(m.get("path").asText(), m.path("bytes").asLong(-1), m.get("sha256").asText()));
    }
}
