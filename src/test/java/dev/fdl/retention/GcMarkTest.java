package dev.fdl.retention;

import dev.fdl.FdlException;
import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.UnreachableMark;
import dev.fdl.store.CountingStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * gc's grace period for an unreachable version runs from gc's mark {@code unreachable.json}, not
 * from the version's age (SPEC.md section 5): a deleted branch of old versions survives a grace
 * period after gc first finds it unreachable. Time passes by setting the marks' last-modified
 * times, which is what gc judges.
 */
class GcMarkTest {
    static final Duration WEEK = Duration.ofDays(7);

    @TempDir Path tmp;
    RepoFixture fx;
    CatalogCache cache;
    String m1, d1, d2;

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
        cache = new CatalogCache(tmp.resolve("cache"));
    }

    Gc.Report gc(Duration grace) {
        return gc(fx.repo, grace, false);
    }

    Gc.Report gc(Repository repo, Duration grace, boolean dryRun) {
        return new Gc(repo, cache, RepoFixture.TEXT_CATALOGS, Clock.systemUTC()).run(new Gc.Options(grace, dryRun, 2));
    }

    /** main: m1; dev: m1 <- d1 <- d2, all 30 days old, data likewise; then dev is deleted (branch -D). */
    void deletedBranchOfOldVersions() {
        fx.dataFiles(RepoFixture.OLD, "main.parquet", "dev-1.parquet", "dev-2.parquet");
        m1 = fx.commit("main", List.of("main.parquet"));
        fx.repo.createBranch(new RefName("dev"), m1);
        d1 = fx.commit("dev", List.of("main.parquet", "dev-1.parquet"));
        d2 = fx.commit("dev", List.of("main.parquet", "dev-2.parquet"));
        for (String id : List.of(m1, d1, d2)) fx.age(RepoLayout.versionFolder(id), RepoFixture.OLD);
        fx.repo.deleteRef(RefValue.Kind.BRANCH, new RefName("dev"));
    }

    List<String> folder(String id) {
        return fx.keys().stream().filter(k -> k.startsWith(RepoLayout.versionFolder(id))).toList();
    }

    /** Sets the last-modified time of the marks of {@code ids} to {@code ago} before now. */
    void ageMarks(Duration ago, String... ids) {
        for (String id : ids) fx.age(RepoLayout.unreachableJson(id), Instant.now().minus(ago));
    }

    boolean marked(String id) {
        return fx.exists(RepoLayout.unreachableJson(id));
    }

    @Test
    void aDeletedBranchOfOldVersionsIsMarkedKeptThroughTheGracePeriodThenDeletedWithItsData() {
        deletedBranchOfOldVersions();
        List<String> d1Keys = folder(d1), d2Keys = folder(d2), m1Keys = folder(m1);
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        Gc.Report first = gc(WEEK);

        assertThat(first.marked()).containsExactly(d1, d2);
        assertThat(first.unreachableVersions().count()).isZero();
        assertThat(first.unreachableKept()).isEqualTo(2);
        assertThat(first.firstUnreachableDue()).isEqualTo(first.now().plus(WEEK));
        assertThat(first.liveVersions()).as("catalogs of marked versions stay live").isEqualTo(3);
        assertThat(folder(d1)).containsAll(d1Keys).contains(RepoLayout.unreachableJson(d1));
        assertThat(folder(d2)).containsAll(d2Keys).contains(RepoLayout.unreachableJson(d2));
        assertThat(folder(m1)).isEqualTo(m1Keys);
        assertThat(fx.exists("data/dev-1.parquet")).isTrue();
        assertThat(fx.exists("data/dev-2.parquet")).isTrue();
        UnreachableMark mark = fx.repo.readUnreachableMark(d2).orElseThrow();
        assertThat(mark.by()).isEqualTo("gc");
        assertThat(mark.since()).isBetween(before, Instant.now());

        ageMarks(Duration.ofDays(3), d1, d2);
        Gc.Report inside = gc(WEEK);
        assertThat(inside.marked()).isEmpty();
        assertThat(inside.unreachableVersions().count()).isZero();
        assertThat(inside.unreachableKept()).isEqualTo(2);
        assertThat(inside.firstUnreachableDue()).as("the marks' time plus the grace period")
                .isBetween(Instant.now().plus(Duration.ofDays(4)).minusSeconds(60), Instant.now().plus(Duration.ofDays(4)));
        assertThat(fx.exists(RepoLayout.versionJson(d1))).isTrue();
        assertThat(fx.exists(RepoLayout.versionJson(d2))).isTrue();
        assertThat(fx.exists("data/dev-1.parquet")).isTrue();
        assertThat(fx.exists("data/dev-2.parquet")).isTrue();

        ageMarks(Duration.ofDays(8), d1, d2);
        Gc.Report after = gc(WEEK);
        assertThat(after.unreachableVersions().count()).isEqualTo(2);
        assertThat(after.unreachableKept()).isZero();
        assertThat(after.firstUnreachableDue()).isNull();
        assertThat(folder(d1)).isEmpty();
        assertThat(folder(d2)).isEmpty();
        assertThat(fx.exists("data/dev-1.parquet")).isFalse();
        assertThat(fx.exists("data/dev-2.parquet")).isFalse();
        assertThat(folder(m1)).isEqualTo(m1Keys);
        assertThat(fx.exists("data/main.parquet")).isTrue();
        assertThat(new Verify(fx.repo, cache, RepoFixture.TEXT_CATALOGS).run().problems()).isEmpty();
    }

    @Test
    void reTaggingInsideTheWindowRemovesTheMarksAndDeletingTheTagAgainStartsAFreshWindow() {
        deletedBranchOfOldVersions();
        gc(WEEK);
        fx.repo.createTag(new RefName("keep"), d2);
        assertThat(marked(d2)).as("the tag removes its version's mark at once").isFalse();
        ageMarks(Duration.ofDays(8), d1); // time passes while the tag keeps them

        Gc.Report tagged = gc(WEEK);
        assertThat(tagged.unmarked()).isEqualTo(1);
        assertThat(marked(d1)).isFalse();
        assertThat(marked(d2)).isFalse();
        assertThat(tagged.unreachableVersions().count()).isZero();

        fx.repo.deleteRef(RefValue.Kind.TAG, new RefName("keep"));
        Gc.Report untagged = gc(WEEK);
        assertThat(untagged.marked()).containsExactly(d1, d2);
        assertThat(untagged.unreachableVersions().count()).as("an old mark would have been inherited").isZero();
        assertThat(fx.exists(RepoLayout.versionJson(d1))).isTrue();
        assertThat(fx.exists("data/dev-2.parquet")).isTrue();

        ageMarks(Duration.ofDays(6), d1, d2);
        assertThat(gc(WEEK).unreachableVersions().count()).isZero();
        ageMarks(Duration.ofDays(8), d1, d2);
        assertThat(gc(WEEK).unreachableVersions().count()).isEqualTo(2);
        assertThat(folder(d2)).isEmpty();
        assertThat(fx.exists("data/dev-2.parquet")).isFalse();
    }

    @Test
    void aTagCreatedAndDeletedBetweenTwoGcsDoesNotInheritTheOldMark() {
        deletedBranchOfOldVersions();
        gc(WEEK);
        ageMarks(Duration.ofDays(8), d1, d2); // the window is over
        fx.repo.createTag(new RefName("keep"), d2); // seen in time: tagged...
        fx.repo.deleteRef(RefValue.Kind.TAG, new RefName("keep")); // ...and let go again before any gc

        Gc.Report next = gc(WEEK);
        assertThat(next.marked()).as("a fresh window").containsExactly(d2);
        assertThat(next.unreachableVersions().count()).as("d1 is kept as d2's ancestor").isZero();
        assertThat(next.firstUnreachableDue()).as("d2's window, not d1's past one").isEqualTo(next.now().plus(WEEK));
        assertThat(fx.exists(RepoLayout.versionJson(d2))).isTrue();
        assertThat(fx.exists("data/dev-2.parquet")).isTrue();
    }

    @Test
    void aDryRunWritesAndDeletesNothingAndReportsWhatItWouldMarkUnmarkAndDelete() {
        deletedBranchOfOldVersions();
        List<String> before = fx.keys();
        Gc.Report dry = gc(fx.repo, WEEK, true);
        assertThat(fx.keys()).isEqualTo(before);
        assertThat(dry.marked()).containsExactly(d1, d2);
        assertThat(dry.unreachableVersions().count()).isZero();

        gc(WEEK);
        ageMarks(Duration.ofDays(8), d1);
        List<String> marked = fx.keys();
        Gc.Report due = gc(fx.repo, WEEK, true);
        assertThat(fx.keys()).isEqualTo(marked);
        assertThat(due.marked()).isEmpty();
        assertThat(due.unreachableVersions().count()).as("d1 is d2's parent, d2 is inside its window").isZero();
        ageMarks(Duration.ofDays(8), d2);
        assertThat(gc(fx.repo, WEEK, true).unreachableVersions().count()).isEqualTo(2);
        assertThat(gc(fx.repo, WEEK, true).dataFiles().count()).isEqualTo(2);

        fx.repo.createTag(new RefName("keep"), d2);
        List<String> tagged = fx.keys();
        Gc.Report unmark = gc(fx.repo, WEEK, true);
        assertThat(fx.keys()).isEqualTo(tagged);
        assertThat(unmark.unmarked()).as("d1; the tag itself removed d2's mark").isEqualTo(1);
        assertThat(marked(d1)).isTrue();
        assertThat(marked(d2)).isFalse();
    }

    @Test
    void anAncestorOfAVersionInsideItsWindowIsKeptWhateverTheAgeOfItsOwnMark() {
        deletedBranchOfOldVersions();
        gc(WEEK);
        ageMarks(Duration.ofDays(8), d1);
        Gc.Report r = gc(WEEK);
        assertThat(r.unreachableVersions().count()).isZero();
        assertThat(fx.exists(RepoLayout.versionJson(d1))).isTrue();
        assertThat(fx.exists("data/dev-1.parquet")).isTrue();
    }

    @Test
    void expiredUnreachableVersionsAreMarkedAndKeptLikeTheOthers() {
        deletedBranchOfOldVersions();
        fx.expire(d1);
        Gc.Report r = gc(WEEK);
        assertThat(r.marked()).containsExactly(d1, d2);
        assertThat(fx.exists(RepoLayout.versionJson(d1))).isTrue();
        assertThat(fx.exists(RepoLayout.expiredJson(d1))).isTrue();
        ageMarks(Duration.ofDays(8), d1, d2);
        assertThat(gc(WEEK).unreachableVersions().count()).isEqualTo(2);
        assertThat(folder(d1)).isEmpty();
    }

    @Test
    void aCommitInFlightIsNotMarkedWhileYoung() {
        fx.dataFiles(RepoFixture.OLD, "a.parquet", "b.parquet");
        String v1 = fx.commit("main", List.of("a.parquet"));
        String inFlight = fx.version(List.of(v1), List.of("b.parquet")); // between steps 8 and 9
        Gc.Report r = gc(WEEK);
        assertThat(r.marked()).isEmpty();
        assertThat(marked(inFlight)).isFalse();
        assertThat(fx.exists("data/b.parquet")).isTrue();
    }

    @Test
    void aTagCreatedBetweenGcsTwoReadsOfTheRefsSparesTheMark() {
        deletedBranchOfOldVersions();
        CountingStore counting = new CountingStore(fx.store);
        counting.onFirstList(RepoLayout.VERSIONS, p -> fx.repo.createTag(new RefName("keep"), d2));
        Gc.Report r = gc(Repository.open(counting), WEEK, false);
        assertThat(r.marked()).isEmpty();
        assertThat(marked(d1)).isFalse();
        assertThat(marked(d2)).isFalse();
    }

    @Test
    void withAGracePeriodOf0sAVersionIsMarkedAndDeletedInOneRun() {
        deletedBranchOfOldVersions();
        Gc.Report r = gc(Duration.ZERO);
        assertThat(r.marked()).containsExactly(d1, d2);
        assertThat(r.unreachableVersions().count()).isEqualTo(2);
        assertThat(folder(d1)).isEmpty();
        assertThat(folder(d2)).isEmpty();
        assertThat(fx.exists("data/dev-2.parquet")).isFalse();
    }

    @Test
    void aFolderGcLeftHalfDeletedIsAnUnfinishedFolderWhatEverTheAgeOfItsMark() {
        deletedBranchOfOldVersions();
        gc(WEEK);
        // a gc stopped right after deleting d2's version.json (the mark is young: it does not count)
        fx.store.delete(RepoLayout.versionJson(d2));
        // and one that got as far as the mark alone
        fx.store.delete(RepoLayout.versionJson(d1));
        fx.store.delete(RepoLayout.versionFile(d1, RepoLayout.CATALOG));
        fx.store.delete(RepoLayout.versionFile(d1, RepoLayout.DATASET));
        assertThat(folder(d1)).containsExactly(RepoLayout.unreachableJson(d1));

        Gc.Report r = gc(WEEK);
        assertThat(r.unfinishedFolders().count()).isEqualTo(2);
        assertThat(folder(d1)).isEmpty();
        assertThat(folder(d2)).isEmpty();
    }

    @Test
    void verifyAcceptsAMarkAndReportsADamagedOne() {
        deletedBranchOfOldVersions();
        gc(WEEK);
        Verify.Report ok = new Verify(fx.repo, cache, RepoFixture.TEXT_CATALOGS).run();
        assertThat(ok.problems()).isEmpty();
        assertThat(ok.marked()).isEqualTo(2);
        assertThat(ok.unreachable()).isEqualTo(2);

        fx.store.put(RepoLayout.unreachableJson(d2), "{\"since\": \"yesterday\", \"by\": \"gc\"}".getBytes());
        Verify.Report bad = new Verify(fx.repo, cache, RepoFixture.TEXT_CATALOGS).run();
        assertThat(bad.problems()).singleElement().satisfies(p -> {
            assertThat(p.key()).isEqualTo(RepoLayout.unreachableJson(d2));
            assertThat(p.message()).contains("since");
        });
    }

    @Test
    void theMarkKeepsUnknownKeysAndNamesItsFileWhenDamaged() {
        UnreachableMark m = UnreachableMark.byGc(Instant.parse("2026-12-01T10:00:00.700Z"));
        assertThat(UnreachableMark.parse(m.toBytes(), "k")).isEqualTo(
                new UnreachableMark(Instant.parse("2026-12-01T10:00:00Z"), "gc", java.util.Map.of()));
        UnreachableMark back = UnreachableMark.parse("{\"since\":\"2026-12-01T10:00:00Z\",\"by\":\"gc\",\"host\":\"x\"}".getBytes(), "k");
        assertThat(UnreachableMark.parse(back.toBytes(), "k").extra()).containsKey("host");
        assertThat(back.since()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThatThrownBy(() -> UnreachableMark.parse("{\"since\":\"2026-12-01T10:00:00Z\"}".getBytes(), "versions/x/unreachable.json"))
                .isInstanceOf(FdlException.class).hasMessageContaining("versions/x/unreachable.json").hasMessageContaining("by");
    }

    /** What fdl serve sends as "no-cache" rather than "immutable" inside a version folder. */
    @Test
    void theMarkAndExpiredJsonAreTheObjectsOfAVersionFolderThatChange() {
        String id = dev.fdl.util.VersionIds.next();
        assertThat(RepoLayout.isMutableVersionObject(RepoLayout.unreachableJson(id))).isTrue();
        assertThat(RepoLayout.isMutableVersionObject(RepoLayout.expiredJson(id))).isTrue();
        assertThat(RepoLayout.isMutableVersionObject(RepoLayout.versionJson(id))).isFalse();
        assertThat(RepoLayout.isMutableVersionObject(RepoLayout.versionFile(id, RepoLayout.CATALOG))).isFalse();
    }
}
