package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.store.WriteResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one walk of history and its one rule for a version with no readable version.json: listed
 * by the store, it stops every walk that decides what is live ({@code branch -d} as gc); not
 * listed, its line of history ends.
 */
class HistoryWalkTest {
    @TempDir Path dir;
    LocalStore local;
    /** The version.json keys a get answers as absent while the listing still shows them. */
    final List<String> unreadable = new ArrayList<>();
    Repository repo;
    String v1, v2, v3;

    @BeforeEach
    void history() {
        local = new LocalStore(dir);
        Repository.init(local, new RefName("main"));
        v1 = TestVersions.addVersion(local, List.of(), 1, "one");
        v2 = TestVersions.addVersion(local, List.of(v1), 2, "two");
        v3 = TestVersions.addVersion(local, List.of(v2), 3, "three");
        TestVersions.setBranch(local, "main", v3);
        TestVersions.setBranch(local, "old", v1);
        repo = Repository.open(new HidingStore());
    }

    private RefValue old() {
        return repo.readBranch(new RefName("old")).orElseThrow();
    }

    /** gc's reachability: the refs' versions through every parent, with gc's listing as evidence. */
    private Set<String> gcReachable() {
        VersionFolder.Listing listing = VersionFolder.list(repo.store());
        List<String> roots = repo.listRefs().stream().map(RefValue::versionId).toList();
        return HistoryWalk.reachable(roots, repo::readVersion, id -> listing.get(id) != null && listing.get(id).finished());
    }

    @Test
    void branchDeleteFollowsParentsIntoAnotherRefsHistory() {
        assertThat(repo.reachableFromOtherRefs(v1, old())).isTrue();
        assertThat(gcReachable()).containsExactlyInAnyOrder(v1, v2, v3);
    }

    @Test
    void aVersionListedButUnreadableStopsBranchDeleteAsItStopsGc() {
        unreadable.add(RepoLayout.versionJson(v2));

        assertThatThrownBy(this::gcReachable).isInstanceOfSatisfying(FdlException.class,
                e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.FAILURE)).hasMessageContaining("was listed but is gone");
        // branch -d predicts gc: it must not answer "v1 is unreachable" (or "reachable") from a partial graph
        assertThatThrownBy(() -> repo.reachableFromOtherRefs(v1, old())).isInstanceOfSatisfying(FdlException.class,
                e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.FAILURE)).hasMessageContaining("was listed but is gone");
    }

    @Test
    void aParentWithNoVersionJsonEndsItsLineInEveryWalk() {
        local.delete(RepoLayout.versionJson(v2)); // the folder keeps its catalog: not a version

        assertThat(gcReachable()).containsExactlyInAnyOrder(v3, v1); // v1 through ref 'old' only
        assertThat(repo.reachableFromOtherRefs(v1, old())).isFalse();
        List<Repository.LogEntry> log = repo.log(v3, -1);
        assertThat(log).extracting(e -> e.version().id()).containsExactly(v3);
        assertThat(log.get(0).missingParents()).containsExactly(v2);
    }

    @Test
    void firstParentModeLeavesOtherParentsOut() {
        String side = TestVersions.addVersion(local, List.of(v1), 4, "side");
        String merge = TestVersions.addVersion(local, List.of(v3, side), 5, "merge");

        assertThat(walk(merge, HistoryWalk.Parents.ALL)).containsExactly(merge, side, v3, v2, v1);
        assertThat(walk(merge, HistoryWalk.Parents.FIRST)).containsExactly(merge, v3, v2, v1);
    }

    private List<String> walk(String from, HistoryWalk.Parents parents) {
        HistoryWalk w = HistoryWalk.over(repo.versions(), parents);
        w.start(from);
        List<String> out = new ArrayList<>();
        while (w.peek() != null) out.add(w.take().id());
        return out;
    }

    /** The local store, but a get of a key in {@link #unreadable} finds nothing (as while another process deletes it). */
    private final class HidingStore implements ObjectStore {
        @Override public String root() { return local.root(); }
        @Override public Optional<ObjectBytes> get(String key) { return unreadable.contains(key) ? Optional.empty() : local.get(key); }
        @Override public Optional<ObjectMeta> download(String key, Path target) { return local.download(key, target); }
        @Override public Optional<ObjectMeta> head(String key) { return local.head(key); }
        @Override public WriteResult putIfAbsent(String key, Payload body) { return local.putIfAbsent(key, body); }
        @Override public WriteResult putIfMatch(String key, Payload body, String etag) { return local.putIfMatch(key, body, etag); }
        @Override public WriteResult put(String key, Payload body) { return local.put(key, body); }
        @Override public Stream<ObjectMeta> list(String prefix) { return local.list(prefix); }
        @Override public void delete(String key) { local.delete(key); }
        @Override public String location(String key) { return local.location(key); }
    }

    /** A log's expiry marks are read beside its walk: each listed version gets its own, and a damaged one stops the log naming it. */
    @Test
    void logReadsEachVersionsExpiryAndStopsAtADamagedOne() {
        local.put(RepoLayout.expiredJson(v2), ExpiredInfo.parse("{\"expired_at\": \"2026-12-01T00:00:00Z\", \"reason\": \"retention\"}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8), "f").toBytes());
        List<Repository.LogEntry> log = repo.log(v3, -1);
        assertThat(log).extracting(e -> e.version().id()).containsExactly(v3, v2, v1);
        assertThat(log).extracting(e -> e.expired() == null ? null : e.expired().expiredAt().toString())
                .containsExactly(null, "2026-12-01T00:00:00Z", null);
        assertThat(repo.log(v3, 1)).extracting(Repository.LogEntry::expired).containsExactly((ExpiredInfo) null);
        local.put(RepoLayout.expiredJson(v1), "{".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> repo.log(v3, -1)).isInstanceOf(FdlException.class).hasMessageContaining(RepoLayout.expiredJson(v1));
        assertThat(repo.log(v3, 2)).hasSize(2); // v1 is not listed, so its mark is not read
    }
    /**
     * Expiry marks are handed to the reading thread in batches: versions in a full batch, in the
     * partial batch left at the end and at a batch's edges all get theirs, and no other version does.
     */
    @Test
    void everyListedVersionGetsItsExpiryAcrossBatches() {
        int count = 2 * ExpiryReads.BATCH + 3;
        List<String> ids = new ArrayList<>(List.of(v1, v2, v3));
        for (int seq = 4; seq <= count; seq++) ids.add(TestVersions.addVersion(local, List.of(ids.get(ids.size() - 1)), seq, "v" + seq));
        // newest first, the log lists ids reversed; mark every third, the newest and the oldest
        List<String> newestFirst = new ArrayList<>(ids);
        java.util.Collections.reverse(newestFirst);
        List<Boolean> marked = new ArrayList<>();
        for (int i = 0; i < newestFirst.size(); i++) {
            boolean mark = i % 3 == 0 || i == newestFirst.size() - 1;
            if (mark) TestVersions.expire(local, newestFirst.get(i));
            marked.add(mark);
        }
        List<Repository.LogEntry> log = repo.log(newestFirst.get(0), -1);
        assertThat(log).extracting(e -> e.version().id()).containsExactlyElementsOf(newestFirst);
        assertThat(log).extracting(e -> e.expired() != null).containsExactlyElementsOf(marked);
        List<Boolean> firstFive = marked.subList(0, 5);
        assertThat(repo.log(newestFirst.get(0), 5)).extracting(e -> e.expired() != null).containsExactlyElementsOf(firstFive);
    }
}
