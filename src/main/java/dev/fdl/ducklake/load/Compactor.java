package dev.fdl.ducklake.load;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.FdlException;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.ducklake.read.SnapshotView;

/**
 * {@code fdl compact <table>}: after many {@code import --mode sync}s a table is spread over many
 * small data files with delete files; compaction rewrites its visible rows into one new data file
 * in a new snapshot, as DuckLake's rewrite does: the old data files, delete files and inlined rows
 * stop being visible at that snapshot and <b>no file is deleted</b> (earlier snapshots and
 * versions still name them; {@code fdl gc} removes them once no live version does). The table keeps
 * its columns and column ids. It is explicit, never done by sync: a compacted version no longer
 * shares the table's files with its parent, so it stores the table once more until the older
 * versions expire.
 */
public final class Compactor {
    private final DuckDbPool pool;
    private final long targetFileSize;
    private final DataProgress progress;

    /** A compactor borrowing its DuckDB instances from {@code pool}, writing files of DuckLake's default target size. */
    public Compactor(DuckDbPool pool) {
        this(pool, 0, DataProgress.NONE);
    }

    /**
     * A compactor borrowing its DuckDB instances from {@code pool} whose new data files stop at
     * {@code targetFileSize} bytes ({@link DataFileWriter}; 0: the default), telling {@code progress}
     * how writing and uploading them goes.
     */
    public Compactor(DuckDbPool pool, long targetFileSize, DataProgress progress) {
        this.progress = java.util.Objects.requireNonNull(progress, "progress");
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
        if (targetFileSize < 0) throw new IllegalArgumentException("targetFileSize < 0");
        this.targetFileSize = targetFileSize;
    }

    /** What compaction did: files read before, and the import that wrote the new file (null when there was nothing to do). */
    public record CompactionResult(TableName table, int dataFiles, int deleteFiles, int inlinedTables, ImportResult written) {}

    /**
     * @param cacheDir where a remote repository's data files are mirrored to be read
     * @throws FdlException not found for a missing table; failure as {@link Importer#importFile} fails
     */
    public CompactionResult compact(Path sqliteCatalog, ObjectStore store, String dataDirKey, Path cacheDir, String table,
                                 String author, String message) {
        TableName name = TableName.parse(table);
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("fdl-compact-");
            Path rows = tmp.resolve(name.name() + ".parquet");
            int files, deletes, inlined;
            try (ReadableCatalog copy = ReadableCatalog.working(sqliteCatalog, tmp.resolve("catalog.duckdb"));
                 BuiltInReader reader = BuiltInReader.open(pool, copy.catalog(),
                         copy.readBase(pool, new ReadableCatalog.DataFiles(store, DuckLakePaths.dataPath(dataDirKey), cacheDir), null), null)) {
                Path converted = copy.catalog();
                if (!reader.tables().contains(name.toString())) {
                    throw FdlException.notFound("table " + name + " does not exist in the working catalog");
                }
                int[] counts = counts(converted, name);
                files = counts[0];
                deletes = counts[1];
                inlined = counts[2];
                if (files <= 1 && deletes == 0 && inlined == 0) return new CompactionResult(name, files, deletes, inlined, null);
                try (Statement st = reader.connection().createStatement()) {
                    st.execute("COPY (SELECT * FROM " + SqlQuote.qualified(name.schema(), name.name()) + ") TO "
                            + SqlQuote.literal(rows.toString()) + " (FORMAT parquet)");
                }
            }
            // The same rows again: a recorded key stays as true (or as broken) as it was, so it is not checked.
            ImportResult written = new Importer(pool).importRecordingKey(
                    ImportRequest.of(sqliteCatalog, store, dataDirKey, rows, table, ImportMode.REPLACE).withFormat(ImportFormat.PARQUET)
                            .withTargetFileSize(targetFileSize).withProgress(progress)
                            .withAuthor(author).withMessage(message == null ? "compact " + name : message), null);
            return new CompactionResult(name, files, deletes, inlined, written);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot compact " + name + ": " + DuckDbErrors.firstLine(e), e);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot compact " + name + ": " + e.getMessage(), e);
        } finally {
            Importer.deleteTree(tmp);
        }
    }

    /** {visible data files, visible delete files, inlined-data tables} of the table at the newest snapshot. */
    private int[] counts(Path converted, TableName name) throws SQLException {
        try (java.sql.Connection duck = pool.connection()) {
            Sql.attach(duck, converted, "c", true);
            SnapshotView c = SnapshotView.loadRelative(duck, "c", converted.toString(), null);
            for (SnapshotView.TableEntry t : c.tables()) {
                if (t.schema().equals(name.schema()) && t.name().equals(name.name())) {
                    return new int[]{t.dataFiles().size(), t.deleteFiles().size(), t.inlined().size()};
                }
            }
            throw FdlException.notFound("table " + name + " does not exist in the working catalog");
        }
    }
}
