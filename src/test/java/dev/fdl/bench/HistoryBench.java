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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Row history (docs/history.md) against references measured in the same run, on a generated table
 * {@code t} of N rows (key {@code id}; columns id, name, score) with V versions: one import, then
 * V-1 syncs ({@code import --mode sync}) each changing the score of about 0.5 % of the rows and
 * changing back those the previous sync changed (about 1 % of the rows per version). The
 * repository is built once into a folder that later runs reuse (it takes long at 10M rows); a
 * folder built with fewer versions of the same N rows is extended by the versions it lacks. Every
 * fdl command is a process of the launcher, as a user runs it, its CPU (user + system) from GNU
 * {@code /usr/bin/time}; the median of three runs after one warm-up (the catalog cached). Prints:
 * <ol>
 *   <li>{@code fdl blame t main > /dev/null} against one full scan of the table by DuckDB: every
 *       row of the table, through the built-in reader's view, written as CSV to a file
 *       ({@code COPY (SELECT * FROM t) TO … (FORMAT csv)}), the process CPU it adds inside this
 *       JVM (no JVM or DuckDB start), median of three (target ≤ 2x);</li>
 *   <li>{@code fdl log main --table t --key id=…} over all V versions against {@code fdl query} of
 *       that row at one version, CPU, also less the CPU of {@code fdl --version} (JVM start) on
 *       both sides (target ≤ 3x);</li>
 *   <li>{@code fdl diff <first> <last> --changes} (Parquet) against {@code fdl diff --stat} between
 *       the same two versions, CPU (target ≤ 1.5x).</li>
 * </ol>
 * Run with {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.HistoryBench
 * -Dexec.args="10000000 33 /tmp/history-10m ./fdl"} (N, V, the folder kept for the repository, the
 * launcher). A fifth argument {@code build} only builds the repository, {@code blame} measures only blame,
 * {@code rowlog} only the row logs (of an unchanged row and of the row changed in the most versions); a sixth
 * is the rounds of the row log and change feed measures (default 3).
 */
