package dev.fdl.bench;

import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.engine.DuckDbPool;import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.CatalogDiff;

import dev.fdl.store.LocalStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * {@code import --mode sync} and {@code fdl diff} against references measured in the same run
 *. Prints ratios, not absolute times:
 * <ol>
 *   <li>on the shipped world-cities months, the data bytes each version adds with sync (new data
 *       file + delete files) against a Parquet file holding only the rows that are new or changed
 *       (DuckDB {@code COPY} of {@code new EXCEPT ALL old}; target ≤ 3x), and against replace;</li>
 *   <li>on a generated table of N rows changed by 0.1 % per version, the time of
 *       {@code CatalogDiff} counts ({@code fdl diff --stat}) against DuckDB computing the same counts
 *       with {@code EXCEPT ALL} over the two versions' full tables (built-in reader views of both;
 *       medians of 3 runs; target ≤ 0.5x), and the Java heap the diff used at N and 4N (flat).</li>
 *   <li>with {@code profile N}: one sync of BigBuildBench's data (N rows, 1% changed) in this JVM,
 *       CPU and wall per phase the sync reports, against DuckDB's {@code EXCEPT ALL} to Parquet in the
 *       same JVM (target ≤ 1.5x CPU).</li>
 *   <li>with {@code newtable N}: a sync with {@code --key id} that creates its table from N rows of
 *       CSV, CPU of this JVM (two rounds, each into a fresh repository), against DuckDB writing the
 *       same CSV to Parquet in the same JVM (the floor: one read of the file).</li>
 * </ol>
 * Run with
 * {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.SyncBench -Dexec.args="1000000"}.
 */
