package dev.fdl.bench;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.util.SqlQuote;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

/**
 * Row history (docs/history.md) against references measured in the same run, on a generated table
 * of N rows (key {@code id}) with V versions, each changing 0.1 % of the rows by
 * {@code import --mode sync}. Prints ratios:
 * <ol>
 *   <li>{@code fdl blame t --csv} against DuckDB writing every row of the table as CSV (one full
 *       scan through the built-in reader's view), process CPU time (target ≤ 2x);</li>
 *   <li>{@code fdl log --table t --key id=…} over all V versions against {@code fdl query} of that
 *       row at one version, wall time (target ≤ 3x);</li>
 *   <li>{@code fdl diff <a> <b> --changes} (Parquet) against {@code fdl diff --stat} between the same
 *       two versions, wall time (target ≤ 1.5x).</li>
 * </ol>
 * Run with {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.HistoryBench
 * -Dexec.args="1000000 33"} (N, V).
 */
public final class HistoryBench {
    private HistoryBench() {}

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int versions = args.length > 1 ? Integer.parseInt(args[1]) : 33;
        Path dir = Files.createTempDirectory("fdl-historybench-");
        Path wc = Cli.newWorkingCopy(dir);
        for (int v = 0; v < versions; v++) {
            Path p = dir.resolve("v" + v + ".parquet");
            try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
                st.execute("COPY (SELECT i AS id, 'name ' || i AS name, i * 7 + CASE WHEN hash(i, " + v + ") % 1000 = 0 THEN " + v
                        + " ELSE 0 END AS score FROM range(" + n + ") AS r(i)) TO " + SqlQuote.literal(p.toString()) + " (FORMAT parquet)");
            }
            Cli.ok(wc, "import", p.toString(), "--table", "t", "--mode", "sync", "--key", "id");
            Cli.ok(wc, "commit", "-m", "v" + v);
            Files.delete(p);
        }
        Path repo = dir.resolve("repo");
        String head = Cli.ok(wc, "log", "-n", "1", "--oneline").out().substring(0, 13);
        Path catalog;
        try (var s = Files.list(repo.resolve("versions"))) {
            catalog = s.filter(x -> x.getFileName().toString().startsWith(head)).findFirst().orElseThrow().resolve("ducklake.duckdb");
        }
        Cli.ok(wc, "blame", "t", "--csv"); // warm: catalogs cached, classes loaded
        long cpu0 = cpu();
        Cli.ok(wc, "blame", "t", "--csv");
        long blameCpu = cpu() - cpu0;
        cpu0 = cpu();
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), catalog, repo.resolve("data") + "/", null);
             Statement st = r.connection().createStatement()) {
            st.execute("COPY (SELECT * FROM t) TO " + SqlQuote.literal(dir.resolve("scan.csv").toString()) + " (FORMAT csv)");
        }
        long scanCpu = cpu() - cpu0;
        System.out.printf("blame of %,d rows, %d versions: %.2f s CPU; DuckDB full scan to CSV %.2f s CPU; ratio %.2f (target <= 2)%n",
                n, versions, blameCpu / 1e9, scanCpu / 1e9, blameCpu / (double) scanCpu);
        long id = 1000 * 7 + 1;
        long logWall = wall(() -> Cli.ok(wc, "log", "--table", "t", "--key", "id=" + id, "--json"));
        long queryWall = wall(() -> Cli.ok(wc, "query", "HEAD", "SELECT * FROM t WHERE id = " + id));
        System.out.printf("row log over %d versions: %.2f s; fdl query of the row: %.2f s; ratio %.2f (target <= 3)%n",
                versions, logWall / 1e9, queryWall / 1e9, logWall / (double) queryWall);
        Path feed = dir.resolve("feed.parquet");
        long feedWall = wall(() -> Cli.ok(wc, "diff", "HEAD~" + (versions - 1), "HEAD", "--changes", "--table", "t", "--format", "parquet",
                "--output", feed.toString()));
        long statWall = wall(() -> Cli.ok(wc, "diff", "HEAD~" + (versions - 1), "HEAD", "--stat"));
        System.out.printf("change feed first..last version: %.2f s; diff --stat: %.2f s; ratio %.2f (target <= 1.5)%n",
                feedWall / 1e9, statWall / 1e9, feedWall / (double) statWall);
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The median wall time of three runs, in nanoseconds. */
    private static long wall(Runnable run) {
        long[] t = new long[3];
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            run.run();
            t[i] = System.nanoTime() - t0;
        }
        java.util.Arrays.sort(t);
        return t[1];
    }
}
