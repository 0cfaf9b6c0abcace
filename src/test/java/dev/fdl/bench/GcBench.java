package dev.fdl.bench;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.retention.Gc;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.Repository;
import dev.fdl.store.CountingStore;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * gc on a large repository, against references measured in the same run.
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.GcBench \
 *     -Dexec.args="1000000 200 0.1"
 * </pre>
 * Arguments: data files (default 1,000,000), live versions (200), fraction of the data files that
 * no version names (0.1). Builds a local repository in a temporary folder: every version has a real
 * DuckLake catalog (the towns fixture plus its share of the files), then reports
 * <ul>
 *   <li>store calls per 1,000 data files listed: LIST pages (1,000 keys a page, as S3), GETs
 *       (version.json, refs, catalogs), HEADs; a cold run downloads one catalog per live version,
 *       a warm run none;</li>
 *   <li>wall time of gc (warm cache, deleting the garbage; and with nothing to delete) divided by
 *       the time to merely list the data folder (target: at most 1.5);</li>
 *   <li>peak heap during gc and bytes per live file name; run with 10x fewer files to compare
 *       (target: grows with the number of live names, never with catalog bytes).</li>
 * </ul>
 */
public final class GcBench {
    public static void main(String[] args) throws Exception {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int versions = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        double garbage = args.length > 2 ? Double.parseDouble(args[2]) : 0.1;
        Path dir = Files.createTempDirectory("fdl-gc-bench");
        try {
            run(dir, files, versions, garbage);
        } finally {
            deleteTree(dir);
        }
    }

