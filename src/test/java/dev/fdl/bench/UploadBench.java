package dev.fdl.bench;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.DataFileUploads;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;

/**
 * {@code fdl import} into an S3 repository (S3Mock on 127.0.0.1, started by this bench) with data
 * files uploaded while DuckDB writes the next ones ({@link DataFileUploads}, the default) against
 * the same import with the files uploaded one after another once the statement has ended
 * ({@code DataFileUploads.Schedule.AFTER_WRITING}), in the same run: wall time, medians of the runs, the
 * two modes alternating, each run into a fresh bucket. Also prints DuckDB's own {@code COPY} of
 * the same rows to a local folder (no upload) as the floor. The source is a generated Parquet file
 * of six columns.
 *
 * <p>Run with {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.UploadBench -Dexec.args="3000000 64 3"} (rows, target file size
 * in MiB, runs). The S3Mock jar is the {@code s3mock.jar} system property, else the one Maven
 * fetched into {@code ~/.m2}.
 */
public final class UploadBench {
    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 3_000_000;
        long target = (args.length > 1 ? Long.parseLong(args[1]) : 64) << 20;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (System.getProperty("s3mock.jar") == null)
            System.setProperty("s3mock.jar", Path.of(System.getProperty("user.home"),
                    ".m2/repository/com/adobe/testing/s3mock/4.12.4/s3mock-4.12.4-exec.jar").toString());
        Path tmp = Files.createTempDirectory("fdl-uploadbench-");
        Path src = tmp.resolve("source.parquet");
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h, random() AS x, range % 1000 AS g, "
                    + "'name ' || (range * 7919 % 100003) AS name, DATE '2020-01-01' + CAST(range % 2000 AS INTEGER) AS d "
                    + "FROM range(" + rows + ")) TO '" + src + "' (FORMAT parquet)");
        }
        S3MockServer s3 = S3MockServer.shared();
        System.out.printf("%,d rows, %,d bytes of Parquet source, target file size %d MiB, %d runs%n", rows, Files.size(src), target >> 20, runs);

        long[] overlapped = new long[runs], sequential = new long[runs], copy = new long[runs];
        int files = 0;
        long bytes = 0;
        for (int run = 0; run < runs; run++) {
            copy[run] = copyOnly(src, tmp.resolve("copy-" + run), target);
            for (boolean on : run % 2 == 0 ? new boolean[]{false, true} : new boolean[]{true, false}) {
                try (S3Store store = s3.newStore()) {
                    Path catalog = tmp.resolve("catalog-" + run + "-" + on + ".sqlite");
                    EmptyCatalog.create(catalog, CatalogKind.SQLITE, store.location("data/"));
                    long t0 = System.nanoTime();
                    ImportResult r = new Importer(DuckDbPool.shared(),
                            on ? DataFileUploads.Schedule.WHILE_WRITING : DataFileUploads.Schedule.AFTER_WRITING).importFile(ImportRequest.of(catalog, store, "data/", src, "t",
                            ImportMode.CREATE).withTargetFileSize(target).withAuthor("bench"));
                    long t = System.nanoTime() - t0;
                    (on ? overlapped : sequential)[run] = t;
                    files = r.dataFileKeys().size();
                    bytes = r.fileSizeBytes();
                    System.out.printf("run %d %-10s %6.2f s (%d files, %,d bytes)%n", run + 1, on ? "overlapped" : "sequential",
                            t / 1e9, files, bytes);
                }
            }
        }
        double o = median(overlapped) / 1e9, s = median(sequential) / 1e9, c = median(copy) / 1e9;
        System.out.printf("median wall: overlapped %.2f s, sequential %.2f s, DuckDB COPY alone %.2f s%n", o, s, c);
        System.out.printf("overlapped / sequential: %.2f (spread %.2f-%.2f); overlapped / COPY alone: %.2f; sequential / COPY alone: %.2f%n",
                o / s, min(overlapped) / (double) max(sequential), max(overlapped) / (double) min(sequential), o / c, s / c);
        dev.fdl.ducklake.load.Importer.deleteTree(tmp);
        System.exit(0);
    }

    /** DuckDB's COPY of the source to a local folder split at {@code target} bytes, in nanoseconds. */
    private static long copyOnly(Path src, Path folder, long target) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            long t0 = System.nanoTime();
            st.execute("COPY (SELECT * FROM '" + src + "') TO '" + folder + "' (FORMAT parquet, FILE_SIZE_BYTES " + target + ")");
            return System.nanoTime() - t0;
        }
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static long min(long[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static long max(long[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
