package dev.fdl.ducklake.load;

import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.NestedValue;

import static dev.fdl.ducklake.WorkingCatalogFixture.checksum;
import static org.assertj.core.api.Assertions.assertThat;

/** Import into a SQLite working catalog, then read back through the built-in reader. */
class ImporterTest {
    @TempDir
    Path tmp;

    private static String source(Path file) {
        return WorkingCatalogFixture.csvSource(file);
    }

    @Test
    void importThenQueryReturnsExactlyTheSourceRowsForEachShippedMonth() throws Exception {
        List<Path> months = WorkingCatalogFixture.months();
        assertThat(months).hasSize(6);
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        for (int i = 0; i < months.size(); i++) {
            ImportResult r = wc.importFile(months.get(i), "month" + i, ImportMode.CREATE);
            assertThat(r.createdTable()).isTrue();
            assertThat(r.rows()).isGreaterThan(28_000);
            assertThat(wc.store.head(r.dataFileKey())).isPresent();
            assertThat(r.dataFileKey()).matches("data/main/month" + i + "/ducklake-[0-9a-f-]{36}\\.parquet");
        }
        try (BuiltInReader reader = wc.read(null); Statement st = reader.connection().createStatement()) {
            for (int i = 0; i < months.size(); i++) {
                String table = "month" + i;
                assertThat(checksum(reader.connection(), "SELECT * FROM " + table))
                        .isEqualTo(checksum(reader.connection(), source(months.get(i))));
                // Every value, both ways, with duplicates counted.
                try (ResultSet rs = st.executeQuery("SELECT (SELECT count(*) FROM (SELECT * FROM " + table + " EXCEPT ALL "
                        + source(months.get(i)) + ")), (SELECT count(*) FROM (" + source(months.get(i)) + " EXCEPT ALL SELECT * FROM "
                        + table + "))")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isZero();
                    assertThat(rs.getLong(2)).isZero();
                }
                assertThat(describe(st, "SELECT * FROM " + table)).isEqualTo(describe(st, source(months.get(i))));
            }
        }
    }

    @Test
    void replaceAtEachMonthLeavesEverySnapshotReadingItsOwnMonth() {
        List<Path> months = WorkingCatalogFixture.months();
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        List<Long> snapshots = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ImportResult r = wc.importFile(months.get(i), "cities", i == 0 ? ImportMode.CREATE : ImportMode.REPLACE);
            assertThat(r.createdTable()).isEqualTo(i == 0);
            snapshots.add(r.snapshot());
        }
        assertThat(snapshots).containsExactly(1L, 2L, 3L);
        for (int i = 0; i < 3; i++) {
            try (BuiltInReader reader = wc.read(snapshots.get(i))) {
                assertThat(reader.snapshot()).isEqualTo(snapshots.get(i));
                assertThat(checksum(reader.connection(), "SELECT * FROM main.cities"))
                        .as("snapshot " + snapshots.get(i))
                        .isEqualTo(checksum(reader.connection(), source(months.get(i))));
            }
        }
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.snapshot()).isEqualTo(3L);
            assertThat(checksum(reader.connection(), "SELECT * FROM cities"))
                    .isEqualTo(checksum(reader.connection(), source(months.get(2))));
        }
        // Replacing never deletes files: all three stay in the repository.
        try (var keys = wc.store.list("data/main/cities/")) {
            assertThat(keys.count()).isEqualTo(3);
        }
    }

    @Test
    void appendAddsTheFileRowsToTheTable() {
        List<Path> months = WorkingCatalogFixture.months();
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        ImportResult first = wc.importFile(months.get(0), "geo.cities", ImportMode.CREATE);
        ImportResult second = wc.importFile(months.get(1), "geo.cities", ImportMode.APPEND);
        assertThat(second.createdTable()).isFalse();
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.tables()).containsExactly("geo.cities");
            assertThat(checksum(reader.connection(), "SELECT * FROM geo.cities")).isEqualTo(checksum(reader.connection(),
                    source(months.get(0)) + " UNION ALL " + source(months.get(1))));
            assertThat(reader.query("SELECT count(*) FROM geo.cities").rows().get(0).get(0))
                    .isEqualTo(first.rows() + second.rows());
        }
    }

    @Test
    void jsonLinesImportWithNullsAndNestedValuesGivenAFlatType() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path json = java.nio.file.Files.writeString(tmp.resolve("rivers.jsonl"),
                "{\"name\": \"Rhone\", \"length_km\": 813.5, \"mouth\": {\"sea\": \"Mediterranean\"}}\n"
                        + "{\"name\": \"Nile\", \"length_km\": null, \"mouth\": null}\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> wc.importFile(json, "geo.rivers", ImportMode.CREATE))
                .isInstanceOf(dev.fdl.FdlException.class).hasMessageContaining("mouth").hasMessageContaining("--schema");
        ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(wc.catalog, wc.store, "data/", json, "geo.rivers", ImportMode.CREATE)
                .withSchemaOverride("mouth JSON"));
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("name VARCHAR", "length_km DOUBLE", "mouth JSON");
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT name, length_km, mouth FROM geo.rivers ORDER BY name").rows()).containsExactly(
                    java.util.Arrays.asList("Nile", null, null),
                    // a JSON column keeps its text for tables and CSV and stays JSON for --json
                    java.util.Arrays.asList("Rhone", 813.5, new NestedValue("{\"sea\":\"Mediterranean\"}", "{\"sea\":\"Mediterranean\"}")));
        }
    }

    static List<String> describe(Statement st, String relation) throws Exception {
        List<String> cols = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("DESCRIBE " + relation)) {
            while (rs.next()) cols.add(rs.getString(1) + " " + rs.getString(2));
        }
        return cols;
    }

    static long count(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
