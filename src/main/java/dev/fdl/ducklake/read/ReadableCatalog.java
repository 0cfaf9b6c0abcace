package dev.fdl.ducklake.read;

import dev.fdl.FdlException;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.store.ObjectStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * A version or working catalog opened for reading by DuckDB without the extension: the one way
 * fdl opens a catalog to read it ({@code fdl diff}, {@code fdl query}, the checks, compaction, the
 * recorded-key check, the merge's sides, the site's previews).
 *
 * <p>A version's catalog (a DuckDB file, usually the catalog cache's) is read where it is; a
 * working catalog (SQLite) is copied to a DuckDB scratch file first
 * ({@link CatalogConverter#scratchCopy}), which {@link #close} deletes. The data files are read
 * where they are when the repository's data folder is a local path, else from a local mirror
 * ({@link DataFileMirror}: DuckDB core reads local files only), fetched on
 * {@link #dataPath(DuckDbPool, DataFiles, Long)}.
 */
public final class ReadableCatalog implements AutoCloseable {
    /**
     * Where a catalog's data files are, and where to mirror them when that is remote.
     *
     * @param store      the repository's store
     * @param dataDirKey the key prefix of its data folder ({@code data/})
     * @param mirror     the local folder a remote data folder's files are fetched into (laid out like the data folder)
     */
    public record DataFiles(ObjectStore store, String dataDirKey, Path mirror) {
        public DataFiles {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(dataDirKey, "dataDirKey");
        }

        /** The data folder's location as the store names it ({@link ObjectStore#location}). */
        public String location() {
            return store.location(dataDirKey);
        }

        /** Whether the data folder is remote and so read through the mirror ({@link DuckLakePaths#isRemote}). */
        public boolean remote() {
            return DuckLakePaths.isRemote(location());
        }

        /**
         * Where a reader that fetches its files itself ({@link #fetcher}) reads them: the data
         * folder's location when it is local, else the mirror (absolute, ending in {@code /}).
         */
        public String readPath() {
            return remote() ? mirror.toAbsolutePath() + "/" : location();
        }

        /**
         * Fetches the files a reader asks for (paths relative to the data folder) into the mirror,
         * each unless it is there already ({@link DataFileMirror#fetchFiles}); null when the data folder is local.
         *
         * @param namedBy who names the files, for messages ({@code version …})
         */
        public TableSummary.Fetcher fetcher(String namedBy) {
            return remote() ? files -> DataFileMirror.fetchFiles(store, dataDirKey, mirror, files, namedBy) : null;
        }

        /**
         * Fetches into the mirror the files at {@code locations} that it lacks, each once: locations
         * as a reader attached at {@link #readPath} names them (the mirror's absolute path and the
         * file's path relative to the data folder). Nothing when the data folder is local. A reader
         * that knows which files it opens fetches just those, instead of every file of a snapshot.
         *
         * @param namedBy who names the files, for messages ({@code merge side …})
         * @throws FdlException naming the key when a file is missing from the repository, or naming
         *                      a location outside the mirror
         */
        public void fetchLocations(java.util.Collection<String> locations, String namedBy) {
            if (!remote()) return;
            String base = readPath();
            java.util.List<String> relative = new java.util.ArrayList<>();
            for (String l : locations) {
                if (!l.startsWith(base)) {
                    throw new FdlException(namedBy + " names data file " + l + " outside its data path; the built-in reader reads only files "
                            + "of the repository's data folder");
                }
                relative.add(l.substring(base.length()));
            }
            DataFileMirror.fetchFiles(store, dataDirKey, mirror, relative, namedBy);
        }
    }

    private final Path catalog;
    /** The scratch copy this object made and deletes on close; null for a catalog read where it is. */
    private final Path scratch;

    private ReadableCatalog(Path catalog, Path scratch) {
        this.catalog = catalog;
        this.scratch = scratch;
    }

    /** A DuckDB catalog file (a version's, from the cache) read where it is; {@link #close} leaves it. */
    public static ReadableCatalog version(Path duckdbCatalog) {
        return new ReadableCatalog(Objects.requireNonNull(duckdbCatalog, "duckdbCatalog"), null);
    }

    /** A DuckDB catalog the caller wrote as a scratch file (an empty catalog, say): read where it is, deleted on {@link #close}. */
    public static ReadableCatalog scratch(Path duckdbScratch) {
        return new ReadableCatalog(Objects.requireNonNull(duckdbScratch, "duckdbScratch"), duckdbScratch);
    }

    /**
     * A working catalog (SQLite) copied to the DuckDB file {@code scratch} ({@link CatalogConverter#scratchCopy});
     * {@link #close} deletes {@code scratch}, as does a failed copy.
     *
     * @throws FdlException as {@link CatalogConverter#scratchCopy}
     */
    public static ReadableCatalog working(Path sqliteCatalog, Path scratch) {
        ReadableCatalog c = new ReadableCatalog(scratch, scratch);
        try {
            CatalogConverter.scratchCopy(sqliteCatalog, scratch);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The DuckDB catalog file to attach read-only. */
    public Path catalog() {
        return catalog;
    }

    /**
     * Where the built-in reader finds the data files {@code snapshot} (null: newest) needs: the
     * data folder's location when it is local, else the mirror (an absolute path ending in {@code /})
     * after fetching the files the snapshot names that it lacks.
     *
     * @throws FdlException naming the key when a file is missing from the repository
     */
    public String dataPath(DuckDbPool pool, DataFiles data, Long snapshot) {
        return dataPath(pool, data, snapshot, null);
    }

    /** {@link #dataPath(DuckDbPool, DataFiles, Long)} fetching only the files of the tables {@code named} (lower-case {@code schema.table}; null: all). */
    public String dataPath(DuckDbPool pool, DataFiles data, Long snapshot, Set<String> named) {
        if (!data.remote()) return data.location();
        return DataFileMirror.fetch(pool, catalog, snapshot, data.store(), data.dataDirKey(), data.mirror(), named);
    }

    /**
     * The data path override a reader attaches with: null when the data folder is local (the
     * catalog's own {@code data_path} holds), else the mirror as {@link #dataPath(DuckDbPool, DataFiles, Long)} fills it.
     */
    public String readBase(DuckDbPool pool, DataFiles data, Long snapshot) {
        return data.remote() ? dataPath(pool, data, snapshot) : null;
    }

    /** Deletes the scratch copy, if this object made one (a file that cannot be deleted is left in its scratch folder). */
    @Override
    public void close() {
        if (scratch == null) return;
        for (Path p : new Path[]{scratch, scratch.resolveSibling(scratch.getFileName() + ".wal")}) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a scratch file in .fdl/tmp or the temp folder
            }
        }
    }
}
