package dev.fdl.workingcopy;

import dev.fdl.cache.CatalogCache;
import dev.fdl.cli.Cli;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A crash at every step of fdl merge and fdl pull leaves the working copy either as it was (the
 * same state, naming the same unchanged catalog) or merged (the state names the merged catalog,
 * one snapshot more; for a pull, the branch's version with every pending snapshot replayed on
 * top), never half; a merge or pull run afterwards succeeds.
 */
class MergeCrashTest {
    @TempDir Path dir;

    static final class Crash extends RuntimeException {
        Crash(String step) {
            super("crash at " + step);
        }
    }

    static final List<String> MERGE_STEPS = List.of("catalogs-converted", "catalog-written", "catalog-synced", "state-staged", "state-switched");
    static final List<String> PULL_STEPS = List.of("branch-catalog-converted", "catalogs-converted", "catalog-written", "catalog-synced",
            "state-staged", "state-switched");

    Path csv(String name, String content) throws IOException {
        Path p = dir.resolve(name + ".csv");
        Files.writeString(p, content);
        return p;
    }

    @Test
    void aCrashAtEveryStepOfMergeAndPullLeavesTheWorkingCopyAsBeforeOrMerged() throws Exception {
        Path root = dir.resolve("repo");
        Path wcDir = Cli.newWorkingCopy(dir);
        Cli.ok(wcDir, "import", csv("a0", "k,a\n1,1\n").toString(), "--table", "ta", "--mode", "sync", "--key", "k");
        Cli.ok(wcDir, "import", csv("b0", "k,b\n1,1\n").toString(), "--table", "tb", "--mode", "sync", "--key", "k");
        Cli.ok(wcDir, "commit", "-m", "base");
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        Cli.ok(other, "checkout", "--repo", root.toString());
        Cli.ok(other, "import", csv("b1", "k,b\n1,2\n").toString(), "--table", "tb", "--mode", "sync");
        Cli.ok(other, "checkout", "-b", "side");
        Cli.ok(other, "commit", "-m", "side: tb");
        Cli.ok(wcDir, "import", csv("a1", "k,a\n1,2\n").toString(), "--table", "ta", "--mode", "sync");

        WorkingCopy wc = WorkingCopy.require(wcDir);
        Repository repo = Repository.open(new LocalStore(root));
        Merge.Services services = new Merge.Services(new CatalogCache(dir.resolve("cache")), DuckDbPool.shared(), dir.resolve("data-cache"),
                ProgressListener.NONE);
        Path saved = dir.resolve("saved");
        copyTree(wcDir.resolve(".fdl"), saved);

        for (String step : MERGE_STEPS) {
            restore(saved, wcDir.resolve(".fdl"));
            byte[] state = Files.readAllBytes(wcDir.resolve(".fdl/state.json"));
            long newest = newest(wc.catalog());
            assertThatThrownBy(() -> Merge.merge(repo, wc, new Merge.Request("side", false, false, MergeOptions.NONE, null),
                    new VersionInfo.Author("t", null), services, crashAt(step))).isInstanceOf(Crash.class);
            assertBeforeOrMerged(wc, state, newest, step);
            if (wc.state().merging() != null) MergeAbort.abort(wc);
            Merge.MergeOutcome r = Merge.merge(repo, wc, new Merge.Request("side", false, false, MergeOptions.NONE, null),
                    new VersionInfo.Author("t", null), services);
            assertThat(r.kind()).as(step).isEqualTo(Merge.Kind.MERGED);
        }

        // pull: the branch moves under the working copy
        restore(saved, wcDir.resolve(".fdl"));
        Path third = dir.resolve("third");
        Files.createDirectories(third);
        Cli.ok(third, "checkout", "--repo", root.toString());
        Cli.ok(third, "import", csv("b2", "k,b\n1,3\n").toString(), "--table", "tb", "--mode", "sync");
        Cli.ok(third, "commit", "-m", "main: tb");
        Cli.ok(wcDir, "import", csv("a2", "k,a\n1,5\n").toString(), "--table", "ta", "--mode", "sync"); // two pending snapshots to replay
        copyTree(wcDir.resolve(".fdl"), saved);
        for (String step : PULL_STEPS) {
            restore(saved, wcDir.resolve(".fdl"));
            byte[] state = Files.readAllBytes(wcDir.resolve(".fdl/state.json"));
            long newest = newest(wc.catalog());
            assertThatThrownBy(() -> Pull.pull(repo, wc, MergeOptions.NONE, new VersionInfo.Author("t", null), services, crashAt(step)))
                    .isInstanceOf(Crash.class);
            WorkingCopy.State now = wc.state();
            if (Files.readAllBytes(wcDir.resolve(".fdl/state.json")).length == state.length
                    && java.util.Arrays.equals(Files.readAllBytes(wcDir.resolve(".fdl/state.json")), state)) {
                assertThat(newest(wc.catalog())).as(step + ": as before").isEqualTo(newest);
            } else {
                assertThat(now.baseVersion()).as(step + ": pulled").isEqualTo(repo.readBranch(new RefName("main")).orElseThrow().versionId());
                assertThat(newest(wc.catalog())).as(step + ": both pending snapshots replayed").isEqualTo(now.baseSnapshot() + 2);
            }
            Merge.MergeOutcome r = Pull.pull(repo, wc, MergeOptions.NONE, new VersionInfo.Author("t", null), services);
            assertThat(r.kind()).as(step).isIn(Merge.Kind.PULLED, Merge.Kind.UP_TO_DATE);
        }
    }

    private static void assertBeforeOrMerged(WorkingCopy wc, byte[] state, long newest, String step) throws IOException {
        byte[] now = Files.readAllBytes(wc.dir().resolve(".fdl/state.json"));
        if (java.util.Arrays.equals(now, state)) {
            assertThat(newest(wc.catalog())).as(step + ": as before").isEqualTo(newest);
            assertThat(wc.state().merging()).isNull();
        } else {
            assertThat(wc.state().merging()).as(step + ": merged").isNotNull();
            assertThat(newest(wc.catalog())).isEqualTo(newest + 1);
        }
    }

    private static WorkingCopy.Steps crashAt(String step) {
        return s -> {
            if (s.equals(step)) throw new Crash(s);
        };
    }

    private static long newest(Path catalog) {
        try (CatalogInspector c = CatalogInspector.open(catalog)) {
            return c.lastSnapshotId();
        }
    }

    private static void restore(Path saved, Path fdl) throws IOException {
        deleteTree(fdl);
        copyTree(saved, fdl);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        deleteTree(to);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
