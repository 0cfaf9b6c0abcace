package dev.fdl.bench;

import dev.fdl.repo.RepoFixture;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.LocalStore;

import com.sun.net.httpserver.HttpServer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

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
 * Issue 16's serve target, against a reference measured in the same run (the site's target is
 * {@link SiteBench}'s):
 * <ul>
 *   <li>{@code fdl serve}: 1,000 Range GETs of 64 KiB from a 64 MiB object, one client thread
 *       (HttpURLConnection, kept-alive connection), against reading the same ranges from the file
 *       directly. The target (at most 3x) applies to the <em>server's CPU time per request</em>
 *       (ThreadMXBean, the server's threads: {@code fdl-serve-*}) against the file read's CPU:
 *       that is what fdl serve itself costs, while the client's wall time also holds the client
 *       library's own work (HttpURLConnection's CPU per request is more than a TCP transfer of
 *       64 KiB) and waiting for the scheduler on a shared machine. Both are printed, with three
 *       floors measured in the same run: Netty (which fdl serve is built on) with fdl serve's
 *       pipeline answering from memory, the JDK's HTTP server (which it was built on before)
 *       answering from memory, and 64 KiB over a loopback TCP connection without HTTP. Each
 *       server first answers {@code -Dfdl.bench.warmup} requests (20,000): the JIT compiles a
 *       request handler's code with C2 after some 10,000 calls, and with one warm-up round of
 *       1,000 the numbers still fell by half from round to round.</li>
 * </ul>
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.ServeBench -Dexec.args="1000"
 * </pre>
 * Arguments: range requests (1,000; 0: skip). Medians of 3 serve rounds after the warm-up.
 *
 * <p>Issue 31's target, {@code nginx [requests] [warm-up] [rounds]} (5,000, 2,000, 3): fdl serve
 * against nginx serving the same folder, as a reader's DuckDB uses a server: one kept-alive
 * connection, Range GETs of 64 KiB at random offsets of a 300 KB catalog, after a warm-up. The
 * client is a plain socket writing the request and reading the response (status line, headers,
 * Content-Length bytes), as DuckDB's HTTP client does, so that its own cost does not hide the
 * servers'. Server CPU: fdl serve's threads (ThreadMXBean), nginx's process
 * ({@code /proc/<pid>/schedstat}: one process, {@code master_process off}). Targets: at most 5x
 * nginx's server CPU per request and 2x its wall time. nginx is Debian's ({@code apt-get install
 * -y nginx} when missing); the comparison is skipped, saying so, where it cannot be installed.
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.ServeBench -Dexec.args="nginx"
 * </pre>
 */
