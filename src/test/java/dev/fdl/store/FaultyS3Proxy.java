package dev.fdl.store;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on 127.0.0.1 in front of S3Mock that answers the way other S3-compatible stores
 * (or a flaky network) do, to pin how {@link S3Store} handles each: injected 409 conflicts,
 * spurious 412 refusals, lost responses, 404-as-412, unquoted ETags, access denied, and a store
 * that ignores conditional headers. Every fault applies to conditional PUT/POST requests
 * (those with {@code If-None-Match} or {@code If-Match}) unless said otherwise.
 */
final class FaultyS3Proxy implements AutoCloseable {
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect", "upgrade",
            "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection");

    final AtomicInteger conflicts = new AtomicInteger();
    final AtomicInteger spuriousRefusals = new AtomicInteger();
    final AtomicInteger droppedResponses = new AtomicInteger();
    final AtomicInteger conditionalRequests = new AtomicInteger();
    volatile boolean stripConditions;
    /** Drops If-Match from DeleteObject only: a store that predates conditional deletes and deletes anyway. */
    volatile boolean stripDeleteConditions;
    /** DeleteObject requests that carried If-Match. */
    final AtomicInteger conditionalDeletes = new AtomicInteger();
    volatile boolean unquoteEtags;
    volatile boolean notFoundAs412;
    volatile boolean accessDenied;
    /**
     * Makes writes and deletes of one key atomic: S3Mock 4.12.4 checks If-Match / If-None-Match and
     * then writes without a lock, so concurrent conditional writes can both succeed (seen over plain
     * HTTP: 54 successful If-Match writes leaving 50; several If-None-Match winners in 23 of 40
     * rounds). Real S3 is atomic; {@link S3MockServer} turns this on so that race tests test fdl.
     */
    volatile boolean atomicWrites;
    private final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.locks.ReentrantLock> keyLocks =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final URI upstream;
    private final HttpServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    FaultyS3Proxy(URI upstream) throws IOException {
        this.upstream = upstream;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static String xmlError(String code) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>injected</Message></Error>";
    }

    private void handle(HttpExchange ex) throws IOException {
        String m = ex.getRequestMethod();
        boolean mutation = m.equals("PUT") || m.equals("POST") || m.equals("DELETE");
        java.util.concurrent.locks.ReentrantLock lock = atomicWrites && mutation
                ? keyLocks.computeIfAbsent(ex.getRequestURI().getRawPath(), k -> new java.util.concurrent.locks.ReentrantLock()) : null;
        if (lock != null) lock.lock();
        try {
            forward(ex);
        } finally {
            if (lock != null) lock.unlock();
        }
    }

    private void forward(HttpExchange ex) throws IOException {
        try {
            byte[] body = ex.getRequestBody().readAllBytes();
            String method = ex.getRequestMethod();
            boolean conditional = ex.getRequestHeaders().containsKey("If-None-Match") || ex.getRequestHeaders().containsKey("If-Match");
            boolean ifNoneMatch = ex.getRequestHeaders().containsKey("If-None-Match");
            boolean write = method.equals("PUT") || method.equals("POST");
            if (accessDenied) {
                reply(ex, 403, xmlError("AccessDenied"));
                return;
            }
            if (write && conditional) {
                conditionalRequests.incrementAndGet();
                if (conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    reply(ex, 409, xmlError("ConditionalRequestConflict"));
                    return;
                }
                if (ifNoneMatch && spuriousRefusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    reply(ex, 412, xmlError("PreconditionFailed"));
                    return;
                }
            }
            HttpRequest.Builder req = HttpRequest.newBuilder(upstream.resolve(ex.getRequestURI().getRawPath()
                    + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery())));
            for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
                String name = h.getKey().toLowerCase(Locale.ROOT);
                if (RESTRICTED.contains(name)) continue;
                if (stripConditions && (name.equals("if-none-match") || name.equals("if-match"))) continue;
                if (method.equals("DELETE") && name.equals("if-match")) {
                    conditionalDeletes.incrementAndGet();
                    if (stripDeleteConditions) continue;
                }
                for (String v : h.getValue()) req.header(h.getKey(), v);
            }
            req.method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<byte[]> r = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (write && conditional && droppedResponses.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                ex.close(); // the write happened upstream; the client never hears of it
                return;
            }
            int status = r.statusCode();
            if (notFoundAs412 && write && ex.getRequestHeaders().containsKey("If-Match") && status == 404) {
                reply(ex, 412, xmlError("PreconditionFailed"));
                return;
            }
            for (Map.Entry<String, List<String>> h : r.headers().map().entrySet()) {
                String name = h.getKey().toLowerCase(Locale.ROOT);
                if (RESTRICTED.contains(name) || name.equals(":status")) continue;
                for (String v : h.getValue()) {
                    String value = unquoteEtags && name.equals("etag") ? ETags.normalize(v) : v;
                    ex.getResponseHeaders().add(h.getKey(), value);
                }
            }
            byte[] out = r.body();
            if (method.equals("HEAD")) {
                r.headers().firstValue("Content-Length").ifPresent(v -> ex.getResponseHeaders().set("Content-Length", v));
                ex.sendResponseHeaders(status, -1);
            } else if (out.length == 0 || status == 204 || status == 304) {
                ex.sendResponseHeaders(status, -1);
            } else {
                if (unquoteEtags) out = new String(out, StandardCharsets.UTF_8).replace("&quot;", "").replace("<ETag>\"", "<ETag>")
                        .replace("\"</ETag>", "</ETag>").getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(status, out.length);
                ex.getResponseBody().write(out);
            }
            ex.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.close();
        } catch (IOException | RuntimeException e) {
            ex.close();
        }
    }

    private static void reply(HttpExchange ex, int status, String xml) throws IOException {
        byte[] b = xml.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/xml");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
