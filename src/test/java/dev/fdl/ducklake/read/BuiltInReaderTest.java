package dev.fdl.ducklake.read;

import dev.fdl.cli.ResultPrinter;

import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbPool;

import static dev.fdl.ducklake.WorkingCatalogFixture.checksum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The built-in reader on catalogs the tests change by hand (with plain SQL, as a DuckLake writer
 * would): inlined deletes, inlined rows ended and added, and what the reader must refuse.
 */
class BuiltInReaderTest {
    @TempDir
    Path tmp;

    private static void sql(Path catalog, String... statements) throws Exception {
        FixtureCopies.sql(catalog, statements);
    }

    private FixtureCopies.Copy townsWithSnapshot16() throws Exception {
        return FixtureCopies.townsWithSnapshot16(tmp);
    }

    @Test
    void inlinedDeletesAndInlinedRowsApplyFromTheirSnapshotOnly() throws Exception {
        FixtureCopies.Copy towns = townsWithSnapshot16();
        try (BuiltInReader at15 = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), 15L);
             BuiltInReader at16 = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            assertThat(at16.snapshot()).isEqualTo(16);
            assertThat(at15.query("SELECT count(*) FROM towns").rows().get(0).get(0)).isEqualTo(1868L);
            assertThat(at16.query("SELECT count(*) FROM towns").rows().get(0).get(0)).isEqualTo(1868L - 2 - 1 + 1);
            assertThat(at15.query("SELECT count(*) FROM towns WHERE name IN ('town-500', 'town-501', 'Oslo')").rows().get(0).get(0))
                    .isEqualTo(3L);
            assertThat(at16.query("SELECT count(*) FROM towns WHERE name IN ('town-500', 'town-501', 'Oslo')").rows().get(0).get(0))
                    .isEqualTo(0L);
            assertThat(at16.query("SELECT name, pop, note FROM towns WHERE name = 'Bergen'").rows())
                    .containsExactly(java.util.List.of("Bergen", 285000, "added by hand"));
            // Everything else is unchanged.
            assertThat(checksum(at16.connection(), "SELECT * FROM towns WHERE name NOT IN ('town-500', 'town-501', 'Oslo', 'Bergen')"))
                    .isEqualTo(checksum(at15.connection(), "SELECT * FROM towns WHERE name NOT IN ('town-500', 'town-501', 'Oslo', 'Bergen')"));
        }
    }

    @Test
    void nestedValuesPrintAsDuckDbTextInTablesAndAsJsonInJson() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            // duplicate labels, a trailing comment and semicolon, NaN inside a list, a MAP with integer keys
            QueryResult r = reader.query("SELECT [1, 2] AS x, {'a': 'it''s', 'b': [1.5, NULL]} AS x, MAP {1: 'one'} AS m,"
                    + " ['nan'::DOUBLE, 'inf'::DOUBLE] AS f, NULL::INT[] AS n, count(*) AS towns FROM towns; -- a comment");

            assertThat(r.columns()).containsExactly("x", "x", "m", "f", "n", "towns");
            assertThat(r.rows().get(0).get(0)).hasToString("[1, 2]");
            assertThat(r.rows().get(0).get(1)).hasToString("{'a': 'it\\'s', 'b': [1.5, NULL]}"); // DuckDB's own text
            assertThat(r.rows().get(0).get(4)).isNull();
            assertThat(r.rows().get(0).get(5)).isEqualTo(1868L);

            java.io.StringWriter out = new java.io.StringWriter();
            ResultPrinter.json(new java.io.PrintWriter(out), r);
            com.fasterxml.jackson.databind.JsonNode row = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString()).get(0);
            assertThat(row.toString()).isEqualTo("{\"x\":{\"a\":\"it's\",\"b\":[1.5,null]},\"m\":{\"1\":\"one\"},"
                    + "\"f\":[\"nan\",\"inf\"],\"n\":null,\"towns\":1868}");
            // both columns named x are printed (the JSON object keeps the last; the table shows both)
            assertThat(out.toString()).contains("\"x\":[1,2]");
        }
    }

    @Test
    void statementsThatCannotBeSubqueriesStillRun() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            assertThat(reader.query("DESCRIBE towns").columns()).contains("column_name", "column_type");
        }
    }

    @Test
    void deleteFilesAreMatchedByDataFileIdNotByTheStalePathInside() throws Exception {
        // The fixture's delete file names /fixture/towns/data/…, a path that does not exist here.
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), 6L)) {
            assertThat(reader.query("SELECT count(*) FROM towns WHERE population < 5000").rows().get(0).get(0)).isEqualTo(0L);
            assertThat(reader.query("SELECT count(*) FROM towns").rows().get(0).get(0)).isEqualTo(1867L);
        }
    }

    @Test
    void mainTablesAnswerUnqualifiedAndOtherSchemasQualified() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            assertThat(reader.tables()).containsExactly("main.towns", "geo.rivers");
            assertThat(reader.query("SELECT count(*) FROM towns").rows()).isEqualTo(reader.query("SELECT count(*) FROM main.towns").rows());
            assertThat(reader.query("SELECT name FROM geo.rivers ORDER BY name").rows())
                    .containsExactly(java.util.List.of("Nile"), java.util.List.of("Rhone"));
            // the DuckLake view big_towns of the catalog reads through the table views
            assertThat(reader.query("SELECT count(*) FROM big_towns").rows().get(0).get(0)).isEqualTo(2L);
            assertThat(reader.skippedViews()).isEmpty();
        }
    }

    @Test
    void requiredFilesListsTheVisibleDataAndDeleteFilesRelativeToTheDataPath() {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 15L)).containsExactly(
                "main/towns/ducklake-01a22959-f487-780c-9bbb-d3e43bb46f07.parquet",
                "main/towns/ducklake-01a22959-f515-7195-8ca9-a09be8bdc366-delete.parquet");
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 8L)).containsExactly(
                "main/towns/ducklake-01a22959-f487-780c-9bbb-d3e43bb46f07.parquet",
                "main/towns/ducklake-01a22959-f515-7195-8ca9-a09be8bdc366-delete.parquet",
                "main/scratch/ducklake-01a22959-f56a-75a4-bba7-f17cd90449ff.parquet");
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 2L)).isEmpty();
    }

    @Test
    void aQueryNamingSomeTablesReadsOnlyTheirFilesAndANameThatIsNoTableReadsAll() {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 8L, java.util.Set.of("main.scratch")))
                .containsExactly("main/scratch/ducklake-01a22959-f56a-75a4-bba7-f17cd90449ff.parquet");
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 8L, java.util.Set.of()))
                .isEmpty();
        // big_towns is a DuckLake view over towns: a name that is not a table gives every table
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 8L, java.util.Set.of("main.scratch", "main.big_towns")))
                .isEqualTo(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 8L));
        // a CTE's name is read when it is a table too (WITH towns AS (FROM towns …)), else ignored
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), towns.catalog(), 8L, java.util.Set.of("?main.scratch", "?main.recent")))
                .containsExactly("main/scratch/ducklake-01a22959-f56a-75a4-bba7-f17cd90449ff.parquet");
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), 15L, java.util.Set.of("main.big_towns"))) {
            assertThat(reader.query("SELECT count(*) FROM big_towns").rows().get(0).get(0)).isEqualTo(2L);
        }
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), 15L, java.util.Set.of("geo.rivers"))) {
            assertThat(reader.tables()).containsExactly("geo.rivers");
        }
    }

    @Test
    void theMirrorFetchesExactlyTheFilesASnapshotNeedsAndReadsFromThem() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp.resolve("fixture"));
        dev.fdl.store.LocalStore remote = new dev.fdl.store.LocalStore(towns.dir());
        Path cache = tmp.resolve("cache");
        String override = DataFileMirror.fetch(DuckDbPool.shared(), towns.catalog(), 15L, remote, "data/", cache);
        try (var files = java.nio.file.Files.walk(cache)) {
            assertThat(files.filter(java.nio.file.Files::isRegularFile).count()).isEqualTo(2);
        }
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), override, 15L)) {
            assertThat(reader.query("SELECT count(*) FROM towns").rows().get(0).get(0)).isEqualTo(1868L);
        }
        // a second fetch reuses the cache; a file missing from the repository is named
        DataFileMirror.fetch(DuckDbPool.shared(), towns.catalog(), 15L, remote, "data/", cache);
        java.nio.file.Files.delete(towns.dir().resolve("data/main/scratch/ducklake-01a22959-f56a-75a4-bba7-f17cd90449ff.parquet"));
        assertThatThrownBy(() -> DataFileMirror.fetch(DuckDbPool.shared(), towns.catalog(), 8L, remote, "data/", cache))
                .isInstanceOf(FdlException.class).hasMessageContaining("data/main/scratch/ducklake-01a22959-f56a-75a4-bba7-f17cd90449ff.parquet");
    }

    @Test
    void aSnapshotTheCatalogDoesNotKeepIsNotFound() {
        FixtureCopies.Copy expired = FixtureCopies.copy("towns_expired_before_8", tmp);
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), expired.catalog(), expired.dataPath(), 5L))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND))
                .hasMessageContaining("snapshot 5").hasMessageContaining("8 to 15");
    }

    @Test
    void aMissingCatalogFileIsNotFound() {
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), tmp.resolve("nope.duckdb"), null, null))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND));
    }

    @Test
    void encryptedDataFilesAreRefused() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        sql(towns.catalog(), "UPDATE ducklake_data_file SET encryption_key = 'c2VjcmV0' WHERE data_file_id = 1");
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null))
                .isInstanceOf(FdlException.class).hasMessageContaining("encrypted").hasMessageContaining("main.towns")
                .hasMessageContaining("DuckLake extension");
        // snapshots before the file existed still read
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), 2L)) {
            assertThat(reader.query("SELECT count(*) FROM towns").rows().get(0).get(0)).isEqualTo(3L);
        }
    }

    @Test
    void deletionVectorsAreRefused() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        sql(towns.catalog(), "UPDATE ducklake_delete_file SET format = 'puffin'");
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null))
                .isInstanceOf(FdlException.class).hasMessageContaining("deletion vectors");
    }

    @Test
    void anEncryptedCatalogIsRefused() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        sql(towns.catalog(), "UPDATE ducklake_metadata SET value = 'true' WHERE key = 'encrypted'");
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null))
                .isInstanceOf(FdlException.class).hasMessageContaining("encrypted");
    }

    @Test
    void unknownColumnTypesAreRefused() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        sql(towns.catalog(), "UPDATE ducklake_column SET column_type = 'geometry' WHERE column_name = 'note'");
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null))
                .isInstanceOf(FdlException.class).hasMessageContaining("geometry").hasMessageContaining("note");
    }

    @Test
    void queryErrorsNameTheProblem() {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            assertThatThrownBy(() -> reader.query("SELECT nope FROM towns"))
                    .isInstanceOf(FdlException.class).hasMessageContaining("nope");
        }
    }

    @Test
    void theCatalogIsAttachedReadOnly() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null);
             Statement st = reader.connection().createStatement()) {
            assertThatThrownBy(() -> st.execute("DELETE FROM " + SqlQuote.ident(MetadataQueries.CATALOG_ALIAS) + ".ducklake_snapshot"))
                    .hasMessageContaining("read-only");
        }
    }

    @Test
    void queryRunsOnlyOneReadOnlyStatement() {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        Path out = tmp.resolve("out.csv");
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            for (String sql : List.of("COPY (SELECT * FROM towns) TO '" + out + "'", "SELECT 1; SELECT 2",
                    "CREATE TABLE x AS SELECT 1", "SET TimeZone = 'UTC'", "ATTACH 'other.duckdb'")) {
                assertThatThrownBy(() -> reader.query(sql)).as(sql)
                        .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE));
            }
            assertThat(out).doesNotExist();
            assertThat(reader.query("DESCRIBE towns").rows()).hasSize(3);
            assertThat(reader.query("SHOW TABLES").rows()).isNotEmpty();
            assertThat(reader.query("EXPLAIN SELECT * FROM towns").rows()).isNotEmpty();
            assertThat(reader.query("WITH t AS (SELECT * FROM towns) SELECT count(*) FROM t").rows().get(0).get(0)).isEqualTo(1868L);
        }
    }
}
