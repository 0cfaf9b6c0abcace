package dev.fdl.bench;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * {@code fdl verify --signatures} of one signed version against coreutils' {@code sha256sum -c}
 * over the same manifest, in the same run (docs/signing.md): wall time of each, medians of the
 * runs, the two alternating, every file in the page cache for both (each is read once first).
 * The version holds one import of a generated Parquet source of six columns.
 *
 * <p>Run with {@code mvn -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fdl.bench.SigningBench -Dexec.args="10000000 5"} (rows, runs).
 */
public final class SigningBench {
    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path tmp = Files.createTempDirectory("fdl-signingbench-");
        Path src = source(tmp, rows);
        Path wc = Cli.newWorkingCopy(tmp);
        Path repo = tmp.resolve("repo");
        Path key = tmp.resolve("key");
        run(tmp, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString());
        Files.writeString(tmp.resolve("allowed_signers"), "bench " + Files.readString(tmp.resolve("key.pub")));
        Cli.ok(wc, "import", src.toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "bench", "--sign=" + key);
        String id = Files.readString(repo.resolve("refs/heads/main")).trim();
        String manifest = "versions/" + id + "/manifest.sha256";
        long bytes;
        try (var s = Files.walk(repo.resolve("data"))) {
            bytes = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        run(repo, "sha256sum", "-c", "--quiet", manifest); // warm the page cache
        long[] fdl = new long[runs], coreutils = new long[runs];
        for (int i = 0; i < runs; i++) {
            for (boolean first : i % 2 == 0 ? new boolean[]{true, false} : new boolean[]{false, true}) {
                long t0 = System.nanoTime();
                if (first) Cli.ok(tmp, "verify", "--signatures", "-q", "--repo", repo.toString(), "--allowed-signers",
                        tmp.resolve("allowed_signers").toString());
                else run(repo, "sha256sum", "-c", "--quiet", manifest);
                (first ? fdl : coreutils)[i] = System.nanoTime() - t0;
            }
        }
        double f = median(fdl) / 1e9, c = median(coreutils) / 1e9;
        System.out.printf("%,d rows, %,d bytes of data files: fdl verify --signatures %.2f s (%.0f MB/s), sha256sum -c %.2f s (%.0f MB/s): "
                + "fdl at %.0f%% of sha256sum's speed%n", rows, bytes, f, bytes / f / 1e6, c, bytes / c / 1e6, 100 * c / f);
        System.exit(0);
    }

    /** Writes the generated source of {@code rows} rows, six columns, as {@code source.parquet} in {@code dir}. */
    static Path source(Path dir, long rows) throws Exception {
        Path src = dir.resolve("source.parquet");
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h, random() AS x, range % 1000 AS g, "
                    + "'name ' || (range * 7919 % 100003) AS name, DATE '2020-01-01' + CAST(range % 2000 AS INTEGER) AS d "
                    + "FROM range(" + rows + ")) TO '" + src + "' (FORMAT parquet)");
        }
        return src;
    }

    private static void run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) throw new IllegalStateException(String.join(" ", command) + " failed");
    }

    private static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
