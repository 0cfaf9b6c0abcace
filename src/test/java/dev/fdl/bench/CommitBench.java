package dev.fdl.bench;

import dev.fdl.repo.RepoLayout;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.rewrite.DataPath;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.workingcopy.Commit;
import dev.fdl.repo.FormatVersion;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.util.VersionIds;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ForwardingStore;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Benchmark of commit overhead: on the large generated catalog of
 * {@link CatalogConversionBench} (S snapshots, 10·S data files, 100·S file column stats rows,
 * inlined data), times a whole commit of a one-table change (the parent holds every snapshot but
 * the newest): conversion, history truncation of the parent's snapshots, the compacting copy, data
 * path, dataset.json, version.json, the existence check of every named file against a listing
 * (made up: the files were never written) and the uploads into the local folder; reports it as a
 * ratio to the SQLite → DuckDB conversion alone, wall and process CPU, measured in the same run
 * (median of 3 each; target under 1.5x at 1,000 snapshots).
 *
 * <p>Run: {@code MAVEN_OPTS=-XX:+UseSerialGC mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.CommitBench [-Dexec.args="1000"]} (argument: snapshots; the serial
 * collector as {@code ./fdl} runs commit: {@link LauncherJvm}).
 */
public final class CommitBench {
    private CommitBench() {}

    public static void main(String[] args) throws Exception {
        long snapshots = args.length > 0 ? Long.parseLong(args[0]) : 10_000L;
        LauncherJvm.reportCollector("CommitBench");
        Path dir = Files.createTempDirectory("fdl-commit-bench");
        Path source = dir.resolve("source.duckdb");
        CatalogConversionBench.generate(source, snapshots);
        LocalStore local = new LocalStore(dir.resolve("repo"));
        Repository repo = Repository.init(local, new RefName("main"));
        Path wcDir = dir.resolve("wc");
        WorkingCopy wc = WorkingCopy.create(wcDir);
        Path working = wcDir.resolve(WorkingCopy.DIR).resolve("catalog.sqlite"); // named by the state saved below
        Files.createDirectories(working.getParent());
        CatalogConverter.convert(source, working, CatalogKind.SQLITE, ProgressListener.NONE);
        DataPath.set(working, repo.dataLocation());

        // every file the catalog names, as the listing of the data folder will show them
        List<String> keys = new ArrayList<>();
        try (CatalogInspector c = CatalogInspector.open(working)) {
            c.forEachFile(f -> keys.add(repo.dataDir() + f.location().substring(repo.dataLocation().length())));
        }
        // a parent version holding every snapshot but the newest: the commit is of a one-table
        // change (the generated snapshot S adds a data file to one table)
        long parentLast = snapshots - 1;
        String parent = VersionIds.next();
        VersionInfo pv = new VersionInfo(FormatVersion.CURRENT, parent, 1, List.of(), Instant.now(),
                new VersionInfo.Author("bench", null), "parent", new VersionInfo.FileRef("ducklake.duckdb", "duckdb-v1.5.0", 1, "00"),
                new VersionInfo.FileRef("dataset.json", null, 2, dev.fdl.util.Sha256.of("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))), new VersionInfo.DuckLakeInfo("1.0", parentLast, 0, parentLast), Map.of());
        local.put(RepoLayout.versionFile(parent, "dataset.json"), "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        local.put(RepoLayout.versionJson(parent), pv.toBytes());
        String refEtag = local.putIfAbsent("refs/heads/main", Repository.refBytes(parent)).etag();
        WorkingCopy.State state = new WorkingCopy.State(local.root(), repo.config().id(), "main", parent, refEtag, parentLast,
                "catalog.sqlite", Map.of());

        // uploads go to the local folder; only the listing of the data folder is made up (the
        // generated catalog names files that were never written)
        ObjectStore withDataListing = new ForwardingStore(local) {
            @Override
            public Stream<ObjectMeta> list(String prefix) {
                return prefix.equals(repo.dataDir()) ? keys.stream().map(k -> new ObjectMeta(k, 1, null, Instant.now())) : super.list(prefix);
            }
        };
        Repository benchRepo = Repository.open(withDataListing);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        wc.save(state); // the state names the working catalog (wc.catalog() reads it)
        double[] conv = new double[3], commit = new double[3], convCpu = new double[3], commitCpu = new double[3];
        Path target = dir.resolve("converted.duckdb");
        for (int i = 0; i < 3; i++) {
            long c0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            CatalogConverter.convert(wc.catalog(), target, CatalogKind.DUCKDB, ProgressListener.NONE);
            conv[i] = (System.nanoTime() - t0) / 1e9;
            convCpu[i] = (os.getProcessCpuTime() - c0) / 1e9;
            Files.deleteIfExists(target);

            wc.save(state);
            local.put("refs/heads/main", Repository.refBytes(parent));
            long c1 = os.getProcessCpuTime();
            long t1 = System.nanoTime();
            Commit.run(benchRepo, wc, "bench", new VersionInfo.Author("bench", null), Clock.systemUTC(), ProgressListener.NONE);
            commit[i] = (System.nanoTime() - t1) / 1e9;
            commitCpu[i] = (os.getProcessCpuTime() - c1) / 1e9;
        }
        Arrays.sort(conv);
        Arrays.sort(commit);
        Arrays.sort(convCpu);
        Arrays.sort(commitCpu);
        System.out.printf(Locale.ROOT, "snapshots %d, named files %d, one-table change: conversion %.2f s (cpu %.2f s), commit with local"
                        + " uploads %.2f s (cpu %.2f s), ratio wall %.2f, cpu %.2f (target < 1.5)%n",
                snapshots, keys.size(), conv[1], convCpu[1], commit[1], commitCpu[1], commit[1] / conv[1], commitCpu[1] / convCpu[1]);
    }
}
