package dev.fdl.bench;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.DataFileDigests;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.workingcopy.Commit;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.LocalStore;
import dev.fdl.trust.Sealing;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The cost of digests (docs/signing.md): an import of a generated N-row Parquet source followed
 * by its commit, once with digests (each data file hashed by its upload's thread, the manifest
 * made at commit's step 5a from the working copy's book) and once without (no book, no seal), in
 * the same run, alternating, each in a fresh repository and working copy. Reports the process CPU
 * time (all threads, DuckDB's included) of import plus commit and of the commit alone, medians of
 * the runs, and their ratios; target: at most 1.1x at 10M rows.
 *
 * <p>Run with {@code MAVEN_OPTS=-XX:+UseSerialGC mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.DigestsCommitBench -Dexec.args="10000000 3"} (rows, runs).
 */
public final class DigestsCommitBench {
    private DigestsCommitBench() {}

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path tmp = Files.createTempDirectory("fdl-digestsbench-");
        Path src = SigningBench.source(tmp, rows);
        long[][] on = new long[2][runs], off = new long[2][runs];
        for (int i = 0; i < runs; i++) {
            for (boolean digests : i % 2 == 0 ? new boolean[]{true, false} : new boolean[]{false, true}) {
                long[] r = once(tmp.resolve((digests ? "on-" : "off-") + i), src, digests);
                (digests ? on : off)[0][i] = r[0];
                (digests ? on : off)[1][i] = r[1];
            }
        }
        double allOn = median(on[0]) / 1e9, allOff = median(off[0]) / 1e9, cOn = median(on[1]) / 1e9, cOff = median(off[1]) / 1e9;
        System.out.printf("%,d rows: import + commit CPU %.2f s with digests, %.2f s without: %.3fx; commit alone %.2f s vs %.2f s: %.3fx%n",
                rows, allOn, allOff, allOn / allOff, cOn, cOff, cOn / cOff);
        System.exit(0);
    }

    /** {import + commit CPU, commit CPU} in nanoseconds, in a fresh repository under {@code dir}, deleted afterwards. */
    private static long[] once(Path dir, Path src, boolean digests) throws Exception {
        Files.createDirectories(dir);
        Path wcDir = Cli.newWorkingCopy(dir);
        Repository repo = Repository.open(new LocalStore(dir.resolve("repo")));
        WorkingCopy wc = WorkingCopy.require(wcDir);
        ImportRequest request = ImportRequest.of(wc.catalog(), repo.store(), repo.dataDir(), src, "t", ImportMode.REPLACE);
        long t0 = cpu();
        new Importer(DuckDbPool.shared()).importFile(digests ? request : request.withDigests(DataFileDigests.NONE));
        long t1 = cpu();
        Commit.Options options = new Commit.Options(false, false, Commit.PreCommit.NONE,
                digests ? new Sealing(null) : Commit.Seal.NONE, Commit.VersionFiles.NONE);
        Commit.run(repo, wc, "bench", new VersionInfo.Author("bench", null), Clock.systemUTC(), ProgressListener.NONE, options);
        long t2 = cpu();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        return new long[]{t2 - t0, t2 - t1};
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
