package dev.fdl.serve;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.repo.ReadCache;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.LocalFiles;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.RangeRead;
import dev.fdl.store.StoreException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code fdl serve}: a read-only HTTP server over a repository (a folder or {@code s3://}), so
 * that DuckDB readers attach versions from it as from a bucket, and people browse its site.
 *
 * <p>It answers GET and HEAD (and CORS preflight OPTIONS) with what a static host gives:
 * single {@code Range} requests (206, 416; RFC 9110 section 14), {@code ETag} and
 * {@code If-None-Match} (304), {@code If-Range}, {@code Last-Modified}, CORS for GET, content
 * types. Nothing else: no write method (405), no listing, no key outside the root. A path is
 * percent-decoded exactly once; a decoded path with a {@code .} or {@code ..} segment, an empty
 * segment, a backslash or a NUL is refused (400), as is one that does not decode; keys of fdl's
 * own temporary files and, on a folder, files whose real path leaves the root (symbolic links)
 * are not found (404). When the repository has no site, its pages are rendered on the fly.
 *
 * <p>Built on Netty's HTTP/1.1 codec over NIO (docs/site.md, Numbers, says
 * why not the JDK's {@code com.sun.net.httpserver}). A folder's requests
 * are answered on the event-loop threads, its files sent from the opened file without
 * copying it ({@code FileChannel.transferTo}); requests that block on the network (an
 * {@code s3://} store) or render site pages run on a small pool, one request of a connection at
 * a time, so responses keep the requests' order.
 */
public final class RepoServer implements AutoCloseable {
    /** Objects of a store other than a folder up to this size are read whole with their ETag in one call, so body and ETag always match (refs change). */
    static final int WHOLE_READ_LIMIT = 1 << 20;
    /** Prefix of the server's thread names (event loops {@code fdl-serve-loop-*}, blocking work {@code fdl-serve-io-*}). */
    public static final String THREAD_PREFIX = "fdl-serve";
    /** A connection with no traffic for this long is closed, as the JDK's server did. */
    private static final int IDLE_SECONDS = 30;
    /** Chunk of a body streamed from a store that cannot send a file (S3). */
    private static final int CHUNK = 64 * 1024;
    /** IMF-fixdate (RFC 9110 section 5.6.7): two-digit day, always GMT; RFC_1123_DATE_TIME writes "1 Dec". */
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String EXPOSED = "ETag, Content-Length, Content-Range, Accept-Ranges, Last-Modified";
    private static final String ALLOWED = "GET, HEAD, OPTIONS";

    private final ObjectStore store;
    /** The read-only Iceberg REST catalog answering {@code /v1/...} (docs/iceberg.md, "REST catalog"). */
    private final dev.fdl.iceberg.IcebergRestCatalog iceberg;
    /** The store when it is a folder: answered on the event loop, its files sent from the file. */
    private final LocalFiles local;
    /** A folder's files kept open between requests; null for other stores. */
    private final OpenFiles openFiles;
    private final SiteOptions siteOptions;
    /** Catalogs for the version pages' change over the parent and previews when the site is rendered on the fly; null: none shown. */
    private final ReadCache catalogs;
    /** The DuckDB instances those catalogs are read on; null when {@code catalogs} is. */
    private final DuckDbPool pool;
    private final EventLoopGroup loops;
    private final ExecutorService blocking;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger pausedReads = new AtomicInteger();
    private volatile Channel listener;
    private volatile CachedSite cachedSite;
    /** fdl.json's {@code data_dir}, read at the first response that needs it (fdl.json never changes it); null until then. */
    private volatile String dataDir;

    private record CachedSite(List<String> refsState, Map<String, byte[]> pages) {}

    private RepoServer(ObjectStore store, SiteOptions siteOptions, ReadCache catalogs, DuckDbPool pool) {
        this.store = store;
        this.iceberg = new dev.fdl.iceberg.IcebergRestCatalog(store);
        this.local = store.localFiles().orElse(null);
        this.openFiles = local == null ? null : new OpenFiles(local);
        this.siteOptions = siteOptions;
        this.catalogs = catalogs;
        this.pool = pool;
        this.loops = new MultiThreadIoEventLoopGroup(Math.max(2, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory(THREAD_PREFIX + "-loop", true), NioIoHandler.newFactory());
        AtomicInteger n = new AtomicInteger();
        this.blocking = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, THREAD_PREFIX + "-io-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts serving {@code store} on {@code bind:port} (port 0: any free port).
     *
     * @throws FdlException when the address cannot be bound (naming it)
     */
    public static RepoServer start(ObjectStore store, SiteOptions siteOptions, String bind, int port) {
        return start(store, siteOptions, null, null, bind, port);
    }

    /**
     * {@link #start(ObjectStore, SiteOptions, String, int)}; a site rendered on the fly shows each
     * version's change over its parent and its tables' previews, read from the catalogs {@code catalogs}
     * gives (null: none) on DuckDB instances of {@code pool}.
     */
    public static RepoServer start(ObjectStore store, SiteOptions siteOptions, ReadCache catalogs, DuckDbPool pool, String bind, int port) {
        RepoServer s = new RepoServer(store, siteOptions, catalogs, pool);
        ChannelFuture bound = new ServerBootstrap()
                .group(s.loops)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 64)
                // the header and the body are separate writes: without it they meet Nagle's
                // algorithm and the client's delayed ACK (tens of milliseconds a response)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new IdleStateHandler(true, 0, 0, IDLE_SECONDS, TimeUnit.SECONDS), new HttpServerCodec(), s.new Connection());
                    }
                })
                .bind(new InetSocketAddress(bind, port))
                .awaitUninterruptibly();
        if (!bound.isSuccess()) {
            s.close();
            Throwable e = bound.cause();
            throw new FdlException("cannot listen on " + bind + ":" + port + ": " + (e.getMessage() != null ? e.getMessage() : e.toString())
                    + " (is another server using the port? choose one with --port)");
        }
        s.listener = bound.channel();
        return s;
    }

    /** The port the server listens on. */
    public int port() {
        return address().getPort();
    }

    private InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    /** The base URL, e.g. {@code http://127.0.0.1:8321/}. */
    public URI url() {
        String host = address().getAddress().getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        return URI.create("http://" + host + ":" + port() + "/");
    }

    /** Requests answered so far. */
    public int requests() {
        return requests.get();
    }

    /** How many times a connection stopped reading because {@link #MAX_PENDING} responses were pending (see {@code Connection}). */
    int pausedReads() {
        return pausedReads.get();
    }

    /** Stops listening; requests in flight get up to one second to finish. */
    @Override
    public void close() {
        if (listener != null) listener.close().awaitUninterruptibly();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        blocking.shutdownNow();
        if (openFiles != null) openFiles.close();
    }

    // ---------------------------------------------------------------- connections

    /** Responses a connection may have pending (read, not yet fully written) before it stops reading requests. */
    static final int MAX_PENDING = 16;

    /**
     * One connection's requests, answered one at a time in their order (HTTP/1.1 pipelining):
     * a request that waits for the pool holds back the ones after it. A client pipelining faster
     * than it reads would have its requests, and their responses, queued without bound: with more
     * than {@link #MAX_PENDING} responses pending the connection stops reading (Netty's autoRead
     * off; TCP then holds the client back) until at most half of them are. Fields are touched on
     * the connection's event loop only.
     */
    private final class Connection extends ChannelInboundHandlerAdapter {
        private final ArrayDeque<HttpRequest> waiting = new ArrayDeque<>();
        private boolean busy;
        /** Requests read whose response has not been written to the end. */
        private int pending;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                // request bodies (a PUT's) are dropped: every write method is refused anyway
                if (msg instanceof HttpRequest req) {
                    if (++pending > MAX_PENDING && ctx.channel().config().isAutoRead()) {
                        ctx.channel().config().setAutoRead(false);
                        pausedReads.incrementAndGet();
                    }
                    waiting.add(req);
                    next(ctx);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        /** A response was written to the end (on the event loop): reading resumes once at most half the bound is pending. */
        private void answered(ChannelHandlerContext ctx) {
            if (--pending <= MAX_PENDING / 2 && !ctx.channel().config().isAutoRead())
                ctx.channel().config().setAutoRead(true); // reads again at once
        }

        private void next(ChannelHandlerContext ctx) {
            while (!busy && !waiting.isEmpty()) {
                HttpRequest req = waiting.poll();
                Exchange x = new Exchange(ctx, req, this);
                if (!x.blocks()) {
                    x.respond(); // its writes are queued in order before the next request's
                    continue;
                }
                busy = true;
                blocking.execute(() -> {
                    try {
                        x.respond();
                    } finally {
                        ctx.executor().execute(() -> {
                            busy = false;
                            next(ctx);
                        });
                    }
                });
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) ctx.close();
            else ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a reset connection, or a request the codec cannot parse further
        }
    }

    // ---------------------------------------------------------------- requests

    /** One request and the response being built for it. */
    private final class Exchange {
        private final ChannelHandlerContext ctx;
        private final Connection connection;
        private final HttpRequest req;
        private final HttpMethod method;
        private final boolean head;
        private final boolean keepAlive;
        private final HttpHeaders out;
        private String key;
        private String refusal;
        /** The request's raw path when it is an Iceberg REST catalog route (any method), else null. */
        private String restPath;
        /** The status line went out: a failure after it closes the connection (no second response). */
        private boolean started;

        Exchange(ChannelHandlerContext ctx, HttpRequest req, Connection connection) {
            this.ctx = ctx;
            this.connection = connection;
            this.req = req;
            this.method = req.method();
            this.head = method.equals(HttpMethod.HEAD);
            this.keepAlive = req.decoderResult().isSuccess() && HttpUtil.isKeepAlive(req);
            this.out = DefaultHttpHeadersFactory.headersFactory().newHeaders();
            if (req.decoderResult().isSuccess() && req.uri().startsWith("/v1") && dev.fdl.iceberg.IcebergRestCatalog.handles(rawPath(req.uri())))
                restPath = rawPath(req.uri()); // origin form: rawPath cannot refuse it
            else if (req.decoderResult().isSuccess() && (method.equals(HttpMethod.GET) || head)) {
                try {
                    String k = RequestPath.key(rawPath(req.uri()));
                    key = k.isEmpty() || k.endsWith("/") ? k + "index.html" : k;
                } catch (IllegalArgumentException e) {
                    refusal = e.getMessage();
                }
            }
        }

        /** Whether answering waits on the network or renders pages: not on an event loop. */
        boolean blocks() {
            return restPath != null || key != null && (local == null || isSiteKey(key));
        }

        void respond() {
            requests.incrementAndGet();
            out.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
            out.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
            try {
                if (!req.decoderResult().isSuccess()) {
                    error(HttpResponseStatus.BAD_REQUEST, "bad request");
                } else if (restPath != null && !method.equals(HttpMethod.OPTIONS)) {
                    rest();
                } else if (method.equals(HttpMethod.OPTIONS)) {
                    out.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED);
                    out.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, "Range, If-None-Match, If-Range, If-Modified-Since");
                    out.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, "86400");
                    finish(HttpResponseStatus.NO_CONTENT, Unpooled.EMPTY_BUFFER, -1);
                } else if (!method.equals(HttpMethod.GET) && !head) {
                    out.set(HttpHeaderNames.ALLOW, ALLOWED);
                    error(HttpResponseStatus.METHOD_NOT_ALLOWED, "read-only: only GET and HEAD");
                } else if (key == null) {
                    error(HttpResponseStatus.BAD_REQUEST, refusal);
                } else {
                    serve();
                }
            } catch (RuntimeException | IOException e) {
                if (started) ctx.close(); // the response is under way: it cannot be replaced by an error
                else if (e instanceof IllegalArgumentException) error(HttpResponseStatus.BAD_REQUEST, "bad path"); // a key the store refuses (Keys.check)
                else if (e instanceof StoreException || e instanceof FdlException)
                    error(HttpResponseStatus.BAD_GATEWAY, "the repository could not be read: " + e.getMessage());
                else error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error: " + e);
            }
        }

        /** An Iceberg REST catalog route: its JSON answer, whatever the method (write verbs are refused there). */
        private void rest() {
            int q = req.uri().indexOf('?');
            dev.fdl.iceberg.IcebergRestCatalog.Answer a = iceberg.answer(method.name(), restPath, q < 0 ? null : req.uri().substring(q + 1));
            out.set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
            if (a.allow() != null) out.set(HttpHeaderNames.ALLOW, a.allow());
            if (a.body().length > 0) out.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            HttpResponseStatus status = HttpResponseStatus.valueOf(a.status());
            if (a.status() == 204) finish(status, Unpooled.EMPTY_BUFFER, -1);
            else finish(status, head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(a.body()), a.body().length);
        }

        private void serve() throws IOException {
            if (isInternal(key)) {
                error(HttpResponseStatus.NOT_FOUND, "not found");
                return;
            }
            if (local != null) {
                serveFile();
                return;
            }
            Optional<ObjectMeta> meta = store.head(key);
            if (meta.isEmpty()) {
                sitePageOrNotFound();
                return;
            }
            if (meta.get().size() <= WHOLE_READ_LIMIT) {
                Optional<ObjectBytes> b = store.get(key);
                if (b.isEmpty()) error(HttpResponseStatus.NOT_FOUND, "not found");
                else sendBytes(b.get().bytes(), b.get().etag(), meta.get().lastModified());
                return;
            }
            sendStream(meta.get());
        }

        private void sitePageOrNotFound() {
            byte[] page = sitePage(key);
            if (page == null) error(HttpResponseStatus.NOT_FOUND, "not found");
            else sendBytes(page, "site-" + dev.fdl.util.Sha256.of(page).substring(0, 32), null);
        }

        /**
         * A folder's file, of any size, sent from the open file without copying it. The file is
         * kept open (OpenFiles) with the ETag computed when it was opened (a small file's MD5:
         * once, not at every request), and a later request checks with one metadata read that the
         * key still names it unchanged. A file replaced by a rename (a ref moved, a page
         * rewritten) is a new file, opened again: body and ETag always describe one content.
         */
        private void serveFile() throws IOException {
            OpenFiles.Shared open = openFiles.get(key);
            if (open != null) {
                sendFile(open);
                return;
            }
            Optional<LocalFiles.OpenFile> opened = local.open(key);
            if (opened.isEmpty()) {
                if (blocks()) sitePageOrNotFound(); // a site key: rendered on the pool
                else error(HttpResponseStatus.NOT_FOUND, "not found");
                return;
            }
            // the file kept open is the one the key names now, inside the root: later requests
            // for it check only that the key still names it (OpenFiles)
            if (!local.isInsideRoot(key) || !local.unchanged(opened.get())) {
                opened.get().close();
                error(HttpResponseStatus.NOT_FOUND, "not found");
                return;
            }
            sendFile(openFiles.put(opened.get()));
        }

        private void sendBytes(byte[] body, String etag, Instant lastModified) {
            ByteRange r = rangeOrAnswer(etag, lastModified, body.length);
            if (r == null) return;
            finish(status(), head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body, (int) r.from(), (int) r.length()), r.length());
        }

        /**
         * An object of a folder, sent from the open file without copying it: the ETag is that
         * of the file the bytes come from. Releases {@code open}.
         */
        private void sendFile(OpenFiles.Shared open) {
            try {
                ObjectMeta m = open.file.meta();
                ByteRange r = rangeOrAnswer(m.etag(), m.lastModified(), m.size());
                if (r == null) return;
                if (head || r.length() == 0) {
                    finish(status(), Unpooled.EMPTY_BUFFER, r.length());
                    return;
                }
                ctx.write(response(status(), r.length()));
                ctx.write(open.region(r.from(), r.length()));
                end(ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT));
            } finally {
                open.release();
            }
        }

        /**
         * A large object of a store that cannot give a file (S3): read by range ({@code If-Match}
         * on S3) and streamed in chunks, waiting while the connection's send buffer is full.
         * Runs on the pool, never on an event loop.
         */
        private void sendStream(ObjectMeta meta) throws IOException {
            ByteRange r = rangeOrAnswer(meta.etag(), meta.lastModified(), meta.size());
            if (r == null) return;
            if (head || r.length() == 0) {
                finish(status(), Unpooled.EMPTY_BUFFER, r.length());
                return;
            }
            Optional<RangeRead> read = store.read(key, r.from(), r.length());
            if (read.isEmpty()) {
                error(HttpResponseStatus.NOT_FOUND, "not found");
                return;
            }
            try (RangeRead rr = read.get(); InputStream in = rr.body()) {
                if (!java.util.Objects.equals(rr.meta().etag(), meta.etag()) || rr.length() != r.length()) {
                    // replaced between HEAD and read (never for versions/ and data/, which are immutable)
                    error(HttpResponseStatus.SERVICE_UNAVAILABLE, "the object changed while it was read; retry");
                    return;
                }
                ctx.write(response(status(), r.length()));
                long left = r.length();
                while (left > 0) {
                    ByteBuf buf = ctx.alloc().buffer((int) Math.min(CHUNK, left));
                    try {
                        if (buf.writeBytes(in, buf.capacity()) < 0) throw new IOException("object ended " + left + " bytes early");
                    } catch (IOException e) {
                        buf.release();
                        throw e;
                    }
                    left -= buf.readableBytes();
                    ChannelFuture sent = ctx.writeAndFlush(new DefaultHttpContent(buf));
                    if (!ctx.channel().isWritable()) sent.awaitUninterruptibly();
                    if (!ctx.channel().isActive()) return; // the client went away
                }
                end(ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT));
            }
        }

        /**
         * Sets the headers every object response has, then answers 304 or 416 itself (returning
         * null); otherwise the range to send (the whole object when none applies).
         */
        private ByteRange rangeOrAnswer(String etag, Instant lastModified, long size) {
            objectHeaders(etag, lastModified);
            if (notModified(etag, lastModified)) {
                finish(HttpResponseStatus.NOT_MODIFIED, Unpooled.EMPTY_BUFFER, -1);
                return null;
            }
            ByteRange r = range(etag, size);
            if (r == ByteRange.UNSATISFIABLE) {
                out.set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + size);
                error(HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE, "range not satisfiable");
                return null;
            }
            if (r == null) return new ByteRange(0, size);
            out.set(HttpHeaderNames.CONTENT_RANGE, "bytes " + r.from() + "-" + (r.from() + r.length() - 1) + "/" + size);
            return r;
        }

        /** 206 when a range is sent (Content-Range set), else 200. */
        private HttpResponseStatus status() {
            return out.contains(HttpHeaderNames.CONTENT_RANGE) ? HttpResponseStatus.PARTIAL_CONTENT : HttpResponseStatus.OK;
        }

        private void objectHeaders(String etag, Instant lastModified) {
            out.set(HttpHeaderNames.CONTENT_TYPE, ContentTypes.of(key));
            out.set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);
            if (etag != null) out.set(HttpHeaderNames.ETAG, "\"" + etag + "\"");
            if (lastModified != null) out.set(HttpHeaderNames.LAST_MODIFIED, httpDate(lastModified));
            // versions and data files never change once written (SPEC.md section 3); refs and the site do
            String data = dataDir();
            boolean immutable = key.startsWith(RepoLayout.VERSIONS) && !RepoLayout.isMutableVersionObject(key)
                    || data != null && key.startsWith(data);
            out.set(HttpHeaderNames.CACHE_CONTROL, immutable ? "public, max-age=31536000, immutable" : "no-cache");
            out.set("X-Content-Type-Options", "nosniff");
        }

        /**
         * Whether a GET or HEAD is answered 304 (RFC 9110 section 13.2.2): by If-None-Match when the
         * request has it, else by If-Modified-Since (whole seconds, as HTTP dates carry them).
         */
        private boolean notModified(String etag, Instant lastModified) {
            String inm = req.headers().get(HttpHeaderNames.IF_NONE_MATCH);
            if (inm == null) {
                String ims = req.headers().get(HttpHeaderNames.IF_MODIFIED_SINCE);
                if (ims == null || lastModified == null) return false;
                try {
                    Instant since = java.time.ZonedDateTime.parse(ims.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                    return !lastModified.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).isAfter(since);
                } catch (java.time.format.DateTimeParseException e) {
                    return false; // an invalid date is ignored (RFC 9110 section 13.1.3)
                }
            }
            if (etag == null) return false;
            for (String t : inm.split(",")) {
                String s = t.trim();
                if (s.equals("*")) return true;
                if (s.startsWith("W/")) s = s.substring(2);
                if (s.equals("\"" + etag + "\"")) return true;
            }
            return false;
        }

        /** The requested range, null for the whole object (no Range, several ranges, or If-Range not matching). */
        private ByteRange range(String etag, long size) {
            String h = req.headers().get(HttpHeaderNames.RANGE);
            if (h == null) return null;
            String ifRange = req.headers().get(HttpHeaderNames.IF_RANGE);
            if (ifRange != null && (etag == null || !ifRange.trim().equals("\"" + etag + "\""))) return null;
            return ByteRange.parse(h, size);
        }

        private void error(HttpResponseStatus status, String message) {
            byte[] body = (status.code() + " " + message + "\n").getBytes(StandardCharsets.UTF_8);
            out.set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
            out.remove(HttpHeaderNames.ETAG);
            out.remove(HttpHeaderNames.LAST_MODIFIED);
            finish(status, head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body), body.length);
        }

        /** The status line and headers of a response whose body follows; Content-Length {@code length}, -1: none. */
        private HttpResponse response(HttpResponseStatus status, long length) {
            started = true;
            HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status, out);
            if (length >= 0) HttpUtil.setContentLength(res, length);
            if (!keepAlive) res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            else if (req.protocolVersion().equals(HttpVersion.HTTP_1_0)) res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            return res;
        }

        /** A whole response: status, headers, Content-Length {@code length} (-1: none, for 204 and 304) and {@code body}. */
        private void finish(HttpResponseStatus status, ByteBuf body, long length) {
            HttpResponse h = response(status, length);
            end(ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, h.headers(),
                    io.netty.handler.codec.http.EmptyHttpHeaders.INSTANCE)));
        }

        private void end(ChannelFuture last) {
            last.addListener(new ChannelFutureListener() { // Netty runs it on the connection's event loop
                @Override
                public void operationComplete(ChannelFuture f) {
                    connection.answered(ctx);
                }
            });
            if (!keepAlive) last.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * The raw path of a request target (RFC 9112 section 3.2): origin form ({@code /a/b?q}) or
     * absolute form ({@code http://host/a/b}), without the query.
     *
     * @throws IllegalArgumentException when the target is neither
     */
    static String rawPath(String target) {
        if (target.startsWith("/")) {
            int q = target.indexOf('?');
            int f = target.indexOf('#');
            int end = q < 0 ? f : f < 0 ? q : Math.min(q, f);
            return end < 0 ? target : target.substring(0, end);
        }
        try {
            URI u = new URI(target);
            if (!u.isAbsolute() || u.getRawPath() == null) throw new IllegalArgumentException("bad path");
            return u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bad path");
        }
    }

    private boolean isSiteKey(String key) {
        return key.equals(siteOptions.indexKey()) || key.startsWith(siteOptions.prefix());
    }

    /** Whether a segment of {@code key} names one of fdl's own files ({@code .fdl-*}). */
    private static boolean isInternal(String key) {
        return key.startsWith(".fdl-") || key.contains("/.fdl-");
    }

    /** The last date formatted: a reader asks for many ranges of one file (formatting was 6% of a range request's CPU). */
    private static volatile DateText lastDate = new DateText(Instant.EPOCH, HTTP_DATE.format(Instant.EPOCH));

    private record DateText(Instant at, String text) {}

    /** {@code t} as an IMF-fixdate (whole seconds). */
    static String httpDate(Instant t) {
        DateText d = lastDate;
        if (!d.at().equals(t)) lastDate = d = new DateText(t, HTTP_DATE.format(t));
        return d.text();
    }

    /** A page of the repository's site rendered in memory, when the repository has not written one. */
    private byte[] sitePage(String key) {
        if (!isSiteKey(key)) return null;
        if (!store.canList()) return null;
        Repository repo;
        try {
            repo = Repository.open(store);
        } catch (FdlException e) {
            return null;
        }
        List<String> state = repo.listRefs().stream().map(r -> r.key() + "=" + r.versionId()).sorted().toList();
        CachedSite c = cachedSite;
        if (c == null || !c.refsState().equals(state)) {
            c = new CachedSite(state, Site.render(repo, siteOptions, catalogs, pool));
            cachedSite = c;
        }
        return c.pages().get(key);
    }

    /**
     * The repository's data folder (fdl.json {@code data_dir}, SPEC.md section 3: not always
     * {@code data/}); null while the root holds no readable fdl.json, when no key counts as data.
     */
    private String dataDir() {
        String d = dataDir;
        if (d != null) return d;
        try {
            d = Repository.open(store).dataDir();
        } catch (FdlException e) {
            return null; // not (yet) a repository: asked again at the next response
        }
        dataDir = d;
        return d;
    }
}
