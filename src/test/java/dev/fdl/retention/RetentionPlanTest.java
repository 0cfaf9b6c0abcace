package dev.fdl.retention;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Policies on synthetic histories: versions with chosen created_at (UTC) over three years,
 * branches and tags, against kept sets written out by hand. Version ids are the letters.
 */
class RetentionPlanTest {
    static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

    final Map<String, RetentionPlan.Version> versions = new LinkedHashMap<>();
    final List<RetentionPlan.Ref> refs = new ArrayList<>();

    /** Versions "id=created_at", each the child of the one before; the first's parent is {@code parent} (null: none). */
    void chain(String parent, String... specs) {
        String p = parent;
        for (String s : specs) {
            String[] kv = s.split("=");
            versions.put(kv[0], new RetentionPlan.Version(kv[0], Instant.parse(kv[1]), p == null ? List.of() : List.of(p), false));
            p = kv[0];
        }
    }

    void branch(String name, String id) {
        refs.add(new RetentionPlan.Ref(true, name, id));
    }

    void tag(String name, String id) {
        refs.add(new RetentionPlan.Ref(false, name, id));
    }

    static RetentionPolicy policy(int last, Duration within, int daily, int weekly, int monthly, int yearly) {
        return new RetentionPolicy(last, within, daily, weekly, monthly, yearly, null, null, null);
    }

    List<RetentionPlan.Decision> decide(RetentionPolicy p) {
        return RetentionPlan.decide(p, versions.values(), refs, NOW);
    }

    Set<String> kept(RetentionPolicy p) {
        Set<String> out = new TreeSet<>();
        for (RetentionPlan.Decision d : decide(p)) if (d.kept()) out.add(d.id());
        return out;
    }

    Set<String> expired(RetentionPolicy p) {
        Set<String> out = new TreeSet<>();
        for (RetentionPlan.Decision d : decide(p)) if (!d.kept()) out.add(d.id());
        return out;
    }

    List<String> reasons(RetentionPolicy p, String id) {
        return decide(p).stream().filter(d -> d.id().equals(id)).findFirst().orElseThrow().reasons();
    }

    @Test
    void dailyBucketsStartAtUtcMidnight() {
        chain(null, "a=2026-11-28T23:59:59Z", "b=2026-11-29T00:00:00Z", "c=2026-11-29T23:59:59Z", "d=2026-11-30T00:00:00Z");
        branch("main", "d");
        RetentionPolicy p = policy(0, null, 3, 0, 0, 0);
        assertThat(kept(p)).containsExactly("a", "c", "d");
        assertThat(expired(p)).containsExactly("b");
        assertThat(reasons(p, "c")).containsExactly("daily 2026-11-29 [branch main]");
        assertThat(reasons(p, "d")).containsExactly("points at: branch main", "daily 2026-11-30 [branch main]");
    }

    @Test
    void weeklyBucketsAreIsoWeeksAcrossTheYearEnd() {
        // 2020-12-31 (Thu) and 2021-01-03 (Sun) are both in ISO week 2020-W53; 2021-01-04 (Mon) starts 2021-W01
        chain(null, "a=2020-12-27T12:00:00Z", "b=2020-12-31T12:00:00Z", "c=2021-01-03T23:59:59Z",
                "d=2021-01-04T00:00:00Z", "e=2021-01-10T10:00:00Z");
        branch("main", "e");
        RetentionPolicy p = policy(0, null, 0, 2, 0, 0);
        assertThat(kept(p)).containsExactly("c", "e");
        assertThat(reasons(p, "c")).containsExactly("weekly 2020-W53 [branch main]");
        assertThat(kept(policy(0, null, 0, 3, 0, 0))).containsExactly("a", "c", "e");
    }

    @Test
    void monthlyAndYearlyOverThreeYearsWithYearEndEdges() {
        chain(null, "a=2023-06-15T00:00:00Z", "b=2023-12-31T23:59:59Z", "c=2024-01-01T00:00:00Z", "d=2024-07-01T00:00:00Z",
                "e=2024-12-31T23:59:59Z", "f=2025-01-01T00:00:00Z", "g=2025-03-10T00:00:00Z", "h=2025-03-20T00:00:00Z");
        branch("main", "h");
        assertThat(kept(policy(0, null, 0, 0, 0, 3))).containsExactly("b", "e", "h");
        assertThat(kept(policy(0, null, 0, 0, 3, 0))).containsExactly("e", "f", "h");
        RetentionPolicy both = policy(0, null, 0, 0, 3, 3);
        assertThat(kept(both)).containsExactly("b", "e", "f", "h");
        assertThat(expired(both)).containsExactly("a", "c", "d", "g");
        assertThat(reasons(both, "e")).containsExactly("monthly 2024-12 [branch main]", "yearly 2024 [branch main]");
    }

