package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.Json;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Apache Spark (local mode, Iceberg's Spark runtime) reads the Iceberg metadata of versions as
 * {@code fdl query} reads the same versions (every row, as a multiset): a committed and tagged
 * version, a synced one with a delete file, one with inlined rows and inlined deletes, a merged
 * one, nested types, files registered with {@code fdl add-files}, and what {@code fdl attach --iceberg} prints.
 */
class SparkReadsCliTest {
    static SparkSession spark;

    @TempDir Path dir;

    @BeforeAll
    static void spark() {
        spark = SparkIceberg.session();
    }

    static String versionOf(Path wc, String ref) throws Exception {
        return Json.MAPPER.readTree(Cli.ok(wc, "show", "--json", ref).out()).get("id").asText();
    }

    /** The URL of a table's metadata file in a version, as readers name it. */
    static String metadataUrl(Path root, String versionId, String table) {
        return root.resolve(IcebergMetadataWriter.metadataKey(versionId, "main", table)).toUri().toString();
    }

    static List<String> sparkRows(Path root, String versionId, String table) {
        return SparkIceberg.rows(spark.read().format("iceberg").load(metadataUrl(root, versionId, table)));
    }

    static void assertSame(List<String> spark, List<String> fdl, String what) {
        assertThat(spark).as(what + " read by Spark: row count").hasSize(fdl.size());
        assertThat(spark).as(what + " read by Spark: every row").isEqualTo(fdl);
    }

    @Test
    void committedTaggedAndSyncedVersionsAndWhatAttachPrintsReadAsFdlQuery() throws Exception {
        Path root = dir.resolve("repo"), wc = IcebergCliTest.icebergWorkingCopy(dir);
        String repo = root.toString();
        Cli.ok(wc, "import", IcebergCliTest.month(dir, "2024-10-04").toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        Cli.ok(wc, "commit", "-m", "first");
        Cli.ok(wc, "tag", "m0");
        Cli.ok(wc, "import", IcebergCliTest.month(dir, "2024-12-01").toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        Cli.ok(wc, "commit", "-m", "second");
        String first = versionOf(wc, "m0"), second = versionOf(wc, "main");
        List<String> atTag = IcebergRows.fdl(wc, repo, "m0", "cities"), atMain = IcebergRows.fdl(wc, repo, "main", "cities");
        assertThat(atMain).isNotEqualTo(atTag);
        assertSame(sparkRows(root, first, "cities"), atTag, "the tagged version");
        assertSame(sparkRows(root, second, "cities"), atMain, "the synced version (a delete file)");

        // every Spark statement fdl attach --iceberg prints runs, and reads the version
        String attach = Cli.ok(wc, "attach", "--iceberg", "m0").out();
        List<String> statements = sparkStatements(attach);
        assertThat(statements).hasSize(2);
        SparkSession configured = SparkIceberg.session();
        Matcher conf = Pattern.compile("--conf (spark\\.sql\\.catalog\\.[^=\\s]+)=(\\S+)").matcher(attach);
        while (conf.find()) configured.conf().set(conf.group(1), conf.group(2));
        for (String statement : statements) {
            Dataset<Row> read = statement.startsWith("spark.read")
                    ? spark.read().format("iceberg").load(loadArgument(statement)) : configured.sql(statement);
            assertSame(SparkIceberg.rows(read), atTag, statement);
        }
    }

    /**
     * The Spark lines of {@code fdl attach --iceberg}: after the {@code spark-sql} line that starts
     * the shell, each line's SQL statement and its {@code spark.read} alternative (in its comment).
     */
    static List<String> sparkStatements(String attach) {
        List<String> out = new ArrayList<>();
        boolean inSpark = false;
        for (String line : attach.split("\n")) {
            if (line.startsWith("-- ") || line.startsWith("# ")) { // a reader's heading, in its own language
                inSpark = line.startsWith("# Spark");
                continue;
            }
            if (!inSpark || line.isBlank() || line.startsWith("spark-sql ")) continue;
            int comment = line.indexOf(";  -- ");
            out.add(comment < 0 ? line.replaceAll(";\\s*$", "") : line.substring(0, comment));
            if (comment >= 0) out.add(line.substring(line.indexOf("spark.read", comment)).trim());
        }
        return out;
    }

    private static String loadArgument(String statement) {
        Matcher m = Pattern.compile("load\\(\"([^\"]+)\"\\)").matcher(statement);
        assertThat(m.find()).as(statement).isTrue();
        return m.group(1);
    }

    @Test
    void inlinedRowsAndInlinedDeletesReadAsTheBuiltInReaderReadsThem() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.townsWithSnapshot16(dir);
        ObjectStore store = Stores.open(towns.dir().toString());
        Repository repo = Repository.init(store, new RefName("main"));
        new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(IcebergDeletesAndInlinedRowsTest.VERSION, towns.catalog(),
                new IcebergMetadataWriter.Target(store, "", towns.dir().toUri().toString()), Files.createDirectories(dir.resolve("scratch")));
        List<String> expected = new ArrayList<>();
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            QueryResult q = r.query("SELECT * FROM towns");
            for (List<Object> row : q.rows()) {
                java.util.Map<String, Object> fields = new java.util.LinkedHashMap<>();
                for (int i = 0; i < q.columns().size(); i++) fields.put(q.columns().get(i), row.get(i));
                expected.add(IcebergRows.canonValue(new IcebergRows.Struct(fields)));
            }
        }
        expected.sort(null);
        Path metadata = towns.dir().resolve(IcebergMetadataWriter.metadataKey(IcebergDeletesAndInlinedRowsTest.VERSION, "main", "towns"));
        List<String> read = SparkIceberg.rows(spark.read().format("iceberg").load(metadata.toUri().toString()));
        assertSame(read, expected, "towns with inlined rows and deletes");
        assertThat(read).anyMatch(row -> row.contains("name=Bergen,")).noneMatch(row -> row.contains("name=Oslo,"));
    }

    @Test
    void aMergedVersionReadsAsFdlQuery() throws Exception {
        Path root = dir.resolve("repo"), wc = IcebergCliTest.icebergWorkingCopy(dir), other = Files.createDirectories(dir.resolve("other"));
        String repo = root.toString();
        Cli.ok(wc, "import", csv("k,a,b\n1,10,x\n2,20,y\n3,30,z\n4,40,w\n").toString(), "--table", "kt", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "commit", "-m", "base");
        Cli.ok(other, "checkout", "--repo", repo, "-b", "staging", "main");
        Cli.ok(other, "import", csv("k,a,b\n1,10,x\n2,21,y\n3,30,z\n4,40,w\n5,50,v\n").toString(), "--table", "kt", "--mode", "sync");
        Cli.ok(other, "commit", "-m", "staging: 2 changed, 5 added");
        Cli.ok(wc, "import", csv("k,a,b\n1,10,x\n2,20,y\n3,31,z\n").toString(), "--table", "kt", "--mode", "sync");
        Cli.ok(wc, "commit", "--allow-shrink", "-m", "main: 3 changed, 4 removed");
        Cli.ok(wc, "merge", "staging");
        Cli.ok(wc, "commit", "-m", "merged");
        String merged = versionOf(wc, "main");
        Cli.ok(wc, "iceberg", "main");
        List<String> expected = IcebergRows.fdl(wc, repo, "main", "kt");
        assertThat(expected).containsExactly("{k=1,a=10,b=x}", "{k=2,a=21,b=y}", "{k=3,a=31,b=z}", "{k=5,a=50,b=v}");
        assertSame(sparkRows(root, merged, "kt"), expected, "the merged version");
    }

    private Path csv(String text) throws Exception {
        Path p = Files.createTempFile(dir, "t", ".csv");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void filesRegisteredWithAddFilesReadAsFdlQuery() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo");
        String repo = root.toString();
        Path jobs = Files.createDirectories(root.resolve("data/jobs/run-1"));
        IcebergTypesCliTest.duck("COPY (SELECT i::BIGINT AS id, 'low' AS label, DATE '2024-01-01' + i::INTEGER AS d, (i / 4)::DECIMAL(10,2) AS dec"
                + " FROM range(0, 100) t(i)) TO '" + jobs.resolve("part-0.parquet") + "' (FORMAT parquet)");
        IcebergTypesCliTest.duck("COPY (SELECT i::BIGINT AS id, 'high' AS label, DATE '2024-01-01' + i::INTEGER AS d, (i / 4)::DECIMAL(10,2) AS dec"
                + " FROM range(1000, 1100) t(i)) TO '" + jobs.resolve("part-1.parquet") + "' (FORMAT parquet)");
        Cli.ok(wc, "add-files", "jobs/run-1/", "--table", "events", "--create");
        Cli.ok(wc, "commit", "-m", "add-files");
        Cli.ok(wc, "iceberg");
        String id = versionOf(wc, "main");
        assertSame(sparkRows(root, id, "events"), IcebergRows.fdl(wc, repo, "main", "events"), "files registered with add-files");
        // a filter Spark pushes down to Iceberg, which prunes by the bounds fdl writes (IcebergBoundsTest)
        Dataset<Row> high = spark.read().format("iceberg").load(metadataUrl(root, id, "events")).where("id > 500");
        assertThat(SparkIceberg.rows(high)).hasSize(100).allMatch(r -> r.contains("label=high"));
    }

    @Test
    void sparkWritesParquetIntoTheDataFolderAddFilesRegistersItAndSparkReadsTheVersionBack() throws Exception {
        Path root = dir.resolve("repo"), wc = IcebergCliTest.icebergWorkingCopy(dir);
        String repo = root.toString();
        Dataset<Row> job = spark.range(0, 5000).selectExpr("id", "concat('city ', id) AS name", "CAST(id % 97 AS INT) AS zone",
                "id * 1.5D AS score", "date_add(DATE '2024-01-01', CAST(id % 365 AS INT)) AS day").repartition(3);
        job.write().parquet(root.resolve("data/jobs/spark-1").toUri().toString());
        Cli.ok(wc, "add-files", "jobs/spark-1/", "--table", "events", "--create");
        Cli.ok(wc, "commit", "-m", "a Spark job's output");
        String id = versionOf(wc, "main");
        List<String> written = SparkIceberg.rows(job);
        assertThat(written).hasSize(5000);
        assertSame(IcebergRows.fdl(wc, repo, "main", "events"), written, "fdl query of the files Spark wrote");
        assertSame(sparkRows(root, id, "events"), written, "the version Spark wrote, read back through Iceberg");
        assertThat(IcebergRows.table(root.resolve(IcebergMetadataWriter.metadataKey(id, "main", "events"))).currentSnapshot()
                .summary()).containsEntry("total-data-files", "3");
    }
}
