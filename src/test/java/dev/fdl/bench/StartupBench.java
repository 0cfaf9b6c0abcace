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
 * Benchmark of start-up (fast to start, like git): {@code fdl log --oneline} on a
 * repository of 100 versions and {@code fdl status} in a working copy of it, each started through
 * the {@code ./fdl} launcher as a user does, against {@code java -version} measured in the same
 * run, interleaved round by round so that a loaded machine slows all three alike. Reports the
 * median wall time and CPU time (user + system of the process, from the shell's {@code times}) of
 * each and the ratios to {@code java -version}. Targets: log within 2.5x, status within 3x, wall.
 *
 * <p>Run: {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.StartupBench [-Dexec.args="15 ./fdl"]} (arguments: rounds, launcher).
 * The first use of a freshly built launcher prepares its class-data archive; the benchmark runs
 * every command once before measuring, so that this is not counted. Before measuring it also prints
 * where the classes each fdl command loads come from (the archive, or what the archive missed).
 */
public final class StartupBench {
    private StartupBench() {}

    /** One run's wall and CPU seconds. */
    record Times(double wall, double cpu) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        Path launcher = Path.of(args.length > 1 ? args[1] : "fdl").toAbsolutePath();
        Path dir = Files.createTempDirectory("fdl-startup-bench");
        Path wc = repositoryWithWorkingCopy(dir, 100);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        List<List<String>> commands = List.of(
                List.of(java, "-version"),
                List.of(launcher.toString(), "log", "--oneline"),
                List.of(launcher.toString(), "status"));
        for (List<String> c : commands) run(c, wc, true, Map.of()); // builds the jar and the archive when needed
        for (List<String> c : commands.subList(1, commands.size())) System.out.println(classSources(c, wc, dir));
        double[][] wall = new double[commands.size()][rounds];
        double[][] cpu = new double[commands.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < commands.size(); c++) {
                Times t = run(commands.get(c), wc, false, Map.of());
                wall[c][r] = t.wall();
                cpu[c][r] = t.cpu();
            }
        }
        String[] names = {"java -version", "fdl log --oneline", "fdl status"};
        double[] targets = {0, 2.5, 3.0};
        double refWall = median(wall[0]), refCpu = median(cpu[0]);
        System.out.printf(Locale.ROOT, "%d rounds, medians; %s: wall %.3f s, cpu %.3f s%n", rounds, names[0], refWall, refCpu);
        for (int c = 1; c < commands.size(); c++) {
            double w = median(wall[c]), u = median(cpu[c]);
            System.out.printf(Locale.ROOT, "%s: wall %.3f s (%.2fx, target %.1fx: %s), cpu %.3f s (%.2fx)%n", names[c], w, w / refWall,
                    targets[c], w / refWall <= targets[c] ? "met" : "missed", u, u / refCpu);
        }
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
