package dev.fdl.ducklake.catalog;

import dev.fdl.store.Keys;

import java.util.Objects;
import dev.fdl.ducklake.format.DuckLakePaths;

/**
 * One data or delete file a DuckLake catalog names, in any of its snapshots, as the catalog
 * records it: what {@link CatalogInspector#forEachFile} streams, the input of gc's mark phase and
 * of verify.
 *
 * @param dataPath   the catalog's {@code data_path} (an absolute location, e.g. {@code /abs/root/data/}
 *                   or {@code s3://b/p/data/}); DUCKLAKE.md, Paths
 * @param location   the file's absolute location: data_path + schema path + table path + file path
 *                   for relative paths, else the path as recorded
 * @param deleteFile true for a positional delete file, false for a data file
 * @param bytes      the size the catalog records ({@code file_size_bytes}), in bytes; -1 if not recorded
 * @param relative   whether the catalog records the file's path relative to its table path
 */
public record NamedFile(String dataPath, String location, boolean deleteFile, long bytes, boolean relative) {
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
        String rel = dataPath.isEmpty() ? null : after(location, withSlash(dataPath));
        if (rel == null) rel = after(location, withSlash(repoDataLocation));
        return rel != null && isPlainKey(rel) ? rel : null;
    }

    /** A relative key with no empty, {@code .} or {@code ..} segment (the rule of {@link Keys#check}, without allocating). */
    static boolean isPlainKey(String k) {
        int n = k.length();
        if (n == 0 || k.charAt(n - 1) == '/') return false;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            char c = i < n ? k.charAt(i) : '/';
            if (c == '\\' || c == 0) return false;
            if (c != '/') continue;
            int len = i - start;
            if (len == 0) return false;
            if (len <= 2 && k.charAt(start) == '.' && (len == 1 || k.charAt(start + 1) == '.')) return false;
            start = i + 1;
        }
        return true;
    }

    private static String after(String s, String prefix) {
        return s.startsWith(prefix) ? s.substring(prefix.length()) : null;
    }

    private static String withSlash(String p) {
        return DuckLakePaths.dataPath(p);
    }
}
