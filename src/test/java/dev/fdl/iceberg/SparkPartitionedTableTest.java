package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md, "Partitioning": a table DuckLake partitions by {@code (region, year(ts),
 * month(ts))} (the catalog rows as the DuckLake spec and extension write them:
 * {@code ducklake_partition_info}, {@code ducklake_partition_column}, the files' partition id and
 * {@code ducklake_file_partition_value}) is described with the Iceberg spec
 * {@code identity(region), month(ts)}; each file of one region and month carries Iceberg's values
 * (months from 1970, computed here apart from fdl), a file written before the table was
 * partitioned stays in the unpartitioned spec, and Spark's reads, filtered on the partition
 * columns and not, equal the built-in reader's ({@code fdl query}).
 */
class SparkPartitionedTableTest {
    static final String VERSION = "01a24600-0000-7000-8000-000000000040";

    @TempDir Path dir;

    @Test
    void aPartitionedTableHasItsIcebergSpecAndReadsWithFiltersAsFdlQuery() throws Exception {
        WorkingCatalogFixture w = new WorkingCatalogFixture(dir);
        // one file per region and month, then one file over two months and regions (before partitioning: spec 0)
        String[][] files = {{"1", "2024-01"}, {"2", "2024-01"}, {"1", "2024-02"}, {"2", "2025-03"}};
        for (int i = 0; i < files.length; i++) {
            Path p = dir.resolve("part-" + i + ".parquet");
            IcebergTypesCliTest.duck("COPY (SELECT " + i + " * 1000 + n AS id, " + files[i][0] + "::INTEGER AS region,"
                    + " TIMESTAMP '" + files[i][1] + "-01 00:00:00' + INTERVAL (n * 37) MINUTE AS ts, 'v' || n AS label"
                    + " FROM range(0, 300) t(n)) TO '" + p + "' (FORMAT parquet)");
            w.importFile(p, "events", i == 0 ? ImportMode.CREATE : ImportMode.APPEND);
        }
        Path mixed = dir.resolve("mixed.parquet");
        IcebergTypesCliTest.duck("COPY (SELECT 9000 + n AS id, (n % 2 + 1)::INTEGER AS region,"
                + " TIMESTAMP '2024-01-31 00:00:00' + INTERVAL (n) HOUR AS ts, 'm' || n AS label FROM range(0, 48) t(n)) TO '" + mixed + "' (FORMAT parquet)");
        w.importFile(mixed, "events", ImportMode.APPEND);
        Path catalog = dir.resolve("catalog.duckdb");
        CatalogConverter.convert(w.catalog, catalog, CatalogKind.DUCKDB, ProgressListener.NONE);
        partitionAsDuckLakeDoes(catalog, files.length);

        Repository repo = Repository.init(w.store, new RefName("main"));
        new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(VERSION, catalog,
                new IcebergMetadataWriter.Target(w.store, "", w.dir.resolve("repo").toUri().toString()), Files.createDirectories(dir.resolve("scratch")));
        Path metadata = w.dir.resolve("repo").resolve(IcebergMetadataWriter.metadataKey(VERSION, "main", "events"));

        SparkSession spark = SparkIceberg.session();
        String url = metadata.toUri().toString();
        assertSameRows(spark, url, catalog, null);
        assertSameRows(spark, url, catalog, "ts >= TIMESTAMP '2024-02-01 00:00:00' AND ts < TIMESTAMP '2024-03-01 00:00:00'");
        assertSameRows(spark, url, catalog, "region = 2");
        assertSameRows(spark, url, catalog, "region = 1 AND ts < TIMESTAMP '2024-02-01 00:00:00'");

        Table t = IcebergRows.table(metadata);
        assertThat(t.spec().specId()).isEqualTo(1);
        assertThat(t.spec().fields()).extracting(f -> t.schema().findColumnName(f.sourceId()) + ":" + f.transform())
                .containsExactly("region:identity", "ts:month");
        assertThat(t.specs().get(0).isUnpartitioned()).isTrue();
        List<String> values = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                values.add(task.file().specId() == 0 ? "unpartitioned"
                        : task.file().partition().get(0, Integer.class) + "/" + task.file().partition().get(1, Integer.class));
            }
        }
        // Iceberg's month: months from 1970-01; computed here from the calendar
        assertThat(values).containsExactlyInAnyOrder("1/" + months(2024, 1), "2/" + months(2024, 1), "1/" + months(2024, 2),
                "2/" + months(2025, 3), "unpartitioned");
    }

    @Test
    void fdlCommitOfAPartitionedTableKeepsItsSpecInTheHistoryThatSparkReadsWithFilters() throws Exception {
        Path root = dir.resolve("repo"), wc = IcebergCliTest.icebergWorkingCopy(dir);
        String repo = root.toString();
        String[][] files = {{"1", "2024-01"}, {"2", "2024-01"}, {"2", "2024-06"}};
        for (int i = 0; i < files.length; i++) {
            Path p = dir.resolve("in-" + i + ".parquet");
            IcebergTypesCliTest.duck("COPY (SELECT " + i + " * 1000 + n AS id, " + files[i][0] + "::INTEGER AS region,"
                    + " TIMESTAMP '" + files[i][1] + "-02 00:00:00' + INTERVAL (n * 11) MINUTE AS ts FROM range(0, 200) t(n)) TO '" + p + "' (FORMAT parquet)");
            Cli.ok(wc, "import", p.toString(), "--table", "events", "--mode", i == 0 ? "create" : "append");
        }
        Path catalog;
        try (Stream<Path> s = Files.list(wc.resolve(".fdl"))) {
            catalog = s.filter(p -> p.getFileName().toString().matches("catalog.*\\.sqlite")).findFirst().orElseThrow();
        }
        // the working catalog partitioned as the DuckLake spec writes it: identity(region), month(ts) for every file
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + catalog); Statement st = c.createStatement()) {
            st.execute("INSERT INTO ducklake_partition_info SELECT 1, table_id, begin_snapshot, NULL FROM ducklake_table WHERE table_name = 'events'");
            st.execute("INSERT INTO ducklake_partition_column SELECT 1, t.table_id, 0, c.column_id, 'identity' FROM ducklake_table t"
                    + " JOIN ducklake_column c ON c.table_id = t.table_id AND c.column_name = 'region' WHERE t.table_name = 'events'");
            st.execute("INSERT INTO ducklake_partition_column SELECT 1, t.table_id, 1, c.column_id, 'month' FROM ducklake_table t"
                    + " JOIN ducklake_column c ON c.table_id = t.table_id AND c.column_name = 'ts' WHERE t.table_name = 'events'");
            st.execute("UPDATE ducklake_data_file SET partition_id = 1");
            st.execute("INSERT INTO ducklake_file_partition_value SELECT s.data_file_id, s.table_id, p.partition_key_index,"
                    + " CASE p.partition_key_index WHEN 0 THEN s.min_value ELSE CAST(CAST(strftime('%m', s.min_value) AS INTEGER) AS TEXT) END"
                    + " FROM ducklake_file_column_stats s JOIN ducklake_partition_column p ON p.column_id = s.column_id AND p.table_id = s.table_id");
        }
        Cli.ok(wc, "commit", "-m", "partitioned");

        Path history = root.resolve(IcebergHistory.metadataKey("main", "events"));
        Table h = IcebergRows.table(history);
        assertThat(h.specs().get(1).fields()).extracting(f -> h.schema().findColumnName(f.sourceId()) + ":" + f.transform())
                .containsExactly("region:identity", "ts:month");
        SparkSession spark = SparkIceberg.session();
        for (String where : List.of("region = 2", "ts < TIMESTAMP '2024-03-01 00:00:00'", "region = 2 AND ts >= TIMESTAMP '2024-03-01 00:00:00'")) {
            List<String> expected = IcebergRows.fdlJson(Cli.ok(wc, "query", "--repo", repo, "--json", "main", "SELECT * FROM events WHERE " + where).out());
            List<String> actual = SparkIceberg.rows(spark.read().format("iceberg").load(history.toUri().toString()).where(where));
            assertThat(expected).as(where).hasSize(where.startsWith("region = 2 AND") ? 200 : 400);
            assertThat(actual).as("Spark through the history, " + where).isEqualTo(expected);
        }
    }

    private static int months(int year, int month) {
        return (year - 1970) * 12 + month - 1;
    }

    /** Spark's rows of the table, filtered by {@code where} (null: all), equal the built-in reader's. */
    private static void assertSameRows(SparkSession spark, String url, Path catalog, String where) throws Exception {
        List<String> expected = new ArrayList<>();
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), catalog, null, null)) {
            QueryResult q = r.query("SELECT * FROM events" + (where == null ? "" : " WHERE " + where));
            for (List<Object> row : q.rows()) {
                Map<String, Object> fields = new LinkedHashMap<>();
                for (int i = 0; i < q.columns().size(); i++) fields.put(q.columns().get(i), row.get(i));
                expected.add(IcebergRows.canonValue(new IcebergRows.Struct(fields)));
            }
        }
        expected.sort(null);
        var read = spark.read().format("iceberg").load(url);
        List<String> actual = SparkIceberg.rows(where == null ? read : read.where(where));
        assertThat(expected).as(where).isNotEmpty();
        assertThat(actual).as("Spark, " + where + ": row count").hasSize(expected.size());
        assertThat(actual).as("Spark, " + where + ": every row").isEqualTo(expected);
    }

    /**
     * Partitions {@code events} by {@code (region, year(ts), month(ts))} from its first snapshot on
     * and marks its first {@code partitioned} files as written under that key, with the partition
     * values the DuckLake extension records (calendar year and month).
     */
    private static void partitionAsDuckLakeDoes(Path catalog, int partitioned) throws Exception {
        FixtureCopies.sql(catalog,
                "CREATE TEMP TABLE ev AS SELECT t.table_id, (SELECT column_id FROM ducklake_column c WHERE c.table_id = t.table_id AND column_name = 'region') AS region,"
                        + " (SELECT column_id FROM ducklake_column c WHERE c.table_id = t.table_id AND column_name = 'ts') AS ts,"
                        + " t.begin_snapshot FROM ducklake_table t WHERE table_name = 'events'",
                "INSERT INTO ducklake_partition_info SELECT 1, table_id, begin_snapshot, NULL FROM ev",
                "INSERT INTO ducklake_partition_column SELECT 1, table_id, 0, region, 'identity' FROM ev"
                        + " UNION ALL SELECT 1, table_id, 1, ts, 'year' FROM ev UNION ALL SELECT 1, table_id, 2, ts, 'month' FROM ev",
                "CREATE TEMP TABLE pf AS SELECT data_file_id, table_id FROM ducklake_data_file WHERE table_id = (SELECT table_id FROM ev)"
                        + " ORDER BY data_file_id LIMIT " + partitioned,
                "UPDATE ducklake_data_file SET partition_id = 1 WHERE data_file_id IN (SELECT data_file_id FROM pf)",
                "INSERT INTO ducklake_file_partition_value SELECT s.data_file_id, s.table_id, k.i, CASE k.i WHEN 0 THEN s.min_value"
                        + " WHEN 1 THEN CAST(year(CAST(t.min_value AS TIMESTAMP)) AS VARCHAR) ELSE CAST(month(CAST(t.min_value AS TIMESTAMP)) AS VARCHAR) END"
                        + " FROM pf JOIN ducklake_file_column_stats s ON s.data_file_id = pf.data_file_id AND s.column_id = (SELECT region FROM ev)"
                        + " JOIN ducklake_file_column_stats t ON t.data_file_id = pf.data_file_id AND t.column_id = (SELECT ts FROM ev)"
                        + " CROSS JOIN (VALUES (0), (1), (2)) k(i)");
    }
}
