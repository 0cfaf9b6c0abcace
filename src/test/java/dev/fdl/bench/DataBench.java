package dev.fdl.bench;

import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.engine.DuckDbPool;import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.ducklake.read.BuiltInReader;

import dev.fdl.store.LocalStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;

/**
 * Import and built-in read against plain DuckDB doing the same work, on a shipped world-cities
 * month (28,500 rows). Prints ratios (fdl time / DuckDB time, medians of 5 runs), not absolute
 * times. Run with
 * {@code mvn -q test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.DataBench}.
 */
public final class DataBench {
    private static final int RUNS = 5;

    public static void main(String[] args) throws Exception {
        Path month = Path.of(DataBench.class.getClassLoader().getResource("demo/world-cities/world-cities-2025-10-01.csv.gz").toURI());
        Path tmp = Files.createTempDirectory("fdl-bench-");
        LocalStore store = new LocalStore(tmp.resolve("repo"));
        Files.createDirectories(tmp.resolve("repo"));
        Path sqlite = tmp.resolve("catalog.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, store.location("data/"));

        String csv = "read_csv('" + month.toAbsolutePath() + "', header = true)";
        long[] copy = new long[RUNS];
        long[] imp = new long[RUNS];
        String ref = tmp.resolve("ref.parquet").toString();
        ImportResult last = null;
        for (int i = 0; i < RUNS; i++) {
            long t0 = System.nanoTime();
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
                st.execute("COPY (SELECT * FROM " + csv + ") TO '" + ref + "' (FORMAT parquet)");
            }
            copy[i] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            last = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(sqlite, store, "data/", month, "cities", i == 0 ? ImportMode.CREATE : ImportMode.REPLACE)
                    .withAuthor("bench"));
            imp[i] = System.nanoTime() - t0;
        }
        Path duck = tmp.resolve("catalog.duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        String checksum = "SELECT md5(string_agg(CAST(x AS VARCHAR), chr(10) ORDER BY CAST(x AS VARCHAR))) FROM (%s) x";
        long[] direct = new long[RUNS];
        long[] viaReader = new long[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long t0 = System.nanoTime();
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery(checksum.formatted("SELECT * FROM read_parquet('" + ref + "')"))) {
                rs.next();
            }
            direct[i] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), duck, null, null)) {
                r.query(checksum.formatted("SELECT * FROM cities"));
            }
            viaReader[i] = System.nanoTime() - t0;
        }
        System.out.printf("import (%d rows) vs DuckDB COPY csv->parquet: %.2fx%n", last.rows(), median(imp) / median(copy));
        System.out.printf("built-in reader (open + checksum query) vs read_parquet checksum: %.2fx%n",
                median(viaReader) / median(direct));
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
