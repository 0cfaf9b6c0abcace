package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.repo.WorkingCatalogEdits;
import dev.fdl.store.FaultyStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.RecordingStore;
import dev.fdl.store.StoreException;
import dev.fdl.util.Sha256;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 4: checkout and commit follow SPEC.md section 4 exactly, crash-safe and safe under
 * concurrent writers. Run against every store (LocalStore, S3Store on S3Mock) by subclasses.
 */
abstract class CommitProtocolContract {
    static final VersionInfo.Author BOB = new VersionInfo.Author("bob", "bob@example.org");
    /** The catalog cache the CLI would pass ($FDL_CACHE_DIR: target/test-cache under Maven). */
    static final CatalogSource CATALOGS = dev.fdl.cache.CatalogCache.fromEnvironment();

    @TempDir Path dir;
    ObjectStore store;
    Repository repo;

    /** A new, empty root for this test. */
    abstract ObjectStore newStore(Path dir);

    /** Environment a child fdl process needs to reach the store. */
    abstract Map<String, String> childEnvironment();

    @BeforeEach
    void init() {
        store = newStore(dir);
        repo = Repository.init(store, new RefName("main"));
    }

    @org.junit.jupiter.api.AfterEach
    void close() {
        store.close();
    }

    byte[] bytes(String key) {
        return store.get(key).orElseThrow().bytes();
    }

    WorkingCopy checkout(String name, String ref) {
        WorkingCopy wc = WorkingCopy.create(dir.resolve(name));
        Checkout.run(repo, CATALOGS, wc, ref, null, false, ProgressListener.NONE);
        return wc;
    }

    static Commit.CommitResult commit(Repository r, WorkingCopy wc, String msg) {
        return Commit.run(r, wc, msg, BOB, Clock.systemUTC(), ProgressListener.NONE);
    }

    String addTable(WorkingCopy wc, String table) throws Exception {
        return WorkingCatalogEdits.addTable(wc.catalog(), store, repo.dataDir(), table, 5);
    }

    /** What readers see: every ref and the versions behind it. */
    Map<String, String> readerView() {
        return repo.listRefs().stream().collect(Collectors.toMap(RefValue::key, RefValue::versionId));
    }

