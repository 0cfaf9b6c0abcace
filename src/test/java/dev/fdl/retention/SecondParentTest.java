package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.TestVersions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A version reachable only through a merge version's second parent is live like any other
 * (SPEC.md section 5: gc, expire, verify and {@code branch -d} walk every parent): gc neither
 * marks nor deletes it, verify does not count it unreachable, {@code branch -d} of its branch
 * finds it merged, and expire judges it (docs/retention.md, "Policies").
 */
class SecondParentTest {
    @TempDir Path tmp;
    RepoFixture fx;
    String base, s1, s2, c, merge;

    /**
     * main: base <- c <- merge(c, s2); side: base <- s1 <- s2, merged, then side deleted. s1 alone
     * names s1.parquet. Everything 30 days old.
     */
    @BeforeEach
    void mergedSideBranch() {
        fx = RepoFixture.create(tmp);
        fx.dataFiles(RepoFixture.OLD, "base.parquet", "c.parquet", "s1.parquet", "s2.parquet");
        base = fx.commit("main", List.of("base.parquet"));
        fx.repo.createBranch(new RefName("side"), base);
        s1 = fx.commit("side", List.of("base.parquet", "s1.parquet"));
        s2 = fx.commit("side", List.of("base.parquet", "s2.parquet"));
        c = fx.commit("main", List.of("base.parquet", "c.parquet"));
        merge = fx.version(List.of(c, s2), List.of("base.parquet", "c.parquet", "s2.parquet"));
        TestVersions.setBranch(fx.store(), "main", merge);
    }

    void deleteSide() {
        assertThat(fx.repo.deleteRef(RefValue.Kind.BRANCH, new RefName("side")).result().changed()).isTrue();
        for (String id : List.of(base, s1, s2, c, merge)) fx.age(RepoLayout.versionFolder(id), RepoFixture.OLD);
    }

    Gc.Report gc() {
        return new Gc(fx.repo, new CatalogCache(tmp.resolve("cache")), RepoFixture.TEXT_CATALOGS, Clock.systemUTC())
                .run(new Gc.Options(Duration.ZERO, false, 2));
    }

    Verify.Report verify() {
        return new Verify(fx.repo, new CatalogCache(tmp.resolve("cache")), RepoFixture.TEXT_CATALOGS).run();
    }

    @Test
    void branchDeleteFindsABranchMergedThroughASecondParent() {
        RefValue side = fx.repo.readBranch(new RefName("side")).orElseThrow();
        assertThat(fx.repo.reachableFromOtherRefs(s2, side)).isTrue();
        assertThat(fx.repo.reachableFromOtherRefs(s1, side)).isTrue();
    }

    @Test
    void gcKeepsWhatOnlyASecondParentReachesAndTheDataItNames() {
        deleteSide();
        Gc.Report r = gc();

        assertThat(r.marked()).isEmpty();
        assertThat(r.unreachableVersions().count()).isZero();
        for (String id : List.of(s1, s2)) {
            assertThat(fx.exists(RepoLayout.versionJson(id))).isTrue();
            assertThat(fx.exists(RepoLayout.unreachableJson(id))).isFalse();
        }
        assertThat(fx.exists("data/s1.parquet")).isTrue();
        assertThat(r.liveVersions()).isEqualTo(5);
    }

    @Test
    void verifyCountsNothingUnreachable() {
        deleteSide();
        Verify.Report r = verify();
        assertThat(r.problems()).isEmpty();
        assertThat(r.unreachable()).isZero();
        assertThat(r.live()).isEqualTo(5);
    }

    @Test
    void expireJudgesTheMergedLineAndGcThenKeepsItsVersionJson() {
        deleteSide();
        Expire.Report r = new Expire(fx.repo, Clock.systemUTC())
                .run(new Expire.Options(new RetentionPolicy(1, null, 0, 0, 0, 0, null, null, null), false));

        // main's line keeps merge; the merged line (s2 s1) keeps s2, the merge's second parent
        assertThat(r.expired()).extracting(Expire.Expired::id).containsExactlyInAnyOrder(base, c, s1);
        assertThat(fx.exists(RepoLayout.expiredJson(s2))).isFalse();

        gc();
        assertThat(fx.exists(RepoLayout.versionJson(s1))).as("history stays whole").isTrue();
        assertThat(fx.exists(RepoLayout.unreachableJson(s1))).isFalse();
        assertThat(fx.exists("data/s1.parquet")).as("named by no live catalog any more").isFalse();
        assertThat(fx.exists("data/s2.parquet")).isTrue();
        assertThat(verify().problems()).isEmpty();
    }
}
