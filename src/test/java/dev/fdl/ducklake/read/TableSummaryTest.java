package dev.fdl.ducklake.read;

import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A catalog's tables as the site summarises them equal DuckDB queries over the built-in reader's
 * view of the same snapshot: computed, taken from the per-file store on a second run, taken from
 * the catalog's {@code ducklake_file_column_stats}, with delete files, inlined rows and inlined deletes.
 */
class TableSummaryTest {
    @TempDir
    Path tmp;

    /** A store in memory that counts what is put. */
    static final class Counting implements TableSummary.Store {
        final Map<String, byte[]> map = new HashMap<>();
        int puts;

        @Override
        public byte[] get(String key) {
            return map.get(key);
        }

        @Override
        public void put(String key, byte[] value) {
            puts++;
            map.put(key, value);
        }
    }

    private static void sql(Path catalog, String... statements) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH " + SqlQuote.literal(catalog.toString()) + " AS c");
            st.execute("USE c");
            for (String s : statements) st.execute(s);
        }
    }

    /** Each table's row count, first rows and column statistics equal a DuckDB query over the reader's view. */
    private static void assertEqualsDuckDb(FixtureCopies.Copy copy, List<TableSummary.Table> summary) {
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null)) {
            assertThat(summary.stream().map(TableSummary.Table::name).toList()).isEqualTo(reader.tables());
            for (TableSummary.Table t : summary) {
                String relation = SqlQuote.qualified(t.name().substring(0, t.name().indexOf('.')), t.name().substring(t.name().indexOf('.') + 1));
                QueryResult first = reader.query("SELECT * FROM " + relation + " LIMIT 20");
                List<List<String>> rows = new ArrayList<>();
                for (List<Object> r : first.rows()) rows.add(r.stream().map(TableSummary::text).toList());
                assertThat(t.rows()).as(t.name() + " first rows").isEqualTo(rows);
                assertThat(t.rowCount()).as(t.name()).isEqualTo(((Number) reader.query("SELECT count(*) FROM " + relation).rows().get(0).get(0)).longValue());
                assertThat(t.stats()).as(t.name() + " statistics").isNotNull();
                for (TableSummary.ColumnStats s : t.stats()) {
                    String col = SqlQuote.ident(s.column());
                    List<Object> expected = reader.query("SELECT count(*) - count(" + col + "), approx_count_distinct(" + col + "), CAST(min(" + col
                            + ") AS VARCHAR), CAST(max(" + col + ") AS VARCHAR), count(DISTINCT " + col + ") FROM " + relation).rows().get(0);
                    String what = t.name() + "." + s.column();
                    assertThat(s.nulls()).as(what + " nulls").isEqualTo(((Number) expected.get(0)).longValue());
                    assertThat(s.min()).as(what + " min").isEqualTo(expected.get(2));
                    assertThat(s.max()).as(what + " max").isEqualTo(expected.get(3));
                    // approximate: within HyperLogLog's error (about 3% at 1,024 registers, about 3 standard errors
                    // of a difference of two sketches) of DuckDB's approx_count_distinct. Not of count(DISTINCT):
                    // DuckDB's hash of an INTERVAL collides (1,002 intervals count as about 580 either way)
                    long approx = ((Number) expected.get(1)).longValue();
                    assertThat((double) s.distinct()).as(what + " distinct; count(DISTINCT) " + expected.get(4))
                            .isCloseTo(approx, org.assertj.core.data.Offset.offset(Math.max(1, approx * 0.13)));
                }
            }
        }
    }

    @Test
    void statisticsEqualDuckDbComputedThenFromTheStoreWithoutComputingAgain() {
        for (String fixture : List.of("towns", "types")) {
            FixtureCopies.Copy copy = FixtureCopies.copy(fixture, tmp.resolve(fixture));
            Counting store = new Counting();
            List<TableSummary.Table> computed = TableSummary.read(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null, store, 20, null).tables();
            assertEqualsDuckDb(copy, computed);
            assertThat(store.puts).as(fixture + ": one entry per data file").isPositive();
            int puts = store.puts;
            List<TableSummary.Table> again = TableSummary.read(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null, store, 20, null).tables();
            assertThat(store.puts).as(fixture + ": nothing computed again").isEqualTo(puts);
            assertThat(again).isEqualTo(computed);
            // entries damaged (cut short, edited) are computed again, not trusted
            store.map.replaceAll((k, v) -> "{\"rows\": 1}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(TableSummary.read(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null, store, 20, null).tables()).isEqualTo(computed);
            assertThat(store.puts).isEqualTo(2 * puts);
        }
    }

    @Test
    void aDataFileWithoutDeletesTakesItsBoundsAndNullsFromTheCatalogsFileStatistics() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy("types", tmp);
        // the catalog's statistics are what the summary shows: values no row has prove they were used
        sql(copy.catalog(), "UPDATE ducklake_file_column_stats SET max_value = '~from the catalog', null_count = 7 "
                + "WHERE column_id = (SELECT column_id FROM ducklake_column WHERE column_name = 's' AND end_snapshot IS NULL) "
                + "AND data_file_id NOT IN (SELECT data_file_id FROM ducklake_delete_file)");
        List<TableSummary.Table> t = TableSummary.read(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null, new Counting(), 20, null).tables();
        TableSummary.ColumnStats s = t.get(0).stats().stream().filter(c -> c.column().equals("s")).findFirst().orElseThrow();
        assertThat(s.max()).isEqualTo("~from the catalog");
        assertThat(s.nulls()).as("7 from the file's statistics, 1 of the inlined rows").isEqualTo(8);
    }

    @Test
    void inlinedDeletesAndInlinedRowsAreReadAtTheSnapshot() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp);
        sql(towns.catalog(),
                "INSERT INTO ducklake_snapshot VALUES (16, now(), 9, 6, 7)",
                "INSERT INTO ducklake_snapshot_changes VALUES (16, 'inlined_delete:1,inlined_insert:1', NULL, NULL, NULL)",
                "CREATE TABLE ducklake_inlined_delete_1 (file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT)",
                "INSERT INTO ducklake_inlined_delete_1 VALUES (1, 0, 16), (1, 1, 16)",
                "UPDATE ducklake_inlined_data_1_9 SET end_snapshot = 16 WHERE name = 'Oslo'",
                "INSERT INTO ducklake_inlined_data_1_9 VALUES (2004, 16, NULL, 'Bergen', 285000, 'added by hand')");
        assertEqualsDuckDb(towns, TableSummary.read(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null, new Counting(), 20, null).tables());
    }

    @Test
    void hyperLogLogEstimatesAreNearTheCount() {
        byte[] empty = new byte[1024];
        assertThat(TableSummary.estimate(empty)).isZero();
        assertThat(TableSummary.fromCatalog("BOOLEAN", new String[]{"0", "0", "1", null}, 3)).isNull();
        assertThat(TableSummary.fromCatalog("DOUBLE", new String[]{"1", "1.5", "2.5", "true"}, 3)).containsExactly("1", "1.5", "nan");
        assertThat(TableSummary.fromCatalog("VARCHAR", new String[]{"3", null, null, null}, 3)).containsExactly("3", null, null);
        assertThat(TableSummary.fromCatalog("VARCHAR", new String[]{"1", null, null, null}, 3)).isNull();
    }
}