    @Test
    void firstCommitWritesInSpecOrderAndNothingInData() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        assertThat(wc.state().baseVersion()).isNull();
        addTable(wc, "towns");
        RecordingStore rec = new RecordingStore(store);
        Commit.CommitResult r = commit(Repository.open(rec), wc, "first");
        String id = r.version().id();
        assertThat(rec.mutations()).containsExactly(
                "put versions/" + id + "/ducklake.duckdb",
                "put versions/" + id + "/dataset.json",
                "put versions/" + id + "/version.json",
                "putIfAbsent refs/heads/main");
        assertThat(rec.calls).noneMatch(c -> (c.startsWith("put") || c.startsWith("delete")) && c.contains(" data/"));
        VersionInfo v = repo.readVersion(id).orElseThrow();
        assertThat(v.seq()).isEqualTo(1);
        assertThat(v.parents()).isEmpty();
        assertThat(v.ducklake().firstSnapshot()).isZero();
        assertThat(v.ducklake().lastSnapshot()).isEqualTo(1);
        assertThat(v.catalog().storage()).isEqualTo("duckdb-v1.5.0");
        Path downloaded = dir.resolve("check.duckdb");
        store.download("versions/" + id + "/ducklake.duckdb", downloaded);
        assertThat(v.catalog().sha256()).isEqualTo(Sha256.of(downloaded));
        assertThat(repo.resolve("main").version().id()).isEqualTo(id);
        assertThat(wc.state().baseVersion()).isEqualTo(id);
        String ds = new String(bytes("versions/" + id + "/dataset.json"), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ds).contains("\"name\" : \"towns\"").contains("\"rows\" : 5").contains("\"ducklake_type\"");
    }

    @Test
    void commitChecksDataFilesFromMetadataAloneNeverReadingThem() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        addTable(wc, "b");
        dev.fdl.store.CountingStore counting = new dev.fdl.store.CountingStore(store);

        commit(Repository.open(counting), wc, "two tables");

        assertThat(counting.contentReads).noneMatch(k -> k.startsWith("data/"));
        assertThat(counting.stats.get()).isGreaterThanOrEqualTo(2); // step 5: one stat per data file
    }

    @Test
    void secondCommitChainsMovesWithIfMatchAndKeepsOnlyItsSnapshots() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        String v1 = commit(repo, wc, "one").version().id();
        addTable(wc, "b");
        addTable(wc, "c");
        RecordingStore rec = new RecordingStore(store);
        VersionInfo v2 = commit(Repository.open(rec), wc, "two").version();
        assertThat(rec.mutations().get(3)).isEqualTo("putIfMatch refs/heads/main");
        assertThat(v2.seq()).isEqualTo(2);
        assertThat(v2.parents()).containsExactly(v1);
        assertThat(v2.ducklake().firstSnapshot()).isEqualTo(2);
        assertThat(v2.ducklake().lastSnapshot()).isEqualTo(3);
        WorkingCopy other = checkout("other", "main");
        assertThat(other.state().baseVersion()).isEqualTo(v2.id());
        assertThat(other.state().baseSnapshot()).isEqualTo(3);
        assertThat(repo.log(v2.id(), -1)).extracting(e -> e.version().id()).containsExactly(v2.id(), v1);
    }

    @Test
    void aCrashAfterTheRefMovedIsRecognisedByTheNextCommand() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        WorkingCopy.State before = wc.state();
        String id = commit(repo, wc, "one").version().id();
        // the process died after step 9 and before saving the working copy's state
        wc.save(before.withCommitting(id));
        assertThatThrownBy(() -> commit(repo, wc, "again")).hasMessageContaining("nothing to commit");
        assertThat(wc.state().baseVersion()).isEqualTo(id);
        assertThat(wc.state().committing()).isNull();
        addTable(wc, "b");
        assertThat(commit(repo, wc, "two").version().parents()).containsExactly(id);
    }

    @Test
    void nothingToCommitIsExit1AndUploadsNothing() {
        WorkingCopy wc = checkout("wc", null);
        RecordingStore rec = new RecordingStore(store);
        assertThatThrownBy(() -> commit(Repository.open(rec), wc, "empty"))
                .isInstanceOf(FdlException.class).hasMessageContaining("nothing to commit")
                .satisfies(e -> assertThat(((FdlException) e).kind()).isEqualTo(FdlException.Kind.FAILURE));
        assertThat(rec.mutations()).isEmpty();
    }

    @Test
    void movedBranchIsAConflictNamingTheNewVersion() throws Exception {
        WorkingCopy alice = checkout("alice", null);
        WorkingCopy bob = checkout("bob", null);
        addTable(alice, "a");
        addTable(bob, "b");
        String won = commit(repo, alice, "alice").version().id();
        Map<String, String> before = readerView();
        assertThatThrownBy(() -> commit(repo, bob, "bob"))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining("moved since checkout").hasMessageContaining(won)
                .satisfies(e -> assertThat(((FdlException) e).kind()).isEqualTo(FdlException.Kind.CONFLICT));
        assertThat(readerView()).isEqualTo(before);
        assertThat(bob.state().baseVersion()).isNull();
    }

    @Test
    void checkoutRefusesACatalogThatDoesNotMatchVersionJson() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        String id = commit(repo, wc, "one").version().id();
        String cat = "versions/" + id + "/ducklake.duckdb";
        byte[] bytes = bytes(cat);
        bytes[bytes.length - 1] ^= 1;
        store.put(cat, bytes);
        WorkingCopy other = WorkingCopy.create(dir.resolve("other"));
        assertThatThrownBy(() -> Checkout.run(repo, CATALOGS, other, "main", null, false, ProgressListener.NONE))
                .hasMessageContaining("does not match its version.json").hasMessageContaining("sha256");
        assertThat(other.exists()).isFalse();
    }

    @Test
    void switchingRefusesUncommittedSnapshotsUnlessForced() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        String v1 = commit(repo, wc, "one").version().id();
        repo.createBranch(new RefName("dev"), v1);
        addTable(wc, "b");
        assertThatThrownBy(() -> Checkout.run(repo, CATALOGS, wc, "dev", null, false, ProgressListener.NONE))
                .hasMessageContaining("1 snapshot(s) not yet committed");
        Checkout.run(repo, CATALOGS, wc, "dev", null, true, ProgressListener.NONE);
        assertThat(wc.state().branch()).isEqualTo("dev");
        assertThat(Checkout.pendingSnapshots(wc)).isZero();
    }

    @Test
    void missingDataFileIsRefusedBeforeAnyUpload() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        String key = addTable(wc, "a");
        store.delete(key);
        RecordingStore rec = new RecordingStore(store);
        assertThatThrownBy(() -> commit(Repository.open(rec), wc, "one"))
                .hasMessageContaining("not in the repository").hasMessageContaining(key);
        assertThat(rec.mutations()).isEmpty();
    }

    @Test
    void datasetJsonProblemsAreRefusedBeforeAnyUpload() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        Files.writeString(wc.dir().resolve("dataset.json"), "{\"name\": \"x\", \"resources\": [{\"name\": \"b\"}]}");
        RecordingStore rec = new RecordingStore(store);
        assertThatThrownBy(() -> commit(Repository.open(rec), wc, "one")).hasMessageContaining("resource 'b': no table b");
        assertThat(rec.mutations()).isEmpty();
    }

    @Test
    void aCrashAtAnyStoreCallLeavesReadersUnchangedAndARetrySucceeds() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        commit(repo, wc, "base");
        addTable(wc, "b");
        // crash at store call k = 1, 2, ... until a commit gets through: every crash leaves readers as they were
        int k = 0;
        Commit.CommitResult done = null;
        while (done == null) {
            k++;
            assertThat(k).as("a commit should need fewer than 100 store calls").isLessThan(100);
            Map<String, String> before = readerView();
            List<String> logBefore = logIds();
            WorkingCopy.State stateBefore = wc.state();
            try {
                done = commit(Repository.open(FaultyStore.atCall(store, k)), wc, "attempt " + k);
            } catch (StoreException e) {
                assertThat(readerView()).as("refs after a crash at call " + k).isEqualTo(before);
                assertThat(logIds()).isEqualTo(logBefore);
                // only the note of the version step 9 was writing may have been added
                assertThat(withoutNote(wc.state())).isEqualTo(withoutNote(stateBefore));
            }
        }
        assertThat(k).isGreaterThanOrEqualTo(6);
        assertThat(readerView().get("refs/heads/main")).isEqualTo(done.version().id());
        assertThat(logIds()).hasSize(2);
    }

    private static WorkingCopy.State withoutNote(WorkingCopy.State s) {
        return s.committed(s.baseVersion(), s.refEtag(), s.baseSnapshot());
    }

    private List<String> logIds() {
        return repo.readBranch(new RefName("main"))
                .map(r -> repo.log(r.versionId(), -1).stream().map(e -> e.version().id()).toList()).orElse(List.of());
    }

    @Test
    void concurrentCommitsFromThreadsExactlyOneWinsEachRoundNoneLost() throws Exception {
        int writers = 3, rounds = 2; // each round is a checkout and a commit per writer: enough to race, cheap enough to run twice (local, S3)
        WorkingCopy seed = checkout("seed", null);
        addTable(seed, "t0");
        commit(repo, seed, "seed");
        List<WorkingCopy> wcs = new ArrayList<>();
        for (int i = 0; i < writers; i++) wcs.add(checkout("w" + i, "main"));
        List<String> winners = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < writers; i++) {
                    Checkout.run(repo, CATALOGS, wcs.get(i), "main", null, true, ProgressListener.NONE);
                    addTable(wcs.get(i), "r" + round + "w" + i);
                }
                CyclicBarrier start = new CyclicBarrier(writers);
                List<Future<String>> results = new ArrayList<>();
                for (WorkingCopy wc : wcs) {
                    results.add(pool.submit(() -> {
                        start.await();
                        try {
                            return commit(Repository.open(store), wc, "round").version().id();
                        } catch (FdlException e) {
                            assertThat(e.kind()).isEqualTo(FdlException.Kind.CONFLICT);
                            return null;
                        }
                    }));
                }
                List<String> won = new ArrayList<>();
                for (Future<String> f : results) if (f.get() != null) won.add(f.get());
                assertThat(won).as("round " + round).hasSize(1);
                winners.add(won.get(0));
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> reachable = Set.copyOf(logIds());
        assertThat(reachable).containsAll(winners);
        assertThat(repo.readBranch(new RefName("main")).orElseThrow().versionId()).isEqualTo(winners.get(rounds - 1));
    }

    @Test
    void concurrentCommitsFromProcessesExactlyOneWinsEachRound() throws Exception {
        int writers = 3, rounds = 1; // a JVM per writer; the thread test above covers several rounds
        WorkingCopy seed = checkout("seed", null);
        addTable(seed, "t0");
        commit(repo, seed, "seed");
        List<WorkingCopy> wcs = new ArrayList<>();
        for (int i = 0; i < writers; i++) wcs.add(checkout("p" + i, "main"));
        List<String> winners = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < writers; i++) {
                Checkout.run(repo, CATALOGS, wcs.get(i), "main", null, true, ProgressListener.NONE);
                addTable(wcs.get(i), "r" + round + "p" + i);
            }
            List<Process> procs = new ArrayList<>();
            for (WorkingCopy wc : wcs) {
                ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        // as the fdl launcher starts a command: a short-lived JVM, C1 only and serial GC (less CPU)
                        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                        "-cp", System.getProperty("java.class.path"), "dev.fdl.cli.Main", "commit", "-q", "-m", "round " + round,
                        "--author", "proc <p@example.org>");
                pb.directory(wc.dir().toFile()).redirectErrorStream(true);
                pb.environment().putAll(childEnvironment());
                procs.add(pb.start());
            }
            int ok = 0, conflicts = 0;
            for (int i = 0; i < writers; i++) {
                Process p = procs.get(i);
                String out = new String(p.getInputStream().readAllBytes());
                int exit = p.waitFor();
                if (exit == 0) {
                    ok++;
                    winners.add(wcs.get(i).state().baseVersion());
                } else {
                    assertThat(exit).as(out).isEqualTo(3);
                    assertThat(out).contains("moved since checkout");
                    conflicts++;
                }
            }
            assertThat(ok).as("round " + round).isEqualTo(1);
            assertThat(conflicts).isEqualTo(writers - 1);
        }
        assertThat(Set.copyOf(logIds())).containsAll(winners);
    }
}
