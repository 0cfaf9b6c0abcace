package dev.fdl.ducklake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.fdl.ducklake.CatalogCompare;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.Sql;

class EmptyCatalogTest {
    @TempDir
    Path dir;

    private static Map<String, String> ddl(Path duckdbFile) throws Exception {
        Map<String, String> result = new LinkedHashMap<>();
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, duckdbFile, "a", true);
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT table_name, sql FROM duckdb_tables() WHERE database_name = 'a' ORDER BY table_name")) {
                while (r.next()) {
                    result.put(r.getString(1), r.getString(2));
                }
            }
        }
        return result;
    }

    @Test
    void duckDbCatalogHasExactlyTheTablesDuckLakeCreates() throws Exception {
        Path created = dir.resolve("new.duckdb");
        EmptyCatalog.create(created, CatalogKind.DUCKDB, "/repo/data/");
        assertThat(ddl(created)).isEqualTo(ddl(Fixtures.catalog("empty", dir)));
        assertThat(CatalogConverter.duckDbStorage(created)).isEqualTo("duckdb-v1.5.0");
    }

    @Test
    void duckDbCatalogHasTheInitialRowsOfDuckLake() throws Exception {
        Path created = dir.resolve("new.duckdb");
        EmptyCatalog.create(created, CatalogKind.DUCKDB, "/repo/data");
        Path empty = Fixtures.catalog("empty", dir);
        String noVolatile = "SELECT CAST(x AS VARCHAR) FROM (SELECT * EXCLUDE (%s) FROM %s) x";
        assertThat(CatalogCompare.rows(created, noVolatile.formatted("snapshot_time", "ducklake_snapshot")))
                .isEqualTo(CatalogCompare.rows(empty, noVolatile.formatted("snapshot_time", "ducklake_snapshot")));
        assertThat(CatalogCompare.rows(created, noVolatile.formatted("schema_uuid", "ducklake_schema")))
                .isEqualTo(CatalogCompare.rows(empty, noVolatile.formatted("schema_uuid", "ducklake_schema")));
        assertThat(CatalogCompare.rows(created, "SELECT CAST(x AS VARCHAR) FROM ducklake_snapshot_changes x"))
                .isEqualTo(CatalogCompare.rows(empty, "SELECT CAST(x AS VARCHAR) FROM ducklake_snapshot_changes x"));
        assertThat(CatalogCompare.rows(created, "SELECT key || '=' || value FROM ducklake_metadata WHERE key <> 'created_by' ORDER BY key"))
                .containsExactly("data_path=/repo/data/", "encrypted=false", "version=1.0");
        assertThat(CatalogCompare.rows(created, "SELECT value FROM ducklake_metadata WHERE key = 'created_by'")).singleElement()
                .asString().matches("DuckDB [0-9a-f]+");
    }

    @Test
    void sqliteCatalogConvertsToTheSameCatalogAsTheDuckDbOne() throws Exception {
        Path sqlite = dir.resolve("work.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/repo/data/");
        assertThat(CatalogKind.detect(sqlite)).isEqualTo(CatalogKind.SQLITE);
        Path converted = dir.resolve("converted.duckdb");
        CatalogConverter.convert(sqlite, converted, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(ddl(converted)).isEqualTo(ddl(Fixtures.catalog("empty", dir)));
        try (CatalogInspector catalog = CatalogInspector.open(sqlite)) {
            assertThat(catalog.dataPath()).isEqualTo("/repo/data/");
            assertThat(catalog.snapshots()).singleElement().satisfies(s -> {
                assertThat(s.id()).isZero();
                assertThat(s.changes()).isEqualTo("created_schema:\"main\"");
                assertThat(s.time()).isNotNull();
            });
            assertThat(catalog.tables(0)).isEmpty();
        }
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT sql FROM sqlite_master WHERE name = 'ducklake_snapshot'")) {
            r.next();
            assertThat(r.getString(1)).isEqualTo("CREATE TABLE \"ducklake_snapshot\"(\"snapshot_id\" BIGINT PRIMARY KEY, "
                    + "\"snapshot_time\" VARCHAR, \"schema_version\" BIGINT, \"next_catalog_id\" BIGINT, \"next_file_id\" BIGINT)");
        }
    }
}
