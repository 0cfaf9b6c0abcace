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
import java.util.HashSet;
import java.util.Set;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
            if (requests > 0) serve(dir.resolve("serve"), requests);
            if (versions > 0) site(dir.resolve("site"), versions);
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
        Set<Long> before = threadIds();
        HttpServer floor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        ExecutorService floorPool = Executors.newFixedThreadPool(16, r -> new Thread(r, "floor-worker"));
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
        Server floorThreads = new Server(newThreads(before), "floor-worker");
        URI floorUri = URI.create("http://127.0.0.1:" + floor.getAddress().getPort() + "/" + key);
        before = threadIds();
        try (LocalStore store = new LocalStore(fx.root); RepoServer server = RepoServer.start(store, Site.Options.defaults(), "127.0.0.1", 0)) {
            Server serveThreads = new Server(newThreads(before), "fdl-serve");
            URI uri = URI.create(server.url() + key);
            List<Double> wall = new ArrayList<>(), cpu = new ArrayList<>(), floorWall = new ArrayList<>(), floorCpu = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                long t0 = System.nanoTime(), c0 = THREADS.getCurrentThreadCpuTime();
                long sum = 0;
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    byte[] buf = new byte[65536];
                    for (long off : offsets) {
                        raf.seek(off);
                        raf.readFully(buf);
                        sum += buf[0];
                    }
                }
                long fileWall = System.nanoTime() - t0, fileCpu = THREADS.getCurrentThreadCpuTime() - c0;
                Cost serve = measure(uri, offsets, serveThreads);
                Cost fl = measure(floorUri, offsets, floorThreads);
                sum += serve.checksum + fl.checksum;
                if (round > 0) {
                    wall.add((double) serve.wall / fileWall);
                    cpu.add((double) serve.serverCpu / fileCpu);
                    floorWall.add((double) fl.wall / fileWall);
                    floorCpu.add((double) fl.serverCpu / fileCpu);
                }
                System.out.printf("serve round %d: %d ranges of 64 KiB, per request: file read %.1f us (cpu %.1f us);"
                                + " fdl serve: client wall %.1f us (%.1fx), server cpu %.1f us (%.2fx), client cpu %.1f us;"
                                + " floor: client wall %.1f us (%.1fx), server cpu %.1f us (%.2fx) (checksum %d)%n",
                        round, requests, us(fileWall, requests), us(fileCpu, requests),
                        us(serve.wall, requests), (double) serve.wall / fileWall, us(serve.serverCpu, requests),
                        (double) serve.serverCpu / fileCpu, us(serve.clientCpu, requests),
                        us(fl.wall, requests), (double) fl.wall / fileWall, us(fl.serverCpu, requests), (double) fl.serverCpu / fileCpu, sum);
            }
            System.out.printf("serve: median ratios to the file read: server CPU per request %.2f (target <= 3), client wall per request %.2f;"
                            + " floor (the JDK's HTTP server answering from memory): server CPU %.2f, client wall %.2f; load %s%n",
                    median(cpu), median(wall), median(floorCpu), median(floorWall), load());
        } finally {
            floor.stop(0);
            floorPool.shutdownNow();
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** What a run of range GETs cost: the client's wall time and CPU, and the CPU of the server's threads. */
    private record Cost(long wall, long clientCpu, long serverCpu, long checksum) {}

    private static Cost measure(URI uri, long[] offsets, Server server) throws IOException {
        byte[] body = new byte[65536];
        long sum = 0;
        long s0 = cpu(server), t0 = System.nanoTime(), c0 = THREADS.getCurrentThreadCpuTime();
        for (long off : offsets) sum += rangeGet(uri, off, body);
        long wall = System.nanoTime() - t0, client = THREADS.getCurrentThreadCpuTime() - c0;
        return new Cost(wall, client, cpu(server) - s0, sum);
    }

    private static Set<Long> threadIds() {
        Set<Long> ids = new HashSet<>();
        for (long id : THREADS.getAllThreadIds()) ids.add(id);
        return ids;
    }

    /** Threads started since {@code before}. */
    private static Set<Long> newThreads(Set<Long> before) {
        Set<Long> out = new HashSet<>(threadIds());
        out.removeAll(before);
        return out;
    }

    /** CPU time of a server's threads, nanoseconds: its dispatcher ({@code started}) and its workers (by name). */
    private static long cpu(Server s) {
        long total = 0;
        for (java.lang.management.ThreadInfo ti : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (ti != null && (s.started().contains(ti.getThreadId()) || ti.getThreadName().equals(s.workerName())))
                total += Math.max(0, THREADS.getThreadCpuTime(ti.getThreadId()));
        }
        return total;
    }

    /** A server's threads: those its start created (the dispatcher), and its workers' name (started at the first requests). */
    private record Server(Set<Long> started, String workerName) {}

    private static double us(long nanos, int n) {
        return nanos / 1e3 / n;
    }

    static String load() {
        return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
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
