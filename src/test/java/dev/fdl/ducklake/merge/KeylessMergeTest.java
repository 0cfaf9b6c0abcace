package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.working.TableRename;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables without a key merge per distinct row as diff3 merges lines (docs/SPEC.md section 7): with
 * its counts b, o, t in base, ours and theirs, o = t takes o, o = b takes t, t = b takes o, else
 * max(0, o + t - b), listed as a warning (a conflict of kind {@code count} with strict). Each case
 * runs on the merge from each side's changes (same columns on all sides) and on the whole-table
 * merge (theirs renamed column {@code b} to {@code bee}, so the columns differ).
 */
class KeylessMergeTest {
    @TempDir Path dir;
    int files;
    LocalStore store;
    Path base, ours, theirs;

    /** Base rows, then ours' and theirs' whole tables; {@code whole}: theirs renames column b first. */
    private void sides(boolean whole, String b, String o, String t) throws Exception {
        store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        base = dir.resolve("base.sqlite");
        ours = dir.resolve("ours.sqlite");
        theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        sync(base, "a,b\n" + b, List.of());
        Files.copy(base, ours);
        Files.copy(base, theirs);
        sync(ours, "a,b\n" + o, null);
        if (whole) {
            long table = one(theirs, "SELECT table_id FROM ducklake_table WHERE end_snapshot IS NULL AND table_name = 't'");
            long column = one(theirs, "SELECT column_id FROM ducklake_column WHERE end_snapshot IS NULL AND column_name = 'b' AND table_id = " + table);
            TableRename.rename(theirs, table, "t", Map.of(column, "bee"), "t", "rename");
            sync(theirs, "a,bee\n" + t, null);
        } else sync(theirs, "a,b\n" + t, null);
    }

    @ParameterizedTest(name = "whole table: {0}")
    @ValueSource(booleans = {false, true})
    void theSameRowAddedOnBothSidesIsAddedOnce(boolean whole) throws Exception {
        sides(whole, "1,a\n2,b\n", "1,a\n2,b\n3,c\n", "1,a\n2,b\n3,c\n");
        MergeResult r = merge(MergeOptions.NONE, "m");
        assertThat(r.conflicts()).isEmpty();
        assertThat(r.warnings()).isEmpty();
        assertThat(rows("m")).containsExactly("1,a", "2,b", "3,c");
    }

    @ParameterizedTest(name = "whole table: {0}")
    @ValueSource(booleans = {false, true})
    void aDuplicateRemovedOnBothSidesKeepsTheOtherCopy(boolean whole) throws Exception {
        sides(whole, "1,a\n1,a\n2,b\n", "1,a\n2,b\n3,c\n", "1,a\n2,b\n3,c\n");
        MergeResult r = merge(MergeOptions.NONE, "m");
        assertThat(r.conflicts()).isEmpty();
        assertThat(r.warnings()).isEmpty();
        assertThat(rows("m")).containsExactly("1,a", "2,b", "3,c");
    }

    @ParameterizedTest(name = "whole table: {0}")
    @ValueSource(booleans = {false, true})
    void aDuplicateRemovedOnBothSidesAmongOtherEditsKeepsOneCopyNotTheMultisetDifference(boolean whole) throws Exception {
        // (2,0): b 2, o 1, t 1 -> 1 (not o + t - b = 0); (1,1): b 1, o 1, t 2 -> 2; (1,2), (2,1): added by ours
        sides(whole, "1,1\n2,0\n2,0\n0,2\n2,2\n0,1\n", "1,1\n2,0\n0,2\n2,2\n0,1\n1,2\n2,1\n", "1,1\n2,0\n0,2\n2,2\n0,1\n1,1\n");
        MergeResult r = merge(MergeOptions.NONE, "m");
        assertThat(r.conflicts()).isEmpty();
        assertThat(r.warnings()).isEmpty();
        assertThat(rows("m")).containsExactly("0,1", "0,2", "1,1", "1,1", "1,2", "2,0", "2,1", "2,2");
    }

