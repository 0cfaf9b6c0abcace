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
 *       writing the rows new or changed ({@code EXCEPT ALL}) to Parquet (target ≤ 1.5x CPU);</li>
 *   <li>{@code query "SELECT d, count(*), sum(x) FROM t GROUP BY d"} on the synced version (data
 *       file, delete file, new rows' file) vs the same over v2 as one Parquet file (target ≤ 1.3x
 *       CPU, ≤ 2x memory).</li>
 * </ul>
 * Run with {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.BigBuildBench -Dexec.args="1000000 ./fdl [--cgroup 2GB] [--rounds 3] [--memory 2GB]"}
 * (rows, launcher, then the bench's own options, then any options given to every fdl command).
 * {@code --cgroup SIZE} runs every measured process (fdl's and the reference's) in a memory cgroup
 * of its own limited to SIZE (cgroup v2 {@code memory.max} or v1 {@code memory.limit_in_bytes},
 * whichever this machine lets us write; refused when neither), reports a process the kernel's OOM
 * killer ended as a failure of its step (the round's later steps are skipped), and prints each
 * step's peak cgroup charge. {@code --rounds N} (default 3) for a shorter run. Needs
 * {@code /usr/bin/time} (GNU).
 */
public final class BigBuildBench {
    private static final int DEFAULT_ROUNDS = 3;
    private static final String QUERY = "SELECT d, count(*) AS n, sum(x) AS x FROM t GROUP BY d ORDER BY d";

    /**
     * One measured process: CPU seconds (user + system), peak RSS in bytes, its cgroup's peak
     * charge in bytes (-1 without {@code --cgroup}) and why it failed (null when it finished).
     */
    private record Cost(double cpu, long rss, long cgroupPeak, String failure) {
        boolean ok() {
            return failure == null;
        }
    }

    /** {@code --cgroup}'s memory cgroups: one fresh cgroup per measured process, under {@code base}. */
    private static MemoryCgroups cgroups;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--ref")) {
            reference(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        long n = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 10_000_000L;
        Path fdl = Path.of(args.length > 1 ? args[1] : "fdl").toAbsolutePath();
        List<String> extra = new ArrayList<>(args.length > 2 ? List.of(Arrays.copyOfRange(args, 2, args.length)) : List.of());
        int rounds = DEFAULT_ROUNDS;
        while (!extra.isEmpty() && (extra.get(0).equals("--cgroup") || extra.get(0).equals("--rounds")) && extra.size() > 1) {
            if (extra.get(0).equals("--cgroup")) {
                cgroups = MemoryCgroups.create(parseSize(extra.get(1)));
                Runtime.getRuntime().addShutdownHook(new Thread(cgroups::close)); // also when a step ends the bench
            }
            else rounds = Integer.parseInt(extra.get(1));
            extra.subList(0, 2).clear();
        }
        final int runs = rounds;
        Path dir = Files.createTempDirectory("fdl-bigbuild-");
        Path v1 = dir.resolve("v1.csv"), v2 = dir.resolve("v2.csv"), v2parquet = dir.resolve("v2.parquet");
        generate(n, v1, v2, v2parquet);
        System.out.printf(Locale.ROOT, "rows %,d; v1.csv %,d bytes, v2.csv %,d bytes; fdl options %s; %d round(s)%s%n", n, Files.size(v1),
                Files.size(v2), extra, runs, cgroups == null ? "" : "; every measured process in a memory cgroup of " + cgroups.describe());
        run(dir, List.of(fdl.toString(), "--version"), dir); // builds the jar when sources changed

        String[] steps = {"import", "sync", "query"};
        Cost[][] mine = new Cost[steps.length][runs], ref = new Cost[steps.length][runs];
        for (int r = 0; r < runs; r++) {
            Path round = Files.createDirectories(dir.resolve("round-" + r));
            Path repo = round.resolve("repo"), wc = Files.createDirectories(round.resolve("wc"));
            run(round, List.of(fdl.toString(), "init", repo.toString()), round);
            run(wc, List.of(fdl.toString(), "checkout", "--repo", repo.toString()), round);
            Path x = round.resolve("x.parquet"), changed = round.resolve("changed.parquet");
            ref[0][r] = measured(round, round, refCommand("COPY (FROM read_csv(" + lit(v1) + ")) TO " + lit(x) + " (FORMAT parquet)"));
            ref[1][r] = !ref[0][r].ok() ? null : measured(round, round, refCommand("COPY (SELECT * FROM read_csv(" + lit(v2) + ") EXCEPT ALL SELECT * FROM read_parquet("
                    + lit(x) + ")) TO " + lit(changed) + " (FORMAT parquet)"));
            ref[2][r] = measured(round, round, refCommand(QUERY.replace("FROM t", "FROM read_parquet(" + lit(v2parquet) + ")")));
            mine[0][r] = measured(wc, round, with(List.of(fdl.toString(), "import", v1.toString(), "--table", "t"), extra));
            if (mine[0][r].ok()) {
                run(wc, List.of(fdl.toString(), "commit", "-m", "v1"), round);
                mine[1][r] = measured(wc, round, with(List.of(fdl.toString(), "import", v2.toString(), "--table", "t", "--mode", "sync",
                        "--key", "id"), extra));
            }
            if (mine[1][r] != null && mine[1][r].ok()) {
                run(wc, List.of(fdl.toString(), "commit", "-m", "v2"), round);
                List<String> query = with(List.of(fdl.toString(), "query", "--csv", QUERY), extra);
                String fdlAnswer = run(wc, query, round);
                mine[2][r] = measured(wc, round, query);
                String refAnswer = referenceAnswer(v2parquet);
                if (!sameAnswer(fdlAnswer, refAnswer)) {
                    throw new IllegalStateException("fdl's query answer differs from DuckDB's over v2:\n" + head(fdlAnswer) + "\nvs\n" + head(refAnswer));
                }
            }
            StringBuilder line = new StringBuilder("round " + (r + 1) + " (CPU s, fdl vs ref):");
            for (int s = 0; s < steps.length; s++) line.append(' ').append(steps[s]).append(' ').append(shown(mine[s][r])).append(" vs ")
                    .append(shown(ref[s][r])).append(s + 1 < steps.length ? "," : "");
            System.out.println(line);
        }
        double[] targets = {1.5, 1.5, 1.3};
        System.out.println("step     fdl CPU s   ref CPU s   ratio (min-max)      target   fdl RSS MB   ref RSS MB   RSS ratio"
                + (cgroups == null ? "" : "   fdl cgroup peak MB   ref cgroup peak MB   finished in cgroup (fdl, ref)"));
        for (int step = 0; step < steps.length; step++) {
            final int s = step;
            List<Integer> good = new ArrayList<>();
            for (int r = 0; r < runs; r++) if (mine[s][r] != null && mine[s][r].ok() && ref[s][r] != null && ref[s][r].ok()) good.add(r);
            String finished = cgroups == null ? "" : String.format(Locale.ROOT, "   %18s %20s   %d/%d, %d/%d", peak(mine[s]), peak(ref[s]),
                    Arrays.stream(mine[s]).filter(c -> c != null && c.ok()).count(), runs, Arrays.stream(ref[s]).filter(c -> c != null && c.ok()).count(), runs);
            if (good.isEmpty()) {
                System.out.printf(Locale.ROOT, "%-8s no round finished on both sides%s%n", steps[s], finished);
                continue;
            }
            double[] ratios = good.stream().mapToDouble(r -> mine[s][r].cpu() / ref[s][r].cpu()).sorted().toArray();
            double fdlRss = median(good.stream().mapToDouble(r -> mine[s][r].rss()).toArray()) / 1e6;
            double refRss = median(good.stream().mapToDouble(r -> ref[s][r].rss()).toArray()) / 1e6;
            System.out.printf(Locale.ROOT, "%-8s %9.2f %11.2f %7.2fx (%.2f-%.2f) %8s %12.0f %12.0f %10.2fx%s%n", steps[s],
                    median(good.stream().mapToDouble(r -> mine[s][r].cpu()).toArray()), median(good.stream().mapToDouble(r -> ref[s][r].cpu()).toArray()),
                    ratios[ratios.length / 2], ratios[0], ratios[ratios.length - 1], "<= " + targets[s] + "x", fdlRss, refRss, fdlRss / refRss, finished);
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
    static List<String> refCommand(String sql) throws Exception {
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

    /**
     * Runs {@code command} in {@code cwd} under GNU time (with {@code --cgroup}, in a fresh memory
     * cgroup); its CPU and peak RSS, or its failure: a process the OOM killer ended (named so, with
     * the cgroup's limit), or one that exited with an error (its last lines of standard error).
     */
    private static Cost measured(Path cwd, Path scratch, List<String> command) throws Exception {
        Path times = scratch.resolve("time.txt");
        Files.deleteIfExists(times);
        MemoryCgroups.Group group = cgroups == null ? null : cgroups.next();
        List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-o", times.toString(), "-f", "%U %S %M"));
        if (group != null) timed.addAll(group.wrap());
        timed.addAll(command);
        try {
            int exit = exec(cwd, timed, scratch);
            long peak = group == null ? -1 : group.peak();
            if (group != null && group.oomKills() > 0) {
                return new Cost(0, 0, peak, "killed by the OOM killer at the cgroup's limit of " + cgroups.describe());
            }
            if (exit != 0) {
                List<String> err = Files.readAllLines(scratch.resolve("err.txt")).stream().filter(l -> !l.isBlank()).toList();
                String said = err.isEmpty() ? "" : ": " + String.join(" / ", err.subList(Math.max(0, err.size() - 3), err.size()));
                return new Cost(0, 0, peak, "exit " + exit + said.substring(0, Math.min(400, said.length())));
            }
            List<String> lines = Files.readAllLines(times);
            String[] f = lines.get(lines.size() - 1).trim().split(" ");
            return new Cost(Double.parseDouble(f[0]) + Double.parseDouble(f[1]), Long.parseLong(f[2]) * 1024, peak, null);
        } finally {
            if (group != null) group.remove();
        }
    }

    private static String shown(Cost c) {
        if (c == null) return "not run";
        return c.ok() ? String.format(Locale.ROOT, "%.1f", c.cpu()) : "FAILED (" + c.failure() + ")";
    }

    /** The largest cgroup peak of a step's processes, in MB ("-" when none ran or the kernel did not say). */
    private static String peak(Cost[] costs) {
        long max = Arrays.stream(costs).filter(java.util.Objects::nonNull).mapToLong(Cost::cgroupPeak).max().orElse(-1);
        return max < 0 ? "-" : String.format(Locale.ROOT, "%.0f", max / 1e6);
    }

    /** {@code 2GB}, {@code 512MB}, {@code 2GiB} or bytes. */
    private static long parseSize(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)(\\d+(?:\\.\\d+)?)\\s*(b|kb|mb|gb|kib|mib|gib)?").matcher(text.trim());
        if (!m.matches()) throw new IllegalArgumentException("--cgroup '" + text + "' is not a size like 2GB");
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
        double factor = switch (unit) {
            case "kb" -> 1e3;
            case "mb" -> 1e6;
            case "gb" -> 1e9;
            case "kib" -> 1024.0;
            case "mib" -> 1024.0 * 1024;
            case "gib" -> 1024.0 * 1024 * 1024;
            default -> 1;
        };
        return (long) (Double.parseDouble(m.group(1)) * factor);
    }

    /** Runs {@code command} in {@code cwd}, output to {@code scratch}'s out.txt and err.txt; its exit status. */
    private static int exec(Path cwd, List<String> command, Path scratch) throws IOException, InterruptedException {
        Path out = scratch.resolve("out.txt"), err = scratch.resolve("err.txt");
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return p.waitFor();
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

    static String lit(Path p) {
        return "'" + p.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    /** Whether two CSV answers hold the same values: numbers compared as numbers ({@code 313358642.0} = {@code 3.13358642E8}). */
    private static boolean sameAnswer(String a, String b) {
        List<String> x = a.trim().lines().toList(), y = b.trim().lines().toList();
        if (x.size() != y.size()) return false;
        for (int i = 0; i < x.size(); i++) {
            String[] f = x.get(i).split(",", -1), g = y.get(i).split(",", -1);
            if (f.length != g.length) return false;
            for (int j = 0; j < f.length; j++) {
                if (f[j].equals(g[j])) continue;
                try {
                    if (Double.parseDouble(f[j]) != Double.parseDouble(g[j])) return false;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String head(String s) {
        return s.lines().limit(5).reduce("", (a, b) -> a + b + "\n");
    }
}
