package dev.fdl.retention;

import dev.fdl.repo.RepoLayout;
import dev.fdl.cache.CatalogCache;
import dev.fdl.workingcopy.CommitWorker;
import dev.fdl.repo.ExpiredInfo;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionFolder;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.VersionIds;

import dev.fdl.FdlException;
import dev.fdl.store.CountingStore;
import dev.fdl.store.FaultyStore;
import dev.fdl.store.StoreException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GcTest {
    @TempDir Path tmp;
    RepoFixture fx;
    CatalogCache cache;

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
        cache = new CatalogCache(tmp.resolve("cache"));
    }

    Gc gc(Repository repo) {
        return new Gc(repo, cache, RepoFixture.TEXT_CATALOGS, Clock.systemUTC());
    }

    static Gc.Options grace(Duration d) {
        return new Gc.Options(d, false, 4);
    }

    /** v1 (expired) named a, b; v2 (main) names b, c and the delete file c-delete. */
    String[] twoVersions() {
        fx.dataFiles(RepoFixture.OLD, "main/t/a.parquet", "main/t/b.parquet", "main/t/c.parquet",
                "main/t/c-delete.parquet", "main/t/orphan.parquet");
        String v1 = fx.commit("main", List.of("main/t/a.parquet", "main/t/b.parquet"));
        String v2 = fx.commit("main", List.of("main/t/b.parquet", "main/t/c.parquet", "main/t/c-delete.parquet"));
        fx.expire(v1);
        return new String[]{v1, v2};
    }

    @Test
    void deletesOldDataFilesNoLiveCatalogNamesAndKeepsNamedOnes() {
        twoVersions();
        Gc.Report r = gc(fx.repo).run(Gc.Options.defaults());

        assertThat(fx.exists("data/main/t/a.parquet")).isFalse();
        assertThat(fx.exists("data/main/t/orphan.parquet")).isFalse();
        assertThat(fx.exists("data/main/t/b.parquet")).isTrue();
        assertThat(fx.exists("data/main/t/c.parquet")).isTrue();
        assertThat(fx.exists("data/main/t/c-delete.parquet")).isTrue();
        assertThat(r.dataFiles().count()).isEqualTo(2);
        assertThat(r.dataFiles().bytes()).isEqualTo("parquet main/t/a.parquet".length() + "parquet main/t/orphan.parquet".length());
        assertThat(r.liveVersions()).isEqualTo(1);
        assertThat(r.liveNames()).isEqualTo(3);
        assertThat(r.dataListed()).isEqualTo(5);
    }

    @Test
    void keepsUnreferencedFilesYoungerThanTheGracePeriod() {
        twoVersions();
        fx.dataFile("main/t/being-written.parquet", Instant.now().minus(Duration.ofDays(6)));
        Gc.Report r = gc(fx.repo).run(grace(Duration.ofDays(7)));

        assertThat(fx.exists("data/main/t/being-written.parquet")).isTrue();
        assertThat(r.youngUnreferenced().count()).isEqualTo(1);
        Gc.Report r2 = gc(fx.repo).run(grace(Duration.ofDays(5)));
        assertThat(fx.exists("data/main/t/being-written.parquet")).isFalse();
        assertThat(r2.dataFiles().count()).isEqualTo(1);
    }

    /** A commit from v1 that lost the race to v2 (step 9 refused): finished, no ref reaches it. Aged {@code mtime}. */
    String loser(String base, Instant mtime, String... names) {
        String id = fx.version(List.of(base), List.of(names));
        fx.age("versions/" + id + "/", mtime);
        return id;
    }

    List<String> folder(String id) {
        return fx.keys().stream().filter(k -> k.startsWith("versions/" + id + "/")).toList();
    }

    @Test
    void aConflictLoserIsDeletedWithTheDataOnlyItNamesWhileReachableVersionsKeepEverything() {
        fx.dataFiles(RepoFixture.OLD, "shared.parquet", "v1.parquet", "v2.parquet", "loser-only.parquet");
        String v1 = fx.commit("main", List.of("shared.parquet", "v1.parquet"));
        String v2 = fx.commit("main", List.of("shared.parquet", "v2.parquet"));
        String lost = loser(v1, RepoFixture.OLD, "shared.parquet", "loser-only.parquet");
        List<String> v1Keys = folder(v1), v2Keys = folder(v2);
        long lostBytes = fx.store.list("versions/" + lost + "/").mapToLong(dev.fdl.store.ObjectMeta::size).sum();

        Gc.Report r = gc(fx.repo).run(grace(Duration.ZERO));

        assertThat(folder(lost)).isEmpty();
        assertThat(fx.exists("data/loser-only.parquet")).isFalse();
        assertThat(folder(v1)).as("v1 is reached through v2's parents").isEqualTo(v1Keys);
        assertThat(folder(v2)).isEqualTo(v2Keys);
        for (String n : List.of("shared.parquet", "v1.parquet", "v2.parquet")) assertThat(fx.exists("data/" + n)).as(n).isTrue();
        assertThat(r.unreachableVersions()).isEqualTo(new Gc.Tally(1, lostBytes));
        assertThat(r.liveVersions()).isEqualTo(2);
        assertThat(r.dataFiles().count()).isEqualTo(1);
        assertEveryLiveNameExists();
        assertThat(gc(fx.repo).run(grace(Duration.ZERO)).unreachableVersions().count()).isZero();
    }

    @Test
    void aLoserYoungerThanTheGracePeriodIsKeptWithItsFilesLikeACommitBetweenSteps8And9() {
        fx.dataFiles(RepoFixture.OLD, "x.parquet", "y.parquet");
        String v1 = fx.commit("main", List.of("x.parquet"));
        String young = fx.version(List.of(v1), List.of("y.parquet")); // version.json just written, no ref yet
        Gc.Report r = gc(fx.repo).run(grace(Duration.ofDays(1)));
        assertThat(fx.exists(RepoLayout.versionJson(young))).isTrue();
        assertThat(fx.exists("versions/" + young + "/ducklake.duckdb")).isTrue();
        assertThat(fx.exists("data/y.parquet")).isTrue();
        assertThat(r.unreachableVersions().count()).isZero();
        assertThat(r.liveVersions()).isEqualTo(2);
    }

    @Test
    void theHistoryOfADeletedBranchBecomesCollectableExpiredVersionsIncluded() {
        fx.dataFiles(RepoFixture.OLD, "main.parquet", "dev-1.parquet", "dev-2.parquet");
        String m1 = fx.commit("main", List.of("main.parquet"));
        fx.repo.createBranch(new RefName("dev"), m1);
        String d1 = fx.commit("dev", List.of("main.parquet", "dev-1.parquet"));
        String d2 = fx.commit("dev", List.of("main.parquet", "dev-2.parquet"));
        fx.expire(d1);
        List<String> m1Keys = folder(m1);
        gc(fx.repo).run(grace(Duration.ZERO));
        assertThat(folder(d1)).as("reached through dev").isNotEmpty();
        assertThat(fx.exists("data/dev-2.parquet")).isTrue();

        fx.repo.deleteRef(RefValue.Kind.BRANCH, new RefName("dev"));
        fx.age("versions/" + d1 + "/", RepoFixture.OLD);
        fx.age("versions/" + d2 + "/", RepoFixture.OLD);
        Gc.Report r = gc(fx.repo).run(grace(Duration.ZERO));

        assertThat(folder(d1)).isEmpty();
        assertThat(folder(d2)).isEmpty();
        assertThat(fx.exists("data/dev-2.parquet")).isFalse();
        assertThat(folder(m1)).isEqualTo(m1Keys);
        assertThat(fx.exists("data/main.parquet")).isTrue();
        assertThat(r.unreachableVersions().count()).isEqualTo(2);
    }

    @Test
    void aTagCreatedAtALoserAfterGcFirstReadTheRefsKeepsItAndItsFiles() {
        fx.dataFiles(RepoFixture.OLD, "a.parquet", "loser-only.parquet");
        String v1 = fx.commit("main", List.of("a.parquet"));
        fx.commit("main", List.of("a.parquet"));
        String lost = loser(v1, RepoFixture.OLD, "loser-only.parquet");
        List<String> keys = folder(lost);
        CountingStore counting = new CountingStore(fx.store);
        // gc reads the refs, then lists versions/: the tag lands in between, after the first read
        counting.onFirstList("versions/", p -> fx.repo.createTag(new RefName("keep-me"), lost));

        Gc.Report r = gc(Repository.open(counting)).run(grace(Duration.ZERO));

        assertThat(folder(lost)).isEqualTo(keys);
        assertThat(fx.exists("data/loser-only.parquet")).isTrue();
        assertThat(r.unreachableVersions().count()).isZero();
        assertEveryLiveNameExists();
    }

    @Test
    void aTagAtALoserIsRefusedOnceGcHasDeletedIt() {
        fx.dataFiles(RepoFixture.OLD, "a.parquet", "loser-only.parquet");
        String v1 = fx.commit("main", List.of("a.parquet"));
        fx.commit("main", List.of("a.parquet"));
        String lost = loser(v1, RepoFixture.OLD, "loser-only.parquet");
        CountingStore counting = new CountingStore(fx.store);
        AtomicReference<Throwable> refused = new AtomicReference<>();
        counting.onFirstList("data/", p -> {
            try {
                fx.repo.createTag(new RefName("too-late"), lost);
            } catch (FdlException e) {
                refused.set(e);
            }
        });

        gc(Repository.open(counting)).run(grace(Duration.ZERO));

        assertThat(refused.get()).isInstanceOfSatisfying(FdlException.class,
                e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND));
        assertThat(fx.exists("refs/tags/too-late")).isFalse();
        assertThat(folder(lost)).isEmpty();
        assertThat(fx.exists("data/loser-only.parquet")).isFalse();
    }

    @Test
    void removesLeftoversOfInterruptedUploadsOlderThanTheGracePeriodButNotInADryRun() throws Exception {
        fx.commit("main", List.of());
        Path old = fx.root.resolve("data/main/.fdl-tmp-" + java.util.UUID.randomUUID());
        Path young = fx.root.resolve("data/.fdl-tmp-" + java.util.UUID.randomUUID());
        for (Path p : List.of(old, young)) {
            java.nio.file.Files.createDirectories(p.getParent());
            java.nio.file.Files.write(p, new byte[]{1});
        }
        java.nio.file.Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.from(RepoFixture.OLD));

        Gc.Report dry = gc(fx.repo).run(new Gc.Options(Duration.ofDays(1), true, 4));
        assertThat(dry.incompleteUploads()).isZero();
        assertThat(old).exists();

        Gc.Report r = gc(fx.repo).run(grace(Duration.ofDays(1)));
        assertThat(r.incompleteUploads()).isEqualTo(1);
        assertThat(old).doesNotExist();
        assertThat(young).exists();
    }

    @Test
    void resolvesNamesAgainstTheCatalogsOwnDataPathWhenTheRepositoryMoved() {
        fx.dataFiles(RepoFixture.OLD, "main/t/a.parquet", "main/t/gone.parquet");
        Path cat = fx.textCatalog("/somewhere/else/data/", List.of("/somewhere/else/data/main/t/a.parquet"));
        String id = fx.version(List.of(), Instant.now(), cat);
        fx.tag("moved", id);
        gc(fx.repo).run(grace(Duration.ZERO));
        assertThat(fx.exists("data/main/t/a.parquet")).isTrue();
        assertThat(fx.exists("data/main/t/gone.parquet")).isFalse();
    }

    @Test
    void deletesUnfinishedVersionFoldersOnlyWhenOlderThanTheGracePeriod() {
        fx.commit("main", List.of());
        String old = fx.unfinished(fx.textCatalog(List.of()));
        fx.age("versions/" + old + "/", RepoFixture.OLD);
        String young = fx.unfinished(fx.textCatalog(List.of()));

        Gc.Report r = gc(fx.repo).run(Gc.Options.defaults());

        assertThat(fx.keys()).noneMatch(k -> k.startsWith("versions/" + old + "/"));
        assertThat(fx.keys()).anyMatch(k -> k.startsWith("versions/" + young + "/"));
        assertThat(r.unfinishedFolders().count()).isEqualTo(1);
        assertThat(r.unfinishedFolders().bytes()).isPositive();
    }

    @Test
    void deletesLeftoverCatalogsOfExpiredVersionsButKeepsTheirDescription() {
        String v1 = fx.commit("main", List.of());
        fx.commit("main", List.of());
        fx.store.put("versions/" + v1 + "/catalogs/ducklake.sqlite", new byte[]{1, 2, 3});
        fx.store.putIfAbsent(RepoLayout.expiredJson(v1), new ExpiredInfo(Instant.now(), "retention", java.util.Map.of()).toBytes());

        Gc.Report r = gc(fx.repo).run(Gc.Options.defaults());

        assertThat(fx.keys()).filteredOn(k -> k.startsWith("versions/" + v1 + "/"))
                .containsExactly("versions/" + v1 + "/dataset.json", "versions/" + v1 + "/expired.json",
                        "versions/" + v1 + "/version.json");
        assertThat(r.expiredLeftovers().count()).isEqualTo(2);
    }

    @Test
    void dryRunReportsTheSameCountsAndDeletesNothing() {
        String[] v = twoVersions();
        fx.dataFile("main/t/loser-only.parquet", RepoFixture.OLD);
        loser(v[1], RepoFixture.OLD, "main/t/c.parquet", "main/t/loser-only.parquet");
        List<String> before = fx.keys();
        Gc.Report dry = gc(fx.repo).run(new Gc.Options(Duration.ZERO, true, 4));
        assertThat(fx.keys()).isEqualTo(before);
        Gc.Report real = gc(fx.repo).run(grace(Duration.ZERO));
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.dataFiles()).isEqualTo(real.dataFiles());
        assertThat(dry.dataFiles().count()).isEqualTo(3);
        assertThat(dry.unreachableVersions()).isEqualTo(real.unreachableVersions());
        assertThat(dry.unreachableVersions().count()).isEqualTo(1);
    }

    @Test
    void secondRunReadsLiveCatalogsFromTheCacheWithoutGets() {
        twoVersions();
        CountingStore counting = new CountingStore(fx.store);
        Repository repo = Repository.open(counting);
        Gc.Report first = gc(repo).run(Gc.Options.defaults());
        assertThat(first.catalogsDownloaded()).isEqualTo(1);
        assertThat(counting.downloads.get()).isEqualTo(1);

        counting.reset();
        Gc.Report second = gc(repo).run(Gc.Options.defaults());
        assertThat(second.catalogsDownloaded()).isZero();
        assertThat(second.catalogsCached()).isEqualTo(1);
        assertThat(counting.downloads.get()).isZero();
        // refs: one GET per ref; no GET of version.json or catalogs
        assertThat(counting.gets.get()).isEqualTo(1);
    }

    @Test
    void aDamagedCachedFileListIsIgnored() throws Exception {
        twoVersions();
        gc(fx.repo).run(Gc.Options.defaults());
        try (var files = java.nio.file.Files.walk(cache.dir())) {
            List<Path> lists = files.filter(p -> p.getFileName().toString().startsWith("files-v1")).toList();
            assertThat(lists).isNotEmpty();
            for (Path p : lists) java.nio.file.Files.write(p, new byte[]{9, 9});
        }
        fx.dataFile("main/t/orphan2.parquet", RepoFixture.OLD);
        gc(fx.repo).run(Gc.Options.defaults());
        assertThat(fx.exists("data/main/t/b.parquet")).isTrue();
        assertThat(fx.exists("data/main/t/orphan2.parquet")).isFalse();
    }

    @Test
    void readsNoDataFileContent() {
        twoVersions();
        CountingStore counting = new CountingStore(fx.store);

        gc(Repository.open(counting)).run(Gc.Options.defaults());

        assertThat(counting.contentReads).isNotEmpty().noneMatch(k -> k.startsWith("data/"));
        assertThat(fx.exists("data/main/t/orphan.parquet")).isFalse();
    }

    @Test
    void aFileListMadeByAnotherPathRuleIsNeverReplayed() {
        twoVersions();
        gc(fx.repo).run(Gc.Options.defaults()); // caches the file list of the live version
        fx.dataFile("main/t/named-by-the-new-rule.parquet", RepoFixture.OLD);
        dev.fdl.ducklake.catalog.CatalogFiles newRule = new dev.fdl.ducklake.catalog.CatalogFiles() {
            @Override
            public void forEach(Path catalogFile, java.util.function.Consumer<dev.fdl.ducklake.catalog.NamedFile> sink) {
                RepoFixture.TEXT_CATALOGS.forEach(catalogFile, nf -> {
                    sink.accept(nf);
                    sink.accept(new dev.fdl.ducklake.catalog.NamedFile(nf.dataPath(), nf.dataPath() + "main/t/named-by-the-new-rule.parquet", false, 1, true));
                });
            }

            @Override
            public int ruleVersion() {
                return RepoFixture.TEXT_CATALOGS.ruleVersion() + 1;
            }
        };

        new Gc(fx.repo, cache, newRule, Clock.systemUTC()).run(Gc.Options.defaults());

        assertThat(fx.exists("data/main/t/named-by-the-new-rule.parquet")).isTrue();
    }

    @Test
    void refusesAndDeletesNothingWhenARefPointsAtNoFinishedVersion() {
        twoVersions();
        fx.tag("broken", VersionIds.next());
        List<String> before = fx.keys();
        assertThatThrownBy(() -> gc(fx.repo).run(grace(Duration.ZERO)))
                .isInstanceOf(FdlException.class).hasMessageContaining("refs/tags/broken").hasMessageContaining("deleted nothing");
        assertThat(fx.keys()).isEqualTo(before);
    }

    @Test
    void refusesAndDeletesNothingWhenALiveCatalogDoesNotMatchVersionJson() {
        String[] v = twoVersions();
        fx.store.put("versions/" + v[1] + "/ducklake.duckdb", "tampered\n".getBytes());
        List<String> before = fx.keys();
        assertThatThrownBy(() -> gc(fx.repo).run(grace(Duration.ZERO)))
                .isInstanceOf(FdlException.class).hasMessageContaining("sha256");
        assertThat(fx.keys()).isEqualTo(before);
    }

    @Test
    void refusesAndDeletesNothingWhenALiveCatalogIsMissing() {
        String[] v = twoVersions();
        fx.store.delete("versions/" + v[1] + "/ducklake.duckdb");
        List<String> before = fx.keys();
        assertThatThrownBy(() -> gc(fx.repo).run(grace(Duration.ZERO)))
                .isInstanceOf(FdlException.class).hasMessageContaining("missing");
        assertThat(fx.keys()).isEqualTo(before);
    }

    @Test
    void aVersionCommittedWhileDataIsListedKeepsTheOldFilesItNames() {
        // The concurrent commit names an old file no live version named when gc read the catalogs
        // (inherited from an expired base): the re-listing of versions before deleting catches it.
        twoVersions();
        CountingStore counting = new CountingStore(fx.store);
        counting.onFirstList("data/", p -> fx.commit("main", List.of("main/t/a.parquet", "main/t/b.parquet")));
        gc(Repository.open(counting)).run(grace(Duration.ZERO));
        assertThat(fx.exists("data/main/t/a.parquet")).isTrue();
        assertThat(fx.exists("data/main/t/orphan.parquet")).isFalse();
    }

    @Test
    void aWorkingCopyThatWritesDataAndCommitsDuringGcKeepsItsFiles() throws Exception {
        twoVersions();
        CountingStore counting = new CountingStore(fx.store);
        Repository repo = Repository.open(counting);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<String> written = new ArrayList<>();
        // The writer starts when gc starts listing data and works concurrently with it: it puts
        // fresh data files, then commits versions naming them and files other versions name.
        Thread[] writer = new Thread[1];
        counting.onFirstList("data/", p -> {
            writer[0] = new Thread(() -> {
                try {
                    for (int i = 0; i < 20; i++) {
                        String name = "main/t/new-" + i + ".parquet";
                        fx.dataFile(name, Instant.now());
                        synchronized (written) {
                            written.add(name);
                        }
                        fx.commit("main", List.of(name, "main/t/c.parquet"));
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            writer[0].start();
        });
        for (int i = 0; i < 200; i++) fx.dataFile("main/t/garbage-" + i + ".parquet", RepoFixture.OLD);
        new Gc(repo, cache, RepoFixture.TEXT_CATALOGS, Clock.systemUTC()).batchSize(16).run(Gc.Options.defaults());
        writer[0].join();
        assertThat(failure.get()).isNull();
        for (String n : written) assertThat(fx.exists("data/" + n)).as(n).isTrue();
        assertThat(fx.exists("data/main/t/c.parquet")).isTrue();
        assertEveryLiveNameExists();
    }

    @Test
    void aWriterInAnotherProcessThatCommitsDuringGcKeepsItsFiles() throws Exception {
        twoVersions();
        for (int i = 0; i < 2000; i++) fx.dataFile("main/t/garbage-" + i + ".parquet", RepoFixture.OLD);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), CommitWorker.class.getName(),
                fx.root.toString(), tmp.resolve("child-scratch").toString(), "25", "child")
                .redirectErrorStream(true).start();
        Gc.Report r;
        try {
            r = gc(fx.repo).batchSize(100).run(Gc.Options.defaults());
        } finally {
            assertThat(child.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
        String output = new String(child.getInputStream().readAllBytes());
        assertThat(child.exitValue()).as(output).isZero();
        List<String> written = output.lines().toList();
        assertThat(written).hasSize(25);
        for (String n : written) assertThat(fx.exists("data/" + n)).as(n).isTrue();
        assertThat(r.dataFiles().count()).isGreaterThanOrEqualTo(2000);
        assertEveryLiveNameExists();
    }

    @Test
    void aCrashAtAnyDeletionLeavesEveryLiveFileAndARerunFinishesTheJob() {
        for (int k = 1; ; k++) {
            Path dir = tmp.resolve("crash-" + k);
            fx = RepoFixture.create(dir);
            cache = new CatalogCache(dir.resolve("cache"));
            buildGarbage();
            FaultyStore faulty = new FaultyStore(fx.store, k);
            boolean crashed;
            try {
                new Gc(Repository.open(faulty), cache, RepoFixture.TEXT_CATALOGS, Clock.systemUTC())
                        .batchSize(3).run(new Gc.Options(Duration.ZERO, false, 1));
                crashed = false;
            } catch (StoreException e) {
                crashed = true;
            }
            assertEveryLiveNameExists();
            gc(fx.repo).run(grace(Duration.ZERO));
            assertEveryLiveNameExists();
            assertThat(fx.keys()).as("after crash at mutation " + k).isEqualTo(expectedAfterGc);
            if (!crashed) break;
        }
    }

    List<String> expectedAfterGc;

    /**
     * Expired leftovers, an old unfinished folder, a conflict loser, the (partly expired) history
     * of a deleted branch, and garbage data; records the state a clean gc leaves.
     */
    void buildGarbage() {
        String[] v = twoVersions();
        fx.store.put("versions/" + v[0] + "/catalogs/x.sqlite", new byte[]{1});
        String unfinished = fx.unfinished(fx.textCatalog(List.of("main/t/a.parquet")));
        fx.age("versions/" + unfinished + "/", RepoFixture.OLD);
        for (int i = 0; i < 7; i++) fx.dataFile("main/t/g" + i + ".parquet", RepoFixture.OLD);
        fx.dataFile("main/t/loser-only.parquet", RepoFixture.OLD);
        String lost = loser(v[1], RepoFixture.OLD, "main/t/b.parquet", "main/t/loser-only.parquet");
        fx.repo.createBranch(new RefName("gone"), v[1]);
        String gone = fx.commit("gone", List.of("main/t/a.parquet"));
        String goneTip = fx.commit("gone", List.of("main/t/b.parquet"));
        fx.expire(gone);
        fx.repo.deleteRef(RefValue.Kind.BRANCH, new RefName("gone"));
        fx.age("versions/" + gone + "/", RepoFixture.OLD);
        fx.age("versions/" + goneTip + "/", RepoFixture.OLD);
        List<String> keys = new ArrayList<>(fx.keys());
        keys.removeIf(k -> k.startsWith("data/") && !List.of("data/main/t/b.parquet", "data/main/t/c.parquet",
                "data/main/t/c-delete.parquet").contains(k));
        keys.removeIf(k -> k.startsWith("versions/" + unfinished + "/") || k.startsWith("versions/" + lost + "/")
                || k.startsWith("versions/" + gone + "/") || k.startsWith("versions/" + goneTip + "/"));
        keys.remove("versions/" + v[0] + "/catalogs/x.sqlite");
        expectedAfterGc = keys;
    }

    /** Every file any live version's catalog names exists. */
    void assertEveryLiveNameExists() {
        VersionFolder.Listing l = VersionFolder.list(fx.store);
        for (VersionFolder f : l.folders().values()) {
            if (!f.live()) continue;
            VersionInfo v = fx.repo.readVersion(f.id()).orElseThrow();
            cache.forEachFile(fx.repo, v, RepoFixture.TEXT_CATALOGS, true, nf ->
                    assertThat(fx.exists("data/" + nf.nameIn(fx.repo.dataLocation()))).as(nf.location()).isTrue());
        }
    }
}
