package dev.fdl.ducklake.merge;

import dev.fdl.FdlException;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.load.DataFileUploads;
import dev.fdl.ducklake.load.DataFileWriter;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.DeleteFiles;
import dev.fdl.ducklake.working.FileStats;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.Payload;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Records a {@link DeltaMerge}'s deletes and inserts against ours in the merge's scratch catalog as
 * one snapshot, through the snapshot writer ({@link WorkingCatalog#newSnapshot}), as the DuckLake
 * extension records a {@code DELETE} plus {@code INSERT} (DUCKLAKE.md "Data"): per data file of ours
 * with deletes, its delete file ends and a new one holding every deleted position begins (a data file
 * whose every row is deleted ends instead); the inserted rows go into new data files. No data file
 * of ours is rewritten.
 */
final class DeltaCommit {
    private DeltaCommit() {}

    /** One data file of ours with new deletes: its id, its rows, and how many of them are deleted afterwards. */
    record FileDeletes(long dataFileId, long recordCount, long deletedAfter) {
        boolean ends() {
            return deletedAfter >= recordCount;
        }
    }

    /** Per data file of ours with new deletes, its deletes afterwards (reads ours' earlier delete files of those files). */
    static List<FileDeletes> perFile(Connection duck, DeltaMerge m) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT " + TableViewSql.FILE_ID + " FROM " + m.deletes() + " ORDER BY 1")) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        List<FileDeletes> out = new ArrayList<>();
        for (long id : ids) {
            SnapshotView.DataFileEntry f = m.ours().dataFiles().stream().filter(d -> d.id() == id).findFirst()
                    .orElseThrow(() -> new IllegalStateException("data file " + id + " is not visible in ours"));
            out.add(new FileDeletes(id, f.recordCount(), m.count("(" + positions(m, id) + ")")));
        }
        return out;
    }

    /** Every position of data file {@code id} deleted afterwards: ours' earlier deletes and the merge's. */
    private static String positions(DeltaMerge m, long id) {
        StringBuilder sb = new StringBuilder("SELECT " + TableViewSql.POS + " AS pos FROM " + m.deletes() + " WHERE "
                + TableViewSql.FILE_ID + " = " + id);
        for (SnapshotView.DeleteFileEntry d : m.ours().deleteFiles()) {
            if (d.dataFileId() != id) continue;
            m.open(d.location());
            sb.append(" UNION SELECT pos FROM read_parquet(").append(SqlQuote.literal(d.location())).append(')');
        }
        return sb.toString();
    }

    /** Where and what the merge writes: the scratch catalog, the table, the request's writer, a scratch folder, and the key to record (null: as it is). */
    record Target(Path scratch, String table, MergeRequest.Writer writer, Path tmp, List<String> key) {}

    /**
     * Writes the data and delete files (uploaded to the store under the table's folder, their keys
     * added to {@code uploaded}) and records them as one snapshot of {@code t.scratch()}.
     *
     * @param dataPaths per data file id of ours, its path as the catalog resolves it (written into delete files)
     */
    static void write(Connection duck, DeltaMerge m, Target t, java.util.Map<Long, String> dataPaths, List<String> uploaded)
            throws SQLException {
        MergeRequest.Writer w = t.writer();
        TableName name = TableName.parse(t.table());
        List<FileDeletes> files = perFile(duck, m);
        try (WorkingCatalog catalog = WorkingCatalog.open(t.scratch())) {
            WorkingCatalog.State state = catalog.state(name);
            if (state.table() == null || state.table().id() != m.ours().id())
                throw new IllegalStateException("table " + name + " of the merge's scratch catalog " + t.scratch() + " is not ours' table "
                        + m.ours().id());
            long tableId = state.table().id();
            List<ImportPlan.Column> columns = new ArrayList<>();
            for (SnapshotView.ColumnEntry c : m.ours().columns()) {
                ColumnTypes.Column lake = state.columns().stream().filter(x -> x.id() == c.id()).findFirst()
                        .orElseThrow(() -> new IllegalStateException("column " + c.name() + " of " + name + " vanished"));
                columns.add(new ImportPlan.Column(c.id(), c.name(), c.name(), c.duckType(), lake.lakeType()));
            }
            String location = w.store().location(w.dataDirKey());
            String folder = w.dataDirKey() + ImportPlan.tableFolderKey(state, name, location);
            List<WorkingCatalog.NewDataFile> inserts = new ArrayList<>();
            java.nio.file.Files.createDirectories(t.tmp());
            List<String> select = new ArrayList<>();
            for (ImportPlan.Column c : columns)
                select.add(SqlQuote.ident(TableViewSql.idColumn(c.id())) + " AS " + SqlQuote.ident(c.name()));
            String rows = "SELECT " + String.join(", ", select) + " FROM " + m.inserts();
            for (DataFileUploads.Uploaded u : DataFileUploads.run(w.store(), folder, t.tmp().resolve("data"), DataProgress.NONE,
                    () -> DataFileWriter.write(duck, rows, columns, t.tmp().resolve("data"), 0, DataProgress.NONE).files())) {
                uploaded.add(u.key());
                inserts.add(new WorkingCatalog.NewDataFile(u.fileName(), FileStats.of(duck, u.file(), columns)));
            }
            List<DeleteFiles.Written> deletes = new ArrayList<>();
            List<DeleteFiles.Ended> ended = new ArrayList<>();
            for (FileDeletes f : files) {
                SnapshotView.DataFileEntry meta = m.ours().dataFiles().stream().filter(d -> d.id() == f.dataFileId()).findFirst().orElseThrow();
                if (f.ends()) {
                    ended.add(new DeleteFiles.Ended(f.dataFileId(), f.recordCount(), Math.max(0, meta.bytes())));
                    continue;
                }
                Path file = t.tmp().resolve("delete-" + f.dataFileId() + ".parquet");
                DeleteFiles.Written d = DeleteFiles.write(duck, f.dataFileId(), dataPaths.get(f.dataFileId()), positions(m, f.dataFileId()), file);
                w.store().put(folder + d.fileName(), Payload.of(file));
                uploaded.add(folder + d.fileName());
                deletes.add(d);
            }
            catalog.newSnapshot(state.base(), "merge", w.author(), w.message()).commit(s -> {
                DeleteFiles.record(s, tableId, deletes, ended);
                if (!inserts.isEmpty()) {
                    catalog.insertDataFiles(s, tableId, ImportPlan.append(name, state, columns), inserts, duck);
                    s.change("inserted_into_table:" + tableId);
                }
                if (t.key() != null) s.recordRowKey(tableId, t.key());
                return s.id();
            });
        } catch (java.io.IOException e) {
            throw new FdlException("cannot merge " + name + ": " + e.getMessage());
        }
    }
}
