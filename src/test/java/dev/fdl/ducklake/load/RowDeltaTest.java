package dev.fdl.ducklake.load;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.WorkingCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one row-change writer: a data file keeps one visible delete file holding every position
 * deleted from it (the earlier deletes included), and a data file whose every row is deleted ends
 * (DuckLake spec, "Delete files"; as the DuckLake extension records a {@code DELETE}).
 */
class RowDeltaTest {
    @TempDir
    Path tmp;

    @Test
    void deletesAccumulateInOneVisibleDeleteFileAndAFullyDeletedDataFileEnds() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        Path csv = tmp.resolve("t.csv");
        Files.writeString(csv, "a\n10\n20\n30\n40\n");
        wc.importFile(csv, "t", ImportMode.CREATE);

        // delete position 1 (20) and insert 50; then delete position 2 (30): one delete file holding both
        change(wc, 1, new long[]{1}, "SELECT 50::BIGINT AS a");
        long second = change(wc, 2, new long[]{2}, null);
        assertThat(rows(wc, second)).containsExactly(10L, 40L, 50L);
        assertThat(visibleDeleteCounts(wc)).containsExactly(2L);
        assertThat(visibleDataFiles(wc)).isEqualTo(2);

        // a third position: three of four rows deleted, the data file stays with one delete file of three
        long third = change(wc, 3, new long[]{0}, null);
        assertThat(rows(wc, third)).containsExactly(40L, 50L);
        assertThat(visibleDeleteCounts(wc)).containsExactly(3L);
        assertThat(visibleDataFiles(wc)).isEqualTo(2);

        // the last position: the data file ends, and its delete file with it
        long fourth = change(wc, 4, new long[]{3}, null);
        assertThat(rows(wc, fourth)).containsExactly(50L);
        assertThat(visibleDeleteCounts(wc)).isEmpty();
        assertThat(visibleDataFiles(wc)).isEqualTo(1);
    }

    /** Deletes {@code positions} of the table's first data file and inserts {@code inserted} (null: none), as one snapshot. */
    private long change(WorkingCatalogFixture wc, int n, long[] positions, String inserted) throws Exception {
        TableName name = TableName.parse("t");
        Path read = tmp.resolve("read-" + n + ".duckdb");
        CatalogConverter.convert(wc.catalog, read, CatalogKind.DUCKDB, ProgressListener.NONE);
        try (WorkingCatalog catalog = WorkingCatalog.open(wc.catalog); Connection duck = DuckDbPool.shared().connection()) {
            WorkingCatalog.State state = catalog.state(name);
            Sql.attach(duck, read, "c" + n, true);
            SnapshotView view = SnapshotView.loadTable(duck, "c" + n, wc.catalog.toString(), null, state.snapshot(), state.table().id());
            SnapshotView.TableEntry entry = view.tables().get(0);
            long fileId = entry.dataFiles().stream().mapToLong(SnapshotView.DataFileEntry::id).min().orElseThrow();
            Map<Long, String> paths = new LinkedHashMap<>();
            entry.dataFiles().forEach(f -> paths.put(f.id(), f.location()));
            List<String> values = new ArrayList<>();
            for (long p : positions) values.add("(" + fileId + "::BIGINT, " + p + "::BIGINT)");
            String deleted = "SELECT * FROM (VALUES " + String.join(", ", values) + ") AS d(" + TableViewSql.FILE_ID + ", "
                    + TableViewSql.POS + ")";
            List<ImportPlan.Column> columns = new ArrayList<>();
            for (SnapshotView.ColumnEntry c : entry.columns())
                columns.add(new ImportPlan.Column(c.id(), c.name(), c.name(), c.duckType(), "int64"));
            RowDelta.Change change = new RowDelta.Change(inserted, columns, deleted, entry, paths, Map.of(), null);
            String folder = "data/" + ImportPlan.tableFolderKey(state, name, wc.store.location("data/"));
            RowDelta.Written files = RowDelta.write(duck, new RowDelta.Target(wc.store, folder, tmp.resolve("w-" + n), DataProgress.NONE, 0, DataFileDigests.NONE),
                    change, new ArrayList<>());
            return RowDelta.commit(duck, new RowDelta.At(catalog, state, name, "test", "tester", "change " + n), change, files, null);
        }
    }

    private static List<Long> rows(WorkingCatalogFixture wc, long snapshot) throws Exception {
        List<Long> out = new ArrayList<>();
        try (BuiltInReader reader = wc.read(snapshot); Statement st = reader.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT a FROM t ORDER BY a")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    private static List<Long> visibleDeleteCounts(WorkingCatalogFixture wc) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT delete_count FROM ducklake_delete_file WHERE end_snapshot IS NULL ORDER BY 1")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    private static int visibleDataFiles(WorkingCatalogFixture wc) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM ducklake_data_file WHERE end_snapshot IS NULL")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