public final class HistoryBench {
    private HistoryBench() {}

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int versions = args.length > 1 ? Integer.parseInt(args[1]) : 33;
        Path dir = args.length > 2 ? Path.of(args[2]).toAbsolutePath() : Files.createTempDirectory("fdl-historybench-");
        String fdl = Path.of(args.length > 3 ? args[3] : "./fdl").toAbsolutePath().toString();
        Path wc = dir.resolve("wc");
        Path built = dir.resolve("built-" + n + "-" + versions);
        if (!Files.exists(built)) {
            build(dir, n, builtVersions(dir, n, versions), versions);
            Files.writeString(built, "");
        }
        String only = args.length > 4 ? args[4] : "all";
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 3;
        if (only.equals("build")) return;
        Path scratch = Files.createTempDirectory("fdl-historybench-run-");
        List<String> in = List.of(fdl, "-C", wc.toString());
        if (!only.equals("rowlog")) {
            double blame = median(3, () -> cpu(scratch, with(in, "blame", "t", "main")), true);
            double scan = median(3, () -> scanCpu(dir, scratch), false);
            System.out.printf(Locale.ROOT, "blame of %,d rows, %d versions: %.2f s CPU; DuckDB full scan to CSV %.2f s CPU; ratio %.2f (target <= 2)%n",
                    n, versions, blame, scan, blame / scan);
        }
        if (only.equals("blame")) return;
        double start = median(3, () -> cpu(scratch, List.of(fdl, "--version")), false);
        for (long id : new long[]{7001, mostChanged(n, versions)}) {
            double log = median(rounds, () -> cpu(scratch, with(in, "log", "main", "--table", "t", "--key", "id=" + id, "--json")), true);
            double query = median(rounds, () -> cpu(scratch, with(in, "query", "main", "SELECT * FROM t WHERE id = " + id)), true);
            System.out.printf(Locale.ROOT, "row log of id %d (%d changes) over %d versions: %.2f s CPU; fdl query of the row: %.2f s; ratio %.2f,"
                    + " less JVM start (%.2f s) %.2f (target <= 3)%n", id, changes(id, versions), versions, log, query, log / query, start,
                    (log - start) / (query - start));
        }
        if (only.equals("rowlog")) return;
        String first = "main~" + (versions - 1);
        Path feed = scratch.resolve("feed.parquet");
        double changes = median(rounds, () -> cpu(scratch, with(in, "diff", first, "main", "--changes", "--table", "t", "--format", "parquet",
                "--output", feed.toString())), true);
        double stat = median(rounds, () -> cpu(scratch, with(in, "diff", first, "main", "--stat")), true);
        System.out.printf(Locale.ROOT, "change feed first..last version: %.2f s CPU; diff --stat: %.2f s; ratio %.2f (target <= 1.5)%n",
                changes, stat, changes / stat);
    }

    /**
     * How many versions of the same N rows the folder already holds when it was built with fewer
     * (a marker {@code built-N-K}, K below {@code versions}): the repository's versions, the build
     * then goes on from there (also after a build stopped half-way); else 0, to build from the start.
     */
    private static int builtVersions(Path dir, long n, int versions) throws Exception {
        if (!Files.exists(dir.resolve("repo")) || !Files.exists(dir.resolve("wc"))) return 0;
        boolean fewer = false;
        try (var s = Files.list(dir)) {
            String prefix = "built-" + n + "-";
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = p.getFileName().toString();
                fewer |= name.startsWith(prefix) && Integer.parseInt(name.substring(prefix.length())) < versions;
            }
        }
        if (!fewer) return 0;
        try (var s = Files.list(dir.resolve("repo").resolve("versions"))) {
            return (int) Math.min(versions, s.count());
        }
    }

    /**
     * The repository at {@code dir/repo}, its working copy at {@code dir/wc}: one import, then syncs up
     * to {@code versions}; with {@code from > 0} the first {@code from} versions are there already.
     */
    private static void build(Path dir, long n, int from, int versions) throws Exception {
        Path wc = dir.resolve("wc");
        if (from == 0) {
            if (Files.exists(dir.resolve("repo"))) dev.fdl.ducklake.load.Importer.deleteTree(dir.resolve("repo"));
            if (Files.exists(wc)) dev.fdl.ducklake.load.Importer.deleteTree(wc);
            Files.createDirectories(dir);
            wc = Cli.newWorkingCopy(dir);
        }
        long t0 = System.nanoTime();
        for (int v = from; v < versions; v++) {
            Path p = dir.resolve("v" + v + ".parquet");
            try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
                st.execute("COPY (SELECT i AS id, 'name ' || i AS name, i * 7 + CASE WHEN " + CHANGED.replace("v::INTEGER", Integer.toString(v)) + " THEN " + (v + 1)
                        + " ELSE 0 END AS score FROM range(" + n + ") AS r(i)) TO " + SqlQuote.literal(p.toString()) + " (FORMAT parquet)");
            }
            Cli.ok(wc, "import", p.toString(), "--table", "t", "--mode", "sync", "--key", "id");
            Cli.ok(wc, "commit", "-m", "v" + v);
            Files.delete(p);
            System.out.printf(Locale.ROOT, "built version %d of %d, %.0f s%n", v + 1, versions, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** Among the first 100,000 rows, the one the build's rule hit in the most versions (the smallest id of those). */
    private static long mostChanged(long n, int versions) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT i FROM range(" + Math.min(n, 100_000) + ") AS r(i), range(1, " + versions + ") AS v(v) WHERE "
                     + CHANGED + " GROUP BY i ORDER BY count(*) DESC, i LIMIT 1")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The build's rule: at version v (from 0) row i's score is i * 7 + v + 1 when this holds, else i * 7. */
    private static final String CHANGED = "hash(i, v::INTEGER) % 200 = 0";

    /**
     * How many versions after the first changed row {@code id}'s values, by the build's rule: version v
     * changes a row the rule hits at v (its score becomes i * 7 + v + 1) or at v - 1 (back, or to another score).
     */
    private static long changes(long id, int versions) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM (SELECT v, (" + CHANGED + ") OR coalesce(lag(" + CHANGED
                     + ") OVER (ORDER BY v), false) AS d FROM (SELECT " + id + " AS i, v FROM range(0, " + versions + ") AS r(v))) WHERE d AND v > 0")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Process CPU this JVM spends on DuckDB writing every row of {@code t} at the working copy's version as CSV. */
    private static double scanCpu(Path dir, Path scratch) throws Exception {
        Path repo = dir.resolve("repo");
        String head = Cli.ok(dir.resolve("wc"), "log", "-n", "1", "--oneline").out().substring(0, 13);
        Path catalog;
        try (var s = Files.list(repo.resolve("versions"))) {
            catalog = s.filter(x -> x.getFileName().toString().startsWith(head)).findFirst().orElseThrow().resolve("ducklake.duckdb");
        }
        long cpu0 = cpu();
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), catalog, repo.resolve("data") + "/", null);
             Statement st = r.connection().createStatement()) {
            st.execute("COPY (SELECT * FROM t) TO " + SqlQuote.literal(scratch.resolve("scan.csv").toString()) + " (FORMAT csv)");
        }
        return (cpu() - cpu0) / 1e9;
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static List<String> with(List<String> command, String... more) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(more));
        return all;
    }

    /** CPU seconds (user + system) of {@code command} run under GNU time, its stdout to /dev/null; fails on a non-zero exit. */
    private static double cpu(Path scratch, List<String> command) throws Exception {
        Path times = scratch.resolve("time.txt");
        List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-o", times.toString(), "-f", "%U %S"));
        timed.addAll(command);
        Process p = new ProcessBuilder(timed).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(scratch.resolve("err.txt").toFile()).start();
        int exit = p.waitFor();
        if (exit != 0)
            throw new IllegalStateException(String.join(" ", command) + ": exit " + exit + "\n" + Files.readString(scratch.resolve("err.txt")));
        List<String> lines = Files.readAllLines(times);
        String[] f = lines.get(lines.size() - 1).trim().split(" ");
        return Double.parseDouble(f[0]) + Double.parseDouble(f[1]);
    }

    private interface Measure {
        double run() throws Exception;
    }

    /** The median of {@code runs} measurements, after one unmeasured run when {@code warm}. */
    private static double median(int runs, Measure m, boolean warm) throws Exception {
        if (warm) m.run();
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) t[i] = m.run();
        Arrays.sort(t);
        return t[runs / 2];
    }
}
