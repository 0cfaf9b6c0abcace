package dev.fdl.serve;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.fdl.FdlException;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.Repository;
import dev.fdl.site.Site;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.RangeRead;
import dev.fdl.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 */
public final class RepoServer implements AutoCloseable {
    /** Objects up to this size are read whole with their ETag in one call, so body and ETag always match (refs change). */
    static final int WHOLE_READ_LIMIT = 1 << 20;
    /** IMF-fixdate (RFC 9110 section 5.6.7): two-digit day, always GMT; RFC_1123_DATE_TIME writes "1 Dec". */
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final ObjectStore store;
    private final Site.Options siteOptions;
    /** Catalogs for the version pages' change over the parent when the site is rendered on the fly; null: none shown. */
    private final CatalogSource catalogs;
    private final HttpServer server;
    private final ExecutorService pool;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile CachedSite cachedSite;
    /** fdl.json's {@code data_dir}, read at the first response that needs it (fdl.json never changes it); null until then. */
    private volatile String dataDir;

    private record CachedSite(List<String> refsState, Map<String, byte[]> pages) {}

    private RepoServer(ObjectStore store, Site.Options siteOptions, CatalogSource catalogs, HttpServer server, ExecutorService pool) {
        this.store = store;
        this.siteOptions = siteOptions;
        this.catalogs = catalogs;
        this.server = server;
        this.pool = pool;
    }

    /**
     * Starts serving {@code store} on {@code bind:port} (port 0: any free port).
     *
     * @throws FdlException when the address cannot be bound (naming it)
     */
    public static RepoServer start(ObjectStore store, Site.Options siteOptions, String bind, int port) {
        return start(store, siteOptions, null, bind, port);
    }

