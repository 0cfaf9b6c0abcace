package dev.fdl.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.ProgressListener;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Benchmark of catalog conversion: generates a DuckLake catalog with S snapshots,
 * 10·S data files, 100·S file column stats rows, S delete files and S inlined rows, then times
 * DuckDB → SQLite (checkout) and SQLite → DuckDB (commit) against a reference measured in the
 * same run: DuckDB copying the same tables between two DuckDB files. Prints ratios (target ≤ 2)
 * and the live heap (largest heap in use right after a garbage collection) during each
 * conversion, for the given scales.
 *
 * <p>Run: {@code MAVEN_OPTS=-XX:+UseSerialGC mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.CatalogConversionBench [-Dexec.args="1000 10000 100000"]} (the
 * serial collector, as {@code ./fdl} runs checkout and commit: {@link LauncherJvm})
 * (arguments: snapshot counts; default 10000; add 1000 and 100000 for the heap comparison).
 */
public final class CatalogConversionBench {
    private CatalogConversionBench() {}

    public static void main(String[] args) throws Exception {
        List<Long> scales = new ArrayList<>();
        for (String a : args) {
            scales.add(Long.parseLong(a));
        }
        if (scales.isEmpty()) {
            scales.add(10_000L);
        }
        LauncherJvm.reportCollector("CatalogConversionBench");
        LiveHeap heap = new LiveHeap();
        System.out.printf(Locale.ROOT, "%-9s %-9s %-9s %-9s | %-6s %-6s %-8s %-8s | %-8s %-8s | %-7s %-7s %-7s | %-7s %-7s | %-9s %-9s | %-7s %-7s | %-8s %-8s%n",
                "snapshots", "dataFiles", "statsRows", "rows", "ref s", "copy s", "toSqlite", "toDuckDb", "ratioOut", "ratioIn",
                "refCpu", "outCpu", "inCpu", "cpuOut", "cpuIn", "heapOutMB", "heapInMB", "liteW", "liteR", "firstOut", "firstIn");
        for (long snapshots : scales) {
            Path dir = Files.createTempDirectory("fdl-bench");
            try {
                Path source = dir.resolve("source.duckdb");
                generate(source, snapshots);

                // the first conversions at this scale (in a fresh JVM: what one CLI run pays, JIT
                // compilation included), then each measurement REPEAT times, interleaved, reporting
                // the median: a shared 2-core machine varies by ±30% from one run to the next
                Path first = Files.createDirectory(dir.resolve("first"));
                double firstOut = time(() -> CatalogConverter.convert(source, first.resolve("work.sqlite"), CatalogKind.SQLITE, ProgressListener.NONE));
                double firstIn = time(() -> CatalogConverter.convert(first.resolve("work.sqlite"), first.resolve("back.duckdb"), CatalogKind.DUCKDB, ProgressListener.NONE));
                deleteTree(first);
                double[] reference = new double[REPEAT];
                double[] referenceCpus = new double[REPEAT];
                double[] faithfuls = new double[REPEAT];
                double[] outs = new double[REPEAT];
                double[] outCpus = new double[REPEAT];
                double[] ins = new double[REPEAT];
                double[] inCpus = new double[REPEAT];
                double[] writeFloors = new double[REPEAT];
                double[] renderFloors = new double[REPEAT];
                long heapOut = 0;
                long heapIn = 0;
                long[] rows = new long[1];
                for (int k = 0; k < REPEAT; k++) {
                    Path run = Files.createDirectory(dir.resolve("run" + k));
                    reference[k] = time(() -> referenceCopy(source, run.resolve("reference.duckdb")));
                    referenceCpus[k] = lastCpu;
                    // for comparison only: the same copy keeping the catalog's DDL (primary keys), in one transaction
                    faithfuls[k] = time(() -> CatalogConverter.convert(source, run.resolve("faithful.duckdb"), CatalogKind.DUCKDB, ProgressListener.NONE));

                    Path sqlite = run.resolve("work.sqlite");
                    heap.reset();
                    outs[k] = time(() -> rows[0] = CatalogConverter.convert(source, sqlite, CatalogKind.SQLITE, ProgressListener.NONE).rows());
                    heapOut = Math.max(heapOut, heap.max());
                    outCpus[k] = lastCpu;

                    heap.reset();
                    ins[k] = time(() -> CatalogConverter.convert(sqlite, run.resolve("back.duckdb"), CatalogKind.DUCKDB, ProgressListener.NONE));
                    heapIn = Math.max(heapIn, heap.max());
                    inCpus[k] = lastCpu;
                    writeFloors[k] = time(() -> sqliteWriteFloor(sqlite, run.resolve("floor.sqlite")));
                    renderFloors[k] = time(() -> sqliteRenderFloor(sqlite));
                    deleteTree(run);
                }
                double ref = median(reference);
                double referenceCpu = median(referenceCpus);
                double faithful = median(faithfuls);
                double out = median(outs);
                double outCpu = median(outCpus);
                double inTime = median(ins);
                double inCpu = median(inCpus);
                double writeFloor = median(writeFloors);
                double renderFloor = median(renderFloors);
                System.out.printf(Locale.ROOT,
                        "%-9d %-9d %-9d %-9d | %-6.2f %-6.2f %-8.2f %-8.2f | %-8.2f %-8.2f | %-7.2f %-7.2f %-7.2f | %-7.2f %-7.2f | %-9.1f %-9.1f | %-7.2f %-7.2f | %-8.2f %-8.2f%n",
                        snapshots, snapshots * 10, snapshots * 100, rows[0], ref, faithful, out, inTime, out / ref,
                        inTime / ref, referenceCpu, outCpu, inCpu, outCpu / referenceCpu, inCpu / referenceCpu,
                        heapOut / 1e6, heapIn / 1e6, writeFloor / ref, renderFloor / ref, firstOut / ref, firstIn / ref);
            } finally {
                deleteTree(dir);
            }
        }
        System.out.println("ratio = conversion wall time / reference wall time (ref: DuckDB copying the same tables between two DuckDB"
                + " files, CREATE TABLE AS); copy = the same copy keeping the catalog's primary keys, in one transaction (not a ratio's base); cpu = the same with process CPU seconds (fairer on a shared machine);"
                + " heap = largest live heap after a GC during the conversion; liteW = SQLite alone copying every table into a new file"
                + " row by row (no JDBC: the least DuckDB -> SQLite spends writing) / ref; liteR = SQLite alone rendering every row"
                + " as json_array for Java (the least SQLite -> DuckDB spends reading) / ref; times are medians of " + REPEAT + " runs"
                + " after a first conversion each way; firstOut/firstIn = that first conversion / ref (in a fresh JVM, as one CLI run)");
    }