    @Test
    void keepLastKeepsTheNewestAndTagsAreAlwaysKeptWithoutUsingACount() {
        chain(null, "a=2024-01-01T00:00:00Z", "b=2024-02-01T00:00:00Z", "c=2024-03-01T00:00:00Z", "d=2024-04-01T00:00:00Z");
        branch("main", "d");
        tag("v1", "a");
        RetentionPolicy p = policy(2, null, 0, 0, 0, 0);
        assertThat(kept(p)).containsExactly("a", "c", "d");
        assertThat(expired(p)).containsExactly("b");
        assertThat(reasons(p, "a")).containsExactly("points at: tag v1");
        assertThat(kept(policy(0, null, 0, 0, 0, 0))).as("an empty policy keeps only what refs point at").containsExactly("a", "d");
    }

    @Test
    void keepWithinCountsBackFromTheNewestVersionNotFromNow() {
        // the cutoff is 2024-01-20T00:00:00Z, and exactly at the cutoff is not within (restic: After)
        chain(null, "a=2024-01-01T00:00:00Z", "b=2024-01-20T00:00:00Z", "c=2024-01-20T00:00:01Z", "d=2024-01-30T00:00:00Z");
        branch("main", "d");
        RetentionPolicy p = policy(0, Duration.ofDays(10), 0, 0, 0, 0);
        assertThat(kept(p)).containsExactly("c", "d");
        assertThat(reasons(p, "c")).containsExactly("within [branch main]");
    }

    @Test
    void bucketsAreCountedPerBranch() {
        chain(null, "a=2025-01-01T00:00:00Z", "b=2025-01-02T00:00:00Z", "c=2025-01-03T00:00:00Z");
        chain("b", "x=2025-01-02T12:00:00Z", "y=2025-01-05T00:00:00Z");
        branch("main", "c");
        branch("dev", "y");
        // main's history is c b a, dev's is y x b a: the newest two of each
        RetentionPolicy p = policy(2, null, 0, 0, 0, 0);
        assertThat(kept(p)).containsExactly("b", "c", "x", "y");
        assertThat(expired(p)).containsExactly("a");
        assertThat(reasons(p, "b")).containsExactly("last [branch main]");
    }

