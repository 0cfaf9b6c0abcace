package dev.fdl.ducklake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.SnapshotInfo;
import dev.fdl.ducklake.TableInfo;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.Sql;

class CatalogInspectorTest {
    @TempDir
    Path dir;

    private Path fixtureAs(String fixture, String kind) {
        return Fixtures.catalogAs(fixture, kind, dir);
    }

    @ParameterizedTest
    @CsvSource({"empty,duckdb", "towns,duckdb", "types,duckdb", "towns_expired_before_8,duckdb",
            "empty,sqlite", "towns,sqlite", "types,sqlite", "towns_expired_before_8,sqlite",
            "duckdb2-ducklake1.0/empty,duckdb", "duckdb2-ducklake1.0/towns,duckdb", "duckdb2-ducklake1.0/types,duckdb",
            "duckdb2-ducklake1.0/towns,sqlite", "duckdb2-ducklake1.0/types,sqlite",
            "duckdb2-ducklake1.1-dev/empty,duckdb", "duckdb2-ducklake1.1-dev/towns,duckdb", "duckdb2-ducklake1.1-dev/types,duckdb",
            "duckdb2-ducklake1.1-dev/towns,sqlite", "duckdb2-ducklake1.1-dev/types,sqlite"})
    void inspectionMatchesWhatTheRealDuckLakeShowsAtEverySnapshot(String fixture, String kind) {
        JsonNode expected = Fixtures.expected(fixture);
        try (CatalogInspector catalog = CatalogInspector.open(fixtureAs(fixture, kind))) {
            assertThat(catalog.formatVersion()).isEqualTo(fixture.startsWith("duckdb2-ducklake1.1-dev") ? "1.1-dev1" : "1.0");
            assertThat(catalog.dataPath()).isEqualTo(expected.get("data_path").asText());
            List<SnapshotInfo> snapshots = catalog.snapshots();
            assertThat(snapshots).extracting(SnapshotInfo::id)
                    .containsExactlyElementsOf(ids(expected));
            assertThat(catalog.firstSnapshotId()).isEqualTo(snapshots.get(0).id());
            assertThat(catalog.lastSnapshotId()).isEqualTo(snapshots.get(snapshots.size() - 1).id());
            for (int i = 0; i < snapshots.size(); i++) {
                SnapshotInfo s = snapshots.get(i);
                JsonNode e = expected.get("snapshots").get(i);
                assertThat(s.changes()).isEqualTo(e.get("changes").asText());
                assertThat(s.author()).isEqualTo(e.get("author").isNull() ? null : e.get("author").asText());
                assertThat(s.message()).isEqualTo(e.get("message").isNull() ? null : e.get("message").asText());
                assertThat(s.time()).isAfter(Instant.parse("2025-01-01T00:00:00Z"));

                Map<String, Object> actualTables = new LinkedHashMap<>();
                for (TableInfo t : catalog.tables(s.id())) {
                    List<List<String>> columns = new ArrayList<>();
                    t.columns().forEach(c -> columns.add(List.of(c.name(), c.type())));
                    actualTables.put(t.qualifiedName(), List.of(columns, catalog.rowCount(t.tableId(), s.id())));
                }
                Map<String, Object> expectedTables = new LinkedHashMap<>();
                e.get("tables").fields().forEachRemaining(t -> {
                    List<List<String>> columns = new ArrayList<>();
                    t.getValue().get("columns").forEach(c -> columns.add(List.of(c.get(0).asText(), c.get(1).asText())));
                    expectedTables.put(t.getKey(), List.of(columns, t.getValue().get("rows").asLong()));
                });
                assertThat(actualTables).as("snapshot %d", s.id()).isEqualTo(expectedTables);
            }
        }
    }

    private static List<Long> ids(JsonNode expected) {
        List<Long> ids = new ArrayList<>();
        expected.get("snapshots").forEach(s -> ids.add(s.get("id").asLong()));
        return ids;
    }

    @ParameterizedTest
    @CsvSource({"towns,duckdb", "towns,sqlite"})
    void forEachFileResolvesEveryDataAndDeleteFileAgainstDataSchemaAndTablePath(String fixture, String kind) {
        List<NamedFile> files = new ArrayList<>();
        try (CatalogInspector catalog = CatalogInspector.open(fixtureAs(fixture, kind))) {
            catalog.forEachFile(files::add);
        }
        Path data = Fixtures.folder(fixture).resolve("data");
        List<String> expected = new ArrayList<>();
        try (var walk = Files.walk(data)) {
            walk.filter(Files::isRegularFile).forEach(p -> expected.add("/fixture/" + fixture + "/data/" + data.relativize(p).toString().replace('\\', '/')));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(files).extracting(NamedFile::location).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(files).filteredOn(NamedFile::deleteFile).singleElement()
                .satisfies(f -> assertThat(f.location()).endsWith("-delete.parquet"));
        assertThat(files).allSatisfy(f -> {
            assertThat(f.relative()).isTrue();
            assertThat(f.bytes()).isPositive();
        });
    }

    @Test
    void absoluteFilePathsAreUsedAsTheyAre() throws Exception {
        Path duck = Fixtures.catalog("towns", dir);
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, duck, "t", false);
            Sql.exec(c, "UPDATE t.ducklake_data_file SET path = '/elsewhere/x.parquet', path_is_relative = false WHERE data_file_id = 1");
        }
        List<String> locations = new ArrayList<>();
        try (CatalogInspector catalog = CatalogInspector.open(duck)) {
            catalog.forEachFile(f -> locations.add(f.location()));
        }
        assertThat(locations).contains("/elsewhere/x.parquet");
    }

    @Test
    void refusesAFileThatIsNeitherSqliteNorDuckDb() throws Exception {
        Path file = dir.resolve("catalog.bin");
        Files.write(file, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> CatalogInspector.open(file)).isInstanceOf(FdlException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a DuckLake catalog")
                .extracting(e -> ((FdlException) e).kind()).isEqualTo(FdlException.Kind.FAILURE);
    }

    @Test
    void refusesADatabaseWithoutDuckLakeTables() throws Exception {
        Path file = dir.resolve("other.sqlite");
        try (Connection c = Sql.sqlite(file, false)) {
            Sql.exec(c, "CREATE TABLE t(x BIGINT)");
        }
        assertThatThrownBy(() -> CatalogInspector.open(file)).isInstanceOf(FdlException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a DuckLake catalog");
    }

    @Test
    void refusesAnUnknownFormatVersion() throws Exception {
        Path file = dir.resolve("future.duckdb");
        EmptyCatalog.create(file, CatalogKind.DUCKDB, "/data/");
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, file, "t", false);
            Sql.exec(c, "UPDATE t.ducklake_metadata SET value = '9.9' WHERE key = 'version'");
        }
        assertThatThrownBy(() -> CatalogInspector.open(file)).isInstanceOf(FdlException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("9.9");
        assertThatThrownBy(() -> CatalogConverter.convert(file, dir.resolve("x.sqlite"), CatalogKind.SQLITE, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("9.9");
    }

    @Test
    void parsesTimestampTextWithAnyOffset() {
        assertThat(CatalogInspector.parseTime("2026-11-29 21:41:30.123456+00")).isEqualTo(Instant.parse("2026-11-29T21:41:30.123456Z"));
        assertThat(CatalogInspector.parseTime("2026-11-29 21:41:30+05:30")).isEqualTo(Instant.parse("2026-11-29T16:11:30Z"));
        assertThat(CatalogInspector.parseTime("2026-11-29 21:41:30-02")).isEqualTo(Instant.parse("2026-11-29T23:41:30Z"));
    }
}