    /**
     * {@link #start(ObjectStore, Site.Options, String, int)}; a site rendered on the fly shows each
     * version's change over its parent, read from the catalogs {@code catalogs} gives (null: none).
     */
    public static RepoServer start(ObjectStore store, Site.Options siteOptions, CatalogSource catalogs, String bind, int port) {
        // Without TCP_NODELAY, the JDK server's header and body writes meet Nagle's algorithm and
        // the client's delayed ACK (tens of milliseconds a response).
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(bind, port), 64);
        } catch (IOException e) {
            throw new FdlException("cannot listen on " + bind + ":" + port + ": " + e.getMessage()
                    + " (is another server using the port? choose one with --port)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "fdl-serve");
            t.setDaemon(true);
            return t;
        });
        RepoServer s = new RepoServer(store, siteOptions, catalogs, server, pool);
        server.createContext("/", s::handle);
        server.setExecutor(pool);
        server.start();
        return s;
    }

    /** The port the server listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The base URL, e.g. {@code http://127.0.0.1:8321/}. */
    public URI url() {
        String host = server.getAddress().getAddress().getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        return URI.create("http://" + host + ":" + port() + "/");
    }

    /** Requests answered so far. */
    public int requests() {
        return requests.get();
    }

    /** Stops listening; requests in flight get up to one second to finish. */
    @Override
    public void close() {
        server.stop(1);
        pool.shutdownNow();
    }

    // ---------------------------------------------------------------- requests

    private void handle(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        try (ex) {
            Headers out = ex.getResponseHeaders();
            out.set("Access-Control-Allow-Origin", "*");
            out.set("Access-Control-Expose-Headers", "ETag, Content-Length, Content-Range, Accept-Ranges, Last-Modified");
            String method = ex.getRequestMethod();
            if (method.equals("OPTIONS")) {
                out.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
                out.set("Access-Control-Allow-Headers", "Range, If-None-Match, If-Range, If-Modified-Since");
                out.set("Access-Control-Max-Age", "86400");
                ex.sendResponseHeaders(204, -1);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                out.set("Allow", "GET, HEAD, OPTIONS");
                error(ex, 405, "read-only: only GET and HEAD");
                return;
            }
            String key;
            try {
                key = RequestPath.key(ex.getRequestURI().getRawPath());
            } catch (IllegalArgumentException e) {
                error(ex, 400, e.getMessage());
                return;
            }
            if (key.isEmpty() || key.endsWith("/")) key = key + "index.html";
            serve(ex, key, method.equals("HEAD"));
        } catch (IllegalArgumentException e) { // a key the store refuses (Keys.check): never outside the root
            error(ex, 400, "bad path");
        } catch (StoreException | FdlException e) {
            try {
                error(ex, 502, "the repository could not be read: " + e.getMessage());
            } catch (IOException ignored) {
                // the client went away
            }
        }
    }

    private void serve(HttpExchange ex, String key, boolean head) throws IOException {
        if (isInternal(key)) {
            error(ex, 404, "not found");
            return;
        }
        Optional<ObjectMeta> meta = store.head(key);
        if (meta.isPresent() && store instanceof LocalStore ls && !ls.isInsideRoot(key)) {
            error(ex, 404, "not found");
            return;
        }
        if (meta.isEmpty()) {
            byte[] page = sitePage(key);
            if (page == null) {
                error(ex, 404, "not found");
                return;
            }
            send(ex, key, page, "site-" + dev.fdl.util.Sha256.of(page).substring(0, 32), null, head);
            return;
        }
        if (meta.get().size() <= WHOLE_READ_LIMIT) {
            Optional<ObjectBytes> b = store.get(key);
            if (b.isEmpty()) {
                error(ex, 404, "not found");
                return;
            }
            send(ex, key, b.get().bytes(), b.get().etag(), meta.get().lastModified(), head);
            return;
        }
        sendLarge(ex, key, meta.get(), head);
    }

    private static boolean isInternal(String key) {
        for (String seg : key.split("/")) if (seg.startsWith(".fdl-")) return true;
        return false;
    }

    /** A page of the repository's site rendered in memory, when the repository has not written one. */
    private byte[] sitePage(String key) {
        if (!key.equals(siteOptions.indexKey()) && !key.startsWith(siteOptions.prefix())) return null;
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
            c = new CachedSite(state, Site.render(repo, siteOptions, catalogs));
            cachedSite = c;
        }
        return c.pages().get(key);
    }

    private void send(HttpExchange ex, String key, byte[] body, String etag, Instant lastModified, boolean head) throws IOException {
        Headers out = headers(ex, key, etag, lastModified);
        if (notModified(ex, etag, lastModified)) {
            ex.sendResponseHeaders(304, -1);
            return;
        }
        ByteRange r = range(ex, etag, body.length);
        if (r == ByteRange.UNSATISFIABLE) {
            out.set("Content-Range", "bytes */" + body.length);
            error(ex, 416, "range not satisfiable");
            return;
        }
        long from = r == null ? 0 : r.from();
        long len = r == null ? body.length : r.length();
        if (r != null) out.set("Content-Range", "bytes " + from + "-" + (from + len - 1) + "/" + body.length);
        int status = r == null ? 200 : 206;
        if (head) {
            out.set("Content-Length", Long.toString(len));
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, len == 0 ? -1 : len);
        if (len > 0) try (OutputStream os = ex.getResponseBody()) {
            os.write(body, (int) from, (int) len);
        }
    }

    private void sendLarge(HttpExchange ex, String key, ObjectMeta meta, boolean head) throws IOException {
        Headers out = headers(ex, key, meta.etag(), meta.lastModified());
        if (notModified(ex, meta.etag(), meta.lastModified())) {
            ex.sendResponseHeaders(304, -1);
            return;
        }
        ByteRange r = range(ex, meta.etag(), meta.size());
        if (r == ByteRange.UNSATISFIABLE) {
            out.set("Content-Range", "bytes */" + meta.size());
            error(ex, 416, "range not satisfiable");
            return;
        }
        long from = r == null ? 0 : r.from();
        long len = r == null ? meta.size() : r.length();
        int status = r == null ? 200 : 206;
        if (head) {
            if (r != null) out.set("Content-Range", "bytes " + from + "-" + (from + len - 1) + "/" + meta.size());
            out.set("Content-Length", Long.toString(len));
            ex.sendResponseHeaders(status, -1);
            return;
        }
        Optional<RangeRead> read = store.read(key, from, len);
        if (read.isEmpty()) {
            error(ex, 404, "not found");
            return;
        }
        try (RangeRead rr = read.get()) {
            if (!java.util.Objects.equals(rr.meta().etag(), meta.etag()) || rr.length() != len) {
                // replaced between HEAD and read (never for versions/ and data/, which are immutable)
                error(ex, 503, "the object changed while it was read; retry");
                return;
            }
            if (r != null) out.set("Content-Range", "bytes " + from + "-" + (from + len - 1) + "/" + meta.size());
            ex.sendResponseHeaders(status, len == 0 ? -1 : len);
            if (len > 0) try (OutputStream os = ex.getResponseBody(); InputStream in = rr.body()) {
                copy(in, os, len);
            }
        }
    }

    /** One copy buffer per server thread: a new 64 KiB array per request was zeroed and collected for nothing. */
    private static final ThreadLocal<byte[]> COPY_BUFFER = ThreadLocal.withInitial(() -> new byte[64 * 1024]);

    private static void copy(InputStream in, OutputStream out, long n) throws IOException {
        byte[] buf = COPY_BUFFER.get();
        long left = n;
        while (left > 0) {
            int k = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (k < 0) throw new IOException("object ended " + left + " bytes early");
            out.write(buf, 0, k);
            left -= k;
        }
    }

    private Headers headers(HttpExchange ex, String key, String etag, Instant lastModified) {
        Headers out = ex.getResponseHeaders();
        out.set("Content-Type", ContentTypes.of(key));
        out.set("Accept-Ranges", "bytes");
        if (etag != null) out.set("ETag", "\"" + etag + "\"");
        if (lastModified != null) out.set("Last-Modified", HTTP_DATE.format(lastModified));
        // versions and data files never change once written (SPEC.md section 3); refs and the site do
        String data = dataDir();
        boolean immutable = key.startsWith(RepoLayout.VERSIONS) && !key.endsWith("/" + RepoLayout.EXPIRED_JSON)
                || data != null && key.startsWith(data);
        out.set("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
        out.set("X-Content-Type-Options", "nosniff");
        return out;
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

    /**
     * Whether a GET or HEAD is answered 304 (RFC 9110 section 13.2.2): by If-None-Match when the
     * request has it, else by If-Modified-Since (whole seconds, as HTTP dates carry them).
     */
    private static boolean notModified(HttpExchange ex, String etag, Instant lastModified) {
        String inm = ex.getRequestHeaders().getFirst("If-None-Match");
        if (inm == null) {
            String ims = ex.getRequestHeaders().getFirst("If-Modified-Since");
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
    private static ByteRange range(HttpExchange ex, String etag, long size) {
        String h = ex.getRequestHeaders().getFirst("Range");
        if (h == null) return null;
        String ifRange = ex.getRequestHeaders().getFirst("If-Range");
        if (ifRange != null && (etag == null || !ifRange.trim().equals("\"" + etag + "\""))) return null;
        return ByteRange.parse(h, size);
    }

    private static void error(HttpExchange ex, int status, String message) throws IOException {
        byte[] body = (status + " " + message + "\n").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        ex.getResponseHeaders().remove("ETag");
        ex.getResponseHeaders().remove("Last-Modified");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(body);
        }
    }
}
