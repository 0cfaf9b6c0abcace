package dev.fdl.ducklake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.fdl.ducklake.CatalogCompare;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.RandomCatalog;
import dev.fdl.ducklake.SqliteFiles;
import dev.fdl.ducklake.engine.Sql;

/**
 * Differential tests of conversion: random DuckLake-shaped catalogs
 * ({@link RandomCatalog}) and the fixtures go DuckDB → SQLite → DuckDB → SQLite, as checkout,
 * commit and checkout again do, and every table must come back equal, in each database.
 */
class CatalogConversionRoundTripTest {
    /** Seeds per run: {@code -Dfdl.test.seeds=N} for more; a failure names its seed. */
    private static final int SEEDS = Integer.getInteger("fdl.test.seeds", 6);

    @TempDir
    Path dir;

    @Test
    void randomCatalogsComeBackEqualBothWays() throws Exception {
        long base = Long.getLong("fdl.test.seed", System.nanoTime());
        for (int i = 0; i < SEEDS; i++) {
            long seed = base + i;
            Path run = Files.createDirectory(dir.resolve("seed" + i));
            Path original = run.resolve("original.duckdb");
            RandomCatalog.generate(original, seed);
            roundTrip(original, run, "seed " + seed + " (rerun with -Dfdl.test.seed=" + seed + " -Dfdl.test.seeds=1)");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "towns", "types", "towns_expired_before_8"})
    void checkoutCommitCheckoutGivesEqualWorkingCatalogs(String fixture) throws Exception {
        roundTrip(Fixtures.catalog(fixture, dir), dir, "fixture " + fixture);
    }

    /**
     * {@code original} → working catalog (checkout) → DuckDB (commit, no changes) → working
     * catalog (checkout again): the DuckDB catalogs and the working catalogs must be equal table
     * by table.
     */
    private static void roundTrip(Path original, Path dir, String what) throws Exception {
        Path work = dir.resolve("work.sqlite");
        Path committed = dir.resolve("committed.duckdb");
        Path again = dir.resolve("again.sqlite");
        ConversionResult out = CatalogConverter.convert(original, work, CatalogKind.SQLITE, ProgressListener.NONE);
        ConversionResult in = CatalogConverter.convert(work, committed, CatalogKind.DUCKDB, ProgressListener.NONE);
        CatalogConverter.convert(committed, again, CatalogKind.SQLITE, ProgressListener.NONE);

        assertThat(in.rows()).as(what).isEqualTo(out.rows());
        assertThat(CatalogCompare.differences(original, committed)).as(what + ": DuckDB before and after").isEmpty();
        assertThat(sqliteDifferences(work, again)).as(what + ": working catalogs").isEmpty();
    }

    @Test
    void rowsAcrossTheChunkOfTheSqliteToDuckDbLoadArriveOnce() throws Exception {
        Path sqlite = SqliteFiles.catalog(dir.resolve("w.sqlite"),
                "INSERT INTO ducklake_file_column_stats(data_file_id, min_value) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
                        + " SELECT i + 1 FROM n WHERE i < " + (DuckDbTableLoad.CHUNK_ROWS + 1) + ") SELECT i, 'v' || i FROM n");
        Path duck = dir.resolve("c.duckdb");

        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);

