package dev.fdl.ducklake.rewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.Sql;

class DataPathTest {
    @TempDir
    Path dir;

    private Path fixtureAs(String fixture, String kind) {
        return Fixtures.catalogAs(fixture, kind, dir);
    }

    @ParameterizedTest
    @CsvSource({"towns,duckdb", "towns,sqlite", "types,duckdb", "towns_expired_before_8,sqlite"})
    void rewritingTheDataPathOfACopiedFixtureMakesItsFilesResolveInTheCopy(String fixture, String kind) {
        Path catalogFile = fixtureAs(fixture, kind);
        Path data = Fixtures.copyData(fixture, dir);

        List<String> outside = DataPath.set(catalogFile, data.toAbsolutePath().toString());

        assertThat(outside).isEmpty();
        List<String> locations = new ArrayList<>();
        try (CatalogInspector catalog = CatalogInspector.open(catalogFile)) {
            assertThat(catalog.dataPath()).isEqualTo(data.toAbsolutePath() + "/");
            catalog.forEachFile(f -> locations.add(f.location()));
        }
        assertThat(locations).isNotEmpty().allSatisfy(l -> assertThat(Paths.get(l)).isRegularFile());
    }

    @Test
    void reportsAbsoluteFilesOutsideTheDataPathAndAcceptsThoseInside() throws Exception {
        Path catalogFile = Fixtures.catalog("towns", dir);
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, catalogFile, "t", false);
            Sql.exec(c, "UPDATE t.ducklake_data_file SET path = '/elsewhere/x.parquet', path_is_relative = false WHERE data_file_id = 1");
            Sql.exec(c, "UPDATE t.ducklake_data_file SET path = '/repo/data/main/scratch/y.parquet', path_is_relative = false WHERE data_file_id = 2");
            Sql.exec(c, "UPDATE t.ducklake_delete_file SET path = '/repo/data/../secret/z.parquet', path_is_relative = false");
        }

        List<String> outside = DataPath.set(catalogFile, "/repo/data");

        assertThat(outside).containsExactlyInAnyOrder("/elsewhere/x.parquet", "/repo/data/../secret/z.parquet");
    }

    @Test
    void refusesARelativeDataPathAndChangesNothing() throws Exception {
        Path catalogFile = Fixtures.catalog("towns", dir);
        byte[] before = Files.readAllBytes(catalogFile);
        assertThatThrownBy(() -> DataPath.set(catalogFile, "rel/data/")).isInstanceOf(FdlException.class)
                .hasMessageContaining("rel/data/").extracting(e -> ((FdlException) e).kind()).isEqualTo(FdlException.Kind.USAGE);
        assertThat(Files.readAllBytes(catalogFile)).isEqualTo(before);
    }

    @Test
    void acceptsObjectStoreLocations() {
        Path catalogFile = Fixtures.catalog("towns", dir);
        assertThat(DataPath.set(catalogFile, "s3://bucket/repo/data/")).isEmpty();
        List<String> locations = new ArrayList<>();
        try (CatalogInspector catalog = CatalogInspector.open(catalogFile)) {
            catalog.forEachFile(f -> locations.add(f.location()));
        }
        assertThat(locations).allMatch(l -> l.startsWith("s3://bucket/repo/data/main/"));
    }
}
