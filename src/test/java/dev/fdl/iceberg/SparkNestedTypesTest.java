package dev.fdl.iceberg;

import dev.fdl.cli.ResultPrinter;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.SqlQuote;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md, "Types": a table with a list, a struct and a map, written by DuckLake's own
 * extension (the {@code types} fixture: 1,000 rows in Parquet, 3 inlined), read by Apache Spark and
 * by Iceberg's Java reader through the metadata fdl writes, equals what {@code fdl query --json}
 * prints for it (every row), and every field id of the Iceberg schema, the nested ones included, is
 * the field id of the same column in the data file.
 *
 * <p>The fixture's table also has columns Iceberg cannot hold (HUGEINT, UINTEGER, UBIGINT,
 * INTERVAL) and a TIME column, which Iceberg holds but Spark cannot read: a snapshot drops them as
 * DuckLake's {@code ALTER TABLE … DROP COLUMN} does (the column rows end, a new schema version),
 * so the data file still holds them and the readers must find the others by field id. Iceberg's
 * Java reader reads the extension's own file so; Spark's refuses a file holding a UINT_32 column,
 * and reads the same rows from the file written again without the dropped columns.
 */
class SparkNestedTypesTest {
    static final String VERSION = "01a24600-0000-7000-8000-000000000039";

    @TempDir Path dir;

