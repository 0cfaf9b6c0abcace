package dev.fdl.retention;

import dev.fdl.repo.RepoLayout;
import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.ExpiredInfo;
import dev.fdl.repo.RepoFixture;
import dev.fdl.util.VersionIds;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VerifyTest {
    @TempDir Path tmp;
    RepoFixture fx;

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
    }

    Verify.Report verify() {
        return new Verify(fx.repo, new CatalogCache(tmp.resolve("cache")), RepoFixture.TEXT_CATALOGS).run();
    }

    @Test
    void aHealthyRepositoryHasNoProblems() {
        fx.dataFiles(RepoFixture.OLD, "a.parquet", "b.parquet");
        String v1 = fx.commit("main", List.of("a.parquet"));
        fx.commit("main", List.of("a.parquet", "b.parquet"));
        fx.tag("first", v1);
        fx.unfinished(fx.textCatalog(List.of())); // a commit that stopped before step 8 is normal
        fx.version(List.of(v1), List.of("b.parquet")); // so is one that lost the race for main
        Verify.Report r = verify();
        assertThat(r.problems()).isEmpty();
        assertThat(r.clean()).isTrue();
        assertThat(r.versions()).isEqualTo(3);
        assertThat(r.live()).isEqualTo(3);
        assertThat(r.unreachable()).isEqualTo(1);
        assertThat(r.unfinished()).isEqualTo(1);
        assertThat(r.refs()).isEqualTo(2);
        assertThat(r.namesChecked()).isEqualTo(4);
    }

    @Test
    void anEmptyRepositoryIsClean() {
        assertThat(verify().problems()).isEmpty();
    }

    @Test
    void listsEveryProblemItFinds() {
        fx.dataFiles(RepoFixture.OLD, "a.parquet");
        String v1 = fx.commit("main", List.of("a.parquet", "missing.parquet"));
        String v2 = fx.version(List.of(VersionIds.next()), List.of("a.parquet")); // parent does not exist
        String v3 = fx.version(List.of(), Instant.now(),
                fx.textCatalog("/elsewhere/data/", List.of("/tmp/outside/x.parquet")));
        String v4 = fx.commit("dev", List.of());
        fx.store.put("versions/" + v4 + "/ducklake.duckdb", "tampered".getBytes());
        String v5 = fx.commit("old", List.of());
        fx.store.putIfAbsent(RepoLayout.expiredJson(v5), new ExpiredInfo(Instant.now(), "retention", java.util.Map.of()).toBytes());
        fx.tag("nowhere", VersionIds.next());
        fx.store.put("refs/tags/garbled", "not a version id\n".getBytes());
        fx.store.put("versions/stray.txt", new byte[]{1});

        Verify.Report r = verify();

        assertThat(r.problems()).extracting(Verify.Problem::toString).satisfiesExactlyInAnyOrder(
                p -> assertThat(p).startsWith("versions/" + v1 + "/ducklake.duckdb").contains("data/missing.parquet", "does not exist"),
                p -> assertThat(p).startsWith(RepoLayout.versionJson(v2)).contains("parent"),
                p -> assertThat(p).startsWith("versions/" + v3 + "/ducklake.duckdb").contains("/tmp/outside/x.parquet", "outside"),
                p -> assertThat(p).startsWith("versions/" + v4 + "/ducklake.duckdb").contains("sha256"),
                p -> assertThat(p).startsWith("refs/heads/old").contains("expired"),
                p -> assertThat(p).startsWith("versions/" + v5 + "/ducklake.duckdb").contains("expired version"),
                p -> assertThat(p).startsWith("refs/tags/nowhere").contains("not a finished version"),
                p -> assertThat(p).startsWith("refs/tags/garbled").contains("corrupt ref"),
                p -> assertThat(p).startsWith("versions/stray.txt"));
    }

    @Test
    void reportsACorruptVersionJsonAndAMissingDatasetJson() {
        String v1 = fx.commit("main", List.of());
        String v2 = fx.commit("main", List.of());
        fx.store.put(RepoLayout.versionJson(v1), "{\"fdl\": \"0.1\"".getBytes());
        fx.store.delete("versions/" + v2 + "/dataset.json");
        Verify.Report r = verify();
        assertThat(r.problems()).extracting(Verify.Problem::toString).anySatisfy(p ->
                assertThat(p).startsWith(RepoLayout.versionJson(v1)).contains("not valid JSON"));
        assertThat(r.problems()).extracting(Verify.Problem::toString).anySatisfy(p ->
                assertThat(p).startsWith("versions/" + v2 + "/dataset.json").contains("missing"));
        assertThat(r.problems()).hasSize(2);
    }
}
