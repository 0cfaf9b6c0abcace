package dev.fdl.ducklake.load;

import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.engine.DuckDbPool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An import is recorded exactly as the DuckLake extension records the same
 * {@code CREATE TABLE scratch AS SELECT i AS id FROM range(20)} (snapshot 8 of the towns fixture
 * written by DuckDB 2.0, table id 2): same changes, same data file record, same statistics. The file's
 * size is its own: DuckDB's Parquet writer changed page bytes between the 2.0 build that wrote the
 * fixture and the released 2.0.0 fdl runs on, so sizes are checked against the file itself (footer
 * size and everything else agree with the fixture).
 */
public class ImporterRecordsTest {
    @TempDir
    Path tmp;

    @Test
    void importRecordsTheSameRowsAsTheExtensionForCreateTableAs() throws Exception {
        Path parquet = tmp.resolve("scratch.parquet");
        try (Connection duck = DuckDbPool.connect(); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT i AS id FROM range(20) t(i)) TO " + SqlQuote.literal(parquet.toString()) + " (FORMAT parquet)");
        }
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        ImportResult r = wc.importFile(parquet, "scratch", ImportMode.CREATE);
        assertThat(r.snapshot()).isEqualTo(1);

        FixtureCopies.Copy towns = FixtureCopies.copy("duckdb2-ducklake1.0/towns", tmp.resolve("fixture"));
        try (Connection ours = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog);
             Connection duck = DuckDbPool.connect()) {
            try (Statement st = duck.createStatement()) {
                st.execute("ATTACH " + SqlQuote.literal(towns.catalog().toString()) + " AS x (READ_ONLY)");
                st.execute("USE x");
            }
            // theirs: table 2 created at snapshot 8 from schema version 3; ours: table 1 at snapshot 1 from version 0
            assertThat(rows(ours, "SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 1"))
                    .containsExactly(rows(duck, "SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 8")
                            .get(0).replace("table:2", "table:1"));
            assertThat(rows(ours, "SELECT schema_version, next_catalog_id, next_file_id FROM ducklake_snapshot WHERE snapshot_id = 1"))
                    .containsExactly("1|2|1");
            assertThat(rows(duck, "SELECT schema_version - 3, next_catalog_id - 2, next_file_id - 4 FROM ducklake_snapshot WHERE snapshot_id = 8"))
                    .containsExactly("1|1|1");
            assertThat(rows(ours, "SELECT table_name, path, path_is_relative FROM ducklake_table"))
                    .isEqualTo(rows(duck, "SELECT table_name, path, path_is_relative FROM ducklake_table WHERE table_id = 2"));
            String columns = "SELECT column_id, column_order, column_name, column_type, initial_default, default_value, nulls_allowed, "
                    + "parent_column, default_value_type, default_value_dialect FROM ducklake_column";
            assertThat(rows(ours, columns)).isEqualTo(rows(duck, columns + " WHERE table_id = 2"));
            assertThat(rows(ours, "SELECT schema_version, table_id FROM ducklake_schema_versions"))
                    .containsExactly("1|1");
            String file = "SELECT file_order, path_is_relative, file_format, record_count, footer_size, row_id_start, "
                    + "partition_id, encryption_key, mapping_id, partial_max FROM ducklake_data_file";
            assertThat(rows(ours, file)).isEqualTo(rows(duck, file + " WHERE table_id = 2"));
            Path written = wc.dir.resolve("repo/data/main/scratch/" + rows(ours, "SELECT path FROM ducklake_data_file").get(0));
            String size = Long.toString(java.nio.file.Files.size(written));
            assertThat(rows(ours, "SELECT file_size_bytes FROM ducklake_data_file")).containsExactly(size);
            assertThat(rows(ours, "SELECT path FROM ducklake_data_file").get(0)).matches("ducklake-[0-9a-f-]{36}\\.parquet");
            String fileStats = "SELECT column_id, value_count, null_count, min_value, max_value, contains_nan, "
                    + "extra_stats FROM ducklake_file_column_stats";
            assertThat(rows(ours, fileStats)).isEqualTo(rows(duck, fileStats + " WHERE table_id = 2"));
            assertThat(rows(ours, "SELECT column_size_bytes FROM ducklake_file_column_stats")).isEqualTo(rows(duck,
                    "SELECT total_compressed_size FROM parquet_metadata(" + SqlQuote.literal(written.toString()) + ")"));
            String tableStats = "SELECT record_count, next_row_id FROM ducklake_table_stats";
            assertThat(rows(ours, tableStats)).isEqualTo(rows(duck, tableStats + " WHERE table_id = 2"));
            assertThat(rows(ours, "SELECT file_size_bytes FROM ducklake_table_stats")).containsExactly(size);
            String columnStats = "SELECT column_id, contains_null, contains_nan, min_value, max_value, extra_stats "
                    + "FROM ducklake_table_column_stats";
            assertThat(rows(ours, columnStats)).isEqualTo(rows(duck, columnStats + " WHERE table_id = 2"));
        }
    }

    @Test
    void fileStatisticsHoldEachColumnsNullsMinMaxAndNaNAsTheDataSays() throws Exception {
        // a float column's min and max leave NaN out, and contains_nan says whether it was there
        Path parquet = tmp.resolve("mixed.parquet");
        try (Connection duck = DuckDbPool.connect(); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT i AS id, CASE WHEN i = 3 THEN NULL ELSE 'v' || i END AS s, "
                    + "CASE WHEN i = 5 THEN 'NaN'::DOUBLE WHEN i = 6 THEN NULL ELSE i / 4.0 END AS x, i / 2.0 AS y, i % 2 = 0 AS b, "
                    + "DATE '2020-01-01' + i::INTEGER AS day FROM range(10) t(i)) TO " + SqlQuote.literal(parquet.toString())
                    + " (FORMAT parquet)");
        }
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.importFile(parquet, "t", ImportMode.CREATE);
        try (Connection ours = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog)) {
            assertThat(rows(ours, "SELECT column_id, null_count, min_value, max_value, contains_nan FROM ducklake_file_column_stats "
                    + "ORDER BY column_id")).containsExactly("1|0|0|9|null", "2|1|v0|v9|null", "3|1|0.0|2.25|1", "4|0|0.0|4.5|0",
                    "5|0|0|1|null", "6|0|2020-01-01|2020-01-10|null");
        }
    }

    /** Rows as {@code a|b|c}, booleans as 1/0 (the SQLite catalog's form). */
    public static List<String> rows(Connection c, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    if (i > 1) sb.append('|');
                    String v = rs.getString(i);
                    sb.append("true".equals(v) ? "1" : "false".equals(v) ? "0" : v);
                }
                out.add(sb.toString());
            }
        }
        return out;
    }
}
