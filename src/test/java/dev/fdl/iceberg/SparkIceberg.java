package dev.fdl.iceberg;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Apache Spark in local mode for tests that read Iceberg tables (docs/iceberg.md): Iceberg's Spark
 * runtime with its SQL extensions, two worker threads, two shuffle partitions, no UI, the driver
 * on 127.0.0.1, timestamps in UTC and read as {@code java.time} values.
 *
 * <p>A JVM holds one SparkContext, so every test class shares one: {@link #session()} gives each
 * caller its own session over it (own SQL settings and temporary views, same workers). Catalogs
 * are added per session ({@link #hadoopCatalog}, {@link #restCatalog}); a path read needs none:
 * {@code session.read().format("iceberg").load("<metadata json URL>")}. The context is stopped by
 * Spark's own shutdown hook when the JVM ends.
 */
public final class SparkIceberg {
    private SparkIceberg() {}

    /** The shared context, made on first use (JVM-wide: one SparkContext per JVM). */
    private static final class Shared {
        static final SparkSession ROOT = start();
    }

    /**
     * A new session over the shared local Spark, made on first use.
     *
     * @return a session of its own: SQL settings and catalogs set on it stay in it
     */
    public static SparkSession session() {
        return Shared.ROOT.newSession();
    }

    private static SparkSession start() {
        Path scratch;
        try {
            scratch = Files.createTempDirectory("fdl-spark-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return SparkSession.builder().master("local[2]").appName("fdl tests")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.default.parallelism", "2")
                .config("spark.sql.catalogImplementation", "in-memory")
                .config("spark.sql.warehouse.dir", scratch.resolve("warehouse").toUri().toString())
                .config("spark.local.dir", scratch.resolve("local").toString())
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.datetime.java8API.enabled", "true")
                .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
                // the catalog Iceberg's path reads (format("iceberg").load(<metadata URL>)) go through names no table
                // itself; Iceberg makes it a Hive catalog unless told, and the tests have no Hive
                .config("spark.sql.catalog.default_iceberg", "org.apache.iceberg.spark.SparkCatalog")
                .config("spark.sql.catalog.default_iceberg.type", "hadoop")
                .config("spark.sql.catalog.default_iceberg.warehouse", scratch.resolve("iceberg").toUri().toString())
                .getOrCreate();
    }

    /**
     * Adds to {@code session} an Iceberg catalog {@code name} over a Hadoop warehouse folder
     * (tables at {@code <warehouse>/<namespace>/<table>/metadata/v<n>.metadata.json}).
     */
    public static void hadoopCatalog(SparkSession session, String name, Path warehouse) {
        catalog(session, name, Map.of("type", "hadoop", "warehouse", warehouse.toUri().toString()));
    }

    /** Adds to {@code session} an Iceberg REST catalog {@code name} at {@code uri} (e.g. {@code http://127.0.0.1:8080/iceberg}). */
    public static void restCatalog(SparkSession session, String name, String uri) {
        catalog(session, name, Map.of("type", "rest", "uri", uri));
    }

    /** Adds to {@code session} an Iceberg catalog {@code name} ({@code org.apache.iceberg.spark.SparkCatalog}) with these properties. */
    public static void catalog(SparkSession session, String name, Map<String, String> properties) {
        String prefix = "spark.sql.catalog." + name;
        session.conf().set(prefix, "org.apache.iceberg.spark.SparkCatalog");
        properties.forEach((k, v) -> session.conf().set(prefix + "." + k, v));
    }

    /**
     * Every row of {@code rows} as one canonical text each, sorted, in the form {@link IcebergRows}
     * gives {@code fdl query --json}'s rows: two reads agree when the lists are equal.
     */
    public static List<String> rows(Dataset<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row r : rows.collectAsList()) out.add(IcebergRows.canonValue(plain(r)));
        out.sort(null);
        return out;
    }

    /**
     * A Spark value as the plain Java value the Iceberg reader gives (structs as ordered maps by
     * field name, lists, maps, {@code ByteBuffer}, UTC date-times), for {@link IcebergRows#canonValue}.
     */
    private static Object plain(Object v) {
        if (v instanceof Row row) {
            StructType schema = row.schema();
            Map<String, Object> fields = new LinkedHashMap<>();
            StructField[] f = schema.fields();
            for (int i = 0; i < f.length; i++) fields.put(f[i].name(), plain(row.get(i)));
            return new IcebergRows.Struct(fields);
        }
        if (v instanceof scala.collection.Seq<?> seq) {
            List<Object> items = new ArrayList<>();
            scala.jdk.javaapi.CollectionConverters.asJava(seq).forEach(x -> items.add(plain(x)));
            return items;
        }
        if (v instanceof scala.collection.Map<?, ?> map) {
            Map<Object, Object> m = new LinkedHashMap<>();
            scala.jdk.javaapi.CollectionConverters.asJava(map).forEach((k, x) -> m.put(plain(k), plain(x)));
            return m;
        }
        if (v instanceof byte[] b) return ByteBuffer.wrap(b);
        if (v instanceof Instant t) return t.atOffset(ZoneOffset.UTC);
        return v;
    }
}
