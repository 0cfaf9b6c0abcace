package dev.fdl.ducklake.load;

import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.store.ObjectStore;

import java.nio.file.Path;
import java.util.List;

/**
 * One {@code fdl import} as a value: what to load, where, how, and what the snapshot records. Made
 * with {@link #of} and the {@code with…} methods; handed to {@link Importer#importFile} (create,
 * replace, append) or {@code load.sync.Syncer#sync} ({@link ImportMode#SYNC}).
 *
 * @param catalog        the working catalog (SQLite DuckLake catalog)
 * @param store          the repository store data files are uploaded to
 * @param dataDirKey     the store key prefix of the data folder ({@code data/}); the catalog's
 *                       {@code data_path} must be {@code store.location(dataDirKey)}
 * @param source         the file to load
 * @param table          {@code [schema.]name}
 * @param mode           what happens to an existing table (null: refused as a usage error)
 * @param format         the source's format (null: by its extension, {@link ImportFormat#of})
 * @param schemaOverride null, or {@code "col TYPE, …"}: DuckDB types for some columns instead of the inferred ones
 * @param nullStrings    CSV only: fields holding exactly one of these texts read as NULL, besides an empty field
 *                       ({@code --null-string}; null: none)
 * @param author         recorded as the snapshot's author (may be null)
 * @param message        recorded as the snapshot's commit message (may be null)
 * @param keys           sync only: the row identity columns (null: the recorded key, else the whole row;
 *                       empty: the whole row, ending a recorded key)
 * @param dropKey        {@code --no-key}: end the table's recorded key (append, replace and sync)
 * @param cacheDir       where a remote repository's data files are mirrored to be read (null: a scratch folder)
 * @param sources        every file to load, {@code source} first (null: {@code source} alone)
 * @param targetFileSize the size in bytes at which a written data file stops and the next begins
 *                       (DuckLake's {@code target_file_size}); 0: {@link DataFileWriter#DEFAULT_TARGET_FILE_SIZE}
 * @param progress       told how writing and uploading the data files goes (null: {@link DataProgress#NONE})
 * @param digests        where the written data files' SHA-256 digests are recorded (docs/signing.md; null: the working
 *                       copy's book beside {@code catalog}, {@link DataFileDigests#beside})
 */
public record ImportRequest(Path catalog, ObjectStore store, String dataDirKey, Path source, String table, ImportMode mode,
                            ImportFormat format, String schemaOverride, List<String> nullStrings, String author, String message, List<String> keys,
                            boolean dropKey, Path cacheDir, SourceFiles sources, long targetFileSize,
                            DataProgress progress, DataFileDigests digests) {
    public ImportRequest {
        if (progress == null) progress = DataProgress.NONE;
        nullStrings = nullStrings == null ? List.of() : List.copyOf(nullStrings);
        if (digests == null) digests = catalog == null ? DataFileDigests.NONE : DataFileDigests.beside(catalog);
        if (sources == null && source != null) sources = SourceFiles.of(source);
        if (sources != null && !sources.first().equals(source)) throw new IllegalArgumentException("source must be the first of sources");
        if (targetFileSize < 0) throw new IllegalArgumentException("targetFileSize < 0");
    }

    /** A request with no format, override, author, message, key or cache folder given. */
    public static ImportRequest of(Path catalog, ObjectStore store, String dataDirKey, Path source, String table, ImportMode mode) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, null, null, null, null, null, null, false, null, null, 0, null, null);
    }

    /** The data folder's key prefix ending in {@code /} (or empty). */
    public String dataDir() {
        return DuckLakePaths.dataPath(dataDirKey);
    }

    public ImportRequest withFormat(ImportFormat f) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, f, schemaOverride, nullStrings, author, message, keys, dropKey, cacheDir, sources, targetFileSize, progress, digests);
    }

    public ImportRequest withSchemaOverride(String s) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, s, nullStrings, author, message, keys, dropKey, cacheDir, sources, targetFileSize, progress, digests);
    }

    /** The request reading fields that hold exactly one of {@code n} as NULL (CSV only; null or empty: none). */
    public ImportRequest withNullStrings(List<String> n) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, n, author, message, keys, dropKey,
                cacheDir, sources, targetFileSize, progress, digests);
    }

    public ImportRequest withAuthor(String a) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, a, message, keys, dropKey, cacheDir, sources, targetFileSize, progress, digests);
    }

    public ImportRequest withMessage(String m) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, m, keys, dropKey, cacheDir, sources, targetFileSize, progress, digests);
    }

    public ImportRequest withKeys(List<String> k) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, message, k, dropKey, cacheDir, sources, targetFileSize, progress, digests);
    }

    public ImportRequest withDropKey(boolean d) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, message, keys, d, cacheDir, sources, targetFileSize, progress, digests);
    }

    public ImportRequest withCacheDir(Path c) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, message, keys, dropKey, c, sources, targetFileSize, progress, digests);
    }

    /** The request loading {@code files} ({@link SourceFiles}) as one snapshot. */
    public ImportRequest withSources(SourceFiles files) {
        return new ImportRequest(catalog, store, dataDirKey, files.first(), table, mode, format, schemaOverride, nullStrings, author, message, keys, dropKey,
                cacheDir, files, targetFileSize, progress, digests);
    }

    /** The request writing data files of at most about {@code bytes} each (0: the default). */
    public ImportRequest withTargetFileSize(long bytes) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, message, keys, dropKey,
                cacheDir, sources, bytes, progress, digests);
    }

    /** The request telling {@code p} how its data files are written and uploaded. */
    public ImportRequest withProgress(DataProgress p) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, message, keys, dropKey,
                cacheDir, sources, targetFileSize, p, digests);
    }

    /** The request recording its data files' digests in {@code d} ({@link DataFileDigests#NONE}: nowhere). */
    public ImportRequest withDigests(DataFileDigests d) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, mode, format, schemaOverride, nullStrings, author, message, keys, dropKey,
                cacheDir, sources, targetFileSize, progress, d);
    }

    public ImportRequest withMode(ImportMode m) {
        return new ImportRequest(catalog, store, dataDirKey, source, table, m, format, schemaOverride, nullStrings, author, message, keys, dropKey, cacheDir, sources, targetFileSize, progress, digests);
    }
}