public final class SyncBench {
    private static final int RUNS = 3;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("profile")) {
            profile(args.length > 1 ? Long.parseLong(args[1].replace("_", "")) : 1_000_000);
            return;
        }
        if (args.length > 0 && args[0].equals("newtable")) {
            newTable(args.length > 1 ? Long.parseLong(args[1].replace("_", "")) : 1_000_000);
            return;
        }
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        Path tmp = Files.createTempDirectory("fdl-syncbench-");
        bytes(tmp.resolve("bytes"));
        long heapN = diffTime(tmp.resolve("n"), n);
        long heap4N = diffTime(tmp.resolve("4n"), 4 * n);
        System.out.printf("largest live heap during the diff (rows, --key id): %,d bytes at %,d rows, %,d bytes at %,d rows (ratio %.2f; flat means about 1)%n",
                heapN, n, heap4N, 4 * n, heap4N / (double) Math.max(1, heapN));
    }

    private static void bytes(Path dir) throws Exception {
        Path months = Path.of(SyncBench.class.getClassLoader().getResource("demo/world-cities/README.md").toURI()).getParent();
        List<Path> files;
        try (var s = Files.list(months)) {
            files = s.filter(p -> p.toString().endsWith(".csv.gz")).sorted().toList();
        }
        Files.createDirectories(dir.resolve("repo"));
        LocalStore store = new LocalStore(dir.resolve("repo"));
        Path synced = dir.resolve("sync.sqlite"), replaced = dir.resolve("replace.sqlite");
        EmptyCatalog.create(synced, CatalogKind.SQLITE, store.location("data/"));
        EmptyCatalog.create(replaced, CatalogKind.SQLITE, store.location("data/"));
        System.out.println("month                      sync bytes  replace bytes  changed-rows Parquet  sync/changed  sync/replace");
        double worst = 0;
        for (int i = 0; i < files.size(); i++) {
            Path f = files.get(i);
            SyncResult s = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(synced, store, "data/", f, "cities", ImportMode.SYNC)
                    .withCacheDir(dir.resolve("cache")).withKeys(List.of("geonameid")).withAuthor("bench"));
            ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(replaced, store, "data/", f, "cities", i == 0 ? ImportMode.CREATE : ImportMode.REPLACE)
                    .withAuthor("bench"));
            if (i == 0) continue;
            long syncBytes = s.dataBytes() + s.deleteBytes();
            Path changed = dir.resolve("changed-" + i + ".parquet");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
                st.execute("COPY (SELECT * FROM read_csv('" + f + "', header = true) EXCEPT ALL SELECT * FROM read_csv('"
                        + files.get(i - 1) + "', header = true)) TO '" + changed + "' (FORMAT parquet)");
            }
            long ref = Files.size(changed);
            double ratio = syncBytes / (double) ref;
            worst = Math.max(worst, ratio);
            System.out.printf("%-26s %10d %14d %20d %13.2f %13.3f%n", f.getFileName(), syncBytes, r.fileSizeBytes(), ref, ratio,
                    syncBytes / (double) r.fileSizeBytes());
        }
        System.out.printf("worst sync/changed-rows ratio: %.2f (target <= 3)%n", worst);
    }

    /**
     * Builds two versions of an n-row table 0.1 % apart; prints diff time / EXCEPT ALL time;
     * returns the largest live heap (bytes used after a GC) while the diff ran.
     */
    private static long diffTime(Path dir, long n) throws Exception {
        Files.createDirectories(dir.resolve("repo"));
        LocalStore store = new LocalStore(dir.resolve("repo"));
        Path sqlite = dir.resolve("catalog.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, store.location("data/"));
        Path v1 = dir.resolve("v1.parquet"), v2 = dir.resolve("v2.parquet"), v3 = dir.resolve("v3.parquet");
        long step = 1000;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            String base = "SELECT i AS id, 'name-' || i AS name, (i * 7919) % 100003 AS pop, i % 250 AS country FROM range(" + n + ") t(i)";
            st.execute("COPY (" + base + ") TO '" + v1 + "' (FORMAT parquet)");
            // 0.1 %: a third changed, a third gone, a third new; twice, so that v3's parent also carries deletes
            long generation = 0;
            for (Path[] p : new Path[][]{{v1, v2}, {v2, v3}}) {
                generation++;
                st.execute("COPY (SELECT id, name, CASE WHEN hash(id, '" + p[1].getFileName() + "') % " + step + " = 0 THEN pop + 1 ELSE pop END AS pop, "
                        + "country FROM read_parquet('" + p[0] + "') WHERE hash(id, 'gone" + p[1].getFileName() + "') % " + (3 * step)
                        + " <> 0 UNION ALL SELECT " + (generation * n) + " + i, 'new', i, 1 FROM range(" + (n / (3 * step)) + ") t(i) ORDER BY 1) TO '"
                        + p[1] + "' (FORMAT parquet)");
            }
        }
        Path a = dir.resolve("a.duckdb"), b = dir.resolve("b.duckdb");
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", v1, "t", ImportMode.SYNC)
                .withCacheDir(dir.resolve("cache")).withKeys(List.of("id")).withAuthor("bench"));
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", v2, "t", ImportMode.SYNC)
                .withCacheDir(dir.resolve("cache")).withKeys(List.of("id")).withAuthor("bench"));
        CatalogConverter.convert(sqlite, a, CatalogKind.DUCKDB, ProgressListener.NONE);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", v3, "t", ImportMode.SYNC)
                .withCacheDir(dir.resolve("cache")).withKeys(List.of("id")).withAuthor("bench"));
        CatalogConverter.convert(sqlite, b, CatalogKind.DUCKDB, ProgressListener.NONE);

        long[] diff = new long[RUNS], ref = new long[RUNS];
        CatalogDiff.Summary summary = null;
        long[] refCounts = null;
        for (int r = 0; r < RUNS; r++) {
            long t0 = System.nanoTime();
            summary = new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(new CatalogDiff.DiffSide("a", a, null), new CatalogDiff.DiffSide("b", b, null), null, List.of(), false), new CatalogDiff.Sink() {});
            diff[r] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            refCounts = exceptAll(a, b);
            ref[r] = System.nanoTime() - t0;
        }
        if (summary.added() != refCounts[0] || summary.removed() != refCounts[1]) {
            throw new IllegalStateException("diff " + summary + " disagrees with EXCEPT ALL " + Arrays.toString(refCounts));
        }
        Arrays.sort(diff);
        Arrays.sort(ref);
        {
            System.out.printf("diff --stat of two versions of %,d rows 0.1%% apart (+%d -%d): %.1f ms, EXCEPT ALL over both tables %.1f ms, ratio %.2f (target <= 0.5)%n",
                    n, summary.added(), summary.removed(), diff[RUNS / 2] / 1e6, ref[RUNS / 2] / 1e6, diff[RUNS / 2] / (double) ref[RUNS / 2]);
        }
        // heap: the largest live heap (used right after a full GC) while the diff sends every row
        // to a sink that drops it; a GC is asked for every 20 ms so that the sample does not depend
        // on when the collector would have run (MemoryPoolMXBean's peak usage is only updated by
        // collections, so a diff that ran without one printed 0)
        CatalogConversionBench.LiveHeap live = new CatalogConversionBench.LiveHeap();
        live.reset();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread sampler = new Thread(() -> {
            while (!done.get()) {
                System.gc();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        try {
            new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(new CatalogDiff.DiffSide("a", a, null), new CatalogDiff.DiffSide("b", b, null), null, List.of("id"), true), new CatalogDiff.Sink() {});
        } finally {
            done.set(true);
            sampler.join();
        }
        return live.max();
    }

    /**
     * The reference: both versions' full tables through the built-in reader (b's view recreated in
     * a's DuckDB), counted with EXCEPT ALL both ways.
     */
    private static long[] exceptAll(Path a, Path b) throws Exception {
        try (BuiltInReader ra = BuiltInReader.open(DuckDbPool.shared(), a, null, null); BuiltInReader rb = BuiltInReader.open(DuckDbPool.shared(), b, null, null);
             Statement sa = ra.connection().createStatement(); Statement sb = rb.connection().createStatement()) {
            String view;
            try (ResultSet rs = sb.executeQuery("SELECT sql FROM duckdb_views() WHERE view_name = 't' AND NOT internal")) {
                rs.next();
                view = rs.getString(1).replaceFirst("(?s)^CREATE VIEW .*? AS ", "CREATE VIEW t_b AS ");
            }
            sa.execute(view);
            try (ResultSet rs = sa.executeQuery("SELECT (SELECT count(*) FROM (FROM t_b EXCEPT ALL FROM t)), "
                    + "(SELECT count(*) FROM (FROM t EXCEPT ALL FROM t_b))")) {
                rs.next();
                return new long[]{rs.getLong(1), rs.getLong(2)};
            }
        }
    }


    /**
     * A sync's phases, in one JVM: BigBuildBench's v1 (N rows, CSV) imported, then v2 (1% changed,
     * 0.5% gone, 1% new) synced with {@code --key id}; each phase's CPU (this process's, all
     * threads) and wall time, from the phases the sync reports to its progress; then DuckDB doing
     * the reference's work (v2 EXCEPT ALL the imported Parquet, written as Parquet) in the same JVM.
     */
    private static void profile(long n) throws Exception {
        Path dir = Files.createTempDirectory("fdl-syncprofile-");
        Path v1 = dir.resolve("v1.csv"), v2 = dir.resolve("v2.csv");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String rows = "SELECT i AS id, (i % 1000)::INTEGER AS d, 'name-' || i AS s, ((i * 7919) % 100003) / 8.0 AS x, "
                    + "DATE '2020-01-01' + (i % 3000)::INTEGER AS day, md5(i::VARCHAR) AS note FROM range(" + n + ") t(i)";
            s.execute("COPY (" + rows + ") TO '" + v1 + "' (HEADER)");
            s.execute("COPY (SELECT id, d, CASE WHEN hash(id, 'c') % 100 = 0 THEN s || '!' ELSE s END AS s, x, day, note FROM (" + rows
                    + ") WHERE hash(id, 'g') % 200 <> 0 UNION ALL SELECT i, (i % 1000)::INTEGER, 'new-' || i, i / 4.0, DATE '2024-01-01', md5(i::VARCHAR) "
                    + "FROM range(" + n + ", " + (n + n / 100) + ") t(i)) TO '" + v2 + "' (HEADER)");
        }
        Files.createDirectories(dir.resolve("repo"));
        LocalStore store = new LocalStore(dir.resolve("repo"));
        Path sqlite = dir.resolve("catalog.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, store.location("data/"));
        ImportResult imported = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(sqlite, store, "data/", v1, "t", ImportMode.CREATE)
                .withAuthor("bench"));
        Phases phases = new Phases();
        phases.update("starting", 0, -1, "");
        SyncResult r = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", v2, "t", ImportMode.SYNC)
                .withKeys(List.of("id")).withAuthor("bench").withProgress(phases));
        phases.update("done", 0, -1, "");
        double syncCpu = phases.cpuTotal();
        Path old = dir.resolve("repo").resolve(imported.dataFileKey());
        long c0 = Phases.cpu(), w0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT * FROM read_csv('" + v2 + "') EXCEPT ALL SELECT * FROM read_parquet('" + old + "')) TO '"
                    + dir.resolve("changed.parquet") + "' (FORMAT parquet)");
        }
        double refCpu = (Phases.cpu() - c0) / 1e9;
        System.out.printf("sync of %,d rows (+%d ~%d -%d), phases (CPU s of this JVM, wall s):%n", r.rows(), r.added(), r.changed(), r.removed());
        phases.print();
        System.out.printf("sync %.2f s CPU; DuckDB EXCEPT ALL to Parquet %.2f s CPU (%.2f s wall); ratio %.2f (target <= 1.5)%n",
                syncCpu, refCpu, (System.nanoTime() - w0) / 1e9, syncCpu / refCpu);
        System.out.println("files kept in " + dir + " (delete when done)");
    }

    /** See the class comment, {@code newtable N}. */
    private static void newTable(long n) throws Exception {
        Path dir = Files.createTempDirectory("fdl-syncnew-");
        Path csv = dir.resolve("v1.csv");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT i AS id, (i % 1000)::INTEGER AS d, 'name-' || i AS s, ((i * 7919) % 100003) / 8.0 AS x, "
                    + "DATE '2020-01-01' + (i % 3000)::INTEGER AS day, md5(i::VARCHAR) AS note FROM range(" + n + ") t(i)) TO '" + csv + "' (HEADER)");
        }
        for (int round = 0; round < 2; round++) {
            Path repo = Files.createDirectories(dir.resolve("repo" + round));
            LocalStore store = new LocalStore(repo);
            Path sqlite = dir.resolve("catalog" + round + ".sqlite");
            EmptyCatalog.create(sqlite, CatalogKind.SQLITE, store.location("data/"));
            long c0 = Phases.cpu(), w0 = System.nanoTime();
            SyncResult r = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", csv, "t", ImportMode.SYNC)
                    .withKeys(List.of("id")).withAuthor("bench"));
            double syncCpu = (Phases.cpu() - c0) / 1e9, syncWall = (System.nanoTime() - w0) / 1e9;
            c0 = Phases.cpu();
            w0 = System.nanoTime();
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
                s.execute("COPY (SELECT * FROM read_csv('" + csv + "')) TO '" + dir.resolve("ref" + round + ".parquet") + "' (FORMAT parquet)");
            }
            double refCpu = (Phases.cpu() - c0) / 1e9, refWall = (System.nanoTime() - w0) / 1e9;
            System.out.printf("new table of %,d rows: sync --key %.2f s CPU (%.2f s wall); DuckDB CSV to Parquet %.2f s CPU (%.2f s wall); ratio %.2f%n",
                    r.rows(), syncCpu, syncWall, refCpu, refWall, syncCpu / refCpu);
        }
        Importer.deleteTree(dir);
    }

    /** Records when each reported phase began: this JVM's CPU time and the wall clock. */
    private static final class Phases implements dev.fdl.ducklake.DataProgress {
        private final java.util.List<String> names = new java.util.ArrayList<>();
        private final java.util.List<long[]> at = new java.util.ArrayList<>();

        static long cpu() {
            return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        }

        @Override
        public synchronized void update(String phase, long done, long total, String unit) {
            if (!names.isEmpty() && names.get(names.size() - 1).equals(phase)) return;
            names.add(phase);
            at.add(new long[]{cpu(), System.nanoTime()});
        }

        double cpuTotal() {
            return (at.get(at.size() - 1)[0] - at.get(0)[0]) / 1e9;
        }

        void print() {
            for (int i = 0; i + 1 < names.size(); i++) {
                System.out.printf("  %-24s %7.2f %7.2f%n", names.get(i), (at.get(i + 1)[0] - at.get(i)[0]) / 1e9, (at.get(i + 1)[1] - at.get(i)[1]) / 1e9);
            }
        }
    }
}