public final class ServeBench {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("fdl-serve-bench");
        try {
            if (args.length > 0 && args[0].equals("nginx")) {
                againstNginx(dir.resolve("nginx"), args.length > 1 ? Integer.parseInt(args[1]) : 5000,
                        args.length > 2 ? Integer.parseInt(args[2]) : 2000, args.length > 3 ? Integer.parseInt(args[3]) : 3);
                return;
            }
            int requests = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
            if (requests > 0) serve(dir.resolve("serve"), requests);
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Requests sent to each server before measuring: C2 compiles a handler after some 10,000 calls (JDK 17 tiered thresholds). */
    static final int WARMUP = Integer.getInteger("fdl.bench.warmup", 20000);

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
        byte[] range = new byte[65536];
        // floor 1: Netty (which fdl serve is built on) with fdl serve's pipeline, answering every
        // request with 64 KiB from memory: what HTTP over Netty costs before fdl does anything
        NettyFloor netty = new NettyFloor(range);
        Server nettyThreads = new Server(Set.of(), NettyFloor.THREADS);
        // floor 2: the JDK's HTTP server (what fdl serve was built on before) from memory, with a
        // thread pool as it had; TCP_NODELAY as it set it (the JDK reads it when the first server is made)
        System.setProperty("sun.net.httpserver.nodelay", "true");
        Set<Long> before = threadIds();
        HttpServer jdk = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        ExecutorService jdkPool = Executors.newFixedThreadPool(16, r -> new Thread(r, "jdk-floor"));
        jdk.createContext("/", ex -> {
            try (ex) {
                ex.sendResponseHeaders(206, range.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(range);
                }
            }
        });
        jdk.setExecutor(jdkPool);
        jdk.start();
        Server jdkThreads = new Server(newThreads(before), "jdk-floor");
        // floor 3: 64 KiB over a TCP socket, no HTTP
        TcpFloor tcp = new TcpFloor(range);
        before = threadIds();
        try (LocalStore store = new LocalStore(fx.root); RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            // the threads its start made and its named threads (Netty starts its event loops at the first connection)
            Server serveThreads = new Server(newThreads(before), RepoServer.THREAD_PREFIX);
            URI uri = URI.create(server.url() + key);
            URI nettyUri = URI.create(netty.url() + key), jdkUri = URI.create("http://127.0.0.1:" + jdk.getAddress().getPort() + "/" + key);
            long[] warm = new long[WARMUP];
            for (int i = 0; i < warm.length; i++) warm[i] = offsets[i % offsets.length];
            long w0 = System.nanoTime();
            measure(uri, warm, serveThreads);
            measure(nettyUri, warm, nettyThreads);
            measure(jdkUri, warm, jdkThreads);
            tcp.measure(warm);
            System.out.printf("serve warm-up: %,d requests to each server, %.1f s%n", warm.length, (System.nanoTime() - w0) / 1e9);
            List<Double> wall = new ArrayList<>(), cpu = new ArrayList<>(), nettyWall = new ArrayList<>(), nettyCpu = new ArrayList<>(),
                    jdkWall = new ArrayList<>(), jdkCpu = new ArrayList<>(), tcpWall = new ArrayList<>(), tcpCpu = new ArrayList<>();
            for (int round = 1; round <= 3; round++) {
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
                Cost nf = measure(nettyUri, offsets, nettyThreads);
                Cost jf = measure(jdkUri, offsets, jdkThreads);
                Cost tc = tcp.measure(offsets);
                sum += serve.checksum + nf.checksum + jf.checksum + tc.checksum;
                wall.add((double) serve.wall / fileWall);
                cpu.add((double) serve.serverCpu / fileCpu);
                nettyWall.add((double) nf.wall / fileWall);
                nettyCpu.add((double) nf.serverCpu / fileCpu);
                jdkWall.add((double) jf.wall / fileWall);
                jdkCpu.add((double) jf.serverCpu / fileCpu);
                tcpWall.add((double) tc.wall / fileWall);
                tcpCpu.add((double) tc.serverCpu / fileCpu);
                System.out.printf("serve round %d: %d ranges of 64 KiB, per request: file read %.1f us (cpu %.1f us);"
                                + " fdl serve: client wall %.1f us (%.1fx), server cpu %.1f us (%.2fx), client cpu %.1f us;"
                                + " Netty from memory: wall %.1f us (%.1fx), server cpu %.1f us (%.2fx);"
                                + " JDK server from memory: wall %.1f us (%.1fx), server cpu %.1f us (%.2fx);"
                                + " 64 KiB over a TCP socket: wall %.1f us (%.1fx), sender cpu %.1f us (%.2fx) (checksum %d)%n",
                        round, requests, us(fileWall, requests), us(fileCpu, requests),
                        us(serve.wall, requests), (double) serve.wall / fileWall, us(serve.serverCpu, requests),
                        (double) serve.serverCpu / fileCpu, us(serve.clientCpu, requests),
                        us(nf.wall, requests), (double) nf.wall / fileWall, us(nf.serverCpu, requests), (double) nf.serverCpu / fileCpu,
                        us(jf.wall, requests), (double) jf.wall / fileWall, us(jf.serverCpu, requests), (double) jf.serverCpu / fileCpu,
                        us(tc.wall, requests), (double) tc.wall / fileWall, us(tc.serverCpu, requests), (double) tc.serverCpu / fileCpu, sum);
            }
            System.out.printf("serve: median ratios to the file read: server CPU per request %.2f (target <= 3), client wall per request %.2f;"
                            + " floors: Netty answering from memory: server CPU %.2f, client wall %.2f;"
                            + " the JDK's HTTP server answering from memory: server CPU %.2f, client wall %.2f;"
                            + " 64 KiB over a TCP socket, no HTTP: sender CPU %.2f, wall %.2f; load %s%n",
                    median(cpu), median(wall), median(nettyCpu), median(nettyWall), median(jdkCpu), median(jdkWall),
                    median(tcpCpu), median(tcpWall), load());
        } finally {
            netty.close();
            jdk.stop(0);
            jdkPool.shutdownNow();
            tcp.close();
        }
    }

