package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both sides change one keyed table: a column added on ours, values changed on both sides in
 * different columns of one key, a key removed on one side, keys added on each: everything merges
 * per key and column; the same column changed differently is a conflict listing base, ours and theirs.
 */
class ColumnAndCellMergeTest {
    @TempDir Path dir;
    int files;

    @Test
    void changesToDifferentColumnsOfOneKeyMergeAndAnAddedColumnIsKept() throws Exception {
        LocalStore store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        Path base = dir.resolve("base.sqlite"), ours = dir.resolve("ours.sqlite"), theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        sync(store, base, "k,a,b\n1,10,x\n2,20,y\n3,30,z\n4,40,w\n", List.of("k"));
        Files.copy(base, ours);
        Files.copy(base, theirs);
        sync(store, ours, "k,a,b,c\n1,10,x,true\n2,20,Y,false\n3,30,z,true\n5,50,v,false\n", null); // c added, 2.b changed, 4 gone, 5 new
        sync(store, theirs, "k,a,b\n1,10,x\n2,21,y\n3,30,z\n4,40,w\n6,60,u\n", null);              // 2.a changed, 6 new

        MergeResult r = merge(store, base, ours, theirs, dir.resolve("merged.sqlite"));
        assertThat(r.conflicts()).isEmpty();
        assertThat(read(dir.resolve("merged.sqlite"))).isEqualTo(
                "1,10,x,true|2,21,Y,false|3,30,z,true|5,50,v,false|6,60,u,NULL");

        // the same column of one key changed differently: a conflict, nothing written
        Path ours2 = dir.resolve("ours2.sqlite");
        Files.copy(base, ours2);
        sync(store, ours2, "k,a,b\n1,10,x\n2,22,y\n3,30,z\n4,40,w\n", null);
        MergeResult c = merge(store, base, ours2, theirs, dir.resolve("merged2.sqlite"));
        assertThat(c.conflicts()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("rows");
            assertThat(t.keys()).containsExactly(new MergeResult.KeyConflict("2", "{\"k\":2,\"a\":20,\"b\":\"y\"}",
                    "{\"k\":2,\"a\":22,\"b\":\"y\"}", "{\"k\":2,\"a\":21,\"b\":\"y\"}"));
        });
        assertThat(dir.resolve("merged2.sqlite")).doesNotExist();
    }

    private MergeResult merge(LocalStore store, Path base, Path ours, Path theirs, Path out) throws Exception {
        return new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                new MergeRequest.CatalogSnapshot(theirs, RandomThreeWayMergeTest.Trio.newest(theirs)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), MergeOptions.NONE, out,
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));
    }

    private String read(Path sqlite) throws Exception {
        Path duck = dir.resolve("read-" + (files++) + ".duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, null, null);
             Statement st = reader.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT string_agg(concat_ws(',', k, a, b, coalesce(CAST(c AS VARCHAR), 'NULL')), '|' ORDER BY k) FROM kt")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void sync(LocalStore store, Path catalog, String csv, List<String> key) throws Exception {
        Path file = dir.resolve("src-" + (files++) + ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, "kt", ImportMode.SYNC)
                .withKeys(key).withAuthor("tester").withMessage("sync"));
    }
}
