package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.store.CountingStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A merge on a repository in S3 (S3Mock) downloads only the data and delete files it reads, counted
 * at the store: for a table changed on both sides, the files not shared with the base (within 10 %,
 * issue 42's bound), not the base's data file both sides still show; a table merged whole (its
 * columns differ between the sides) still gets every file it reads.
 */
@UsesS3Mock
class MergeReadsOnS3Test {
    private static final int ROWS = 20_000;

    @TempDir Path dir;

    @Test
    void aTableChangedOnBothSidesDownloadsOnlyTheFilesNotSharedWithTheBase() throws Exception {
        try (S3Store s3 = S3MockServer.shared().newStore()) {
            Path base = dir.resolve("base.sqlite"), ours = dir.resolve("ours.sqlite"), theirs = dir.resolve("theirs.sqlite");
            EmptyCatalog.create(base, CatalogKind.SQLITE, s3.location("data/"));
            sync(s3, base, csv("k,a,b", IntStream.range(0, ROWS).mapToObj(k -> k + "," + k + ",w" + k).toList()), List.of("k"));
            Files.copy(base, ours);
            Files.copy(base, theirs);
            // ours changes keys 0, 100, …; theirs keys 50, 150, …, removes the last and adds one
            sync(s3, ours, csv("k,a,b", IntStream.range(0, ROWS).mapToObj(k -> k + "," + (k % 100 == 0 ? k + 1 : k) + ",w" + k).toList()), null);
            List<String> t = new ArrayList<>(IntStream.range(0, ROWS - 1).mapToObj(k -> k + "," + (k % 100 == 50 ? k + 1 : k) + ",w" + k).toList());
            t.add("900000,900000,new");
            sync(s3, theirs, csv("k,a,b", t), null);

            CountingStore counted = new CountingStore(s3);
            Path out = dir.resolve("merged.sqlite");
            MergeResult r = merge(counted, ours, theirs, base, out);

            assertThat(r.conflicts()).isEmpty();
            Map<String, Long> baseFiles = files(base);
            long notShared = 0, shared = 0;
            Set<String> seen = new LinkedHashSet<>();
            for (Path side : List.of(ours, theirs))
                for (Map.Entry<String, Long> f : files(side).entrySet()) {
                    if (!seen.add(f.getKey())) continue;
                    if (baseFiles.containsKey(f.getKey())) shared += f.getValue();
                    else notShared += f.getValue();
                }
            assertThat(shared).as("the base's data file both sides still show").isGreaterThan(notShared);
            long downloaded = downloadedDataBytes(counted, s3);
            assertThat(downloaded).as("data and delete file bytes downloaded, against %,d not shared with the base", notShared)
                    .isPositive().isLessThanOrEqualTo((long) (notShared * 1.1));
            assertThat(rows(s3, out)).isEqualTo(IntStream.range(0, ROWS - 1)
                    .mapToObj(k -> k + "," + (k % 100 == 0 || k % 100 == 50 ? k + 1 : k) + ",w" + k).collect(Collectors.joining("\n"))
                    + "\n900000,900000,new");
        }
    }

    @Test
    void aTableMergedWholeDownloadsTheFilesItReads() throws Exception {
        try (S3Store s3 = S3MockServer.shared().newStore()) {
            Path base = dir.resolve("base.sqlite"), ours = dir.resolve("ours.sqlite"), theirs = dir.resolve("theirs.sqlite");
            EmptyCatalog.create(base, CatalogKind.SQLITE, s3.location("data/"));
            sync(s3, base, csv("k,a,b", IntStream.range(0, 100).mapToObj(k -> k + "," + k + ",w" + k).toList()), List.of("k"));
            Files.copy(base, ours);
            Files.copy(base, theirs);
            sync(s3, ours, csv("k,a,b", IntStream.range(0, 100).mapToObj(k -> k + "," + (k == 1 ? 1000 : k) + ",w" + k).toList()), null);
            // theirs adds a column: the sides' columns differ, so the table is merged whole
            sync(s3, theirs, csv("k,a,b,c", IntStream.range(0, 100).mapToObj(k -> k + "," + k + ",w" + k + "," + (k == 2 ? "x" : "")).toList()), null);

            Path out = dir.resolve("merged.sqlite");
            MergeResult r = merge(new CountingStore(s3), ours, theirs, base, out);

            assertThat(r.conflicts()).isEmpty();
            assertThat(rows(s3, out)).isEqualTo(IntStream.range(0, 100).mapToObj(k -> k + "," + (k == 1 ? 1000 : k) + ",w" + k)
                    .collect(Collectors.joining("\n")));
        }
    }

    private MergeResult merge(ObjectStore store, Path ours, Path theirs, Path base, Path out) throws Exception {
        return new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                new MergeRequest.CatalogSnapshot(theirs, RandomThreeWayMergeTest.Trio.newest(theirs)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), MergeOptions.NONE, out,
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), dir.resolve("mirror"), "tester", "merge")));
    }

    /** The bytes of the objects under {@code data/} the store downloaded or got, each time it did. */
    private static long downloadedDataBytes(CountingStore counted, S3Store s3) {
        long n = 0;
        for (String key : counted.contentReads) if (key.startsWith("data/")) n += s3.stat(key).orElseThrow().size();
        return n;
    }

    private static String csv(String header, List<String> rows) {
        return header + "\n" + String.join("\n", rows) + "\n";
    }

    private void sync(ObjectStore store, Path catalog, String csv, List<String> key) throws Exception {
        Path file = Files.createTempFile(dir, "src-", ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, "t", ImportMode.SYNC)
                .withKeys(key).withAuthor("tester").withMessage("sync").withCacheDir(dir.resolve("sync-cache")));
    }

    /** Path and size of every data and delete file a catalog shows at its newest snapshot. */
    private static Map<String, Long> files(Path catalog) throws Exception {
        return DeltaMergeTest.files(catalog);
    }

    /** The merged table's rows {@code k,a,b} in key order, read from S3 through a mirror of its own. */
    private String rows(S3Store s3, Path catalog) throws Exception {
        List<String> out = new ArrayList<>();
        try (ReadableCatalog c = ReadableCatalog.working(catalog, dir.resolve("check.duckdb"))) {
            String data = c.dataPath(DuckDbPool.shared(), new ReadableCatalog.DataFiles(s3, "data/", dir.resolve("check-mirror")), null);
            try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), c.catalog(), data, null);
                 Statement st = reader.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT k, a, b FROM t ORDER BY k")) {
                while (rs.next()) out.add(rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getString(3));
            }
        }
        return String.join("\n", out);
    }
}
