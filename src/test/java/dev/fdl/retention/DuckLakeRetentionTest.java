package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.CatalogFiles;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.Repository;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Retention on catalogs written by the real DuckLake extension (the test fixtures), read through dev.fdl.ducklake. */
class DuckLakeRetentionTest {
    @TempDir Path tmp;
    RepoFixture fx;
    CatalogCache cache;

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
        cache = new CatalogCache(tmp.resolve("cache"));
    }

    @Test
    void gcKeepsEveryDataAndDeleteFileARealCatalogNamesAndDeletesTheRest() {
        // The fixture's data_path is /fixture/towns/data/: the repository "moved" since the catalog
        // was written, and names resolve against the catalog's own data path.
        List<String> towns = fx.copyFixtureData("towns", RepoFixture.OLD);
        String v1 = fx.version(List.of(), Instant.now(), fx.fixtureCatalog("towns"));
        fx.store.put("refs/heads/main", Repository.refBytes(v1));
        List<String> typesData = fx.copyFixtureData("types", RepoFixture.OLD);
        String v2 = fx.version(List.of(v1), Instant.now(), fx.fixtureCatalog("types"));
        fx.expire(v2);
        fx.dataFile("main/towns/ducklake-orphan.parquet", RepoFixture.OLD);

        Gc.Report r = new Gc(fx.repo, cache, CatalogFiles.duckLake(), Clock.systemUTC()).run(new Gc.Options(Duration.ZERO, false, 2));

        assertThat(towns).hasSize(3).allMatch(n -> fx.exists("data/" + n));
        assertThat(towns).anyMatch(n -> n.endsWith("-delete.parquet"));
        assertThat(typesData).noneMatch(n -> fx.exists("data/" + n));
        assertThat(fx.exists("data/main/towns/ducklake-orphan.parquet")).isFalse();
        assertThat(r.liveNames()).isEqualTo(3);
        assertThat(r.dataFiles().count()).isEqualTo(typesData.size() + 1);

        Verify.Report vr = new Verify(fx.repo, cache, CatalogFiles.duckLake()).run();
        assertThat(vr.problems()).isEmpty();
        assertThat(vr.namesChecked()).isEqualTo(3);
    }

    @Test
    void verifyReportsTheFilesOfARealCatalogThatAreMissing() {
        fx.copyFixtureData("towns", RepoFixture.OLD);
        String v1 = fx.version(List.of(), Instant.now(), fx.fixtureCatalog("towns"));
        fx.store.put("refs/heads/main", Repository.refBytes(v1));
        fx.store.delete("data/main/towns/ducklake-01a22959-f515-7195-8ca9-a09be8bdc366-delete.parquet");

        Verify.Report vr = new Verify(fx.repo, cache, CatalogFiles.duckLake()).run();

        assertThat(vr.problems()).singleElement().extracting(Verify.Problem::message).asString()
                .contains("delete file data/main/towns/ducklake-01a22959-f515-7195-8ca9-a09be8bdc366-delete.parquet", "does not exist");
    }
}
