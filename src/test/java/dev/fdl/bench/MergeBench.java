package dev.fdl.bench;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.ducklake.merge.MergeRequest;
import dev.fdl.ducklake.merge.MergeResult;
import dev.fdl.ducklake.merge.ThreeWayMerge;
import dev.fdl.ducklake.read.CatalogDiff;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.LocalStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

/**
 * The three-way merge against {@code fdl diff} of the same two sides, measured in one run: a keyed
 * table of N rows ({@code --key id}) that each side changed by 1 % since the base (different keys),
 * and a second table changed on one side only. Prints the merge time over the diff time (target
 * ≤ 2x), the data bytes the merge wrote (the changed table's difference; the table changed on one
 * side only must add 0), and the bytes of the data and delete files the merge opened
 * ({@link MergeResult#bytesRead}) against those of the files not shared with the base. Merge and diff alternate for a warm-up round and then
 * {@code rounds} measured ones (second argument, default 5); the ratio is reported over all of them
 * with its median and spread.
 * Run with
 * {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.MergeBench -Dexec.args="1000000 5"}.
 */
public final class MergeBench {
    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path dir = Files.createTempDirectory("fdl-mergebench-");
        LocalStore store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        Path base = dir.resolve("base.sqlite"), ours = dir.resolve("ours.sqlite"), theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        Path v0 = dir.resolve("v0.parquet"), vo = dir.resolve("vo.parquet"), vt = dir.resolve("vt.parquet"), small = dir.resolve("small.parquet");
        try (Connection duck = DuckDbPool.shared().connection(); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT i AS id, 'name ' || i AS name, i * 7 % 100000 AS pop, ['FR','DE','IT','ES'][i % 4 + 1] AS country "
                    + "FROM range(" + n + ") t(i)) TO '" + v0 + "' (FORMAT parquet)");
            st.execute("COPY (SELECT id, name, CASE WHEN id % 100 = 0 THEN pop + 1 ELSE pop END AS pop, country FROM '" + v0 + "') TO '" + vo + "' (FORMAT parquet)");
            st.execute("COPY (SELECT id, name, CASE WHEN id % 100 = 50 THEN pop + 1 ELSE pop END AS pop, country FROM '" + v0 + "') TO '" + vt + "' (FORMAT parquet)");
            st.execute("COPY (SELECT i AS id FROM range(1000) t(i)) TO '" + small + "' (FORMAT parquet)");
        }
        sync(store, base, v0, "t", List.of("id"));
        sync(store, base, small, "other", List.of("id"));
        Files.copy(base, ours);
        Files.copy(base, theirs);
        sync(store, ours, vo, "t", null);
        sync(store, theirs, vt, "t", null);
        Path small2 = dir.resolve("small2.parquet");
        try (Connection duck = DuckDbPool.shared().connection(); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT i AS id FROM range(1001) t(i)) TO '" + small2 + "' (FORMAT parquet)");
        }
        sync(store, theirs, small2, "other", null);

        long baseBytes = dataBytes(store, base), oursBytes = dataBytes(store, ours), theirsBytes = dataBytes(store, theirs);
        long notShared = (oursBytes - baseBytes) + (theirsBytes - baseBytes);
        Path od = dir.resolve("ours.duckdb"), td = dir.resolve("theirs.duckdb");
        CatalogConverter.convert(ours, od, CatalogKind.DUCKDB, ProgressListener.NONE);
        CatalogConverter.convert(theirs, td, CatalogKind.DUCKDB, ProgressListener.NONE);

        // merge and diff alternate, so both see the same machine; the first round warms both up and is not counted
        List<Double> ratios = new ArrayList<>();
        MergeResult r = null;
        long written = 0, writtenOther = 0, mergeTotal = 0, diffTotal = 0;
        for (int round = 0; round <= rounds; round++) {
            long before = folderBytes(dir.resolve("repo/data")), beforeOther = folderBytes(dir.resolve("repo/data/main/other"));
            long t0 = System.nanoTime();
            r = new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours, new MergeRequest.CatalogSnapshot(theirs, newest(theirs)),
                    new MergeRequest.CatalogSnapshot(base, newest(base)), MergeOptions.NONE, dir.resolve("merged-" + round + ".sqlite"),
                    new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "bench", "merge")));
            long mergeNanos = System.nanoTime() - t0;
            if (r.conflicted()) throw new IllegalStateException("unexpected conflicts: " + r.conflicts());
            written = folderBytes(dir.resolve("repo/data")) - before;
            writtenOther = folderBytes(dir.resolve("repo/data/main/other")) - beforeOther;
            long t1 = System.nanoTime();
            new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(new CatalogDiff.DiffSide("ours", od, null),
                    new CatalogDiff.DiffSide("theirs", td, null), null, List.of(), false), new CatalogDiff.Sink() {});
            long diffNanos = System.nanoTime() - t1;
            System.out.printf("round %d%s: merge %.2f s, diff %.2f s: %.2fx%n", round, round == 0 ? " (warm-up)" : "", mergeNanos / 1e9,
                    diffNanos / 1e9, mergeNanos / (double) diffNanos);
            if (round == 0) continue;
            ratios.add(mergeNanos / (double) diffNanos);
            mergeTotal += mergeNanos;
            diffTotal += diffNanos;
        }
        Collections.sort(ratios);
        System.out.printf("rows %,d; tables: %s%n", n, r.tables());
        System.out.printf("merge/diff over %d rounds: %.2fx (median %.2fx, min %.2fx, max %.2fx; target <= 2x); merge %.2f s, diff %.2f s on average%n",
                rounds, mergeTotal / (double) diffTotal, ratios.get(ratios.size() / 2), ratios.get(0), ratios.get(ratios.size() - 1),
                mergeTotal / 1e9 / rounds, diffTotal / 1e9 / rounds);
        System.out.printf("data bytes the merge wrote: %,d (the keyed table's difference); of them for the table changed on one side only: %,d (target 0)%n",
                written, writtenOther);
        System.out.printf("data and delete file bytes the merge read: %,d; not shared with the base: %,d (%.2fx); the whole tables of base, ours and theirs: %,d%n",
                r.bytesRead(), notShared, r.bytesRead() / (double) notShared, baseBytes + oursBytes + theirsBytes);
    }

    private static void sync(LocalStore store, Path catalog, Path file, String table, List<String> key) {
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, table, ImportMode.SYNC)
                .withKeys(key).withAuthor("bench").withMessage("sync " + table));
    }

    private static long newest(Path catalog) throws Exception {
        try (WorkingCatalog c = WorkingCatalog.open(catalog)) {
            return c.newestSnapshot().id();
        }
    }

    /** The bytes of the data and delete files a catalog shows at its newest snapshot. */
    private static long dataBytes(LocalStore store, Path catalog) throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + catalog); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT (SELECT coalesce(sum(file_size_bytes), 0) FROM ducklake_data_file WHERE end_snapshot IS NULL) "
                     + "+ (SELECT coalesce(sum(file_size_bytes), 0) FROM ducklake_delete_file WHERE end_snapshot IS NULL)")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long folderBytes(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
