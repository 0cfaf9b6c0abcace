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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table changed on both sides is merged from what each side changed: the data and delete files
 * not shared with the base are the only ones opened, the base's data file stays named (no data file
 * is rewritten), and the rows are the three-way merge's.
 */
class DeltaMergeTest {
    @TempDir Path dir;

    @Test
    void aKeyedTableChangedOnBothSidesReadsOnlyTheFilesNotSharedWithTheBase() throws Exception {
        LocalStore store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        Path base = dir.resolve("base.sqlite"), ours = dir.resolve("ours.sqlite"), theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        sync(store, base, csv(IntStream.range(0, 1000).mapToObj(k -> k + "," + k + ",w" + k).toList()), List.of("k"));
        Files.copy(base, ours);
        Files.copy(base, theirs);
        // ours changes keys 0, 100, …; theirs keys 50, 150, …, removes 999 and adds 5000
        sync(store, ours, csv(IntStream.range(0, 1000).mapToObj(k -> k + "," + (k % 100 == 0 ? k + 1 : k) + ",w" + k).toList()), null);
        List<String> t = new ArrayList<>(IntStream.range(0, 999).mapToObj(k -> k + "," + (k % 100 == 50 ? k + 1 : k) + ",w" + k).toList());
        t.add("5000,5000,new");
        sync(store, theirs, csv(t), null);

        Path out = dir.resolve("merged.sqlite");
        MergeResult r = new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                new MergeRequest.CatalogSnapshot(theirs, RandomThreeWayMergeTest.Trio.newest(theirs)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), MergeOptions.NONE, out,
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));

        assertThat(r.conflicts()).isEmpty();
        Map<String, Long> baseFiles = files(base), oursFiles = files(ours), theirsFiles = files(theirs);
        long notShared = 0;
        for (Map<String, Long> side : List.of(oursFiles, theirsFiles))
            for (Map.Entry<String, Long> f : side.entrySet()) if (!baseFiles.containsKey(f.getKey())) notShared += f.getValue();
        assertThat(notShared).isPositive();
        assertThat(r.bytesRead()).as("bytes of the files the merge opened").isEqualTo(notShared);
        assertThat(files(out)).as("the base's data file is still named, not rewritten").containsAllEntriesOf(
                baseFiles.entrySet().stream().filter(e -> e.getKey().endsWith(".parquet") && !e.getKey().endsWith("-delete.parquet"))
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        assertThat(rows(out)).isEqualTo(IntStream.range(0, 1000).filter(k -> k != 999)
                .mapToObj(k -> k + "," + (k % 100 == 0 || k % 100 == 50 ? k + 1 : k) + ",w" + k).collect(Collectors.joining("\n"))
                + "\n5000,5000,new");
    }

    @Test
    void aRowRemovedOnBothSidesOfATableWithoutKeyIsRemovedOnce() throws Exception {
        LocalStore store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        Path base = dir.resolve("base.sqlite"), ours = dir.resolve("ours.sqlite"), theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        sync(store, base, "k,a,b\n1,1,x\n1,1,x\n2,2,y\n", List.of());
        Files.copy(base, ours);
        Files.copy(base, theirs);
        sync(store, ours, "k,a,b\n1,1,x\n2,2,y\n", null);
        sync(store, theirs, "k,a,b\n1,1,x\n2,2,y\n3,3,z\n", null);

        Path out = dir.resolve("merged.sqlite");
        MergeResult r = new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                new MergeRequest.CatalogSnapshot(theirs, RandomThreeWayMergeTest.Trio.newest(theirs)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), MergeOptions.NONE, out,
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));

        assertThat(r.conflicts()).isEmpty();
        // per distinct row as diff3: (1,1,x) base 2, ours 1, theirs 1: the same count on both sides, 1
        assertThat(rows(out)).isEqualTo("1,1,x\n2,2,y\n3,3,z");
    }

    private static String csv(List<String> rows) {
        return "k,a,b\n" + String.join("\n", rows) + "\n";
    }

    private void sync(LocalStore store, Path catalog, String csv, List<String> key) throws Exception {
        Path file = Files.createTempFile(dir, "src-", ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, "t", ImportMode.SYNC)
                .withKeys(key).withAuthor("tester").withMessage("sync"));
    }

    /** The visible data and delete files of a SQLite catalog: path → size in bytes. */
    static Map<String, Long> files(Path catalog) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + catalog); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT path, file_size_bytes FROM ducklake_data_file WHERE end_snapshot IS NULL "
                     + "UNION ALL SELECT path, file_size_bytes FROM ducklake_delete_file WHERE end_snapshot IS NULL")) {
            while (rs.next()) out.put(rs.getString(1), rs.getLong(2));
        }
        return out;
    }

    /** The rows of table t in {@code catalog}, as the built-in reader reads them, one CSV line each, sorted. */
    private String rows(Path catalog) throws Exception {
        Path duck = dir.resolve(catalog.getFileName() + ".duckdb");
        CatalogConverter.convert(catalog, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        List<String> out = new ArrayList<>();
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, null, null);
             Statement st = reader.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT k, a, b FROM t ORDER BY k, a, b")) {
            while (rs.next()) out.add(rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getString(3));
        }
        return String.join("\n", out);
    }
}
