package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * gc's marks on S3 (SPEC.md section 5): created with If-None-Match, judged by the listing's
 * last-modified, removed when a ref reaches the version again, the version deleted a grace period
 * after its mark. S3Mock cannot set object times, so gc's clock moves forward instead: objects
 * written now are days old to it.
 */
@UsesS3Mock
class GcMarkOnS3Test {
    static final Duration WEEK = Duration.ofDays(7);

    @TempDir Path tmp;

    @Test
    void aDeletedBranchIsMarkedUnmarkedByATagMarkedAfreshAndDeletedAGracePeriodAfterItsMark() {
        RepoFixture fx = RepoFixture.create(tmp);
        fx.dataFiles(RepoFixture.OLD, "main.parquet", "dev-1.parquet", "dev-2.parquet");
        String m1 = fx.commit("main", List.of("main.parquet"));
        fx.repo.createBranch(new RefName("dev"), m1);
        String d1 = fx.commit("dev", List.of("main.parquet", "dev-1.parquet"));
        String d2 = fx.commit("dev", List.of("main.parquet", "dev-2.parquet"));
        fx.repo.deleteRef(RefValue.Kind.BRANCH, new RefName("dev"));

        try (ObjectStore s3 = S3MockServer.shared().newStore()) {
            copy(fx.store, s3); // catalogs keep their local data_path: gc resolves names against it
            Repository repo = Repository.open(s3);
            CatalogCache cache = new CatalogCache(tmp.resolve("cache"));
            Instant now = Instant.now();

            Gc.Report first = gc(repo, cache, now.plus(Duration.ofDays(8)), false);
            assertThat(first.marked()).containsExactly(d1, d2);
            assertThat(first.unreachableVersions().count()).isZero();
            assertThat(s3.get(RepoLayout.unreachableJson(d2))).isPresent();
            assertThat(repo.readUnreachableMark(d2).orElseThrow().by()).isEqualTo("gc");
            assertThat(s3.get("data/dev-2.parquet")).isPresent();

            repo.createTag(new RefName("keep"), d2);
            assertThat(s3.get(RepoLayout.unreachableJson(d2))).as("the tag removes its version's mark").isEmpty();
            Gc.Report tagged = gc(repo, cache, now.plus(Duration.ofDays(8)), false);
            assertThat(tagged.unmarked()).as("d1").isEqualTo(1);
            assertThat(s3.get(RepoLayout.unreachableJson(d1))).isEmpty();
            assertThat(s3.get(RepoLayout.unreachableJson(d2))).isEmpty();

            repo.deleteRef(RefValue.Kind.TAG, new RefName("keep"));
            Gc.Report again = gc(repo, cache, now.plus(Duration.ofDays(8)), false);
            assertThat(again.marked()).containsExactly(d1, d2);
            assertThat(again.unreachableVersions().count()).isZero();

            List<String> before = keys(s3);
            Gc.Report dry = gc(repo, cache, now.plus(Duration.ofDays(16)), true);
            assertThat(keys(s3)).isEqualTo(before);
            assertThat(dry.unreachableVersions().count()).isEqualTo(2);

            Gc.Report after = gc(repo, cache, now.plus(Duration.ofDays(16)), false);
            assertThat(after.unreachableVersions().count()).isEqualTo(2);
            assertThat(keys(s3)).noneMatch(k -> k.startsWith(RepoLayout.versionFolder(d1)) || k.startsWith(RepoLayout.versionFolder(d2)))
                    .contains(RepoLayout.versionJson(m1), "data/main.parquet")
                    .doesNotContain("data/dev-1.parquet", "data/dev-2.parquet");
        }
    }

    static Gc.Report gc(Repository repo, CatalogCache cache, Instant at, boolean dryRun) {
        return new Gc(repo, cache, RepoFixture.TEXT_CATALOGS, Clock.fixed(at, ZoneOffset.UTC)).run(new Gc.Options(WEEK, dryRun, 2));
    }

    static void copy(ObjectStore from, ObjectStore to) {
        for (String k : keys(from)) to.put(k, from.get(k).orElseThrow().bytes());
    }

    static List<String> keys(ObjectStore store) {
        try (Stream<ObjectMeta> s = store.list("")) {
            return s.map(ObjectMeta::key).sorted().toList();
        }
    }
}
