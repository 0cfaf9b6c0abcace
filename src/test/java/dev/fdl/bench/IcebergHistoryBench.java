package dev.fdl.bench;

import dev.fdl.cli.Cli;
import dev.fdl.iceberg.IcebergHistory;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The Iceberg history's write after a commit (docs/iceberg.md, "History"), in a generated
 * folder repository with V versions (default 50) of one table on main, a tag every tenth: the
 * update from the history before the commit ({@code IcebergHistory.afterChange} for a command that
 * only added versions) against the whole rewrite ({@link IcebergHistory#rewrite()}), each from the
 * same history written for the refs before the last commit. Prints the medians of 9 runs after 3
 * warm-ups and their ratio.
 *
 * <p>Run: {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.IcebergHistoryBench [-Dexec.args="50"]}.
 */
public final class IcebergHistoryBench {
    private static final int RUNS = 9;
    private static final int WARM_UPS = 3;

    private IcebergHistoryBench() {}

    public static void main(String[] args) throws Exception {
        int versions = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path tmp = Files.createTempDirectory("fdl-icebergHistorybench-");
        try {
            Path root = tmp.resolve("repo"), wc = Files.createDirectories(tmp.resolve("wc"));
            Cli.ok(tmp, "init", "--iceberg", root.toString());
            Cli.ok(wc, "checkout", "--repo", root.toString());
            Path history = root.resolve(IcebergHistory.metadataKey("main", "t"));
            String before = null;
            StringBuilder rows = new StringBuilder("k,v\n");
            for (int i = 1; i <= versions; i++) {
                rows.append(i).append(",row ").append(i).append('\n');
                Path csv = Files.writeString(tmp.resolve("rows.csv"), rows);
                Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "sync", "--key", "k");
                if (i == versions) before = Files.readString(history);
                Cli.ok(wc, "commit", "-m", "version " + i);
                if (i % 10 == 0) Cli.ok(wc, "tag", "v" + i);
            }
            long[] update = new long[RUNS], rewrite = new long[RUNS];
            try (ObjectStore store = Stores.open(root.toString())) {
                Repository repo = Repository.open(store);
                for (int i = 0; i < WARM_UPS + RUNS; i++) {
                    Files.writeString(history, before);
                    long t0 = System.nanoTime();
                    String warning = IcebergHistory.afterChange(repo, "version committed", true);
                    long t1 = System.nanoTime();
                    if (warning != null) throw new IllegalStateException(warning);
                    Files.writeString(history, before);
                    long t2 = System.nanoTime();
                    new IcebergHistory(repo).rewrite();
                    long t3 = System.nanoTime();
                    if (i >= WARM_UPS) {
                        update[i - WARM_UPS] = t1 - t0;
                        rewrite[i - WARM_UPS] = t3 - t2;
                    }
                }
            }
            double u = median(update) / 1e6, r = median(rewrite) / 1e6;
            System.out.printf(Locale.ROOT, "versions %d: history update after a commit %.1f ms, whole rewrite %.1f ms, ratio %.2fx%n",
                    versions, u, r, u / r);
        } finally {
            try (Stream<Path> s = Files.walk(tmp)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double median(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
