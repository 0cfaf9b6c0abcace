package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deletes applied by position ({@link TableViewSql}) show exactly the rows an anti join on data
 * file name and position shows (the plain reading of the DuckLake spec: a delete file's
 * {@code pos} and an inlined delete's {@code row_id} remove that row of that data file), on
 * randomized seeded tables: several data files, delete files on some, inlined deletes on some
 * (those begun after the snapshot not applied).
 */
class TableViewDeletesTest {
    private static final long SNAPSHOT = 5;

    @TempDir
    Path dir;

    @Test
    void positionalDeletesShowTheRowsTheJoinOnFileAndPositionShows() throws Exception {
        try (Connection c = DuckDbPool.shared().connection(); Statement s = c.createStatement()) {
            s.execute("ATTACH ':memory:' AS cat");
            for (int seed = 1; seed <= 12; seed++) {
                Random r = new Random(seed);
                Table t = table(s, r, seed);
                TableViewSql view = new TableViewSql(SnapshotView.of("cat", SNAPSHOT, List.of(t.entry)), t.entry);
                String ids = "SELECT * FROM (" + view.selectWithRowIds() + ")";
                assertThat(count(s, ids)).as("seed %d rows", seed).isEqualTo(count(s, t.reference));
                assertThat(count(s, "(" + ids + " EXCEPT ALL " + t.reference + ") UNION ALL (" + t.reference + " EXCEPT ALL " + ids + ")"))
                        .as("seed %d rows differing from the join's", seed).isZero();
                String plain = "SELECT * FROM (" + view.select() + ")";
                String referencePlain = "SELECT c1, c2, c3 FROM (" + t.reference + ")";
                assertThat(count(s, "(" + plain + " EXCEPT ALL " + referencePlain + ") UNION ALL (" + referencePlain + " EXCEPT ALL " + plain + ")"))
                        .as("seed %d select()", seed).isZero();
                if (view.deletes() != null) {
                    // the hash table is built over the deletes, never over the data rows
                    assertThat(plan(s, view.select())).as("seed %d plan", seed).doesNotContain("RIGHT_ANTI").doesNotContain("RIGHT_SEMI");
                }
                s.execute("DROP TABLE IF EXISTS cat.main.inlined_delete");
            }
        }
    }

    private record Table(SnapshotView.TableEntry entry, String reference) {}

    /**
     * Random data files (field ids 1..3), delete files on some, an inlined delete table on some
     * seeds; {@code reference} is the view as the join on (file name, position) gives it.
     */
    private Table table(Statement s, Random r, int seed) throws SQLException {
        int files = 1 + r.nextInt(4);
        List<SnapshotView.DataFileEntry> data = new ArrayList<>();
        List<SnapshotView.DeleteFileEntry> deleteFiles = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        StringBuilder names = new StringBuilder();
        for (int f = 0; f < files; f++) {
            long id = 10 + r.nextInt(5) * 10L + f; // ids not in file order
            int rows = r.nextInt(3000);
            String loc = dir.resolve("s" + seed + "-f" + f + ".parquet").toString();
            s.execute("COPY (SELECT i AS a, 'v' || (i * " + (f + 1) + ") AS b, i % 7 AS c FROM range(" + rows + ") t(i)) TO "
                    + SqlQuote.literal(loc) + " (FIELD_IDS {a: 1, b: 2, c: 3})");
            data.add(new SnapshotView.DataFileEntry(id, loc, rows, -1, 0));
            names.append(f == 0 ? "" : ", ").append("(").append(id).append(", ").append(SqlQuote.literal(loc)).append(")");
            int deleteFileCount = rows == 0 ? 0 : r.nextInt(3);
            for (int d = 0; d < deleteFileCount; d++) {
                String del = dir.resolve("s" + seed + "-f" + f + "-d" + d + ".parquet").toString();
                // positions sampled with repeats across delete files; the path inside is stale on purpose
                s.execute("COPY (SELECT DISTINCT '/elsewhere/x.parquet' AS file_path, (hash(i, " + (seed * 31 + f * 7 + d) + ") % " + rows
                        + ")::BIGINT AS pos FROM range(" + r.nextInt(rows + 1) + ") t(i)) TO " + SqlQuote.literal(del));
                deleteFiles.add(new SnapshotView.DeleteFileEntry(id, del));
                deleted.add("SELECT " + SqlQuote.literal(loc) + " AS f, pos FROM read_parquet(" + SqlQuote.literal(del) + ")");
            }
        }
        String inlinedDeletes = null;
        if (r.nextBoolean()) {
            inlinedDeletes = "inlined_delete";
            s.execute("CREATE TABLE cat.main.inlined_delete (file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT)");
            for (SnapshotView.DataFileEntry f : data) {
                if (f.recordCount() == 0) continue;
                s.execute("INSERT INTO cat.main.inlined_delete SELECT " + f.id() + ", (hash(i, " + f.id() + ") % " + f.recordCount()
                        + ")::BIGINT, 1 + i % 8 FROM range(" + r.nextInt(40) + ") t(i)");
            }
            deleted.add("SELECT files.f, i.row_id AS pos FROM cat.main.inlined_delete i JOIN (VALUES " + names
                    + ") AS files(id, f) ON i.file_id = files.id WHERE i.begin_snapshot <= " + SNAPSHOT);
        }
        List<SnapshotView.ColumnEntry> columns = List.of(new SnapshotView.ColumnEntry(1, "c1", "BIGINT", null),
                new SnapshotView.ColumnEntry(2, "c2", "VARCHAR", null), new SnapshotView.ColumnEntry(3, "c3", "BIGINT", null));
        SnapshotView.TableEntry entry = new SnapshotView.TableEntry(1, "main", "t", columns, data, deleteFiles, List.of(), inlinedDeletes);
        StringBuilder list = new StringBuilder();
        for (SnapshotView.DataFileEntry f : data) list.append(list.isEmpty() ? "" : ", ").append(SqlQuote.literal(f.location()));
        String reference = "SELECT p.a AS c1, p.b AS c2, p.c AS c3, files.id AS " + TableViewSql.FILE_ID + ", p.file_row_number AS "
                + TableViewSql.POS + ", CAST(NULL AS INTEGER) AS " + TableViewSql.INLINED + " FROM read_parquet([" + list
                + "], filename = true, file_row_number = true) p JOIN (VALUES " + names + ") AS files(id, f) ON p.filename = files.f"
                + (deleted.isEmpty() ? "" : " ANTI JOIN (" + String.join(" UNION ALL ", deleted) + ") d ON p.filename = d.f AND p.file_row_number = d.pos");
        return new Table(entry, reference);
    }

    private static long count(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (" + query + ")")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String plan(Statement s, String query) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (ResultSet rs = s.executeQuery("EXPLAIN " + query)) {
            while (rs.next()) sb.append(rs.getString(2));
        }
        return sb.toString();
    }

}
