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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A keyed table renamed (and a column renamed) on one side while its rows changed on the other:
 * the merged table carries the new names with both sides' rows, keeping its table and column ids;
 * renamed differently on both sides: a conflict of kind {@code name}, nothing written, unless settled.
 */
class RenameMergeTest {
    @TempDir Path dir;
    int files;
    LocalStore store;
    Path base, ours, theirs;

    @BeforeEach
    void sides() throws Exception {
        store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        base = dir.resolve("base.sqlite");
        ours = dir.resolve("ours.sqlite");
        theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        sync(base, "kt", "k,a,b\n1,10,x\n2,20,y\n3,30,z\n", List.of("k"));
        Files.copy(base, ours);
        Files.copy(base, theirs);
    }

    @Test
    void aRenameOnOneSideAndRowChangesOnTheOtherMerge() throws Exception {
        sync(ours, "kt", "k,a,b\n1,11,x\n2,20,y\n3,30,z\n4,40,w\n", null);                 // 1.a changed, 4 added
        TableRename.rename(theirs, tableId(theirs, "kt"), "renamed", Map.of(columnId(theirs, "kt", "b"), "bee"), "t", "rename");
        sync(theirs, "renamed", "k,a,bee\n1,10,x\n2,20,Y\n3,30,z\n", null);                 // 2.bee changed
        long table = tableId(ours, "kt"), column = columnId(ours, "kt", "b");

        MergeResult r = merge(ours, theirs, MergeOptions.NONE, dir.resolve("merged.sqlite"));
        assertThat(r.conflicts()).isEmpty();
        assertThat(r.tables()).singleElement().satisfies(t -> assertThat(t.table()).isEqualTo("renamed"));
        assertThat(read(dir.resolve("merged.sqlite"), "SELECT string_agg(concat_ws(',', k, a, bee), '|' ORDER BY k) FROM renamed"))
                .isEqualTo("1,11,x|2,20,Y|3,30,z|4,40,w");
        assertThat(tableId(dir.resolve("merged.sqlite"), "renamed")).isEqualTo(table);
        assertThat(columnId(dir.resolve("merged.sqlite"), "renamed", "bee")).isEqualTo(column);

        // the other way round: ours renamed, theirs changed rows
        MergeResult back = merge(theirs, ours, MergeOptions.NONE, dir.resolve("merged-back.sqlite"));
        assertThat(back.conflicts()).isEmpty();
        assertThat(read(dir.resolve("merged-back.sqlite"), "SELECT string_agg(concat_ws(',', k, a, bee), '|' ORDER BY k) FROM renamed"))
                .isEqualTo("1,11,x|2,20,Y|3,30,z|4,40,w");
    }

    @Test
    void aColumnRenamedInLetterCaseBySyncOnOneSideKeepsTheRenameAndTheOtherSidesRowChanges() throws Exception {
        long column = columnId(base, "kt", "b");
        sync(theirs, "kt", "k,a,B\n1,10,x\n2,20,y\n3,30,z\n", null);                      // the file's header renames b to B
        sync(ours, "kt", "k,a,b\n1,10,x\n2,22,y\n3,30,z\n", null);                        // 2.a changed
        assertThat(columnId(theirs, "kt", "B")).isEqualTo(column);

        for (boolean oursRenamed : List.of(false, true)) {
            Path out = dir.resolve("merged-" + oursRenamed + ".sqlite");
            MergeResult r = oursRenamed ? merge(theirs, ours, MergeOptions.NONE, out) : merge(ours, theirs, MergeOptions.NONE, out);
            assertThat(r.conflicts()).isEmpty();
            // by column id, as fdl diff pairs columns: the merge against the renaming side shows no rename
            assertThat(columnId(out, "kt", "B")).as("the renamed column keeps its id and the new name").isEqualTo(column);
            assertThat(read(out, "SELECT string_agg(concat_ws(',', k, a, \"B\"), '|' ORDER BY k) FROM kt")).isEqualTo("1,10,x|2,22,y|3,30,z");
        }
    }

    @Test
    void aColumnRenamedDifferentlyOnBothSidesIsANameConflict() throws Exception {
        sync(ours, "kt", "k,a,B\n1,11,x\n2,20,y\n3,30,z\n", null);
        TableRename.rename(theirs, tableId(theirs, "kt"), "kt", Map.of(columnId(theirs, "kt", "b"), "bee"), "t", "rename");
        sync(theirs, "kt", "k,a,bee\n1,10,x\n2,22,y\n3,30,z\n", null);

        MergeResult r = merge(ours, theirs, MergeOptions.NONE, dir.resolve("merged.sqlite"));
        assertThat(r.conflicts()).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo("name");
            assertThat(c.keys()).containsExactly(new MergeResult.KeyConflict("column B", "b", "B", "bee"));
        });
        assertThat(dir.resolve("merged.sqlite")).doesNotExist();
    }

    @Test
    void renamedDifferentlyOnBothSidesIsAConflictUnlessSettled() throws Exception {
        TableRename.rename(ours, tableId(ours, "kt"), "mine", Map.of(), "o", "rename");
        sync(ours, "mine", "k,a,b\n1,11,x\n2,20,y\n3,30,z\n", null);
        TableRename.rename(theirs, tableId(theirs, "kt"), "yours", Map.of(), "t", "rename");
        sync(theirs, "yours", "k,a,b\n1,10,x\n2,22,y\n3,30,z\n", null);

        MergeResult r = merge(ours, theirs, MergeOptions.NONE, dir.resolve("merged.sqlite"));
        assertThat(r.conflicts()).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo("name");
            assertThat(c.keys()).containsExactly(new MergeResult.KeyConflict("table mine", "kt", "mine", "yours"));
        });
        assertThat(dir.resolve("merged.sqlite")).doesNotExist();

        MergeResult settled = merge(ours, theirs, new MergeOptions(MergeOptions.MergeSide.THEIRS, Map.of(), List.of()), dir.resolve("settled.sqlite"));
        assertThat(settled.conflicts()).isEmpty();
        assertThat(read(dir.resolve("settled.sqlite"), "SELECT string_agg(concat_ws(',', k, a, b), '|' ORDER BY k) FROM yours"))
                .isEqualTo("1,11,x|2,22,y|3,30,z");
    }

    private MergeResult merge(Path o, Path t, MergeOptions options, Path out) throws Exception {
        return new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(o,
                new MergeRequest.CatalogSnapshot(t, RandomThreeWayMergeTest.Trio.newest(t)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), options, out,
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));
    }

    private static long tableId(Path sqlite, String name) throws Exception {
        return one(sqlite, "SELECT table_id FROM ducklake_table WHERE end_snapshot IS NULL AND table_name = '" + name + "'");
    }

    private static long columnId(Path sqlite, String table, String column) throws Exception {
        return one(sqlite, "SELECT column_id FROM ducklake_column WHERE end_snapshot IS NULL AND column_name = '" + column
                + "' AND table_id = " + tableId(sqlite, table));
    }

    private static long one(Path sqlite, String sql) throws Exception {
        try (Connection c = Sql.sqlite(sqlite, true); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getLong(1);
        }
    }

    private String read(Path sqlite, String sql) throws Exception {
        Path duck = dir.resolve("read-" + (files++) + ".duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, null, null);
             Statement st = reader.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void sync(Path catalog, String table, String csv, List<String> key) throws Exception {
        Path file = dir.resolve("src-" + (files++) + ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, table, ImportMode.SYNC)
                .withKeys(key).withAuthor("tester").withMessage("sync"));
    }
}
