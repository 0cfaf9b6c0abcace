package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.catalog.CatalogFiles;
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

    /**
     * A DuckLake 1.1 catalog (the extension's 1.1-dev1 towns, upgraded as the specification says)
     * whose table main.towns lives in nested schema main.europe (path {@code europe/}) and has a
     * live Puffin deletion vector: gc keeps both and the table's other files at
     * {@code data/europe/towns/} (a nested schema's path is relative to the data path, not to its
     * parent's folder, as the 1.1 extension reads it), and deletes the copies at the old, unnamed
     * place, and anything at the parent-relative place {@code data/main/europe/towns/}.
     */
    @Test
    void gcKeepsALivePuffinDeleteFileAndTheFilesOfATableInANestedSchema() throws Exception {
        java.nio.file.Path catalog = fx.fixtureCatalog("duckdb2-ducklake1.1-dev/towns");
        dev.fdl.ducklake.rewrite.FormatUpgrade.upgrade(catalog, "1.1");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + catalog.toAbsolutePath());
             java.sql.Statement st = c.createStatement()) {
            st.execute("INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, end_snapshot, schema_name, path,"
                    + " path_is_relative, parent_schema_id) VALUES (100, uuid(), 0, NULL, 'europe', 'europe/', true, 0)");
            st.execute("UPDATE ducklake_table SET schema_id = 100 WHERE table_id = 1");
            st.execute("INSERT INTO ducklake_delete_file (delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, path,"
                    + " path_is_relative, format, delete_count, file_size_bytes, footer_size)"
                    + " SELECT 100, 1, max(snapshot_id), NULL, 1, 'ducklake-dv.puffin', true, 'puffin', 1, 64, 0 FROM ducklake_snapshot");
        }
        List<String> fixtureFiles = fx.copyFixtureData("duckdb2-ducklake1.1-dev/towns", RepoFixture.OLD);
        List<String> nested = new java.util.ArrayList<>();
        for (String n : fixtureFiles) {
            if (!n.startsWith("main/towns/")) continue;
            String moved = "europe/towns/" + n.substring("main/towns/".length());
            fx.dataFile(moved, java.nio.file.Files.readAllBytes(fx.root.resolve(fx.repo.dataDir() + n)), RepoFixture.OLD); // the size the catalog records
            nested.add(moved);
        }
        fx.dataFile("europe/towns/ducklake-dv.puffin", new byte[64], RepoFixture.OLD); // the 64 bytes the catalog records
        fx.dataFile("main/europe/towns/ducklake-dv.puffin", RepoFixture.OLD); // where rule 4 looked: no file of the catalog
        String v1 = fx.version(List.of(), Instant.now(), catalog);
        fx.store.put("refs/heads/main", Repository.refBytes(v1));

        Gc.Report r = new Gc(fx.repo, cache, CatalogFiles.duckLake(), Clock.systemUTC()).run(new Gc.Options(Duration.ZERO, false, 2));

        assertThat(nested).hasSize(2).allMatch(n -> fx.exists("data/" + n));
        assertThat(fx.exists("data/europe/towns/ducklake-dv.puffin")).isTrue();
        assertThat(fx.exists("data/main/europe/towns/ducklake-dv.puffin")).isFalse();
        assertThat(fixtureFiles).filteredOn(n -> n.startsWith("main/towns/")).hasSize(2).noneMatch(n -> fx.exists("data/" + n));
        assertThat(fixtureFiles).filteredOn(n -> n.startsWith("main/scratch/")).allMatch(n -> fx.exists("data/" + n));
        assertThat(r.liveNames()).isEqualTo(4);
        assertThat(new Verify(fx.repo, cache, CatalogFiles.duckLake()).run().problems()).isEmpty();
    }
}