        assertThat(CatalogCompare.rows(duck, "SELECT count(*) || ' ' || count(DISTINCT data_file_id) || ' ' || sum(data_file_id)"
                + " FROM ducklake_file_column_stats WHERE min_value = 'v' || data_file_id"))
                .containsExactly((DuckDbTableLoad.CHUNK_ROWS + 1) + " " + (DuckDbTableLoad.CHUNK_ROWS + 1) + " "
                        + ((DuckDbTableLoad.CHUNK_ROWS + 1L) * (DuckDbTableLoad.CHUNK_ROWS + 2L) / 2));
    }

    @Test
    void theCheckFindsADroppedFileRowAndNamesTheTable() throws Exception {
        Path duck = Fixtures.catalog("towns", dir);
        Path sqlite = dir.resolve("w.sqlite");
        CatalogConverter.convert(duck, sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
        try (Connection lite = Sql.sqlite(sqlite, false); Connection d = Sql.duckDbMemory()) {
            Sql.attach(d, duck, "cat", true);
            // the same number of rows, one path changed: only the digest can see it
            Sql.exec(lite, "UPDATE ducklake_data_file SET path = path || 'x' WHERE data_file_id = (SELECT min(data_file_id) FROM ducklake_data_file)");
            List<String> tables = Sql.sqliteTables(lite);
            assertThatThrownBy(() -> ConversionCheck.compare(new ConversionCheck.CheckedCatalog(d, "cat.main.", "source"),
                    new ConversionCheck.CheckedCatalog(lite, "", "target"), tables))
                    .isInstanceOf(SQLException.class).hasMessageContaining("ducklake_data_file");
            Sql.exec(lite, "UPDATE ducklake_data_file SET path = substr(path, 1, length(path) - 1) WHERE path LIKE '%x'");
            ConversionCheck.compare(new ConversionCheck.CheckedCatalog(d, "cat.main.", "source"), new ConversionCheck.CheckedCatalog(lite, "", "target"), tables);
            // two rows' paths swapped: every column holds the same values, the rows differ
            List<String> ends = new ArrayList<>();
            try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery("SELECT data_file_id || ' ' || path FROM ducklake_data_file"
                    + " WHERE data_file_id IN ((SELECT min(data_file_id) FROM ducklake_data_file), (SELECT max(data_file_id) FROM ducklake_data_file))"
                    + " ORDER BY data_file_id")) {
                while (r.next()) ends.add(r.getString(1));
            }
            assertThat(ends).hasSize(2);
            String[] first = ends.get(0).split(" ", 2);
            String[] last = ends.get(1).split(" ", 2);
            setPaths(lite, first[0] + " " + last[1], last[0] + " " + first[1]);
            assertThatThrownBy(() -> ConversionCheck.compare(new ConversionCheck.CheckedCatalog(d, "cat.main.", "source"),
                    new ConversionCheck.CheckedCatalog(lite, "", "target"), tables))
                    .isInstanceOf(SQLException.class).hasMessageContaining("ducklake_data_file");
            setPaths(lite, ends.get(0), ends.get(1));
            ConversionCheck.compare(new ConversionCheck.CheckedCatalog(d, "cat.main.", "source"), new ConversionCheck.CheckedCatalog(lite, "", "target"), tables);
            Sql.exec(lite, "UPDATE ducklake_delete_file SET end_snapshot = coalesce(end_snapshot, 0) + 1"
                    + " WHERE delete_file_id = (SELECT min(delete_file_id) FROM ducklake_delete_file)");
            assertThatThrownBy(() -> ConversionCheck.compare(new ConversionCheck.CheckedCatalog(d, "cat.main.", "source"),
                    new ConversionCheck.CheckedCatalog(lite, "", "target"), tables))
                    .isInstanceOf(SQLException.class).hasMessageContaining("ducklake_delete_file");
            Sql.exec(lite, "DELETE FROM ducklake_snapshot WHERE snapshot_id = (SELECT max(snapshot_id) FROM ducklake_snapshot)");
            assertThatThrownBy(() -> ConversionCheck.compare(new ConversionCheck.CheckedCatalog(d, "cat.main.", "source"),
                    new ConversionCheck.CheckedCatalog(lite, "", "target"), tables))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table ducklake_snapshot");
        }
    }

    /** Sets the path of each data file given as "id path". */
    private static void setPaths(Connection lite, String... idAndPath) throws SQLException {
        try (var ps = lite.prepareStatement("UPDATE ducklake_data_file SET path = ? WHERE data_file_id = ?")) {
            for (String row : idAndPath) {
                String[] x = row.split(" ", 2);
                ps.setString(1, x[1]);
                ps.setLong(2, Long.parseLong(x[0]));
                ps.executeUpdate();
            }
        }
    }

    /**
     * The differences between two SQLite catalogs: tables on one side only, and per table the
     * rows (values with their storage classes, and how often each occurs) of one not in the other.
     */
    static List<String> sqliteDifferences(Path a, Path b) throws SQLException {
        List<String> diffs = new ArrayList<>();
        try (Connection c = Sql.sqlite(a, true)) {
            Sql.exec(c, "ATTACH " + SqlQuote.literal(b.toAbsolutePath().toString()) + " AS other");
            List<String> tables = Sql.sqliteTables(c);
            List<String> others = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT name FROM other.sqlite_master WHERE type = 'table' AND name LIKE 'ducklake%' ORDER BY name")) {
                while (r.next()) {
                    others.add(r.getString(1));
                }
            }
            if (!tables.equals(others)) {
                diffs.add("tables differ: " + tables + " vs " + others);
            }
            for (String table : tables) {
                if (!others.contains(table)) {
                    continue;
                }
                List<String> columns = new ArrayList<>();
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("PRAGMA table_info(" + SqlQuote.ident(table) + ")")) {
                    while (r.next()) {
                        String col = SqlQuote.ident(r.getString("name"));
                        columns.add("typeof(" + col + ") || ':' || quote(" + col + ")");
                    }
                }
                String row = String.join(" || '|' || ", columns);
                String t = SqlQuote.ident(table);
                for (String[] d : new String[][] {{"main", "other"}, {"other", "main"}}) {
                    String counted = "SELECT " + row + " AS r, count(*) AS n FROM %s." + t + " GROUP BY 1";
                    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                            String.format(counted, d[0]) + " EXCEPT " + String.format(counted, d[1]) + " LIMIT 5")) {
                        while (r.next()) {
                            String v = r.getString(1);
                            diffs.add(table + ": only in " + d[0] + ": " + r.getLong(2) + " x "
                                    + (v == null ? null : v.substring(0, Math.min(300, v.length()))));
                        }
                    }
                }
            }
        }
        return diffs;
    }

    @Test
    void sqliteDifferencesSeesAChangedStorageClass() throws Exception {
        Path a = SqliteFiles.catalog(dir.resolve("a.sqlite"), "CREATE TABLE ducklake_probe(s VARCHAR)", "INSERT INTO ducklake_probe VALUES ('1')");
        Path b = SqliteFiles.catalog(dir.resolve("b.sqlite"), "CREATE TABLE ducklake_probe(s VARCHAR)", "INSERT INTO ducklake_probe VALUES (CAST(X'31' AS BLOB))");
        assertThat(sqliteDifferences(a, a)).isEmpty();
        assertThat(sqliteDifferences(a, b)).isNotEmpty();
        assertThatThrownBy(() -> CatalogConverter.convert(b, dir.resolve("b.duckdb"), CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("ducklake_probe");
    }
}
