package dev.fdl.bench;

import dev.fdl.repo.RefName;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.Repository;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 16's site target: {@code fdl site} on a repository of 1,000 versions against {@code fdl
 * log} over the same versions (target: under 2x), the first run (no site yet) and a re-run that
 * writes nothing, measured at two levels in the same run:
 * <ol>
 *   <li>in process, warm: {@link Site#write} against {@code Repository.log(head, -1)} in this JVM,
 *       wall and process CPU (every thread: the site reads and writes 8 objects at a time), with
 *       {@code Files.write} of the same pages into an empty folder (one thread) as the file
 *       system's floor;</li>
 *   <li>the commands a user runs: {@code ./fdl site --no-stat} and {@code ./fdl log} (output to
 *       /dev/null), each a fresh process through the project's launcher, wall and the child's CPU
 *       (user + system, from the shell's {@code times}, as {@link StartupBench}).</li>
 * </ol>
 * Both without catalogs (the fixture's versions have none that DuckDB reads): version pages leave
 * out the change over the parent, whose reference would be {@code fdl log --stat}. Medians of the
 * rounds, after one warm-up round each (which also builds the launcher's jar and archive).
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.SiteBench -Dexec.args="1000 7 5 ./fdl"
 * </pre>
 * Arguments: versions (1,000), in-process rounds (7; 0: skip), command rounds (5; 0: skip), launcher ({@code ./fdl}).
 */
public final class SiteBench {
    private SiteBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("previews")) {
            previews(args.length > 1 ? Integer.parseInt(args[1]) : 1000, args.length > 2 ? Integer.parseInt(args[2]) : 1,
                    Path.of(args.length > 3 ? args[3] : "fdl").toAbsolutePath());
            return;
        }
        int versions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int commandRounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path launcher = Path.of(args.length > 3 ? args[3] : "fdl").toAbsolutePath();
        Path dir = Files.createTempDirectory("fdl-site-bench");
        try {
            RepoFixture fx = RepoFixture.create(dir.resolve("site"));
            for (int i = 0; i < versions; i++) fx.commit("main", List.of("f" + i + ".parquet"));
            fx.tag("first", fx.repo.log(fx.repo.readBranch(new RefName("main")).orElseThrow().versionId(), -1).get(versions - 1).version().id());
            if (rounds > 0) inProcess(fx, dir, rounds);
            if (commandRounds > 0) commands(fx.root, launcher, commandRounds);
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Level 1: {@link Site#write} against {@code Repository.log} in this JVM, warm. */
    static void inProcess(RepoFixture fx, Path dir, int rounds) throws IOException {
        Repository repo = Repository.open(fx.store);
        String head = repo.readBranch(new RefName("main")).orElseThrow().versionId();
        List<Double> first = new ArrayList<>(), again = new ArrayList<>(), firstCpu = new ArrayList<>(), againCpu = new ArrayList<>(), files = new ArrayList<>();
        List<Double> logS = new ArrayList<>(), logCpuS = new ArrayList<>(), firstS = new ArrayList<>(), firstCpuS = new ArrayList<>(), againS = new ArrayList<>(),
                againCpuS = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            long t0 = System.nanoTime(), c0 = processCpu();
            int n = repo.log(head, -1).size();
            long log = System.nanoTime() - t0, logCpu = processCpu() - c0;
            deleteSite(fx.root);
            t0 = System.nanoTime();
            c0 = processCpu();
            Site.SiteResult r1 = Site.write(repo, SiteOptions.defaults());
            long s1 = System.nanoTime() - t0, s1Cpu = processCpu() - c0;
            t0 = System.nanoTime();
            c0 = processCpu();
            Site.SiteResult r2 = Site.write(repo, SiteOptions.defaults());
            long s2 = System.nanoTime() - t0, s2Cpu = processCpu() - c0;
            // what creating that many files of those sizes costs on this file system, without fdl:
            // Files.write of the pages' bytes into an empty folder, one thread
            List<Path> pages;
            try (var walk = Files.walk(fx.root.resolve("site"))) {
                pages = walk.filter(Files::isRegularFile).toList();
            }
            List<byte[]> contents = new ArrayList<>();
            for (Path p : pages) contents.add(Files.readAllBytes(p));
            Path plain = Files.createTempDirectory(dir, "plain");
            t0 = System.nanoTime();
            for (int i = 0; i < contents.size(); i++) Files.write(plain.resolve(i + ".html"), contents.get(i));
            long write = System.nanoTime() - t0;
            if (round > 0) {
                first.add((double) s1 / log);
                again.add((double) s2 / log);
                firstCpu.add((double) s1Cpu / logCpu);
                againCpu.add((double) s2Cpu / logCpu);
                files.add((double) write / log);
                logS.add(log / 1e9);
                logCpuS.add(logCpu / 1e9);
                firstS.add(s1 / 1e9);
                firstCpuS.add(s1Cpu / 1e9);
                againS.add(s2 / 1e9);
                againCpuS.add(s2Cpu / 1e9);
            }
            System.out.printf(Locale.ROOT, "in process, round %d: %d versions: log %.3f s (cpu %.3f s); site first run %.3f s (cpu %.3f s; %d pages written,"
                            + " wall ratio %.2f, cpu ratio %.2f), re-run %.3f s (cpu %.3f s; %d written, wall ratio %.2f, cpu ratio %.2f);"
                            + " Files.write of the same %d pages %.3f s (%.2f x log)%n",
                    round, n, log / 1e9, logCpu / 1e9, s1 / 1e9, s1Cpu / 1e9, r1.written(), (double) s1 / log, (double) s1Cpu / logCpu,
                    s2 / 1e9, s2Cpu / 1e9, r2.written(), (double) s2 / log, (double) s2Cpu / logCpu, contents.size(), write / 1e9, (double) write / log);
        }
        System.out.printf(Locale.ROOT, "in process: median ratios to log (target < 2): first run wall %.2f, cpu %.2f; re-run wall %.2f, cpu %.2f;"
                        + " floor: Files.write of the same pages, wall %.2f x log; medians in seconds: log %.3f (cpu %.3f), first run %.3f (cpu %.3f),"
                        + " re-run %.3f (cpu %.3f); load %s%n",
                median(first), median(firstCpu), median(again), median(againCpu), median(files), median(logS), median(logCpuS), median(firstS),
                median(firstCpuS), median(againS), median(againCpuS), load());
    }

    /**
     * Level 2: the commands as a user runs them, each a fresh process through the launcher,
     * interleaved round by round (log, site's first run, site's re-run) so that a loaded machine
     * slows them alike.
     */
    static void commands(Path root, Path launcher, int rounds) throws IOException, InterruptedException {
        List<String> log = List.of(launcher.toString(), "log", "--repo", root.toString());
        List<String> site = List.of(launcher.toString(), "site", "--no-stat", "--repo", root.toString());
        Path cwd = root.getParent();
        double[] logWall = new double[rounds], logCpu = new double[rounds], firstWall = new double[rounds], firstCpu = new double[rounds],
                againWall = new double[rounds], againCpu = new double[rounds];
        for (int round = -1; round < rounds; round++) {
            StartupBench.Times l = StartupBench.run(log, cwd, round < 0, Map.of());
            deleteSite(root);
            StartupBench.Times f = StartupBench.run(site, cwd, round < 0, Map.of());
            StartupBench.Times a = StartupBench.run(site, cwd, round < 0, Map.of());
            System.out.printf(Locale.ROOT, "commands, round %d: fdl log %.3f s (cpu %.3f s); fdl site first run %.3f s (cpu %.3f s: %.2fx, %.2fx),"
                            + " re-run %.3f s (cpu %.3f s: %.2fx, %.2fx)%n", round, l.wall(), l.cpu(), f.wall(), f.cpu(), f.wall() / l.wall(),
                    f.cpu() / l.cpu(), a.wall(), a.cpu(), a.wall() / l.wall(), a.cpu() / l.cpu());
            if (round < 0) continue; // warm-up: the launcher builds its jar and archive on first use
            logWall[round] = l.wall();
            logCpu[round] = l.cpu();
            firstWall[round] = f.wall();
            firstCpu[round] = f.cpu();
            againWall[round] = a.wall();
            againCpu[round] = a.cpu();
        }
        double lw = StartupBench.median(logWall), lc = StartupBench.median(logCpu);
        System.out.printf(Locale.ROOT, "commands: %d rounds, medians: fdl log %.3f s (cpu %.3f s); fdl site first run %.3f s (cpu %.3f s),"
                        + " ratios to log (target < 2): wall %.2f, cpu %.2f; re-run %.3f s (cpu %.3f s), ratios wall %.2f, cpu %.2f; load %s%n",
                rounds, lw, lc, StartupBench.median(firstWall), StartupBench.median(firstCpu), StartupBench.median(firstWall) / lw,
                StartupBench.median(firstCpu) / lc, StartupBench.median(againWall), StartupBench.median(againCpu),
                StartupBench.median(againWall) / lw, StartupBench.median(againCpu) / lc, load());
    }

    /**
     * Issue 31: {@code fdl site} with the change over the parent, previews and column statistics
     * (every live version's catalog and data read) against {@code fdl log} and {@code fdl log --stat}
     * over the same versions, as commands through the launcher, each with an empty catalog cache
     * ({@code FDL_CACHE_DIR}). The repository: one real version (a 2,000-row table of 4 columns
     * imported and committed through fdl), then {@code versions - 1} more whose catalog,
     * dataset.json and data files are the first's (each version.json names its own id, parent and
     * seq): every version page reads a real catalog and real Parquet files.
     * <pre>
     * SiteBench previews [versions] [rounds] [launcher]   (1,000, 1, ./fdl)
     * </pre>
     */
    static void previews(int versions, int rounds, Path launcher) throws Exception {
        Path dir = Files.createTempDirectory("fdl-site-previews");
        try {
            Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
            StringBuilder csv = new StringBuilder("id,name,population,updated\n");
            for (int i = 0; i < 2000; i++) csv.append(i).append(",town ").append(i).append(',').append(i * 37 % 100_000).append(",2026-01-").append(1 + i % 28).append('\n');
            Path file = Files.writeString(dir.resolve("towns.csv"), csv);
            dev.fdl.cli.Cli.ok(dir, "init", root.toString());
            dev.fdl.cli.Cli.ok(wc, "checkout", "--repo", root.toString());
            dev.fdl.cli.Cli.ok(wc, "import", file.toString(), "--table", "towns");
            dev.fdl.cli.Cli.ok(wc, "commit", "-m", "version 0");
            String first = Files.readString(root.resolve("refs/heads/main")).trim();
            com.fasterxml.jackson.databind.node.ObjectNode v0 = (com.fasterxml.jackson.databind.node.ObjectNode)
                    dev.fdl.util.Json.MAPPER.readTree(root.resolve("versions/" + first + "/version.json").toFile());
            String parent = first;
            for (int i = 1; i < versions; i++) {
                String id = dev.fdl.util.VersionIds.next();
                Path folder = Files.createDirectories(root.resolve("versions/" + id));
                try (var files = Files.list(root.resolve("versions/" + first))) {
                    for (Path f : files.toList()) if (!f.getFileName().toString().equals("version.json")) Files.copy(f, folder.resolve(f.getFileName()));
                }
                com.fasterxml.jackson.databind.node.ObjectNode v = v0.deepCopy();
                v.put("id", id);
                v.put("seq", v0.path("seq").asLong() + i);
                v.putArray("parents").add(parent);
                v.put("message", "version " + i);
                Files.write(folder.resolve("version.json"), dev.fdl.util.Json.bytes(v));
                parent = id;
            }
            Files.writeString(root.resolve("refs/heads/main"), parent + "\n");
            Path cache = dir.resolve("cache");
            Map<String, String> env = Map.of("FDL_CACHE_DIR", cache.toString());
            List<String> log = List.of(launcher.toString(), "log", "--repo", root.toString());
            List<String> logStat = List.of(launcher.toString(), "log", "--stat", "--repo", root.toString());
            List<String> site = List.of(launcher.toString(), "site", "--repo", root.toString());
            for (int round = -1; round < rounds; round++) {
                StartupBench.Times l = StartupBench.run(log, dir, round < 0, env);
                deleteFolder(cache);
                StartupBench.Times ls = StartupBench.run(logStat, dir, round < 0, env);
                deleteFolder(cache);
                deleteSite(root);
                StartupBench.Times f = StartupBench.run(site, dir, round < 0, env);
                StartupBench.Times a = StartupBench.run(site, dir, round < 0, env);
                System.out.printf(Locale.ROOT, "previews, %d versions, round %d: fdl log %.2f s (cpu %.2f s); fdl log --stat %.2f s (cpu %.2f s);"
                                + " fdl site (previews, statistics, change over parent) first run %.2f s (cpu %.2f s): %.2fx / %.2fx log's wall / cpu,"
                                + " %.2fx / %.2fx log --stat's; re-run %.2f s (cpu %.2f s): %.2fx / %.2fx log's; load %s%n",
                        versions, round, l.wall(), l.cpu(), ls.wall(), ls.cpu(), f.wall(), f.cpu(), f.wall() / l.wall(), f.cpu() / l.cpu(),
                        f.wall() / ls.wall(), f.cpu() / ls.cpu(), a.wall(), a.cpu(), a.wall() / l.wall(), a.cpu() / l.cpu(), load());
                if (round < 0) {
                    String page = Files.readString(root.resolve("site/versions/" + parent + ".html"));
                    if (!page.contains("class=\"preview\"") || !page.contains("class=\"stats\""))
                        throw new IllegalStateException("the version page has no preview or statistics");
                }
            }
        } finally {
            deleteFolder(dir);
        }
    }

    private static void deleteFolder(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var walk = Files.walk(p)) {
            walk.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        }
    }

    private static void deleteSite(Path root) throws IOException {
        if (Files.exists(root.resolve("site"))) {
            try (var walk = Files.walk(root.resolve("site"))) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.deleteIfExists(root.resolve("index.html"));
    }

    /** CPU time of the whole process (every thread: the site writes 8 pages at a time), nanoseconds. */
    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        return s.get(s.size() / 2);
    }
}