    @ParameterizedTest(name = "whole table: {0}")
    @ValueSource(booleans = {false, true})
    void aCountChangedOnOneSideIsTakenEvenWhereTheOtherTouchedOtherRows(boolean whole) throws Exception {
        // (1,a): b 2, o 2, t 0 -> 0; (2,b): b 1, o 0, t 1 -> 0; (4,d): added by ours; (5,e): added once more by theirs
        sides(whole, "1,a\n1,a\n2,b\n5,e\n", "1,a\n1,a\n5,e\n4,d\n", "2,b\n5,e\n5,e\n");
        MergeResult r = merge(MergeOptions.NONE, "m");
        assertThat(r.conflicts()).isEmpty();
        assertThat(r.warnings()).isEmpty();
        assertThat(rows("m")).containsExactly("4,d", "5,e", "5,e");
    }

    @ParameterizedTest(name = "whole table: {0}")
    @ValueSource(booleans = {false, true})
    void countsChangedDifferentlyOnBothSidesAreMergedWithAWarningOrConflictWhenStrict(boolean whole) throws Exception {
        // (1,a): b 2, o 3, t 1 -> max(0, 3 + 1 - 2) = 2; (2,b): b 1, o 0, t 2 -> 1; (9,z) kept
        sides(whole, "1,a\n1,a\n2,b\n9,z\n", "1,a\n1,a\n1,a\n9,z\n", "1,a\n2,b\n2,b\n9,z\n");
        MergeResult r = merge(MergeOptions.NONE, "m");
        assertThat(r.conflicts()).isEmpty();
        assertThat(rows("m")).containsExactly("1,a", "1,a", "2,b", "9,z");
        assertThat(r.warnings()).singleElement().satisfies(w -> {
            assertThat(w.kind()).isEqualTo("count");
            assertThat(w.count()).isEqualTo(2);
            assertThat(w.keys()).extracting(MergeResult.KeyConflict::base, MergeResult.KeyConflict::ours, MergeResult.KeyConflict::theirs)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("2", "3", "1"), org.assertj.core.groups.Tuple.tuple("1", "0", "2"));
            assertThat(w.keys().get(0).key()).contains("\"a\":1");
        });

        MergeResult strict = merge(MergeOptions.NONE.withStrict(true), "s");
        assertThat(strict.conflicts()).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo("count");
            assertThat(c.count()).isEqualTo(2);
        });
        assertThat(dir.resolve("s.sqlite")).doesNotExist();

        MergeResult settled = merge(new MergeOptions(MergeOptions.MergeSide.THEIRS, Map.of(), List.of(), true), "st");
        assertThat(settled.conflicts()).isEmpty();
        assertThat(settled.warnings()).isEmpty();
        assertThat(rows("st")).containsExactly("1,a", "2,b", "2,b", "9,z");
    }

    private MergeResult merge(MergeOptions options, String out) throws Exception {
        return new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                new MergeRequest.CatalogSnapshot(theirs, RandomThreeWayMergeTest.Trio.newest(theirs)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), options, dir.resolve(out + ".sqlite"),
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));
    }

    /** The merged table's rows, {@code a,<second column>}, sorted. */
    private List<String> rows(String out) throws Exception {
        Path duck = dir.resolve("read-" + (files++) + ".duckdb");
        CatalogConverter.convert(dir.resolve(out + ".sqlite"), duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        List<String> rows = new ArrayList<>();
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, null, null);
             Statement st = reader.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM t ORDER BY ALL")) {
            while (rs.next()) rows.add(rs.getString(1) + "," + rs.getString(2));
        }
        return rows;
    }

    private static long one(Path sqlite, String sql) throws Exception {
        try (Connection c = Sql.sqlite(sqlite, true); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getLong(1);
        }
    }

    private void sync(Path catalog, String csv, List<String> key) throws Exception {
        Path file = dir.resolve("src-" + (files++) + ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, "t", ImportMode.SYNC)
                .withKeys(key).withAuthor("tester").withMessage("sync"));
    }
}
