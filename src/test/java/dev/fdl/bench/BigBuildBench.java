package dev.fdl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Big builds: fdl as a user runs it ({@code ./fdl}, one process per command) against DuckDB's JDBC
 * doing the same work in a JVM of its own, on a generated six-column table of N rows (default
 * 10,000,000) as CSV. Each side's CPU (user + system) and peak RSS come from {@code /usr/bin/time};
 * three rounds, each from a fresh repository. Prints, per step, the median CPU of each side, the
 * median of the per-round ratios with their spread (min–max), and the median peak RSS of each:
 * <ul>
 *   <li>{@code import v1.csv --table t} vs {@code COPY (FROM read_csv(v1.csv)) TO 'x.parquet'}
 *       (target ≤ 1.5x CPU);</li>
 *   <li>{@code import v2.csv --table t --mode sync --key id} (1% of rows changed, 0.5% gone, 1%
 *       new) vs DuckDB reading both (the old as the Parquet file the reference import wrote) and
 *       writing the rows new or changed ({@code EXCEPT ALL}) to Parquet (target ≤ 2x CPU);</li>
 *   <li>{@code query "SELECT d, count(*), sum(x) FROM t GROUP BY d"} on the synced version (data
 *       file, delete file, new rows' file) vs the same over v2 as one Parquet file (target ≤ 1.3x
 *       CPU, ≤ 2x memory).</li>
 * </ul>
 * Run with {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.BigBuildBench -Dexec.args="1000000 ./fdl [--memory 2GB]"} (rows,
 * launcher, then any options given to every fdl command). Needs {@code /usr/bin/time} (GNU).
 */
public final class BigBuildBench {
    private static final int RUNS = 3;
    private static final String QUERY = "SELECT d, count(*) AS n, sum(x) AS x FROM t GROUP BY d ORDER BY d";

    /** One measured process: CPU seconds (user + system) and peak RSS in bytes. */
    private record Cost(double cpu, long rss) {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--ref")) {
            reference(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        long n = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 10_000_000L;
        Path fdl = Path.of(args.length > 1 ? args[1] : "fdl").toAbsolutePath();
        List<String> extra = args.length > 2 ? List.of(Arrays.copyOfRange(args, 2, args.length)) : List.of();
        Path dir = Files.createTempDirectory("fdl-bigbuild-");
        Path v1 = dir.resolve("v1.csv"), v2 = dir.resolve("v2.csv"), v2parquet = dir.resolve("v2.parquet");
        generate(n, v1, v2, v2parquet);
        System.out.printf(Locale.ROOT, "rows %,d; v1.csv %,d bytes, v2.csv %,d bytes; fdl options %s%n", n, Files.size(v1), Files.size(v2), extra);
        run(dir, List.of(fdl.toString(), "--version"), dir); // builds the jar when sources changed

        String[] steps = {"import", "sync", "query"};
        Cost[][] mine = new Cost[steps.length][RUNS], ref = new Cost[steps.length][RUNS];
        for (int r = 0; r < RUNS; r++) {
            Path round = Files.createDirectories(dir.resolve("round-" + r));
            Path repo = round.resolve("repo"), wc = Files.createDirectories(round.resolve("wc"));
            run(round, List.of(fdl.toString(), "init", repo.toString()), round);
            run(wc, List.of(fdl.toString(), "checkout", "--repo", repo.toString()), round);
            Path x = round.resolve("x.parquet"), changed = round.resolve("changed.parquet");
            mine[0][r] = measured(wc, round, with(List.of(fdl.toString(), "import", v1.toString(), "--table", "t"), extra));
            ref[0][r] = measured(round, round, refCommand("COPY (FROM read_csv(" + lit(v1) + ")) TO " + lit(x) + " (FORMAT parquet)"));
            run(wc, List.of(fdl.toString(), "commit", "-m", "v1"), round);
            mine[1][r] = measured(wc, round, with(List.of(fdl.toString(), "import", v2.toString(), "--table", "t", "--mode", "sync",
                    "--key", "id"), extra));
            ref[1][r] = measured(round, round, refCommand("COPY (SELECT * FROM read_csv(" + lit(v2) + ") EXCEPT ALL SELECT * FROM read_parquet("
                    + lit(x) + ")) TO " + lit(changed) + " (FORMAT parquet)"));
            run(wc, List.of(fdl.toString(), "commit", "-m", "v2"), round);
            List<String> query = with(List.of(fdl.toString(), "query", "--csv", QUERY), extra);
            String fdlAnswer = run(wc, query, round);
            mine[2][r] = measured(wc, round, query);
            ref[2][r] = measured(round, round, refCommand(QUERY.replace("FROM t", "FROM read_parquet(" + lit(v2parquet) + ")")));
            String refAnswer = referenceAnswer(v2parquet);
            if (!fdlAnswer.trim().equals(refAnswer.trim())) {
                throw new IllegalStateException("fdl's query answer differs from DuckDB's over v2:\n" + head(fdlAnswer) + "\nvs\n" + head(refAnswer));
            }
            System.out.printf(Locale.ROOT, "round %d: import %.1f s vs %.1f s, sync %.1f s vs %.1f s, query %.1f s vs %.1f s (CPU)%n", r + 1,
                    mine[0][r].cpu(), ref[0][r].cpu(), mine[1][r].cpu(), ref[1][r].cpu(), mine[2][r].cpu(), ref[2][r].cpu());
        }
        double[] targets = {1.5, 2.0, 1.3};
        System.out.println("step     fdl CPU s   ref CPU s   ratio (min-max)      target   fdl RSS MB   ref RSS MB   RSS ratio");
        for (int s = 0; s < steps.length; s++) {
            double[] ratios = new double[RUNS];
            for (int r = 0; r < RUNS; r++) ratios[r] = mine[s][r].cpu() / ref[s][r].cpu();
            Arrays.sort(ratios);
            double fdlRss = median(Arrays.stream(mine[s]).mapToDouble(Cost::rss).toArray()) / 1e6;
            double refRss = median(Arrays.stream(ref[s]).mapToDouble(Cost::rss).toArray()) / 1e6;
            System.out.printf(Locale.ROOT, "%-8s %9.2f %11.2f %7.2fx (%.2f-%.2f) %8s %12.0f %12.0f %10.2fx%n", steps[s],
                    median(Arrays.stream(mine[s]).mapToDouble(Cost::cpu).toArray()), median(Arrays.stream(ref[s]).mapToDouble(Cost::cpu).toArray()),
                    ratios[RUNS / 2], ratios[0], ratios[RUNS - 1], "<= " + targets[s] + "x", fdlRss, refRss, fdlRss / refRss);
        }
        System.out.println("files kept in " + dir + " (delete when done)");
    }

