package dev.fdl.store;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 serving a folder the way a static web server or a public
 * bucket does: GET and HEAD, a quoted MD5 ETag, Last-Modified, Content-Length, 404 for anything
 * absent. {@link #urlPath} puts the folder below a path ({@code /mirror/}).
 */
public final class FolderHttpServer implements AutoCloseable {
    final AtomicInteger requests = new AtomicInteger();
    /** GET requests only (a reader's round trips for content). */
    final AtomicInteger gets = new AtomicInteger();
    /** The path of every GET, in the order received. */
    public final java.util.Queue<String> getPaths = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Path folder;
    private final HttpServer server;
    private final String urlPath;

    public FolderHttpServer(Path folder, String urlPath) throws IOException {
        this.folder = folder.toAbsolutePath().normalize();
        this.urlPath = urlPath;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    /** The URL of the served folder, ending in {@code /}. */
    public URI root() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + urlPath);
    }

    private void handle(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        try (ex) {
            String method = ex.getRequestMethod();
            if (method.equals("GET")) {
                gets.incrementAndGet();
                getPaths.add(ex.getRequestURI().getPath());
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            String path = ex.getRequestURI().getPath();
            Path f = path.startsWith(urlPath) ? folder.resolve(path.substring(urlPath.length())).normalize() : null;
            if (f == null || !f.startsWith(folder) || !Files.isRegularFile(f)) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            long size = Files.size(f);
            ex.getResponseHeaders().set("ETag", "\"" + md5(f) + "\"");
            ex.getResponseHeaders().set("Last-Modified",
                    DateTimeFormatter.RFC_1123_DATE_TIME.format(Files.getLastModifiedTime(f).toInstant().atOffset(ZoneOffset.UTC)));
            if (method.equals("HEAD")) {
                ex.getResponseHeaders().set("Content-Length", Long.toString(size));
                ex.sendResponseHeaders(200, -1);
                return;
            }
            ex.sendResponseHeaders(200, size == 0 ? -1 : size);
            try (InputStream in = Files.newInputStream(f); OutputStream out = ex.getResponseBody()) {
                in.transferTo(out);
            }
        }
    }

    private static String md5(Path f) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            try (InputStream in = new DigestInputStream(Files.newInputStream(f), md)) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
