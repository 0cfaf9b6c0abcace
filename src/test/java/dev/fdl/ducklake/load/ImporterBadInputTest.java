package dev.fdl.ducklake.load;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.FdlException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.QueryResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input gives a clear error naming the file and leaves the working catalog and the repository unchanged. */
class ImporterBadInputTest {
    @TempDir
    Path tmp;

    private WorkingCatalogFixture wc;
    private Path month;

    @BeforeEach
    void importOneMonth() {
        wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        month = WorkingCatalogFixture.months().get(0);
        wc.importFile(month, "cities", ImportMode.CREATE);
    }

    private void refused(Path file, ImportMode mode, String... messageParts) {
        String before = wc.dump();
        long filesBefore = dataFiles();
        assertThatThrownBy(() -> wc.importFile(file, "cities", mode))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining(file.toString())
                .satisfies(e -> assertThat(e.getMessage()).contains(Arrays.asList(messageParts)));
        assertThat(wc.dump()).isEqualTo(before);
        assertThat(dataFiles()).isEqualTo(filesBefore);
    }

    private long dataFiles() {
        try (var s = wc.store.list("data/")) {
            return s.count();
        }
    }

    @Test
    void truncatedGzipIsRefused() throws IOException {
        byte[] all = Files.readAllBytes(month);
        Path cut = tmp.resolve("cut.csv.gz");
        Files.write(cut, Arrays.copyOf(all, all.length / 2));
        refused(cut, ImportMode.REPLACE, "gzip", "truncated");
    }

    @Test
    void wrongDelimiterGivesASingleColumnThatDoesNotMatchTheTable() throws IOException {
        Path hash = tmp.resolve("hash.csv");
        Files.writeString(hash, "name#country#subcountry#geonameid\nLyon#France#Rhone#2996944\n");
        refused(hash, ImportMode.APPEND, "columns do not match", "delimiter");
    }

    @Test
    void emptyFileIsRefused() throws IOException {
        Path empty = tmp.resolve("empty.csv");
        Files.createFile(empty);
        refused(empty, ImportMode.APPEND, "empty");
    }

    @Test
    void emptyGzipIsRefused() throws IOException {
        Path empty = tmp.resolve("empty.csv.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(empty))) {
            out.flush();
        }
        refused(empty, ImportMode.APPEND, "empty");
    }

    @Test
    void headerOnlyFileIsRefused() throws IOException {
        Path header = tmp.resolve("header.csv");
        Files.writeString(header, "name,country,subcountry,geonameid\n");
        refused(header, ImportMode.APPEND, "no data rows");
    }

    @Test
    void invalidUtf8IsRefused() throws IOException {
        Path bad = tmp.resolve("latin1.csv");
        Files.write(bad, "name,country,subcountry,geonameid\nZ\u00fcrich,Switzerland,Zurich,2657896\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        refused(bad, ImportMode.APPEND, "utf-8");
    }

    @Test
    void aLineOverDuckDbsDefaultMaxLineSizeIsImportedWhole() throws IOException {
        Path wide = tmp.resolve("wide.csv");
        // line 3 of the file (the second data line) is 2,000,015 bytes: over read_csv's default max_line_size
        Files.writeString(wide, "name,country,subcountry,geonameid\nLyon,France,Rhone,1\n" + "x".repeat(2_000_000) + ",France,Rhone,2\n");
        wc.importFile(wide, "wide", ImportMode.CREATE);
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT geonameid, length(name) FROM wide ORDER BY geonameid").rows())
                    .isEqualTo(java.util.List.of(java.util.List.of(1L, 4L), java.util.List.of(2L, 2_000_000L)));
        }
    }

    @Test
    void aLineOverFdlsBoundIsRefusedNamingTheFilesLineTheBoundAndTheWayOut() throws Exception {
        Path wide = tmp.resolve("wider.csv");
        Files.writeString(wide, "name,country,subcountry,geonameid\nLyon,France,Rhone,1\n" + "x".repeat(2_500_000) + ",France,Rhone,2\n");
        try (java.sql.Connection duck = java.sql.DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> CsvSource.sniff(duck, wide, java.util.List.of(), 2_400_000))
                    .isInstanceOf(FdlException.class)
                    .hasMessageContaining(wide.toString())
                    .hasMessageContaining("line 3 (2,500,015 bytes) is longer than the 2,400,000 bytes fdl reads in one CSV line")
                    .hasMessageContaining("nothing was imported")
                    .hasMessageContaining("max_line_size = 5000030")
                    .hasMessageContaining("then import out.parquet");
            // under the bound, the same file is read
            assertThat(CsvSource.sniff(duck, wide, java.util.List.of(), 2_600_000).columns()).containsKeys("name", "geonameid");
        }
    }

    @Test
    void valuesThatDoNotFitTheTableTypeAreRefused() throws IOException {
        Path text = tmp.resolve("text-ids.csv");
        Files.writeString(text, "name,country,subcountry,geonameid\nLyon,France,Rhone,not-a-number\n");
        refused(text, ImportMode.APPEND, "not-a-number");
    }

    @Test
    void createOfAnExistingTableIsRefused() {
        refused(month, ImportMode.CREATE, "already exists");
    }

    @Test
    void unknownFormatIsAUsageError() throws IOException {
        Path xls = Files.writeString(tmp.resolve("cities.xlsx"), "x");
        assertThatThrownBy(() -> wc.importFile(xls, "cities", ImportMode.APPEND))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                .hasMessageContaining("unknown format");
    }

    @Test
    void appendToAMissingTableIsNotFound() {
        String before = wc.dump();
        assertThatThrownBy(() -> wc.importFile(month, "towns", ImportMode.APPEND))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND))
                .hasMessageContaining("--mode create");
        assertThat(wc.dump()).isEqualTo(before);
    }

    @Test
    void schemaOverrideNamingAMissingColumnIsAUsageError() {
        String before = wc.dump();
        assertThatThrownBy(() -> new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(wc.catalog, wc.store, "data/", month, "other", ImportMode.CREATE)
                .withSchemaOverride("population BIGINT")))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                .hasMessageContaining("population");
        assertThat(wc.dump()).isEqualTo(before);
    }

    @Test
    void schemaOverrideSetsTheColumnType() {
        ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(wc.catalog, wc.store, "data/", month, "typed", ImportMode.CREATE)
                .withSchemaOverride("geonameid VARCHAR").withAuthor("tester"));
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("name VARCHAR", "country VARCHAR", "subcountry VARCHAR", "geonameid VARCHAR");
        try (BuiltInReader reader = wc.read(null)) {
            QueryResult q = reader.query("SELECT typeof(geonameid) FROM typed LIMIT 1");
            assertThat(q.rows().get(0).get(0)).isEqualTo("VARCHAR");
        }
    }
}
