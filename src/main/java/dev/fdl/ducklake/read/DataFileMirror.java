package dev.fdl.ducklake.read;

import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.AtomicFile;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A local copy of the data files a snapshot needs, for the built-in reader on a remote
 * repository (S3, HTTPS): DuckDB core reads local files only, and its S3/HTTP support is an
 * extension. Files are fetched once into a cache folder laid out like the data folder; DuckLake
 * data and delete files never change once written (each has a new UUIDv7 name), so a cached file
 * of the right size is reused.
 */
public final class DataFileMirror {
    private DataFileMirror() {}

    /**
     * Fetches every data and delete file {@code catalog} needs at {@code snapshot} (null: newest)
     * from {@code store} under {@code dataDirKey} into {@code cacheDir}.
     *
     * @return the data path override for {@link BuiltInReader#open}: {@code cacheDir} as an absolute path ending in {@code /}
     * @throws FdlException failure naming the key when a file is missing from the repository, or when
     *                      the catalog names a file outside its data path
     */
    public static String fetch(DuckDbPool pool, Path catalog, Long snapshot, ObjectStore store, String dataDirKey, Path cacheDir) {
        return fetch(pool, catalog, snapshot, store, dataDirKey, cacheDir, null);
    }

    /**
     * {@link #fetch(DuckDbPool, Path, Long, ObjectStore, String, Path)} for the tables {@code named} only (lower-case
     * {@code schema.table}; null: every table), under {@link BuiltInReader#requiredFiles(DuckDbPool, Path, Long, java.util.Set)}'s
     * rule; the catalog is read on an instance of {@code pool}.
     */
    static String fetch(DuckDbPool pool, Path catalog, Long snapshot, ObjectStore store, String dataDirKey, Path cacheDir,
                        java.util.Set<String> named) {
        List<String> files = BuiltInReader.requiredFiles(pool, catalog, snapshot, named);
        fetchFiles(store, dataDirKey, cacheDir, files, "catalog " + catalog);
        return cacheDir.toAbsolutePath() + "/";
    }

    /**
     * Fetches {@code files} (paths relative to the data folder, as {@link BuiltInReader#requiredFiles}
     * gives them) from {@code store} under {@code dataDirKey} into {@code cacheDir}, each unless a
     * copy of the size the store reports is there already.
     *
     * @param namedBy who names the files, for messages ({@code catalog …})
     * @throws FdlException failure naming the key when a file is missing from the repository, or when
     *                      a path is outside the data folder
     */
    public static void fetchFiles(ObjectStore store, String dataDirKey, Path cacheDir, List<String> files, String namedBy) {
        String dataDir = DuckLakePaths.dataPath(dataDirKey);
        try {
            for (String rel : files) {
                if (rel.startsWith("/") || DuckLakePaths.isRemote(rel) || rel.contains("..")) {
                    throw new FdlException(namedBy + " names data file " + rel
                            + " outside its data path; the built-in reader reads only files of the repository's data folder");
                }
                Path target = cacheDir.resolve(rel);
                String key = dataDir + rel;
                if (Files.isRegularFile(target)) {
                    Optional<ObjectMeta> meta = store.stat(key);
                    if (meta.isPresent() && meta.get().size() == Files.size(target)) continue;
                }
                Files.createDirectories(target.getParent());
                Path part = AtomicFile.tempBeside(target, "." + target.getFileName() + ".part-");
                try {
                    if (store.download(key, part).isEmpty()) {
                        throw new FdlException("data file " + key + " named by " + namedBy
                                + " is missing from the repository " + store.root());
                    }
                    AtomicFile.moveCopy(part, target);
                } finally {
                    AtomicFile.deleteQuietly(part);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the data file cache " + cacheDir, e);
        }
    }
}
