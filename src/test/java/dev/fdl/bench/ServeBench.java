package dev.fdl.bench;

import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.Site;
import dev.fdl.store.LocalStore;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Issue 16's two targets, each against a reference measured in the same run:
 * <ul>
 *   <li>{@code fdl serve}: 1,000 Range GETs of 64 KiB from a 64 MiB object, one client thread on
 *       a kept-alive connection, against reading the same ranges from the file directly (target:
 *       at most 3x), and as a floor the JDK's HTTP server answering the same requests from memory;</li>
 *   <li>{@code fdl site} on a repository of 1,000 versions (first run, and a re-run that writes
 *       nothing) against {@code fdl log} over the same versions (target: under 2x).</li>
 * </ul>
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.ServeBench -Dexec.args="1000 1000"
 * </pre>
 * Arguments: range requests (1,000), versions (1,000). Medians of 3 rounds after one warm-up.
 */
public final class ServeBench {
    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int versions = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        Path dir = Files.createTempDirectory("fdl-serve-bench");
        try {
            serve(dir.resolve("serve"), requests);
            site(dir.resolve("site"), versions);
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void serve(Path dir, int requests) throws Exception {
        RepoFixture fx = RepoFixture.create(dir);
        String key = "versions/0000/ducklake.duckdb";
        Path file = fx.root.resolve(key);
        Files.createDirectories(file.getParent());
        byte[] block = new byte[1 << 20];
        new Random(1).nextBytes(block);
        try (var out = Files.newOutputStream(file)) {
            for (int i = 0; i < 64; i++) out.write(block);
        }
        long size = Files.size(file);
        Random rnd = new Random(7);
        long[] offsets = new long[requests];
        for (int i = 0; i < requests; i++) offsets[i] = (long) rnd.nextInt((int) (size - 65536));
        // the floor: the JDK's HTTP server (which fdl serve is built on) with the same thread pool,
        // answering every request with 64 KiB from memory: what HTTP alone costs on this machine
        byte[] range = new byte[65536];
        HttpServer floor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        ExecutorService floorPool = Executors.newFixedThreadPool(16);
        floor.createContext("/", ex -> {
            try (ex) {
                ex.sendResponseHeaders(206, range.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(range);
                }
            }
        });
        floor.setExecutor(floorPool);
        floor.start();
        URI floorUri = URI.create("http://127.0.0.1:" + floor.getAddress().getPort() + "/" + key);
        try (LocalStore store = new LocalStore(fx.root); RepoServer server = RepoServer.start(store, Site.Options.defaults(), "127.0.0.1", 0)) {
            URI uri = URI.create(server.url() + key);
            List<Double> ratios = new ArrayList<>(), floors = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                long t0 = System.nanoTime();
                long sum = 0;
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    byte[] buf = new byte[65536];
                    for (long off : offsets) {
                        raf.seek(off);
                        raf.readFully(buf);
                        sum += buf[0];
                    }
                }
                long file_ = System.nanoTime() - t0;
                t0 = System.nanoTime();
                byte[] body = new byte[65536];
                for (long off : offsets) {
                    sum += rangeGet(uri, off, body);
                }
                long http_ = System.nanoTime() - t0;
                t0 = System.nanoTime();
                for (long off : offsets) {
                    sum += rangeGet(floorUri, off, body);
                }
                long floor_ = System.nanoTime() - t0;
                if (round > 0) {
                    ratios.add((double) http_ / file_);
                    floors.add((double) floor_ / file_);
                }
                System.out.printf("serve round %d: %d ranges of 64 KiB: file %.3f s, fdl serve %.3f s, ratio %.2f; floor %.3f s, ratio %.2f (checksum %d)%n",
                        round, requests, file_ / 1e9, http_ / 1e9, (double) http_ / file_, floor_ / 1e9, (double) floor_ / file_, sum);
            }
            System.out.printf("serve: median ratio %.2f (target <= 3); floor: the JDK's HTTP server answering the same requests from"
                    + " memory, same threads, %.2f%n", median(ratios), median(floors));
        } finally {
            floor.stop(0);
            floorPool.shutdownNow();
        }
    }

    static void site(Path dir, int versions) {
        RepoFixture fx = RepoFixture.create(dir);
        for (int i = 0; i < versions; i++) fx.commit("main", List.of("f" + i + ".parquet"));
        fx.tag("first", fx.repo.log(fx.repo.readBranch(new RefName("main")).orElseThrow().versionId(), -1).get(versions - 1).version().id());
        Repository repo = Repository.open(fx.store);
        String head = repo.readBranch(new RefName("main")).orElseThrow().versionId();
        List<Double> first = new ArrayList<>(), again = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            long t0 = System.nanoTime();
            int n = repo.log(head, -1).size();
            long log = System.nanoTime() - t0;
            try (var walk = Files.walk(fx.root.resolve("site"))) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                // no site yet
            }
            fx.root.resolve("index.html").toFile().delete();
            t0 = System.nanoTime();
            Site.Result r1 = Site.write(repo, Site.Options.defaults());
            long s1 = System.nanoTime() - t0;
            t0 = System.nanoTime();
            Site.Result r2 = Site.write(repo, Site.Options.defaults());
            long s2 = System.nanoTime() - t0;
            if (round > 0) {
                first.add((double) s1 / log);
                again.add((double) s2 / log);
            }
            System.out.printf("site round %d: %d versions: log %.3f s; site first run %.3f s (%d pages written, ratio %.2f), re-run %.3f s (%d written, ratio %.2f)%n",
                    round, n, log / 1e9, s1 / 1e9, r1.written(), (double) s1 / log, s2 / 1e9, r2.written(), (double) s2 / log);
        }
        System.out.printf("site: median ratio to log: first run %.2f, re-run %.2f (target < 2)%n", median(first), median(again));
    }

    /**
     * One Range GET of {@code body.length} bytes at {@code off} into {@code body}, on a kept-alive
     * connection (HttpURLConnection reuses it when the body was read to its end), as a reader's
     * HTTP client (DuckDB's httpfs) does; returns the first byte.
     */
    private static int rangeGet(URI uri, long off, byte[] body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setRequestProperty("Range", "bytes=" + off + "-" + (off + body.length - 1));
        if (c.getResponseCode() != 206 || c.getContentLengthLong() != body.length) {
            throw new IllegalStateException("bad response " + c.getResponseCode());
        }
        try (InputStream in = c.getInputStream()) {
            int n = in.readNBytes(body, 0, body.length);
            if (n != body.length || in.read() != -1) throw new IllegalStateException("short body: " + n);
        }
        return body[0];
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        return s.get(s.size() / 2);
    }
}