    /** Runs per measurement (system property {@code bench.repeat}, default 3); the median is reported. */
    private static final int REPEAT = Integer.getInteger("bench.repeat", 3);

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    interface Work {
        void run() throws Exception;
    }

    /** CPU seconds of the last {@link #time} call, all threads of this process (DuckDB's included). */
    private static double lastCpu;

    private static double time(Work work) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        work.run();
        lastCpu = (os.getProcessCpuTime() - cpu) / 1e9;
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * A floor for DuckDB → SQLite: SQLite copies every table of {@code sqlite} into a new file row
     * by row, all inside SQLite (a WHERE clause keeps SQLite from copying records unchanged), in
     * one transaction with journal and sync off: what writing the rows costs SQLite itself.
     */
    private static void sqliteWriteFloor(Path sqlite, Path target) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + target); Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode = OFF");
            s.execute("PRAGMA synchronous = OFF");
            s.execute("ATTACH '" + sqlite + "' AS src");
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT name FROM src.sqlite_master WHERE type = 'table'")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            s.execute("BEGIN");
            for (String t : tables) {
                s.execute("CREATE TABLE main." + t + " AS SELECT * FROM src." + t + " WHERE 0");
                s.execute("INSERT INTO main." + t + " SELECT * FROM src." + t + " WHERE rowid IS NOT NULL");
            }
            s.execute("COMMIT");
        }
    }

    /**
     * A floor for SQLite → DuckDB: SQLite renders every row of {@code sqlite} as one
     * {@code json_array} (its cheapest rendering of a row) and hands the bytes to Java.
     */
    private static void sqliteRenderFloor(Path sqlite) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            long bytes = 0;
            for (String t : tables) {
                List<String> columns = new ArrayList<>();
                try (ResultSet r = s.executeQuery("PRAGMA table_info(" + t + ")")) {
                    while (r.next()) {
                        columns.add('"' + r.getString("name") + '"');
                    }
                }
                try (ResultSet r = s.executeQuery("SELECT json_array(" + String.join(", ", columns) + ") FROM " + t)) {
                    while (r.next()) {
                        bytes += r.getBytes(1).length;
                    }
                } catch (SQLException e) {
                    // a table with BLOB values cannot be rendered as JSON; the floor leaves it out
                }
            }
            if (bytes < 0) {
                throw new IllegalStateException();
            }
        }
    }

    /** The reference: DuckDB copies every table of the catalog into a new DuckDB file. */
    private static void referenceCopy(Path source, Path target) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("ATTACH '" + source + "' AS src (READ_ONLY)");
            s.execute("ATTACH '" + target + "' AS dst (STORAGE_VERSION 'v1.5.0')");
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT table_name FROM duckdb_tables() WHERE database_name = 'src'")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            for (String t : tables) {
                s.execute("CREATE TABLE dst.main." + t + " AS SELECT * FROM src.main." + t);
            }
            s.execute("DETACH dst");
        }
    }

    /** A catalog shaped like a long-lived DuckLake: many snapshots, files, stats and inlined rows. */
    static void generate(Path file, long snapshots) throws SQLException {
        EmptyCatalog.create(file, CatalogKind.DUCKDB, "s3://bench/repo/data/");
        long files = snapshots * 10;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("ATTACH '" + file + "' AS cat");
            s.execute("USE cat");
            s.execute("INSERT INTO ducklake_snapshot SELECT i, TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_microseconds(i * 1000003),"
                    + " 1 + i // 1000, 100 + i, i * 10 FROM range(1, " + (snapshots + 1) + ") t(i)");
            s.execute("INSERT INTO ducklake_snapshot_changes SELECT i, 'inserted_into_table:' || (1 + i % 10), CASE WHEN i % 7 = 0 THEN 'bob' END,"
                    + " CASE WHEN i % 7 = 0 THEN 'nightly load ' || i END, NULL FROM range(1, " + (snapshots + 1) + ") t(i)");
            s.execute("INSERT INTO ducklake_table SELECT i, uuid(), 1, NULL, 0, 't' || i, 't' || i || '/', true FROM range(1, 11) t(i)");
            s.execute("INSERT INTO ducklake_column SELECT 100 * t + k, 1, NULL, t, k, 'c' || k, CASE WHEN k = 1 THEN 'int64' WHEN k = 2 THEN 'varchar'"
                    + " WHEN k = 3 THEN 'float64' ELSE 'timestamptz' END, NULL, NULL, true, NULL, 'literal', 'duckdb'"
                    + " FROM range(1, 11) a(t), range(1, 5) b(k)");
            s.execute("INSERT INTO ducklake_schema_versions SELECT 1, 1, t FROM range(1, 11) a(t)");
            s.execute("INSERT INTO ducklake_data_file SELECT i, 1 + i % 10, 1 + i // 10, CASE WHEN i % 5 = 0 THEN 2 + i // 10 END, NULL,"
                    + " 'ducklake-' || uuid() || '.parquet', true, 'parquet', 1000 + i % 100, 100000 + i, 2000, i * 1000, NULL, NULL, NULL, NULL"
                    + " FROM range(" + files + ") t(i)");
            s.execute("INSERT INTO ducklake_file_column_stats SELECT f, 1 + f % 10, 100 * (1 + f % 10) + k % 4 + 1, 5000 + k, 1000, k % 3,"
                    + " CAST(f * 7 AS VARCHAR), CAST(f * 7 + 999 AS VARCHAR), k = 3, NULL FROM range(" + files + ") a(f), range(10) b(k)");
            s.execute("INSERT INTO ducklake_delete_file SELECT i, 1 + (i * 10) % 10, 1 + i, NULL, i * 10, 'ducklake-' || uuid() || '-delete.parquet',"
                    + " true, 'parquet', 3, 1700, 600, NULL, NULL FROM range(" + snapshots + ") t(i)");
            s.execute("INSERT INTO ducklake_table_stats SELECT i, 1000000, 1000000, 100000000 FROM range(1, 11) t(i)");
            s.execute("CREATE TABLE ducklake_inlined_data_1_1(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, c1 BIGINT,"
                    + " c2 VARCHAR, c3 DOUBLE, c4 TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_1', 1)");
            s.execute("INSERT INTO ducklake_inlined_data_1_1 SELECT i, 1 + i, CASE WHEN i % 3 = 0 THEN 2 + i END, i * 31,"
                    + " 'town ''' || i || E'\\nline', CASE WHEN i % 100 = 0 THEN 'nan'::DOUBLE ELSE i / 3.0 END,"
                    + " TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_microseconds(i) FROM range(" + snapshots + ") t(i)");
            s.execute("UPDATE ducklake_snapshot SET schema_version = 1, next_file_id = " + files + " WHERE snapshot_id = " + snapshots);
            s.execute("USE memory");
            s.execute("DETACH cat");
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The largest heap in use right after a garbage collection (the live set), from GC notifications. */
    static final class LiveHeap {
        private final AtomicLong max = new AtomicLong();

        /** Names of the heap's memory pools (GC notifications also report metaspace and code cache). */
        private final java.util.Set<String> heapPools = new java.util.HashSet<>();

        LiveHeap() {
            for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == java.lang.management.MemoryType.HEAP) {
                    heapPools.add(pool.getName());
                }
            }
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter emitter) {
                    emitter.addNotificationListener((n, h) -> {
                        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                            return;
                        }
                        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                        long used = 0;
                        for (java.util.Map.Entry<String, MemoryUsage> u : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                            if (heapPools.contains(u.getKey())) {
                                used += u.getValue().getUsed();
                            }
                        }
                        max.accumulateAndGet(used, Math::max);
                    }, null, null);
                }
            }
        }

        void reset() {
            System.gc();
            max.set(0);
        }

        long max() {
            System.gc();
            return max.get();
        }
    }
}
