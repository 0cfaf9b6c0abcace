package dev.fdl.ducklake.merge;

import dev.fdl.FdlException;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.load.RowDelta;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Records a {@link DeltaMerge}'s deletes and inserts against ours in the merge's scratch catalog as
 * one snapshot, through the one row-change writer ({@link RowDelta}): per data file of ours with
 * deletes, one delete file holding every deleted position (a data file whose every row is deleted
 * ends instead); the inserted rows go into new data files. No data file of ours is rewritten.
 */
final class DeltaCommit {
    private DeltaCommit() {}

    /**
     * Per data file of ours with new deletes, its deletes afterwards ({@link RowDelta#perFile}; ours' earlier
     * delete files of those files are read, and counted as read by {@code m}).
     */
    static List<RowDelta.FileDeletes> perFile(Connection duck, DeltaMerge m) throws SQLException {
        m.openOursDeletes();
        return RowDelta.perFile(duck, deleted(m), m.ours());
    }

    private static String deleted(DeltaMerge m) {
        return "SELECT * FROM " + m.deletes();
    }

    /** Where and what the merge writes: the scratch catalog, the table, the request's writer, a scratch folder, and the key to record (null: as it is). */
    record Target(Path scratch, String table, MergeRequest.Writer writer, Path tmp, List<String> key) {}

    /**
     * Writes the data and delete files (uploaded to the store under the table's folder, their keys
     * added to {@code uploaded}) and records them as one snapshot of {@code t.scratch()}.
     *
     * @param dataPaths per data file id of ours, its path as the catalog resolves it (written into delete files)
     */
    static void write(Connection duck, DeltaMerge m, Target t, Map<Long, String> dataPaths, List<String> uploaded)
            throws SQLException {
        MergeRequest.Writer w = t.writer();
        TableName name = TableName.parse(t.table());
        m.openOursDeletes(); // RowDelta reads them
        try (WorkingCatalog catalog = WorkingCatalog.open(t.scratch())) {
            WorkingCatalog.State state = catalog.state(name);
            if (state.table() == null || state.table().id() != m.ours().id())
                throw new IllegalStateException("table " + name + " of the merge's scratch catalog " + t.scratch() + " is not ours' table "
                        + m.ours().id());
            List<ImportPlan.Column> columns = new ArrayList<>();
            for (SnapshotView.ColumnEntry c : m.ours().columns()) {
                ColumnTypes.Column lake = state.columns().stream().filter(x -> x.id() == c.id()).findFirst()
                        .orElseThrow(() -> new IllegalStateException("column " + c.name() + " of " + name + " vanished"));
                columns.add(new ImportPlan.Column(c.id(), c.name(), c.name(), c.duckType(), lake.lakeType()));
            }
            String location = w.store().location(w.dataDirKey());
            String folder = w.dataDirKey() + ImportPlan.tableFolderKey(state, name, location);
            List<String> select = new ArrayList<>();
            for (ImportPlan.Column c : columns)
                select.add(SqlQuote.ident(TableViewSql.idColumn(c.id())) + " AS " + SqlQuote.ident(c.name()));
            RowDelta.Change change = new RowDelta.Change("SELECT " + String.join(", ", select) + " FROM " + m.inserts(), columns,
                    deleted(m), m.ours(), dataPaths, Map.of(), t.key());
            RowDelta.Written files = RowDelta.write(duck, new RowDelta.Target(w.store(), folder, t.tmp(), DataProgress.NONE, 0, w.digests()), change, uploaded);
            RowDelta.commit(duck, new RowDelta.At(catalog, state, name, "merge", w.author(), w.message()), change, files, null);
        } catch (java.io.IOException e) {
            throw new FdlException("cannot merge " + name + ": " + e.getMessage());
        }
    }
}
