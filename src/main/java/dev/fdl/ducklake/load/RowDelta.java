package dev.fdl.ducklake.load;

import dev.fdl.FdlException;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.DeleteFiles;
import dev.fdl.ducklake.working.FileStats;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.NewSnapshot;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.working.SnapshotOperation;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one writer of a table's row changes (sync and merge), as Iceberg's {@code RowDelta} sits on
 * its snapshot producer, and as the DuckLake extension records a {@code DELETE} plus
 * {@code INSERT} (DUCKLAKE.md "Data"; DuckLake spec, "Delete files"): the inserted rows go into new
 * data files ({@link DataFileWriter}, uploaded by {@link DataFileUploads}, measured by
 * {@link FileStats}); per data file with deleted rows, a new delete file holds every position
 * deleted afterwards (its earlier delete files' and the new ones) and its previous delete file
 * ends, or, when every row is deleted, the data file ends ({@link DeleteFiles}); deleted inlined
 * rows end; the key is recorded ({@link RowKey}). No data file is rewritten. Everything is
 * recorded as one snapshot through the snapshot writer ({@link WorkingCatalog#newSnapshot}).
 *
 * <p>Two steps: {@link #write} writes and uploads the files (their keys added to a list the caller
 * deletes again when it fails); {@link #commit} records them.
 */
public final class RowDelta {
    private RowDelta() {}

    /** The phase {@link #write} reports while it writes delete files, in files. */
    public static final String DELETES = "writing delete files";

    /**
     * Where the files go: the store, the table's folder key (ending in {@code /}), a local scratch
     * folder, progress, the data files' target size in bytes (0: one file), and where the new data
     * files' SHA-256 digests are recorded as they are uploaded (docs/signing.md; {@link DataFileDigests#NONE}: nowhere).
     */
    public record Target(ObjectStore store, String folderKey, Path tmp, DataProgress progress, long targetFileSize, DataFileDigests digests) {}

    /**
     * The row changes to one table.
     *
     * @param insertedRows   a query of the inserted rows, columns named as {@code columns}; null: none
     * @param columns        the table's columns after the change
     * @param deleted        a relation of the deleted rows of data files, columns {@link TableViewSql#FILE_ID} and
     *                       {@link TableViewSql#POS} (rows with a NULL file id are ignored); null: none
     * @param table          the table as read: its data files and their visible delete files (local paths)
     * @param dataPaths      per data file id, its path as the catalog resolves it (written into delete files)
     * @param inlinedDeletes inlined-data table name → row ids whose rows end
     * @param key            the row key to record ({@link RowKey}); null: as it is
     */
    public record Change(String insertedRows, List<ImportPlan.Column> columns, String deleted, SnapshotView.TableEntry table,
                         Map<Long, String> dataPaths, Map<String, List<Long>> inlinedDeletes, List<String> key) {}

    /** One data file with new deletes: its id, its rows, and how many of them are deleted afterwards. */
    public record FileDeletes(long dataFileId, long recordCount, long deletedAfter) {
        /** Whether every row of the data file is deleted afterwards: the data file ends. */
        public boolean ends() {
            return deletedAfter >= recordCount;
        }
    }

    /** The files {@link #write} wrote and uploaded: the new data files (and their keys), the new delete files, the data files that end. */
    public record Written(List<WorkingCatalog.NewDataFile> inserts, List<String> insertKeys, List<DeleteFiles.Written> deletes,
                          List<DeleteFiles.Ended> ended) {
        /** The new data files' sizes together, in bytes. */
        public long insertBytes() {
            return inserts.stream().mapToLong(f -> f.stats().fileSizeBytes()).sum();
        }

        /** The new delete files' sizes together, in bytes. */
        public long deleteBytes() {
            return deletes.stream().mapToLong(DeleteFiles.Written::fileSizeBytes).sum();
        }
    }

    /** What the snapshot is: the working catalog, its state as read, the table, and the snapshot's operation, author and message. */
    public record At(WorkingCatalog catalog, WorkingCatalog.State state, TableName name, String what, String author, String message) {}

    /**
     * Per data file of {@code table} with rows in {@code deleted} (in file id order), how many of
     * its rows are deleted afterwards (its earlier delete files read).
     *
     * @throws IllegalStateException when a deleted row's data file is not one of {@code table}'s
     */
    public static List<FileDeletes> perFile(Connection duck, String deleted, SnapshotView.TableEntry table) throws SQLException {
        List<FileDeletes> out = new ArrayList<>();
        if (deleted == null) return out;
        List<Long> ids = new ArrayList<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT " + TableViewSql.FILE_ID + " FROM (" + deleted + ") WHERE "
                     + TableViewSql.FILE_ID + " IS NOT NULL ORDER BY 1")) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        for (long id : ids) {
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + positions(deleted, table, id) + ")")) {
                rs.next();
                out.add(new FileDeletes(id, dataFile(table, id).recordCount(), rs.getLong(1)));
            }
        }
        return out;
    }

    /** Every position of data file {@code id} deleted afterwards: its earlier delete files' and {@code deleted}'s (one column {@code pos}). */
    static String positions(String deleted, SnapshotView.TableEntry table, long id) {
        StringBuilder sb = new StringBuilder("SELECT " + TableViewSql.POS + " AS pos FROM (" + deleted + ") WHERE "
                + TableViewSql.FILE_ID + " = " + id);
        for (SnapshotView.DeleteFileEntry d : table.deleteFiles()) {
            if (d.dataFileId() != id) continue;
            sb.append(" UNION SELECT pos FROM read_parquet(").append(SqlQuote.literal(d.location())).append(')');
        }
        return sb.toString();
    }

    private static SnapshotView.DataFileEntry dataFile(SnapshotView.TableEntry table, long id) {
        return table.dataFiles().stream().filter(d -> d.id() == id).findFirst()
                .orElseThrow(() -> new IllegalStateException("data file " + id + " is not visible in " + table.name()));
    }

    /**
     * Writes and uploads the change's data and delete files; each key uploaded is added to
     * {@code uploaded} (for the caller to delete again when it fails before {@link #commit}).
     */
    public static Written write(Connection duck, Target t, Change c, List<String> uploaded) throws SQLException, IOException {
        Files.createDirectories(t.tmp());
        List<WorkingCatalog.NewDataFile> inserts = new ArrayList<>();
        List<String> insertKeys = new ArrayList<>();
        if (c.insertedRows() != null) {
            Path data = t.tmp().resolve("data");
            for (DataFileUploads.Uploaded u : DataFileUploads.run(t.store(), t.folderKey(), data, t.progress(), t.digests(),
                    () -> DataFileWriter.write(duck, c.insertedRows(), c.columns(), data, t.targetFileSize(), t.progress()).files())) {
                uploaded.add(u.key());
                insertKeys.add(u.key());
                inserts.add(new WorkingCatalog.NewDataFile(u.fileName(), FileStats.of(duck, u.file(), c.columns())));
            }
        }
        List<DeleteFiles.Written> deletes = new ArrayList<>();
        List<DeleteFiles.Ended> ended = new ArrayList<>();
        t.progress().update(DELETES, 0, -1, "files");
        List<FileDeletes> perFile = perFile(duck, c.deleted(), c.table());
        for (int i = 0; i < perFile.size(); i++) {
            FileDeletes f = perFile.get(i);
            t.progress().update(DELETES, i, perFile.size(), "files");
            if (f.ends()) {
                ended.add(new DeleteFiles.Ended(f.dataFileId(), f.recordCount(), Math.max(0, dataFile(c.table(), f.dataFileId()).bytes())));
                continue;
            }
            Path file = t.tmp().resolve("delete-" + f.dataFileId() + ".parquet");
            DeleteFiles.Written d = DeleteFiles.write(duck, f.dataFileId(), c.dataPaths().get(f.dataFileId()),
                    positions(c.deleted(), c.table(), f.dataFileId()), file);
            t.store().put(t.folderKey() + d.fileName(), Payload.of(file));
            uploaded.add(t.folderKey() + d.fileName());
            t.digests().hashAndRecord(t.folderKey() + d.fileName(), file, d.fileSizeBytes());
            deletes.add(d);
        }
        t.progress().update(DELETES, perFile.size(), perFile.size(), "files");
        return new Written(inserts, insertKeys, deletes, ended);
    }

    /**
     * Records {@code w} as the snapshot after {@code at.state()}'s: first {@code before} (a schema
     * change of the same snapshot, or null), then the ended data files and new delete files, the
     * ended inlined rows, the new data files and the key.
     *
     * @param duck a DuckDB connection, used to compare statistics values by their type
     * @return the new snapshot id
     * @throws FdlException conflict when another writer added a snapshot since {@code at.state()} was read
     */
    public static long commit(Connection duck, At at, Change c, Written w, SnapshotOperation<?> before) throws SQLException {
        return at.catalog().newSnapshot(at.state().base(), at.what(), at.author(), at.message()).commit(s -> {
            if (before != null) before.apply(s);
            long tableId = at.state().table().id();
            DeleteFiles.record(s, tableId, w.deletes(), w.ended());
            endInlined(s, tableId, c.inlinedDeletes());
            if (!w.inserts().isEmpty()) {
                s.catalog().insertDataFiles(s, tableId, ImportPlan.append(at.name(), at.state(), c.columns()), w.inserts(), duck);
                s.change("inserted_into_table:" + tableId);
            }
            if (c.key() != null) s.recordRowKey(tableId, c.key());
            return s.id();
        });
    }

    private static void endInlined(NewSnapshot s, long tableId, Map<String, List<Long>> rows) throws SQLException {
        int inlined = 0;
        for (Map.Entry<String, List<Long>> e : rows.entrySet()) {
            // DuckLake 1.0 and 1.1 spell the system columns differently (DUCKLAKE.md "DuckLake 1.1")
            DuckLakeSchema.InlinedColumns system = DuckLakeSchema.inlinedColumns(Sql.sqliteColumns(s.catalog().connection(), e.getKey()));
            if (system == null) throw new FdlException("inlined-data table " + e.getKey()
                    + " does not start with DuckLake's system columns; the working catalog looks corrupt");
            inlined += s.endInlinedRowsById(SqlQuote.ident(e.getKey()), SqlQuote.ident(system.end()), SqlQuote.ident(system.rowId()), e.getValue());
        }
        if (inlined > 0) s.change("inlined_delete:" + tableId);
    }
}
