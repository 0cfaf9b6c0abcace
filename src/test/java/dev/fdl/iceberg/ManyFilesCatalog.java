package dev.fdl.iceberg;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbPool;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

/** A generated DuckLake catalog of one table with many data files, for IcebergBench and the manifest tests. */
public final class ManyFilesCatalog {
    private ManyFilesCatalog() {}

    /**
     * Creates a DuckDB catalog at {@code file} (which must not exist) at snapshot 1 with table
     * {@code main.events}: {@code files} data files {@code ducklake-<uuid>.parquet} under the data
     * folder {@code data/} (ids 0 to files-1, file i holding 100,000 rows; the files themselves are
     * not written), statistics for its four columns (int64, varchar, float64, timestamptz), and
     * 100 inlined rows.
     */
    public static void generate(Path file, long files) throws Exception {
        EmptyCatalog.create(file, CatalogKind.DUCKDB, "data/");
        try (Connection c = DuckDbPool.connect(); Statement s = c.createStatement()) {
            s.execute("ATTACH '" + file + "' AS cat");
            s.execute("USE cat");
            s.execute("INSERT INTO ducklake_snapshot VALUES (1, TIMESTAMPTZ '2026-01-01 00:00:00+00', 1, 10, " + files + ")");
            s.execute("INSERT INTO ducklake_snapshot_changes VALUES (1, 'created_table:\"main\".\"events\"', NULL, NULL, NULL)");
            s.execute("INSERT INTO ducklake_table VALUES (1, uuid(), 1, NULL, 0, 'events', 'events/', true)");
            s.execute("INSERT INTO ducklake_column SELECT k, 1, NULL, 1, k, 'c' || k, CASE WHEN k = 1 THEN 'int64' WHEN k = 2 THEN 'varchar'"
                    + " WHEN k = 3 THEN 'float64' ELSE 'timestamptz' END, NULL, NULL, true, NULL, 'literal', 'duckdb' FROM range(1, 5) b(k)");
            s.execute("INSERT INTO ducklake_schema_versions VALUES (1, 1, 1)");
            s.execute("INSERT INTO ducklake_data_file SELECT i, 1, 1, NULL, NULL, 'ducklake-' || uuid() || '.parquet', true, 'parquet',"
                    + " 100000, 4000000 + i, 2000, i * 100000, NULL, NULL, NULL, NULL FROM range(" + files + ") t(i)");
            s.execute("INSERT INTO ducklake_file_column_stats SELECT f, 1, k, 1000000, 100000, f % 3,"
                    + " CASE WHEN k = 1 THEN CAST(f * 100000 AS VARCHAR) WHEN k = 2 THEN 'a' || f WHEN k = 3 THEN CAST(f / 7.0 AS VARCHAR)"
                    + " ELSE '2026-01-01 00:00:00+00' END,"
                    + " CASE WHEN k = 1 THEN CAST(f * 100000 + 99999 AS VARCHAR) WHEN k = 2 THEN 'z' || f WHEN k = 3 THEN CAST(f / 7.0 + 1 AS VARCHAR)"
                    + " ELSE '2026-02-01 00:00:00+00' END, CASE WHEN k = 3 THEN false END, NULL FROM range(" + files + ") a(f), range(1, 5) b(k)");
            s.execute("INSERT INTO ducklake_table_stats VALUES (1, " + files * 100000 + ", " + files * 100000 + ", " + files * 4000000 + ")");
            s.execute("CREATE TABLE ducklake_inlined_data_1_1(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, c1 BIGINT,"
                    + " c2 VARCHAR, c3 DOUBLE, c4 TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_1', 1)");
            s.execute("INSERT INTO ducklake_inlined_data_1_1 SELECT " + files * 100000 + " + i, 1, NULL, i, 'town ' || i, i / 3.0,"
                    + " TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_microseconds(i) FROM range(100) t(i)");
            s.execute("USE memory");
            s.execute("DETACH cat");
        }
    }
}