    @Test
    void aPolicyForOneBranchKeepsWhatOtherBranchesReach() {
        chain(null, "a=2025-01-01T00:00:00Z", "b=2025-01-02T00:00:00Z", "c=2025-01-03T00:00:00Z");
        chain("b", "x=2025-01-02T12:00:00Z", "y=2025-01-05T00:00:00Z", "z=2025-01-06T00:00:00Z");
        branch("main", "c");
        branch("dev", "z");
        RetentionPolicy p = policy(1, null, 0, 0, 0, 0).onBranch("dev");
        assertThat(kept(p)).containsExactly("a", "b", "c", "z");
        assertThat(expired(p)).containsExactly("x", "y");
        assertThat(reasons(p, "b")).containsExactly("also on branch main");
        assertThat(reasons(p, "c")).containsExactly("points at: branch main", "not on branch dev");
        assertThatThrownBy(() -> kept(p.onBranch("nope")))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND))
                .hasMessageContaining("no branch 'nope'");
    }

    @Test
    void aRuleWithCountLeftAtTheOldestVersionKeepsItToo() {
        chain(null, "a=2026-01-01T08:00:00Z", "b=2026-01-01T20:00:00Z", "c=2026-01-02T08:00:00Z", "d=2026-01-02T20:00:00Z",
                "e=2026-01-03T08:00:00Z", "f=2026-01-03T20:00:00Z");
        branch("main", "f");
        RetentionPolicy p = policy(0, null, 5, 0, 0, 0);
        assertThat(kept(p)).containsExactly("a", "b", "d", "f");
        assertThat(reasons(p, "a")).containsExactly("oldest daily 2026-01-01 [branch main]");
        assertThat(kept(policy(0, null, 3, 0, 0, 0))).as("no count left: no oldest").containsExactly("b", "d", "f");
    }

    @Test
    void expiredVersionsUseNoCountButHistoryRunsThroughThem() {
        chain(null, "a=2024-01-01T00:00:00Z", "b=2024-01-02T00:00:00Z", "c=2024-01-03T00:00:00Z", "d=2024-01-04T00:00:00Z");
        versions.put("b", new RetentionPlan.Version("b", Instant.parse("2024-01-02T00:00:00Z"), List.of("a"), true));
        branch("main", "d");
        RetentionPolicy p = policy(3, null, 0, 0, 0, 0);
        assertThat(kept(p)).containsExactly("a", "c", "d");
        assertThat(decide(p)).extracting(RetentionPlan.Decision::id).as("newest first, expired ones not judged")
                .containsExactly("d", "c", "a");
    }

    /** main: a b c, then m merges staging (s1 s2 s3, forked at a) as its second parent. */
    void mergedStaging() {
        chain(null, "a=2026-01-01T10:00:00Z", "b=2026-01-02T10:00:00Z", "c=2026-01-03T10:00:00Z");
        chain("a", "s1=2026-01-03T12:00:00Z", "s2=2026-01-03T18:00:00Z", "s3=2026-01-04T06:00:00Z");
        versions.put("m", new RetentionPlan.Version("m", Instant.parse("2026-01-04T12:00:00Z"), List.of("c", "s3"), false));
        branch("main", "m");
    }

    @Test
    void aBranchCountsAlongItsFirstParentsAndWhatAMergeBroughtInIsItsOwnHistory() {
        mergedStaging();
        RetentionPolicy p = policy(0, null, 2, 0, 0, 0);
        // main's own states per day (m, c), not crowded out by staging's newer versions of the same days
        assertThat(kept(p)).containsExactly("c", "m", "s2", "s3");
        assertThat(expired(p)).containsExactly("a", "b", "s1");
        assertThat(reasons(p, "c")).containsExactly("daily 2026-01-03 [branch main]");
        assertThat(reasons(p, "s3")).containsExactly("daily 2026-01-04 [branch main, merged by m]");

        branch("staging", "s3");
        assertThat(kept(p)).as("deleting the merged branch changes nothing").containsExactly("c", "m", "s2", "s3");
    }

    @Test
    void theSecondParentOfAMergeIsKeptByAnyRule() {
        mergedStaging();
        assertThat(kept(policy(1, null, 0, 0, 0, 0))).containsExactly("m", "s3");
        assertThat(kept(policy(0, Duration.ofHours(1), 0, 0, 0, 0))).containsExactly("m", "s3");
        assertThat(kept(policy(0, null, 0, 0, 0, 2))).as("restic's oldest rule in each").containsExactly("a", "m", "s1", "s3");
        assertThat(expired(policy(1, null, 0, 0, 0, 0).onBranch("main"))).containsExactly("a", "b", "c", "s1", "s2");
    }

    @Test
    void versionsOnlyATagReachesFormTheTagsOwnHistory() {
        chain(null, "a=2024-01-01T00:00:00Z", "c=2024-01-03T00:00:00Z", "d=2024-01-04T00:00:00Z");
        chain("a", "x=2024-01-02T00:00:00Z", "y=2024-01-02T12:00:00Z", "w=2024-01-02T18:00:00Z");
        branch("main", "d");
        tag("t", "w"); // the branch that made x, y, w was deleted
        RetentionPolicy p = policy(2, null, 0, 0, 0, 0);
        assertThat(kept(p)).containsExactly("c", "d", "w", "y");
        assertThat(expired(p)).containsExactly("a", "x");
        assertThat(reasons(p, "y")).containsExactly("last [tag t]");
    }

    @Test
    void fdlsOriginalKeepIsGlobalByIdAndOlderThanProtectsYoungVersions() {
        chain(null, "a=2026-10-01T00:00:00Z", "b=2026-11-25T00:00:00Z", "c=2026-11-26T00:00:00Z");
        chain("b", "x=2026-10-02T00:00:00Z", "y=2026-10-03T00:00:00Z");
        branch("main", "c");
        branch("dev", "y");
        // newest by id: y, x (c is a ref anyway); --older-than 10d keeps b (created 6 days before NOW)
        assertThat(kept(RetentionPolicy.legacy(2, null))).containsExactly("c", "x", "y");
        assertThat(kept(RetentionPolicy.legacy(2, Duration.ofDays(10)))).containsExactly("b", "c", "x", "y");
        assertThat(kept(RetentionPolicy.legacy(0, null))).containsExactly("c", "y");
    }

    @Test
    void theSavedFormRoundTripsAndRefusesWhatItDoesNotKnow() {
        RetentionPolicy p = new RetentionPolicy(3, Duration.ofDays(30), 7, 5, 12, 10, 4, Duration.ofHours(36), "main");
        assertThat(RetentionPolicy.fromJson(p.toJson(), "fdl.json")).isEqualTo(p);
        assertThat(p.toJson().toString()).isEqualTo("{\"keep_last\":3,\"keep_within\":\"PT720H\",\"keep_daily\":7,\"keep_weekly\":5,"
                + "\"keep_monthly\":12,\"keep_yearly\":10,\"keep\":4,\"older_than\":\"PT36H\",\"branch\":\"main\"}");
        var bad = dev.fdl.util.Json.MAPPER.createObjectNode().put("keep_hourly", 3);
        assertThatThrownBy(() -> RetentionPolicy.fromJson(bad, "fdl.json")).hasMessageContaining("keep_hourly").hasMessageContaining("fdl.json");
        var neg = dev.fdl.util.Json.MAPPER.createObjectNode().put("keep_daily", -1);
        assertThatThrownBy(() -> RetentionPolicy.fromJson(neg, "fdl.json")).hasMessageContaining("fdl.json").hasMessageContaining("keep-daily");
        var dur = dev.fdl.util.Json.MAPPER.createObjectNode().put("keep_within", "30d");
        assertThatThrownBy(() -> RetentionPolicy.fromJson(dur, "fdl.json")).hasMessageContaining("retention.keep_within");
    }
}
