package dev.fdl.retention;

import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

import dev.fdl.FdlException;
import dev.fdl.store.FaultyStore;
import dev.fdl.store.StoreException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpireTest {
    static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @TempDir Path tmp;
    RepoFixture fx;
    List<String> v = new ArrayList<>();

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
        fx.dataFile("d.parquet", RepoFixture.OLD);
        for (int i = 0; i < 5; i++) v.add(fx.commit("main", List.of("d.parquet")));
    }

    Expire.Report expire(int keep, Duration olderThan, boolean dry) {
        return new Expire(fx.repo, CLOCK).run(new Expire.Options(keep, olderThan, dry));
    }

    boolean expired(String id) {
        return fx.exists(RepoLayout.expiredJson(id));
    }

    @Test
    void keepsTheNewestNAndEveryVersionARefPointsAt() {
        fx.tag("v2", v.get(1));
        fx.store.put("versions/" + v.get(0) + "/catalogs/ducklake.sqlite", new byte[]{1});

        Expire.Report r = expire(2, null, false);

        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactly(v.get(0), v.get(2));
        assertThat(r.kept()).isEqualTo(3);
        for (String id : List.of(v.get(0), v.get(2))) {
            assertThat(fx.keys()).filteredOn(k -> k.startsWith("versions/" + id + "/"))
                    .containsExactly("versions/" + id + "/dataset.json", "versions/" + id + "/expired.json",
                            "versions/" + id + "/version.json");
            assertThat(fx.repo.readExpired(id).orElseThrow().expiredAt()).isEqualTo(NOW);
            assertThat(fx.repo.readExpired(id).orElseThrow().reason()).isEqualTo("retention");
        }
        for (String id : List.of(v.get(1), v.get(3), v.get(4))) {
            assertThat(expired(id)).isFalse();
            assertThat(fx.exists("versions/" + id + "/ducklake.duckdb")).isTrue();
        }
        assertThat(fx.exists("data/d.parquet")).as("expire never deletes data").isTrue();
    }

    @Test
    void aConflictLoserTakesNoKeepSlotAndIsLeftToGc() {
        // the newest version by id lost the race to v4 (its base is v3): no ref reaches it
        String loser = fx.version(List.of(v.get(3)), List.of("d.parquet"));

        Expire.Report r = expire(2, null, false);

        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactly(v.get(0), v.get(1), v.get(2));
        assertThat(expired(v.get(3))).as("one of the 2 newest reachable versions").isFalse();
        assertThat(expired(loser)).isFalse();
        assertThat(fx.exists("versions/" + loser + "/ducklake.duckdb")).isTrue();
        assertThat(r.kept()).isEqualTo(2);
    }

    @Test
    void versionsReachedOnlyThroughASecondParentCount() {
        String side = fx.version(List.of(v.get(0)), List.of("d.parquet"));
        String merge = fx.version(List.of(v.get(4), side), List.of("d.parquet"));
        fx.store.put("refs/heads/main", Repository.refBytes(merge));
        // 7 reachable versions (side only through merge's second parent): keeping 6 expires the oldest
        Expire.Report r = expire(6, null, false);
        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactly(v.get(0));
        assertThat(r.kept()).isEqualTo(6);
        assertThat(expired(side)).isFalse();
    }

    @Test
    void keepZeroKeepsOnlyWhatRefsPointAt() {
        expire(0, null, false);
        assertThat(v.subList(0, 4)).allMatch(this::expired);
        assertThat(expired(v.get(4))).as("main points at it").isFalse();
    }

    @Test
    void olderThanAlsoRequiresCreatedAtBeforeTheCutoff() {
        fx.store.put(RepoLayout.versionJson(v.get(0)), withCreatedAt(v.get(0), NOW.minus(Duration.ofDays(40))));
        fx.store.put(RepoLayout.versionJson(v.get(1)), withCreatedAt(v.get(1), NOW.minus(Duration.ofDays(10))));
        Expire.Report r = expire(1, Duration.ofDays(30), false);
        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactly(v.get(0));
        assertThat(r.expired().get(0).createdAt()).isEqualTo(NOW.minus(Duration.ofDays(40)));
    }

    byte[] withCreatedAt(String id, Instant at) {
        VersionInfo i = fx.repo.readVersion(id).orElseThrow();
        return new VersionInfo(i.fdl(), i.id(), i.seq(), i.parents(), at, i.author(), i.message(), i.catalog(),
                i.dataset(), i.ducklake(), i.extra()).toBytes();
    }

    @Test
    void dryRunReportsTheChoiceAndChangesNothing() {
        List<String> before = fx.keys();
        Expire.Report r = expire(3, null, true);
        assertThat(r.dryRun()).isTrue();
        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactly(v.get(0), v.get(1));
        assertThat(fx.keys()).isEqualTo(before);
    }

    @Test
    void alreadyExpiredVersionsDoNotCountTowardsKeep() {
        expire(3, null, false);
        Expire.Report again = expire(3, null, false);
        assertThat(again.expired()).isEmpty();
        assertThat(again.kept()).isEqualTo(3);
    }

    @Test
    void readersAskedForAnExpiredVersionGetNotFoundNamingTheDate() {
        expire(1, null, false);
        assertThatThrownBy(() -> fx.repo.resolve(v.get(0)))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND))
                .hasMessageContaining("expired on 2026-12-01T00:00:00Z");
    }

    @Test
    void logStillListsExpiredVersionsMarked() {
        expire(1, null, false);
        List<Repository.LogEntry> log = fx.repo.log(v.get(4), -1);
        assertThat(log).hasSize(5);
        assertThat(log.get(0).expired()).isNull();
        assertThat(log.subList(1, 5)).allMatch(e -> e.expired() != null && e.expired().expiredAt().equals(NOW));
    }

    @Test
    void aCrashAtAnyWriteIsFinishedByARerunWithTheSameChoice() {
        for (int k = 1; ; k++) {
            fx = RepoFixture.create(tmp.resolve("run-" + k));
            v.clear();
            fx.dataFile("d.parquet", RepoFixture.OLD);
            for (int i = 0; i < 5; i++) v.add(fx.commit("main", List.of("d.parquet")));
            fx.store.put("versions/" + v.get(1) + "/catalogs/a.sqlite", new byte[]{1});
            // keep 2 expires v0..v2: their catalogs go, expired.json comes
            List<String> expected = new ArrayList<>(fx.keys());
            for (String id : v.subList(0, 3)) {
                expected.removeIf(key -> key.startsWith("versions/" + id + "/catalogs/") || key.equals("versions/" + id + "/ducklake.duckdb"));
                expected.add(RepoLayout.expiredJson(id));
            }
            expected.sort(null);

            FaultyStore faulty = new FaultyStore(fx.store, k);
            boolean crashed;
            try {
                new Expire(Repository.open(faulty), CLOCK).run(new Expire.Options(2, null, false));
                crashed = false;
            } catch (StoreException e) {
                crashed = true;
            }
            for (String id : v) // never a version with no catalog and no explanation
                assertThat(fx.exists("versions/" + id + "/ducklake.duckdb") || expired(id)).as("crash at write " + k).isTrue();
            expire(2, null, false);
            assertThat(fx.keys()).as("crash at write " + k).isEqualTo(expected);
            if (!crashed) break;
        }
    }

    @Test
    void aRefCreatedAfterTheChoiceProtectsItsVersion() {
        // The second read of refs, just before marking, catches a tag created meanwhile.
        dev.fdl.store.CountingStore counting = new dev.fdl.store.CountingStore(fx.store);
        counting.onFirstList("versions/", p -> fx.tag("late", v.get(0)));
        Expire.Report r = new Expire(Repository.open(counting), CLOCK).run(new Expire.Options(2, null, false));
        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactly(v.get(1), v.get(2));
        assertThat(expired(v.get(0))).isFalse();
    }
}