    /** Issue 31: fdl serve against nginx on the same folder (see the class comment). */
    static void againstNginx(Path dir, int requests, int warmup, int rounds) throws Exception {
        String nginx = findNginx();
        if (nginx == null) {
            System.out.println("serve vs nginx: skipped: nginx is not installed and apt-get install -y nginx failed");
            return;
        }
        RepoFixture fx = RepoFixture.create(dir.resolve("repo"));
        String key = "versions/0000/ducklake.duckdb";
        Path file = fx.root.resolve(key);
        Files.createDirectories(file.getParent());
        byte[] catalog = new byte[300_000];
        new Random(1).nextBytes(catalog);
        Files.write(file, catalog);
        Random rnd = new Random(7);
        long[] offsets = new long[requests], warm = new long[warmup];
        for (int i = 0; i < requests; i++) offsets[i] = rnd.nextInt(catalog.length - 65536);
        for (int i = 0; i < warmup; i++) warm[i] = rnd.nextInt(catalog.length - 65536);
        try (Nginx ng = Nginx.start(nginx, dir.resolve("nginx"), fx.root);
             LocalStore store = new LocalStore(fx.root);
             RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            Server serveThreads = new Server(Set.of(), RepoServer.THREAD_PREFIX);
            List<Double> cpuRatio = new ArrayList<>(), wallRatio = new ArrayList<>();
            try (RawClient fdl = new RawClient(server.port(), "/" + key); RawClient ngc = new RawClient(ng.port, "/" + key)) {
                fdl.run(warm, catalog);
                ngc.run(warm, catalog);
                for (int round = 1; round <= rounds; round++) {
                    // alternate which goes first: the machine's load moves
                    long[] f = new long[2], n = new long[2];
                    for (int order = 0; order < 2; order++) {
                        if ((order == 0) == (round % 2 == 1)) {
                            long c0 = cpu(serveThreads), t0 = System.nanoTime();
                            fdl.run(offsets, catalog);
                            f[0] = System.nanoTime() - t0;
                            f[1] = cpu(serveThreads) - c0;
                        } else {
                            long c0 = ng.cpu(), t0 = System.nanoTime();
                            ngc.run(offsets, catalog);
                            n[0] = System.nanoTime() - t0;
                            n[1] = ng.cpu() - c0;
                        }
                    }
                    cpuRatio.add((double) f[1] / n[1]);
                    wallRatio.add((double) f[0] / n[0]);
                    System.out.printf("serve vs nginx round %d: %,d Range GETs of 64 KiB from a 300 KB file, one kept-alive connection:"
                                    + " fdl serve wall %.2f s, server CPU %.3f s (%.1f us a request); nginx wall %.2f s, server CPU %.3f s (%.1f us a request);"
                                    + " ratios: server CPU %.2fx (target <= 5), wall %.2fx (target <= 2)%n",
                            round, requests, f[0] / 1e9, f[1] / 1e9, us(f[1], requests), n[0] / 1e9, n[1] / 1e9, us(n[1], requests),
                            (double) f[1] / n[1], (double) f[0] / n[0]);
                }
            }
            System.out.printf("serve vs nginx: median ratios: server CPU per request %.2fx (target <= 5), wall %.2fx (target <= 2); load %s%n",
                    median(cpuRatio), median(wallRatio), load());
        }
    }

    /** nginx's path, installing Debian's package when it is missing; null when that fails. */
    static String findNginx() throws InterruptedException {
        for (String p : List.of("/usr/sbin/nginx", "/usr/bin/nginx")) if (Files.isExecutable(Path.of(p))) return p;
        try {
            Process p = new ProcessBuilder("sh", "-c", "(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx) >/dev/null 2>&1")
                    .inheritIO().start();
            if (p.waitFor() != 0) return null;
        } catch (IOException e) {
            return null;
        }
        for (String p : List.of("/usr/sbin/nginx", "/usr/bin/nginx")) if (Files.isExecutable(Path.of(p))) return p;
        return null;
    }

