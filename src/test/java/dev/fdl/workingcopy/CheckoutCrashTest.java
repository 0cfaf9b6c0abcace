package dev.fdl.workingcopy;

import dev.fdl.cli.Main;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.TableInfo;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.repo.WorkingCatalogEdits;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Checkout switches the working catalog and the state together: a crash at every step
 * of checkout, {@code checkout --force}, {@code checkout -b} and a first checkout leaves the old
 * working copy or the new one, never one branch's catalog with another's state, and the
 * {@code status} and {@code commit} that follow publish only onto the branch the catalog came from.
 *
 * <p>The repository: {@code main} at a version with table {@code on_main}; {@code dev}, branched
 * from it, at a version that adds {@code on_dev}. A crash is an {@link Error} thrown at a step, so
 * nothing cleans up after it, as after a killed process.
 */
class CheckoutCrashTest {
    @TempDir
    static Path template;
    static String mainVersion, devVersion;

    @TempDir
    Path dir;

    static final RefName MAIN = new RefName("main");

    /** Stands for the process dying at a step. */
    static final class Crash extends Error {
        Crash(String step) {
            super("crash at " + step);
        }
    }

    enum Scenario {
        /** {@code fdl checkout dev} in a working copy on main. */
        SWITCH,
        /** {@code fdl checkout --force dev} with a snapshot not yet committed. */
        FORCE,
        /** {@code fdl checkout -b feature}: the working catalog stays, the branch changes. */
        NEW_BRANCH,
        /** {@code fdl checkout -b feature dev}: a new branch starting at another version. */
        NEW_BRANCH_AT,
        /** {@code fdl checkout --repo … dev} in a folder that is no working copy yet. */
        FIRST
    }