    @Test
    void nestedColumnsReadBySparkAndIcebergEqualFdlQueryAndKeepTheFilesFieldIds() throws Exception {
        FixtureCopies.Copy types = FixtureCopies.copy("types", dir);
        FixtureCopies.sql(types.catalog(),
                "INSERT INTO ducklake_snapshot VALUES (4, now(), 2, 2, 2)",
                "INSERT INTO ducklake_snapshot_changes VALUES (4, 'altered_table:1', NULL, NULL, NULL)",
                "INSERT INTO ducklake_schema_versions VALUES (4, 2, 1)",
                "UPDATE ducklake_column SET end_snapshot = 4 WHERE table_id = 1 AND parent_column IS NULL"
                        + " AND column_name IN ('hi', 'ui', 'ubi', 'iv', 'tm')");
        ObjectStore store = Stores.open(types.dir().toString());
        Repository repo = Repository.init(store, new RefName("main"));
        new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(VERSION, types.catalog(),
                new IcebergMetadataWriter.Target(store, "", types.dir().toUri().toString()), Files.createDirectories(dir.resolve("scratch")));
        Path metadata = types.dir().resolve(IcebergMetadataWriter.metadataKey(VERSION, "main", "all_types"));

        StringWriter json = new StringWriter();
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), types.catalog(), types.dataPath(), null);
             PrintWriter out = new PrintWriter(json)) {
            ResultPrinter.json(out, r.query("SELECT * FROM all_types")); // what fdl query --json prints
        }
        List<String> expected = IcebergRows.fdlJson(json.toString());
        assertThat(expected).hasSize(1003)
                .anyMatch(row -> row.contains(",f=nan,d=inf,") && row.endsWith(",l=[1, null, 3],st={a=1,b=x},m={k=1}}"))
                .anyMatch(row -> row.endsWith(",l=[],st={a=null,b=null},m={}}"))
                .anyMatch(row -> row.endsWith(",l=null,st=null,m=null}"))
                .anyMatch(row -> row.endsWith(",l=[7, 8],st={a=7,b=v7},m={n=7}}"));

        Schema schema = IcebergRows.table(metadata).schema();
        Map<String, Integer> fileIds = parquetFieldIds(dataFile(types));
        assertThat(fileIds).containsKeys("l.element", "st.a", "st.b", "m.key", "m.value", "hi", "tm");
        int compared = 0;
        for (Map.Entry<String, Integer> e : fileIds.entrySet()) {
            Types.NestedField f = schema.findField(e.getKey());
            if (List.of("hi", "ui", "ubi", "iv", "tm").contains(e.getKey())) {
                assertThat(f).as("dropped column " + e.getKey()).isNull();
                continue;
            }
            assertThat(f).as("Iceberg field " + e.getKey()).isNotNull();
            assertThat(f.fieldId()).as("field id of " + e.getKey()).isEqualTo(e.getValue());
            compared++;
        }
        assertThat(compared).isEqualTo(schema.columns().size() + 1 + 2 + 2); // the 17 top-level, the list's element, the struct's 2, the map's 2
        List<String> byIceberg = IcebergRows.iceberg(metadata);
        assertThat(byIceberg).as("Iceberg's Java reader, the extension's own file: every row").isEqualTo(expected);

        // Spark's Iceberg row reader (nested columns are not read vectorized) visits every column of a
        // file and refuses its UINT_32 column though no table column names it; the file is
        // written again without the dropped columns, with the same field ids, as a rewrite after
        // DROP COLUMN writes it
        Path file = dataFile(types);
        Path rewritten = file.resolveSibling("rewritten.parquet");
        IcebergTypesCliTest.duck("COPY (SELECT b, ti, si, i, bi, f, d, dec, s, bl, u, dt, ts, tstz, l, st, m FROM read_parquet("
                + SqlQuote.literal(file.toString()) + ")) TO " + SqlQuote.literal(rewritten.toString()) + " (FORMAT parquet, FIELD_IDS {"
                + "b: 1, ti: 2, si: 3, i: 4, bi: 5, f: 9, d: 10, dec: 11, s: 12, bl: 13, u: 14, dt: 15, ts: 17, tstz: 18,"
                + " l: {__duckdb_field_id: 20, element: 21}, st: {__duckdb_field_id: 22, a: 23, b: 24},"
                + " m: {__duckdb_field_id: 25, key: 26, value: 27}})");
        Files.move(rewritten, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        FixtureCopies.sql(types.catalog(), "UPDATE ducklake_data_file SET file_size_bytes = " + Files.size(file) + ", footer_size = NULL");
        String again = "01a24600-0000-7000-8000-000000000139";
        new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(again, types.catalog(),
                new IcebergMetadataWriter.Target(store, "", types.dir().toUri().toString()), Files.createDirectories(dir.resolve("scratch")));
        Path rewrittenMetadata = types.dir().resolve(IcebergMetadataWriter.metadataKey(again, "main", "all_types"));
        SparkSession spark = SparkIceberg.session();
        List<String> bySpark = SparkIceberg.rows(spark.read().format("iceberg").load(rewrittenMetadata.toUri().toString()));
        assertThat(bySpark).as("Spark: row count").hasSize(expected.size());
        assertThat(bySpark).as("Spark: every row").isEqualTo(expected);
        assertThat(IcebergRows.iceberg(rewrittenMetadata)).as("Iceberg's Java reader, the file written again").isEqualTo(expected);
    }

    private static Path dataFile(FixtureCopies.Copy types) throws Exception {
        try (Stream<Path> files = Files.list(types.data().resolve("main/all_types"))) {
            return files.findFirst().orElseThrow();
        }
    }

    /**
     * Every column of a Parquet file with a field id, by its path in Iceberg's names ({@code l.element},
     * {@code m.key}: Parquet's {@code list} and {@code key_value} levels left out), read with DuckDB's
     * {@code parquet_schema}, whose rows are the schema tree in depth-first order.
     */
    private static Map<String, Integer> parquetFieldIds(Path file) throws Exception {
        Map<String, Integer> ids = new LinkedHashMap<>();
        Deque<String> path = new ArrayDeque<>();
        Deque<Long> left = new ArrayDeque<>();
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement();
             ResultSet r = st.executeQuery("SELECT name, field_id, num_children FROM parquet_schema(" + SqlQuote.literal(file.toString()) + ")")) {
            boolean root = true;
            while (r.next()) {
                long children = r.getLong("num_children");
                if (root) {
                    root = false;
                    left.push(children);
                    continue;
                }
                while (left.peek() == 0) {
                    left.pop();
                    path.removeLast();
                }
                left.push(left.pop() - 1);
                String name = r.getString("name");
                path.addLast(name);
                Object id = r.getObject("field_id");
                if (id != null) {
                    ids.put(String.join(".", Stream.of(path.toArray(String[]::new))
                            .filter(p -> !p.equals("list") && !p.equals("key_value")).toList()), ((Number) id).intValue());
                }
                if (children > 0) left.push(children);
                else path.removeLast();
            }
        }
        return ids;
    }
}