    /**
     * nginx serving {@code root} on 127.0.0.1 as one process ({@code master_process off}, so its
     * CPU is one process's). Started as a daemon: the command exits once the socket listens (nginx
     * binds before it forks), so no waiting is needed; the daemon is then found by its
     * configuration file's path in its command line.
     */
    private static final class Nginx implements AutoCloseable {
        final int port;
        final ProcessHandle process;

        private Nginx(int port, ProcessHandle process) {
            this.port = port;
            this.process = process;
        }

        static Nginx start(String nginx, Path dir, Path root) throws IOException, InterruptedException {
            Files.createDirectories(dir.resolve("logs"));
            int port;
            try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            Path conf = dir.resolve("nginx.conf");
            Files.writeString(conf, String.join("\n",
                    "daemon on;", "master_process off;", "worker_processes 1;", "pid " + dir.resolve("nginx.pid") + ";",
                    "error_log " + dir.resolve("logs/error.log") + " warn;",
                    "events { worker_connections 64; }",
                    "http {", "  access_log off;", "  sendfile on;", "  tcp_nodelay on;", "  keepalive_requests 1000000;",
                    "  default_type application/octet-stream;",
                    "  client_body_temp_path " + dir.resolve("tmp-body") + ";", "  proxy_temp_path " + dir.resolve("tmp-proxy") + ";",
                    "  fastcgi_temp_path " + dir.resolve("tmp-fcgi") + ";", "  uwsgi_temp_path " + dir.resolve("tmp-uwsgi") + ";",
                    "  scgi_temp_path " + dir.resolve("tmp-scgi") + ";",
                    "  server { listen 127.0.0.1:" + port + "; root " + root + "; }", "}", ""));
            Process p = new ProcessBuilder(nginx, "-p", dir.toString(), "-c", conf.toString(), "-e", dir.resolve("logs/error.log").toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("logs/start.log").toFile()).start();
            if (p.waitFor() != 0) throw new IOException("nginx did not start: " + Files.readString(dir.resolve("logs/start.log")));
            ProcessHandle daemon = ProcessHandle.allProcesses()
                    .filter(h -> h.info().commandLine().map(c -> c.contains(conf.toString())).orElse(false))
                    .findFirst().orElseThrow(() -> new IOException("nginx's process was not found"));
            return new Nginx(port, daemon);
        }

        /** The process's CPU time, nanoseconds (schedstat's time on a CPU: nanosecond resolution, unlike stat's ticks). */
        long cpu() throws IOException {
            String s = Files.readString(Path.of("/proc/" + process.pid() + "/schedstat")).trim();
            return Long.parseLong(s.substring(0, s.indexOf(' ')));
        }

        @Override
        public void close() {
            process.destroy(); // SIGTERM to the one process this bench started
        }
    }

    /**
     * An HTTP/1.1 client on one kept-alive socket, doing no more than a reader's needs: writes a
     * Range GET, reads the status line and headers up to the blank line, then Content-Length bytes.
     */
    private static final class RawClient implements AutoCloseable {
        private final java.net.Socket socket;
        private final java.io.BufferedInputStream in;
        private final OutputStream out;
        private final String path;
        private final byte[] body = new byte[65536];

        RawClient(int port, String path) throws IOException {
            socket = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new java.io.BufferedInputStream(socket.getInputStream(), 1 << 17);
            out = socket.getOutputStream();
            this.path = path;
        }

