package dev.fdl.repo;

import dev.fdl.store.Keys;

import java.util.Objects;

/**
 * One data or delete file a DuckLake catalog names, in any of its snapshots, as the catalog
 * records it: the input of gc's mark phase and of verify.
 *
 * @param dataPath   the catalog's {@code data_path} (an absolute location, e.g. {@code /abs/root/data/}
 *                   or {@code s3://b/p/data/}); DUCKLAKE.md, Paths
 * @param location   the file's absolute location: data_path + schema path + table path + file path
 *                   for relative paths, else the path as recorded
 * @param deleteFile true for a positional delete file, false for a data file
 * @param bytes      the size the catalog records ({@code file_size_bytes}), in bytes
 */
public record NamedFile(String dataPath, String location, boolean deleteFile, long bytes) {
    public NamedFile {
        Objects.requireNonNull(dataPath, "dataPath");
        Objects.requireNonNull(location, "location");
    }

    /**
     * The file's name relative to the repository's data folder (e.g. {@code main/towns/ducklake-….parquet}),
     * or null when it lies outside it.
     *
     * <p>The name is taken relative to the catalog's own data_path first, so that a repository that
     * was moved or copied to another root (its catalogs still naming the old one) maps every file
     * to the same key; a file recorded with an absolute path under {@code repoDataLocation} counts too.
     * A name with a {@code .}/{@code ..}/empty segment is outside (it could escape the data folder).
     *
     * @param repoDataLocation the repository's data folder as an absolute location ({@code store.location(dataDir)})
     */
    public String nameIn(String repoDataLocation) {
        String rel = after(location, withSlash(dataPath));
        if (rel == null) rel = after(location, withSlash(repoDataLocation));
        if (rel == null || rel.isEmpty() || rel.endsWith("/")) return null;
        try {
            Keys.check(rel);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return rel;
    }

    private static String after(String s, String prefix) {
        return s.startsWith(prefix) ? s.substring(prefix.length()) : null;
    }

    private static String withSlash(String p) {
        return p.endsWith("/") ? p : p + "/";
    }
}
