package dev.fdl.bench;

import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.iceberg.IcebergMetadataWriter;
import dev.fdl.iceberg.ManyFilesCatalog;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Writing a version's Iceberg metadata (docs/iceberg.md) against reading the version's catalog,
 * measured in one run: a generated DuckLake catalog whose one table has F data files (default
 * 10,000) with statistics for four columns (int64, varchar, float64, timestamptz) and 100 inlined
 * rows. The reference is what fdl reads of the catalog to describe it: attaching it, the
 * snapshot's tables and data files ({@code SnapshotView}) and every file's column statistics.
 * Prints the medians of 9 runs after 5 warm-ups (wall time, and the process's CPU time: every
 * thread's, DuckDB's and Iceberg's workers' included, steadier than wall time on a loaded machine),
 * the ratios (target ≤ 1.5x on wall time), the bytes written (metadata files, and the inlined rows'
 * Parquet: the only data bytes) and the number of files.
 *
 * <p>Run: {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.IcebergBench [-Dexec.args="10000"]}.
 */
public final class IcebergBench {
    private static final int RUNS = 9;
    private static final int WARM_UPS = 5;

    private IcebergBench() {}

    public static void main(String[] args) throws Exception {
        long files = args.length > 0 ? Long.parseLong(args[0]) : 10_000;
        Path tmp = Files.createTempDirectory("fdl-icebergbench-");
        try {
            Path catalog = tmp.resolve("ducklake.duckdb");
            ManyFilesCatalog.generate(catalog, files);
            long[] read = new long[RUNS], write = new long[RUNS], readCpu = new long[RUNS], writeCpu = new long[RUNS];
            long metadataBytes = 0, dataBytes = 0, written = 0;
            for (int i = 0; i < WARM_UPS + RUNS; i++) { // the warm-up rounds are not counted
                Path root = Files.createDirectories(tmp.resolve("repo-" + i)), scratch = Files.createDirectories(tmp.resolve("scratch-" + i));
                List<IcebergMetadataWriter.TableWritten> out;
                long t0, t1, t2, c0, c1, c2, stats;
                try (ObjectStore store = Stores.open(root.toString())) {
                    Repository repo = Repository.init(store, new RefName("main"));
                    IcebergMetadataWriter.Target target = new IcebergMetadataWriter.Target(store, "", root.toUri().toString());
                    c0 = cpu();
                    t0 = System.nanoTime();
                    stats = readCatalog(catalog);
                    t1 = System.nanoTime();
                    c1 = cpu();
                    out = new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(String.format(Locale.ROOT,
                            "01a24600-0000-7000-8000-%012d", i), catalog, target, scratch);
                    t2 = System.nanoTime();
                    c2 = cpu();
                }
                if (stats != files * 4) throw new IllegalStateException("read " + stats + " statistics rows, expected " + files * 4);
                if (i < WARM_UPS) continue;
                read[i - WARM_UPS] = t1 - t0;
                write[i - WARM_UPS] = t2 - t1;
                readCpu[i - WARM_UPS] = c1 - c0;
                writeCpu[i - WARM_UPS] = c2 - c1;
                Path iceberg = root.resolve("versions");
                long[] sizes = sizes(iceberg);
                written = sizes[1];
                dataBytes = out.stream().mapToLong(IcebergMetadataWriter.TableWritten::extraBytes).sum();
                metadataBytes = sizes[0] - dataBytes;
            }
            System.out.printf(Locale.ROOT, "%,d data files, 4 columns with statistics, 100 inlined rows; medians of %d runs after %d warm-ups%n",
                    files, RUNS, WARM_UPS);
            System.out.printf(Locale.ROOT, "read the catalog (attach, snapshot view, column statistics): %,d ms wall, %,d ms CPU%n",
                    median(read) / 1_000_000, median(readCpu) / 1_000_000);
            System.out.printf(Locale.ROOT, "write the Iceberg metadata:                                 %,d ms wall, %,d ms CPU%n",
                    median(write) / 1_000_000, median(writeCpu) / 1_000_000);
            System.out.printf(Locale.ROOT, "ratio: %.2fx wall (target <= 1.5x), %.2fx CPU; load average %.1f%n",
                    median(write) / (double) median(read), median(writeCpu) / (double) median(readCpu),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf(Locale.ROOT, "files written: %d; metadata %,d bytes; data bytes %,d (the inlined rows' Parquet; no data file copied)%n",
                    written, metadataBytes, dataBytes);
        } finally {
            deleteTree(tmp);
        }
    }

    /** What fdl reads of the catalog to describe it: the snapshot's tables and data files, and every file's statistics. */
    private static long readCatalog(Path catalog) throws Exception {
        try (Connection duck = DuckDbPool.shared().connection()) {
            Sql.attach(duck, catalog, MetadataQueries.CATALOG_ALIAS, true);
            try {
                SnapshotView view = SnapshotView.loadRelative(duck, MetadataQueries.CATALOG_ALIAS, catalog.toString(), null);
                MetadataQueries model = new MetadataQueries(duck, MetadataQueries.CATALOG_ALIAS, catalog.toString());
                LongAdder rows = new LongAdder();
                for (SnapshotView.TableEntry t : view.tables()) model.fileColumnStats(t.id(), s -> rows.increment());
                return rows.sum();
            } finally {
                try (Statement st = duck.createStatement()) {
                    st.execute("DETACH " + MetadataQueries.CATALOG_ALIAS);
                }
            }
        }
    }

    /** The CPU time of this process so far, every thread's, in nanoseconds. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** {bytes, files} of every file under {@code dir}. */
    static long[] sizes(Path dir) throws IOException {
        long[] out = new long[2];
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                out[0] += Files.size(p);
                out[1]++;
            }
        }
        return out;
    }

    static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