        /** One Range GET per offset; checks each body against {@code content}. */
        void run(long[] offsets, byte[] content) throws IOException {
            for (long off : offsets) {
                out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=" + off + "-" + (off + body.length - 1)
                        + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
                String status = line();
                if (!status.startsWith("HTTP/1.1 206")) throw new IllegalStateException("bad response: " + status);
                long length = -1;
                for (String h; !(h = line()).isEmpty(); ) {
                    if (h.regionMatches(true, 0, "content-length:", 0, 15)) length = Long.parseLong(h.substring(15).trim());
                }
                if (length != body.length) throw new IllegalStateException("bad length " + length);
                if (in.readNBytes(body, 0, body.length) != body.length) throw new IllegalStateException("short body");
                if (body[0] != content[(int) off] || body[body.length - 1] != content[(int) off + body.length - 1])
                    throw new IllegalStateException("wrong bytes at " + off);
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) throw new IOException("connection closed");
                if (c != '\r') sb.append((char) c);
            }
            return sb.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * Netty with fdl serve's pipeline (HTTP/1.1 codec over NIO, TCP_NODELAY, a kept-alive
     * connection), answering every request 206 with 64 KiB from memory: what the HTTP server
     * costs before fdl serve reads anything.
     */
    private static final class NettyFloor implements AutoCloseable {
        static final String THREADS = "netty-floor";
        private final EventLoopGroup loops = new NioEventLoopGroup(2, new DefaultThreadFactory(THREADS, true));
        private final Channel listener;

        NettyFloor(byte[] range) {
            listener = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ReferenceCountUtil.release(msg);
                                    if (!(msg instanceof HttpRequest)) return;
                                    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.PARTIAL_CONTENT,
                                            Unpooled.wrappedBuffer(range));
                                    HttpUtil.setContentLength(r, range.length);
                                    ctx.writeAndFlush(r);
                                }
                            });
                        }
                    }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort() + "/");
        }

        @Override
        public void close() {
            listener.close().syncUninterruptibly();
            loops.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * What moving 64 KiB over a loopback TCP connection costs without HTTP: a thread answers each
     * 8-byte request (an offset) with 64 KiB from memory on one kept connection. No server can
     * answer a range request for less; its CPU is the sender's share of the kernel's work.
     */
    private static final class TcpFloor implements AutoCloseable {
        private final java.net.ServerSocket listener = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        private final java.net.Socket client;
        private final Thread thread;
        private volatile long threadId;

        TcpFloor(byte[] range) throws IOException {
            thread = new Thread(() -> {
                threadId = Thread.currentThread().getId();
                try (java.net.Socket s = listener.accept();
                     java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream())) {
                    s.setTcpNoDelay(true);
                    OutputStream out = s.getOutputStream();
                    while (true) {
                        in.readLong();
                        out.write(range);
                    }
                } catch (IOException e) {
                    // closed
                }
            }, "tcp-floor");
            thread.setDaemon(true);
            thread.start();
            client = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), listener.getLocalPort());
            client.setTcpNoDelay(true);
        }

        Cost measure(long[] offsets) throws IOException {
            java.io.DataOutputStream out = new java.io.DataOutputStream(client.getOutputStream());
            java.io.DataInputStream in = new java.io.DataInputStream(client.getInputStream());
            byte[] body = new byte[65536];
            long sum = 0;
            long s0 = THREADS.getThreadCpuTime(threadId), t0 = System.nanoTime(), c0 = THREADS.getCurrentThreadCpuTime();
            for (long off : offsets) {
                out.writeLong(off);
                out.flush();
                in.readFully(body);
                sum += body[0];
            }
            long wall = System.nanoTime() - t0, clientCpu = THREADS.getCurrentThreadCpuTime() - c0;
            return new Cost(wall, clientCpu, THREADS.getThreadCpuTime(threadId) - s0, sum);
        }

        @Override
        public void close() throws IOException {
            client.close();
            listener.close();
        }
    }

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

    /** CPU time of a server's threads, nanoseconds: those its start made ({@code started}) and those named {@code prefix}*. */
    private static long cpu(Server s) {
        long total = 0;
        for (java.lang.management.ThreadInfo ti : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (ti != null && (s.started().contains(ti.getThreadId()) || ti.getThreadName().startsWith(s.prefix())))
                total += Math.max(0, THREADS.getThreadCpuTime(ti.getThreadId()));
        }
        return total;
    }

    /** A server's threads: those its start made (the JDK server's dispatcher), and the name its other threads start with (made at the first requests). */
    private record Server(Set<Long> started, String prefix) {}

    private static double us(long nanos, int n) {
        return nanos / 1e3 / n;
    }

    static String load() {
        return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
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
