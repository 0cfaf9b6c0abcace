package dev.fdl.bench;

import dev.fdl.repo.RepoFixture;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.Site;
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
 */
public final class ServeBench {
    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Path dir = Files.createTempDirectory("fdl-serve-bench");
        try {
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
        try (LocalStore store = new LocalStore(fx.root); RepoServer server = RepoServer.start(store, Site.Options.defaults(), "127.0.0.1", 0)) {
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