    @BeforeAll
    static void repository() throws Exception {
        try (ObjectStore store = new LocalStore(template.resolve("repo"))) {
            Repository repo = Repository.init(store, MAIN);
            WorkingCopy wc = WorkingCopy.create(template.resolve("wc"));
            Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, null, null, false, ProgressListener.NONE);
            WorkingCatalogEdits.addTable(wc.catalog(), store, repo.dataDir(), "on_main", 3);
            mainVersion = commit(repo, wc).version().id();
            Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, null, "dev", false, ProgressListener.NONE);
            WorkingCatalogEdits.addTable(wc.catalog(), store, repo.dataDir(), "on_dev", 3);
            devVersion = commit(repo, wc).version().id();
        }
    }

    private static Commit.CommitResult commit(Repository repo, WorkingCopy wc) {
        return Commit.run(repo, wc, "commit", CommitProtocolContract.BOB, Clock.systemUTC(), ProgressListener.NONE);
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void aCrashAtAnyStepLeavesTheOldWorkingCopyOrTheNewOneAndCommitsOnlyWhereTheCatalogCameFrom(Scenario scenario) throws Exception {
        List<String> steps = new ArrayList<>();
        run(scenario, dir.resolve("recorded"), steps::add);
        assertThat(steps).as("steps of " + scenario).isNotEmpty().contains("state-staged");

        for (String step : steps) {
            Path caseDir = dir.resolve(step);
            Optional<WorkingCopy> after = run(scenario, caseDir, reached -> {
                if (reached.equals(step)) throw new Crash(step);
            });
            String what = scenario + ", crash at " + step;
            try (ObjectStore store = new LocalStore(caseDir.resolve("repo"))) {
                Repository repo = Repository.open(store);
                WorkingCopy wc = after.orElse(null);
                if (wc == null) { // a first checkout that did not get to its state: no working copy; try again
                    assertThat(WorkingCopy.find(caseDir.resolve("wc"))).as(what).isEmpty();
                    wc = WorkingCopy.create(caseDir.resolve("wc"));
                    Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, "dev", null, false, ProgressListener.NONE);
                    assertThat(catalogFiles(wc)).as(what + ": the retry leaves one catalog").hasSize(1);
                }
                assertConsistent(repo, wc, scenario, what);
                assertThat(Main.run("-C", wc.dir().toString(), "status")).as(what + ": status").isZero();
                commitPublishesOntoItsOwnBranch(repo, store, wc, what);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void aCheckoutThatFailsLeavesTheWorkingCopyAsItWasAndNoNewCatalogBehind() throws Exception {
        Path caseDir = dir.resolve("failing");
        copy(template.resolve("repo"), caseDir.resolve("repo"));
        try (ObjectStore store = new LocalStore(caseDir.resolve("repo"))) {
            Repository repo = Repository.open(store);
            WorkingCopy wc = WorkingCopy.create(caseDir.resolve("wc"));
            Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, "main", null, false, ProgressListener.NONE);
            WorkingCopy.State before = wc.state();
            CatalogSource broken = (r, v) -> {
                throw new dev.fdl.FdlException("the catalog of version " + v.id() + " does not match");
            };

            assertThatThrownBy(() -> Checkout.run(repo, broken, wc, "dev", null, false, ProgressListener.NONE))
                    .hasMessageContaining("does not match");

            assertThat(wc.state()).isEqualTo(before);
            assertThat(catalogFiles(wc)).containsExactly(before.catalog());
        }
    }

    /** Sets up {@code caseDir} (a copy of the repository, a working copy on main unless FIRST) and runs the scenario's checkout. */
    private Optional<WorkingCopy> run(Scenario scenario, Path caseDir, WorkingCopy.Steps steps) throws Exception {
        copy(template.resolve("repo"), caseDir.resolve("repo"));
        try (ObjectStore store = new LocalStore(caseDir.resolve("repo"))) {
            Repository repo = Repository.open(store);
            WorkingCopy wc = WorkingCopy.create(caseDir.resolve("wc"));
            if (scenario != Scenario.FIRST)
                Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, "main", null, false, ProgressListener.NONE);
            if (scenario == Scenario.FORCE)
                WorkingCatalogEdits.addTable(wc.catalog(), store, repo.dataDir(), "not_committed", 2);
            try {
                switch (scenario) {
                    case SWITCH, FIRST -> Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, new Checkout.Request("dev", null, false, null), ProgressListener.NONE, steps);
                    case FORCE -> Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, new Checkout.Request("dev", null, true, null), ProgressListener.NONE, steps);
                    case NEW_BRANCH -> Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, new Checkout.Request(null, "feature", false, null), ProgressListener.NONE, steps);
                    case NEW_BRANCH_AT -> Checkout.run(repo, CommitProtocolContract.CATALOGS, wc, new Checkout.Request("dev", "feature", false, null), ProgressListener.NONE, steps);
                }
            } catch (Crash crash) {
                // the process died here
            }
        }
        return WorkingCopy.find(caseDir.resolve("wc"));
    }

    /**
     * The state names a catalog whose content is the base version's (at the base snapshot and at
     * its newest: dev's catalog read at main's snapshot looks like main's, so both are checked),
     * plus only the uncommitted table of the FORCE scenario while the state is still main's, and
     * the ETag of its branch.
     */
    private static void assertConsistent(Repository repo, WorkingCopy wc, Scenario scenario, String what) {
        WorkingCopy.State st = wc.state();
        assertThat(st.baseVersion()).as(what).isIn(mainVersion, devVersion);
        Set<String> base = tables(CommitProtocolContract.CATALOGS.versionCatalog(repo, repo.readVersion(st.baseVersion()).orElseThrow()), null);
        assertThat(tables(wc.catalog(), st.baseSnapshot())).as(what + ": the catalog is the base version's").isEqualTo(base);
        Set<String> expectedNewest = new TreeSet<>(base);
        if (scenario == Scenario.FORCE && st.baseVersion().equals(mainVersion)) expectedNewest.add("not_committed");
        assertThat(tables(wc.catalog(), null)).as(what + ": the catalog holds the base version and no other branch's snapshots")
                .isEqualTo(expectedNewest);
        Optional<RefValue> ref = repo.readBranch(new RefName(st.branch()));
        if (st.refEtag() == null) {
            assertThat(ref).as(what + ": a branch the first commit creates").isEmpty();
        } else {
            assertThat(ref.orElseThrow().etag()).as(what + ": the ETag is the branch's").isEqualTo(st.refEtag());
            assertThat(ref.get().versionId()).as(what).isEqualTo(st.baseVersion());
        }
    }

    /** A commit after the crash moves only the state's branch, to a version whose catalog is the working catalog's. */
    private static void commitPublishesOntoItsOwnBranch(Repository repo, ObjectStore store, WorkingCopy wc, String what) throws Exception {
        WorkingCopy.State st = wc.state();
        Map<String, String> refsBefore = refs(repo);
        WorkingCatalogEdits.addTable(wc.catalog(), store, repo.dataDir(), "after_crash", 2);
        Set<String> working = tables(wc.catalog(), null);

        VersionInfo v = commit(repo, wc).version();

        assertThat(v.parents()).as(what).containsExactly(st.baseVersion());
        assertThat(tables(CommitProtocolContract.CATALOGS.versionCatalog(repo, v), null)).as(what).isEqualTo(working);
        Map<String, String> expected = new java.util.TreeMap<>(refsBefore);
        expected.put(RepoLayout.BRANCHES + st.branch(), v.id());
        assertThat(refs(repo)).as(what + ": only the catalog's own branch moved").isEqualTo(expected);
    }

    private static Map<String, String> refs(Repository repo) {
        return repo.listRefs().stream().collect(Collectors.toMap(RefValue::key, RefValue::versionId, (a, b) -> a, java.util.TreeMap::new));
    }

    /** The table names visible at {@code snapshot} (null: the newest). */
    private static Set<String> tables(Path catalog, Long snapshot) {
        try (CatalogInspector c = CatalogInspector.open(catalog)) {
            return c.tables(snapshot == null ? c.lastSnapshotId() : snapshot).stream().map(TableInfo::name)
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static List<String> catalogFiles(WorkingCopy wc) throws IOException {
        try (Stream<Path> s = Files.list(wc.dir().resolve(WorkingCopy.DIR))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("catalog") && n.endsWith(".sqlite")).toList();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }
}
