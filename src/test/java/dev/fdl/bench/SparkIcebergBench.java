package dev.fdl.bench;

import dev.fdl.cli.Cli;
import dev.fdl.iceberg.IcebergMetadataWriter;
import dev.fdl.iceberg.SparkIceberg;
import dev.fdl.util.Json;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * Apache Spark (local mode, two worker threads: {@link SparkIceberg}) running one {@code GROUP BY}
 * over every row of a synced version through its Iceberg metadata (docs/iceberg.md), against the
 * same query over the version's rows as one plain Parquet file, in the same run (target ≤ 1.5x).
 *
 * <p>The version: a four-column table ({@code id, d, s, x}) of N rows (default 10,000,000) imported
 * and committed, then synced by key {@code id} with 1% of rows changed, 0.5% gone and 1% new and
 * committed again, into a repository made with {@code fdl init --iceberg}: its data files, a delete
 * file and the new rows' file, described by the metadata commit wrote. The plain Parquet file: the
 * synced rows written by DuckDB's {@code COPY ... TO (FORMAT parquet)}. Both sides must give the
 * same groups (the check that they read the same rows). Also timed, for where the difference
 * lies: the base version through Iceberg (no delete file). Prints the median wall time of each side
 * over the rounds (one warm-up each, not counted, then alternating) and of the process's CPU time
 * (steadier on a loaded machine), the ratios, and the Iceberg files' and the Parquet file's bytes.
 *
 * <p>Run (Spark needs the JVM options of pom.xml's surefire {@code argLine}):
 * {@code MAVEN_OPTS="-Xmx3g --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
 * --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
 * --add-opens=java.base/sun.util.calendar=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"
 * mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.SparkIcebergBench
 * -Dexec.args="10000000 3"} (rows, rounds).
 */
public final class SparkIcebergBench {
    private static final String QUERY = "SELECT d, count(*) AS n, sum(x) AS x FROM %s GROUP BY d ORDER BY d";

    private SparkIcebergBench() {}

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("fdl-sparkicebergbench-");
        try {
            long t0 = System.nanoTime();
            Path v1 = dir.resolve("v1.parquet"), v2 = dir.resolve("v2.parquet"), plain = dir.resolve("plain.parquet");
            generate(n, v1, v2, plain);
            Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
            Cli.ok(dir, "init", "--iceberg", root.toString());
            Cli.ok(wc, "checkout", "--repo", root.toString());
            Cli.ok(wc, "import", v1.toString(), "--table", "t");
            Cli.ok(wc, "commit", "-m", "base");
            String base = Json.MAPPER.readTree(Cli.ok(wc, "show", "--json", "main").out()).get("id").asText();
            Cli.ok(wc, "import", v2.toString(), "--table", "t", "--mode", "sync", "--key", "id");
            Cli.ok(wc, "commit", "-m", "sync");
            String version = Json.MAPPER.readTree(Cli.ok(wc, "show", "--json", "main").out()).get("id").asText();
            String metadataKey = IcebergMetadataWriter.metadataKey(version, "main", "t");
            String metadata = root.resolve(metadataKey).toUri().toString();
            System.out.printf(Locale.ROOT, "built the synced version of %,d rows in %.0f s%n", n, (System.nanoTime() - t0) / 1e9);

            SparkSession spark = SparkIceberg.session();
            spark.read().format("iceberg").load(metadata).createOrReplaceTempView("through_iceberg");
            spark.read().parquet(plain.toUri().toString()).createOrReplaceTempView("plain_parquet");
            spark.read().format("iceberg").load(root.resolve(IcebergMetadataWriter.metadataKey(base, "main", "t")).toUri().toString())
                    .createOrReplaceTempView("base_through_iceberg");
            System.out.printf(Locale.ROOT, "Spark's tasks for a scan: %d through Iceberg, %d over plain Parquet%n",
                    spark.table("through_iceberg").javaRDD().getNumPartitions(), spark.table("plain_parquet").javaRDD().getNumPartitions());
            long[] iceberg = new long[rounds], parquet = new long[rounds], baseIceberg = new long[rounds];
            long[] icebergCpu = new long[rounds], parquetCpu = new long[rounds];
            List<Row> viaIceberg = null, viaParquet = null;
            for (int i = -1; i < rounds; i++) { // round -1 warms up both sides and is not counted
                long a = System.nanoTime(), ca = cpu();
                viaIceberg = spark.sql(String.format(Locale.ROOT, QUERY, "through_iceberg")).collectAsList();
                long b = System.nanoTime(), cb = cpu();
                viaParquet = spark.sql(String.format(Locale.ROOT, QUERY, "plain_parquet")).collectAsList();
                long c = System.nanoTime(), cc = cpu();
                spark.sql(String.format(Locale.ROOT, QUERY, "base_through_iceberg")).collectAsList();
                long d = System.nanoTime();
                if (i >= 0) {
                    iceberg[i] = b - a;
                    parquet[i] = c - b;
                    baseIceberg[i] = d - c;
                    icebergCpu[i] = cb - ca;
                    parquetCpu[i] = cc - cb;
                }
            }
            if (!viaIceberg.equals(viaParquet)) throw new IllegalStateException("the two reads differ: " + firstDifference(viaIceberg, viaParquet));
            long rows = viaIceberg.stream().mapToLong(r -> r.getLong(1)).sum();
            long[] iceFiles = IcebergBench.sizes(root.resolve(metadataKey).getParent().getParent());
            System.out.printf(Locale.ROOT, "%s over %,d rows (%d groups); medians of %d rounds, wall:%n", String.format(Locale.ROOT, QUERY, "t"),
                    rows, viaIceberg.size(), rounds);
            System.out.printf(Locale.ROOT, "  through Iceberg (data files, delete file, new rows' file): %,d ms (%,d ms CPU)%n",
                    IcebergBench.median(iceberg) / 1_000_000, IcebergBench.median(icebergCpu) / 1_000_000);
            System.out.printf(Locale.ROOT, "  plain Parquet (DuckDB COPY of the same rows):              %,d ms (%,d ms CPU)%n",
                    IcebergBench.median(parquet) / 1_000_000, IcebergBench.median(parquetCpu) / 1_000_000);
            System.out.printf(Locale.ROOT, "  (the base version through Iceberg, no delete file: %,d ms)%n",
                    IcebergBench.median(baseIceberg) / 1_000_000);
            System.out.printf(Locale.ROOT, "  ratio %.2fx wall, %.2fx CPU (target <= 1.5x); load average %.1f%n",
                    IcebergBench.median(iceberg) / (double) IcebergBench.median(parquet),
                    IcebergBench.median(icebergCpu) / (double) IcebergBench.median(parquetCpu),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf(Locale.ROOT, "Iceberg files of the table: %d, %,d bytes (metadata and the delete file); plain Parquet %,d bytes;"
                    + " repository data folder %,d bytes%n", iceFiles[1], iceFiles[0], Files.size(plain), IcebergBench.sizes(root.resolve("data"))[0]);
        } finally {
            IcebergBench.deleteTree(dir);
        }
    }

    /** The CPU time of this process (Spark's local workers run in it), ns. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** v1: N rows; v2: v1 with 1% changed, 0.5% gone and 1% new (BigBuildBench's shape); plain: v2's rows as DuckDB writes them. */
    private static void generate(long n, Path v1, Path v2, Path plain) throws Exception {
        String rows = "SELECT i AS id, (i % 1000)::INTEGER AS d, 'name-' || i AS s, ((i * 7919) % 100003) / 8.0 AS x FROM range(" + n + ") t(i)";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (" + rows + ") TO '" + v1 + "' (FORMAT parquet)");
            s.execute("COPY (SELECT id, d, CASE WHEN hash(id, 'c') % 100 = 0 THEN s || '!' ELSE s END AS s,"
                    + " CASE WHEN hash(id, 'c') % 100 = 0 THEN x + 1 ELSE x END AS x FROM (" + rows + ") WHERE hash(id, 'g') % 200 <> 0"
                    + " UNION ALL SELECT i, (i % 1000)::INTEGER, 'new-' || i, i / 4.0 FROM range(" + n + ", " + (n + n / 100) + ") t(i))"
                    + " TO '" + v2 + "' (FORMAT parquet)");
            s.execute("COPY (FROM read_parquet('" + v2 + "')) TO '" + plain + "' (FORMAT parquet)");
        }
    }

    private static String firstDifference(List<Row> a, List<Row> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) return "Iceberg " + a.get(i) + ", Parquet " + b.get(i);
        }
        return a.size() + " groups through Iceberg, " + b.size() + " over Parquet";
    }
}