    static void run(Path dir, int files, int versions, double garbageFraction) throws Exception {
        long t0 = System.nanoTime();
        RepoFixture fx = RepoFixture.create(dir);
        List<String> fixtureNames = fx.copyFixtureData("towns", Instant.now());
        int garbage = (int) (files * garbageFraction);
        int named = files - garbage - fixtureNames.size();
        int perVersion = named / versions;
        Path template = fx.fixtureCatalog("towns");
        Path dataRoot = fx.root.resolve("data/main/towns");
        String last = null;
        long catalogBytes = 0;
        for (int v = 0; v < versions; v++) {
            Path folder = Files.createDirectories(dataRoot.resolve("v" + v));
            int n = v == versions - 1 ? named - perVersion * (versions - 1) : perVersion;
            for (int i = 0; i < n; i++) Files.write(folder.resolve("f" + i + ".parquet"), new byte[]{1});
            Path cat = dir.resolve("cat-" + v + ".duckdb");
            Files.copy(template, cat);
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + cat); Statement s = c.createStatement()) {
                s.execute("INSERT INTO ducklake_data_file SELECT d.* REPLACE (d.data_file_id + 1000 + i AS data_file_id, "
                        + "'v" + v + "/f' || i || '.parquet' AS path) FROM ducklake_data_file d, range(" + n + ") t(i) "
                        + "WHERE data_file_id = (SELECT min(data_file_id) FROM ducklake_data_file)");
                s.execute("CHECKPOINT");
            }
            catalogBytes += Files.size(cat);
            last = fx.version(last == null ? List.of() : List.of(last), Instant.now(), cat);
            Files.delete(cat);
        }
        fx.store.put("refs/heads/main", Repository.refBytes(last));
        Path g = Files.createDirectories(dataRoot.resolve("garbage"));
        for (int i = 0; i < garbage; i++) Files.write(g.resolve("g" + i + ".parquet"), new byte[]{1});
        System.out.printf("built %,d data files (%,d named by %d versions, %,d garbage), %,d catalog bytes in %.1fs%n",
                files, named + fixtureNames.size(), versions, garbage, catalogBytes, secs(t0));

        CountingStore counting = new CountingStore(fx.store);
        Repository repo = Repository.open(counting);
        CatalogCache cache = new CatalogCache(dir.resolve("cache"));
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5)); // everything built is older than grace 0

        listSeconds(counting); // warm the file system caches for everyone alike
        Measure cold = measure("gc cold cache, dry run", counting, () ->
                new Gc(repo, cache, CatalogFiles.duckLake(), clock).run(new Gc.Options(Duration.ZERO, true, 8)));
        double listBefore = listSeconds(counting);
        Measure warm = measure("gc warm cache, deleting garbage", counting, () ->
                new Gc(repo, cache, CatalogFiles.duckLake(), clock).run(new Gc.Options(Duration.ZERO, false, 8)));
        // The machine is shared: interleave the reference and gc and compare medians.
        double[] lists = new double[3], gcs = new double[3];
        Measure idle = null;
        for (int i = 0; i < 3; i++) {
            lists[i] = listSeconds(counting);
            idle = measure("gc warm cache, nothing to delete", counting, () ->
                    new Gc(repo, cache, CatalogFiles.duckLake(), clock).run(new Gc.Options(Duration.ZERO, false, 8)));
            gcs[i] = idle.seconds;
        }
        double list = median(lists);
        idle = new Measure(idle.name + " (median of 3)", median(gcs), idle.report, idle.listed, idle.listPages, idle.gets,
                idle.heads, idle.deletes, idle.peakHeap);
        System.out.printf("reference: listing data/ alone: median %.2fs of %.2f, %.2f, %.2f; before the deleting run %.2fs%n",
                list, lists[0], lists[1], lists[2], listBefore);
        System.out.printf("gc with nothing to delete: %.2f, %.2f, %.2f s%n", gcs[0], gcs[1], gcs[2]);
        long[] liveHeap = {0};
        int[] samples = {0};
        Gc.Report heapRun = new Gc(repo, cache, CatalogFiles.duckLake(), clock).run(new Gc.Options(Duration.ZERO, true, 1), p -> {
            if (!p.phase().equals("listing data") || samples[0]++ % 8 != 0) return;
            System.gc();
            Runtime rt = Runtime.getRuntime();
            liveHeap[0] = Math.max(liveHeap[0], rt.totalMemory() - rt.freeMemory());
        });
        System.gc();
        long idleHeap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        for (Measure m : List.of(cold, warm, idle))
            System.out.printf("%-34s %6.2fs = %.2fx listing | per 1,000 listed: %.2f LIST pages, %.3f GETs, %.3f HEADs, %.1f deletes"
                            + " | catalogs downloaded %d, cached %d | deleted %,d | peak heap %,d MB = %.0f bytes per live name%n",
                    m.name, m.seconds, m.seconds / list, m.per1000(m.listPages), m.per1000(m.gets), m.per1000(m.heads), m.per1000(m.deletes),
                    m.report.catalogsDownloaded(), m.report.catalogsCached(), m.report.dataFiles().count(),
                    m.peakHeap >> 20, (double) m.peakHeap / Math.max(1, m.report.liveNames()));
        System.out.printf("live heap during the data sweep (after full GCs): %,d MB over %,d MB idle = %.0f bytes per live name (%,d names)%n",
                liveHeap[0] >> 20, idleHeap >> 20, (double) (liveHeap[0] - idleHeap) / Math.max(1, heapRun.liveNames()), heapRun.liveNames());
        System.out.printf("live names %,d; catalog bytes %,d (%.0f bytes per name); max heap %,d MB%n", warm.report.liveNames(),
                catalogBytes, (double) catalogBytes / warm.report.liveNames(), Runtime.getRuntime().maxMemory() >> 20);
    }

    record Measure(String name, double seconds, Gc.Report report, long listed, long listPages, long gets, long heads,
                   long deletes, long peakHeap) {
        double per1000(long n) {
            return 1000.0 * n / Math.max(1, report.dataListed());
        }
    }

    interface GcRun {
        Gc.Report run();
    }

    static Measure measure(String name, CountingStore counting, GcRun run) {
        System.gc();
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        long base = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        counting.reset();
        long t = System.nanoTime();
        Gc.Report r = run.run();
        double s = secs(t);
        long peak = pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        return new Measure(name, s, r, counting.listed.get(), counting.listPages.get(),
                counting.gets.get() + counting.downloads.get(), counting.heads.get(), counting.deletes.get(), Math.max(0, peak - base));
    }

    static double listSeconds(CountingStore store) {
        long t = System.nanoTime();
        long[] n = {0};
        try (Stream<dev.fdl.store.ObjectMeta> s = store.list("data/")) {
            s.forEach(m -> n[0] += m.size());
        }
        return secs(t);
    }

    static double median(double[] a) {
        double[] c = a.clone();
        java.util.Arrays.sort(c);
        return c[c.length / 2];
    }

    static double secs(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> w = Files.walk(dir)) {
            for (Path p : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