    /**
     * v1: N rows of six columns (id, d, s, x, day, note); v2: v1 with 1% of rows changed, 0.5%
     * gone and 1% new, also as one Parquet file for the query's reference.
     */
    private static void generate(long n, Path v1, Path v2, Path v2parquet) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String rows = "SELECT i AS id, (i % 1000)::INTEGER AS d, 'name-' || i AS s, ((i * 7919) % 100003) / 8.0 AS x, "
                    + "DATE '2020-01-01' + (i % 3000)::INTEGER AS day, md5(i::VARCHAR) AS note FROM range(" + n + ") t(i)";
            s.execute("COPY (" + rows + ") TO " + lit(v1) + " (HEADER)");
            s.execute("COPY (SELECT id, d, CASE WHEN hash(id, 'c') % 100 = 0 THEN s || '!' ELSE s END AS s, x, day, note FROM (" + rows
                    + ") WHERE hash(id, 'g') % 200 <> 0 UNION ALL SELECT i, (i % 1000)::INTEGER, 'new-' || i, i / 4.0, DATE '2024-01-01', md5(i::VARCHAR) "
                    + "FROM range(" + n + ", " + (n + n / 100) + ") t(i)) TO " + lit(v2) + " (HEADER)");
            s.execute("COPY (FROM read_csv(" + lit(v2) + ")) TO " + lit(v2parquet) + " (FORMAT parquet)");
        }
    }

    private static String referenceAnswer(Path v2parquet) throws Exception {
        StringBuilder sb = new StringBuilder("d,n,x\n");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(QUERY.replace("FROM t", "FROM read_parquet(" + lit(v2parquet) + ")"))) {
            while (rs.next()) sb.append(rs.getString(1)).append(',').append(rs.getString(2)).append(',').append(rs.getString(3)).append('\n');
        }
        return sb.toString();
    }

    /** The reference side: runs each statement in one DuckDB, as a user's JDBC program would. */
    private static void reference(String[] statements) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            for (String sql : statements) {
                if (s.execute(sql)) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) rs.getString(1);
                    }
                }
            }
        }
    }

    /** A child JVM running {@link #reference} with the serial collector, as ./fdl runs the data commands. */
    private static List<String> refCommand(String sql) throws Exception {
        String cp = Path.of(org.duckdb.DuckDBDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI()) + java.io.File.pathSeparator
                + Path.of(BigBuildBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC", "-cp", cp,
                BigBuildBench.class.getName(), "--ref", sql);
    }

    private static List<String> with(List<String> command, List<String> extra) {
        List<String> all = new ArrayList<>(command);
        all.addAll(extra);
        return all;
    }

    /** Runs {@code command} in {@code cwd} under GNU time; its CPU and peak RSS. */
    private static Cost measured(Path cwd, Path scratch, List<String> command) throws Exception {
        Path times = scratch.resolve("time.txt");
        List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-o", times.toString(), "-f", "%U %S %M"));
        timed.addAll(command);
        run(cwd, timed, scratch);
        String[] f = Files.readAllLines(times).get(Files.readAllLines(times).size() - 1).trim().split(" ");
        return new Cost(Double.parseDouble(f[0]) + Double.parseDouble(f[1]), Long.parseLong(f[2]) * 1024);
    }

    /** Runs {@code command} in {@code cwd}; its standard output. @throws IllegalStateException when it fails */
    private static String run(Path cwd, List<String> command, Path scratch) throws IOException, InterruptedException {
        Path out = scratch.resolve("out.txt"), err = scratch.resolve("err.txt");
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command).substring(0, Math.min(300, String.join(" ", command).length()))
                    + " failed:\n" + Files.readString(err));
        }
        return Files.readString(out);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static String lit(Path p) {
        return "'" + p.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    private static String head(String s) {
        return s.lines().limit(5).reduce("", (a, b) -> a + b + "\n");
    }
}
