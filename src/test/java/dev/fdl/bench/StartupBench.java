package dev.fdl.bench;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.EmptyCatalog;

import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.repo.TestVersions;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.LocalStore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Benchmark of start-up (fast to start, like git): {@code fdl log --oneline}, {@code fdl status}
 * and {@code fdl show} on a repository of 100 versions (in a working copy of it), each started
 * through the {@code ./fdl} launcher as a user does, against {@code java -version} measured in the
 * same run; and {@code fdl query} of a version of N rows (default 10,000,000) against DuckDB's own
 * JVM program running the same SQL over the same rows as one Parquet file. Interleaved round by
 * round so that a loaded machine slows all alike. Reports the median wall time and CPU time (user
 * + system of the process, from the shell's {@code times}) of each and the ratios to its
 * reference, and the machine's load average before and after. Targets (issue 42): log, status and
 * show within 2x {@code java -version}'s wall; query within 1.3x the reference's wall and CPU. {@code log --oneline -10} is
 * measured too: log's fixed cost, apart from reading 100 versions.
 *
 * <p>Run: {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.StartupBench [-Dexec.args="15 ./fdl 10000000"]} (arguments: rounds,
 * launcher, rows of the queried version; 0 rows leaves the query out).
 * The first use of a freshly built launcher prepares its class-data archive; the benchmark runs
 * every command once before measuring, so that this is not counted. Before measuring it also prints
 * where the classes each fdl command loads come from (the archive, or what the archive missed).
 */
public final class StartupBench {
    private StartupBench() {}

    /** One run's wall and CPU seconds. */
    record Times(double wall, double cpu) {}

    /**
     * The short commands measured against {@code java -version} (index 0): log, status, show, and {@code log --oneline -10},
     * the fixed cost of log apart from the walk of the bench's 100 versions. The query and its reference follow.
     */
    private static final int SHORT = 5;

    /** The query measured: a grouped aggregate, a few rows out of every row of the version. */
    static final String QUERY = "SELECT d, count(*) AS n, sum(x) AS x FROM t GROUP BY d ORDER BY d";

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        Path launcher = Path.of(args.length > 1 ? args[1] : "fdl").toAbsolutePath();
        long rows = args.length > 2 ? Long.parseLong(args[2].replace("_", "")) : 10_000_000L;
        System.out.println("load average before: " + loadAverage());
        Path dir = Files.createTempDirectory("fdl-startup-bench");
        Path wc = repositoryWithWorkingCopy(dir, 100);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        List<String> names = new ArrayList<>(List.of("java -version", "fdl log --oneline", "fdl status", "fdl show", "fdl log --oneline -10"));
        List<List<String>> commands = new ArrayList<>(List.of(
                List.of(java, "-version"),
                List.of(launcher.toString(), "log", "--oneline"),
                List.of(launcher.toString(), "status"),
                List.of(launcher.toString(), "show"),
                List.of(launcher.toString(), "log", "--oneline", "-10")));
        List<Path> cwds = new ArrayList<>(List.of(wc, wc, wc, wc, wc));
        if (rows > 0) {
            Path parquet = dir.resolve("v.parquet");
            Path qwc = versionOf(dir, launcher, rows, parquet);
            names.addAll(List.of("duckdb jvm query", "fdl query"));
            commands.add(BigBuildBench.refCommand(QUERY.replace("FROM t", "FROM read_parquet(" + BigBuildBench.lit(parquet) + ")")));
            commands.add(List.of(launcher.toString(), "query", "--csv", QUERY));
            cwds.addAll(List.of(dir, qwc));
        }
        for (int c = 0; c < commands.size(); c++) run(commands.get(c), cwds.get(c), true, Map.of()); // builds the jar and the archive when needed
        for (int c = 1; c < 4; c++) System.out.println(classSources(commands.get(c), wc, dir));
        if (rows > 0) System.out.println(classSources(commands.get(SHORT + 1), cwds.get(SHORT + 1), dir));
        double[][] wall = new double[commands.size()][rounds];
        double[][] cpu = new double[commands.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < commands.size(); c++) {
                Times t = run(commands.get(c), cwds.get(c), false, Map.of());
                wall[c][r] = t.wall();
                cpu[c][r] = t.cpu();
            }
        }
        System.out.printf(Locale.ROOT, "%d rounds, medians; load average after: %s%n", rounds, loadAverage());
        for (int c = 0; c < commands.size(); c++) {
            int ref = c < SHORT ? 0 : SHORT;
            double w = median(wall[c]), u = median(cpu[c]), rw = median(wall[ref]), ru = median(cpu[ref]);
            if (c == ref) {
                System.out.printf(Locale.ROOT, "%s: wall %.3f s, cpu %.3f s (reference)%n", names.get(c), w, u);
                continue;
            }
            double target = c < SHORT ? 2.0 : 1.3;
            boolean met = w / rw <= target && (c < SHORT || u / ru <= target);
            System.out.printf(Locale.ROOT, "%s: wall %.3f s (%.2fx), cpu %.3f s (%.2fx) of %s; target %.1fx %s: %s%n", names.get(c), w, w / rw,
                    u, u / ru, names.get(ref), target, c < SHORT ? "wall" : "wall and cpu", met ? "met" : "missed");
        }
    }

    /** The first three fields of /proc/loadavg (1, 5 and 15 minutes), or "unknown". */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * A repository whose branch main holds one version of table {@code t}: {@code rows} rows of
     * (id, d, x), also written to {@code parquet} for the reference; returns its working copy.
     */
    private static Path versionOf(Path dir, Path launcher, long rows, Path parquet) throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); java.sql.Statement s = c.createStatement()) {
            s.execute("COPY (SELECT i AS id, (i % 1000)::INTEGER AS d, ((i * 7919) % 100003) / 8.0 AS x FROM range(" + rows + ") t(i)) TO "
                    + BigBuildBench.lit(parquet) + " (FORMAT parquet)");
        }
        Path repo = dir.resolve("q-repo"), qwc = Files.createDirectories(dir.resolve("q-wc"));
        run(List.of(launcher.toString(), "init", repo.toString()), dir, true, Map.of());
        run(List.of(launcher.toString(), "checkout", "--repo", repo.toString()), qwc, true, Map.of());
        run(List.of(launcher.toString(), "import", parquet.toString(), "--table", "t"), qwc, true, Map.of());
        run(List.of(launcher.toString(), "commit", "-m", "v1"), qwc, true, Map.of());
        return qwc;
    }

    /**
     * A repository of {@code versions} linear versions on branch main (every tenth tagged, for
     * log's decorations) and a working copy of its newest version with a real SQLite working
     * catalog; returns the working copy's folder.
     */
    public static Path repositoryWithWorkingCopy(Path dir, int versions) throws IOException {
        LocalStore store = new LocalStore(dir.resolve("repo"));
        Repository repo = Repository.init(store, new RefName("main"));
        String last = null;
        for (int i = 1; i <= versions; i++) {
            last = TestVersions.addVersion(store, last == null ? List.of() : List.of(last), i, "build " + i + "\n\nmore text");
            if (i % 10 == 0) store.put("refs/tags/v" + i, Repository.refBytes(last));
        }
        TestVersions.setBranch(store, "main", last);
        String etag = store.head("refs/heads/main").orElseThrow().etag();
        Path wcDir = dir.resolve("wc");
        WorkingCopy wc = WorkingCopy.create(wcDir);
        Path catalog = wcDir.resolve(WorkingCopy.DIR).resolve("catalog.sqlite");
        Files.createDirectories(catalog.getParent());
        EmptyCatalog.create(catalog, CatalogKind.SQLITE, repo.dataLocation());
        wc.save(new WorkingCopy.State(store.root(), repo.config().id(), "main", last, etag, 0, "catalog.sqlite", Map.of()));
        return wcDir;
    }

    private static final Pattern TIMES = Pattern.compile("(\\d+)m([\\d.]+)s\\s+(\\d+)m([\\d.]+)s");

    /**
     * Where the classes {@code cmd} loads come from, in one line: how many, how many from the
     * launcher's class-data archive, and the sources of the others. A class read from a jar or a
     * folder ({@code file:}) is parsed and verified at every start, which the archive is there to avoid.
     */
    private static String classSources(List<String> cmd, Path cwd, Path dir) throws IOException, InterruptedException {
        Path log = dir.resolve("classes.log");
        run(cmd, cwd, true, Map.of("FDL_JAVA_OPTS", "-Xlog:class+load=info:file=" + log));
        Map<String, Integer> outside = new java.util.TreeMap<>();
        int all = 0, shared = 0;
        for (String line : Files.readAllLines(log)) {
            int at = line.indexOf(" source: ");
            if (at < 0) continue;
            all++;
            String source = line.substring(at + " source: ".length());
            if (source.equals("shared objects file")) shared++;
            else outside.merge(source, 1, Integer::sum);
        }
        return String.format(Locale.ROOT, "%s: %d classes loaded, %d from the archive; others by source: %s", String.join(" ", cmd.subList(1, cmd.size())),
                all, shared, outside);
    }

    /** Runs {@code cmd} in {@code cwd} under {@code sh}, whose {@code times} gives the child's CPU time. */
    static Times run(List<String> cmd, Path cwd, boolean warmUp, Map<String, String> env) throws IOException, InterruptedException {
        List<String> sh = new ArrayList<>(List.of("sh", "-c", "\"$@\" >/dev/null 2>&1; s=$?; times >&2; exit $s", "sh"));
        sh.addAll(cmd);
        ProcessBuilder pb = new ProcessBuilder(sh).directory(cwd.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        double wall = (System.nanoTime() - t0) / 1e9;
        if (exit != 0) throw new IllegalStateException(String.join(" ", cmd) + " exited with " + exit + (warmUp ? "" : " while measured"));
        // times prints the shell's own times, then its children's: the second line is the command's
        Matcher m = TIMES.matcher(err.lines().reduce((a, b) -> b).orElse(""));
        if (!m.find()) throw new IllegalStateException("cannot read the CPU time from: " + err);
        double cpu = Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2))
                + Integer.parseInt(m.group(3)) * 60 + Double.parseDouble(m.group(4));
        return new Times(wall, cpu);
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
