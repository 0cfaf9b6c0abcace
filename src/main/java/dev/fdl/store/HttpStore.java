package dev.fdl.store;

import dev.fdl.util.AtomicFile;
import dev.fdl.FdlException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A read-only repository root over HTTP(S), e.g. a public mirror of a bucket (SPEC.md section 2):
 * {@code GET} and {@code HEAD} with ETags, so that log, show, query and attach work against it.
 * 404 and 410 mean "not found"; every write and delete is refused with
 * {@link ReadOnlyStoreException}, and listing with a {@link StoreException} (a static HTTP server
 * cannot list or write; {@link #canList()} is false).
 *
 * <p>When a server sends no ETag, the object's ETag is left null (reads still work; nothing
 * writes through this store, so no conditional write needs it).
 */
public final class HttpStore implements ObjectStore {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final URI root;
    private final HttpClient client;

    /**
     * A store reading below {@code root} ({@code https://host/path/}; a missing trailing slash is added).
     *
     * @throws FdlException exit 2 for a URL that is not http(s) or carries user info
     */
    public HttpStore(URI root) {
        String scheme = root.getScheme() == null ? "" : root.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || root.getHost() == null)
            throw FdlException.usage("invalid HTTP(S) repository root '" + root + "': expected https://host/path/");
        if (root.getRawUserInfo() != null)
            throw FdlException.usage("credentials do not belong in a repository URL; HTTP(S) roots are public, read-only mirrors");
        if (root.getRawQuery() != null || root.getRawFragment() != null)
            throw FdlException.usage("invalid HTTP(S) repository root '" + root + "': no query or fragment allowed");
        String path = root.getRawPath() == null || root.getRawPath().isEmpty() ? "/" : root.getRawPath();
        this.root = URI.create(scheme + "://" + root.getRawAuthority() + (path.endsWith("/") ? path : path + "/"));
        this.client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    @Override
    public String root() {
        return root.toString();
    }

    @Override
    public String location(String key) {
        return key.isEmpty() ? root() : url(key).toString();
    }

    @Override
    public boolean readOnly() {
        return true;
    }

    private URI url(String key) {
        String k = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        Keys.check(k);
        try {
            // the multi-argument constructor percent-encodes what a path may not hold as is
            URI rel = new URI(null, null, key, null);
            return root.resolve(rel.getRawPath());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("invalid object key '" + key + "': " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<ObjectBytes> get(String key) {
        HttpResponse<byte[]> r = send(key, "GET", HttpResponse.BodyHandlers.ofByteArray());
        if (missing(r.statusCode())) return Optional.empty();
        check(key, r);
        return Optional.of(new ObjectBytes(r.body(), etag(r.headers())));
    }

    /**
     * A whole object ({@code from} 0, {@code length} -1) is streamed as the server sends it, never
     * held in memory (verify hashes data files while reading them); a range is read as
     * {@link ObjectStore#read} reads it.
     */
    @Override
    public Optional<RangeRead> read(String key, long from, long length) {
        if (from != 0 || length >= 0) return ObjectStore.super.read(key, from, length);
        HttpResponse<java.io.InputStream> r = send(key, "GET", info -> info.statusCode() == 200
                ? HttpResponse.BodySubscribers.ofInputStream()
                : HttpResponse.BodySubscribers.replacing(null));
        if (missing(r.statusCode())) return Optional.empty();
        check(key, r);
        long size = r.headers().firstValueAsLong("Content-Length").orElse(-1);
        return Optional.of(new RangeRead(new ObjectMeta(key, size, etag(r.headers()), lastModified(r.headers())), 0, size, r.body()));
    }

    @Override
    public Optional<ObjectMeta> head(String key) {
        HttpResponse<Void> r = send(key, "HEAD", HttpResponse.BodyHandlers.discarding());
        if (missing(r.statusCode())) return Optional.empty();
        check(key, r);
        long size = r.headers().firstValueAsLong("Content-Length").orElse(0);
        return Optional.of(new ObjectMeta(key, size, etag(r.headers()), lastModified(r.headers())));
    }

    @Override
    public Optional<ObjectMeta> download(String key, Path target) {
        Path abs = target.toAbsolutePath();
        Path tmp = AtomicFile.tempBeside(abs, ObjectStore.INTERNAL_PREFIX + "dl-");
        try {
            Files.createDirectories(abs.getParent());
            HttpResponse<Path> r = send(key, "GET", info -> info.statusCode() == 200
                    ? HttpResponse.BodySubscribers.ofFile(tmp)
                    : HttpResponse.BodySubscribers.replacing(null));
            if (missing(r.statusCode())) return Optional.empty();
            check(key, r);
            AtomicFile.moveCopy(tmp, abs);
            return Optional.of(new ObjectMeta(key, Files.size(abs), etag(r.headers()), lastModified(r.headers())));
        } catch (IOException e) {
            throw new StoreException(key, "cannot download " + location(key) + " to " + target + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a leftover temporary download file is harmless
            }
        }
    }

    @Override
    public boolean canList() {
        return false;
    }

    /** Refused: a plain HTTP(S) server cannot list a folder. */
    @Override
    public Stream<ObjectMeta> list(String prefix) {
        throw new StoreException(prefix, "cannot list " + root() + prefix + ": an HTTP(S) root can be read but not listed; "
                + "give full version ids, or use the repository's folder or s3:// root for this command");
    }

    @Override
    public WriteResult putIfAbsent(String key, Payload body) {
        throw new ReadOnlyStoreException(root());
    }

    @Override
    public WriteResult putIfMatch(String key, Payload body, String etag) {
        throw new ReadOnlyStoreException(root());
    }

    @Override
    public WriteResult put(String key, Payload body) {
        throw new ReadOnlyStoreException(root());
    }

    @Override
    public void delete(String key) {
        throw new ReadOnlyStoreException(root());
    }

    @Override
    public boolean deleteIfMatch(String key, String etag) {
        throw new ReadOnlyStoreException(root());
    }

    private <T> HttpResponse<T> send(String key, String method, HttpResponse.BodyHandler<T> handler) {
        URI u = url(key);
        HttpRequest req = HttpRequest.newBuilder(u).timeout(TIMEOUT).method(method, HttpRequest.BodyPublishers.noBody()).build();
        try {
            return client.send(req, handler);
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new StoreException(key, "cannot reach " + root.getScheme() + "://" + root.getRawAuthority()
                    + " (" + e.getClass().getSimpleName() + "); check the URL and the network", e);
        } catch (HttpTimeoutException e) {
            throw new StoreException(key, "no answer from " + u + " within " + TIMEOUT.toSeconds() + " s; try again", e);
        } catch (IOException e) {
            throw new StoreException(key, "cannot read " + u + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(key, "interrupted while reading " + u, e);
        }
    }

    private static boolean missing(int status) {
        return status == 404 || status == 410;
    }

    private void check(String key, HttpResponse<?> r) {
        int s = r.statusCode();
        if (s == 200) return;
        if (s == 401 || s == 403)
            throw new StoreException(key, "access denied to " + location(key) + " (HTTP " + s + "): HTTP(S) roots must be public");
        throw new StoreException(key, "cannot read " + location(key) + ": HTTP " + s);
    }

    private static String etag(HttpHeaders h) {
        return h.firstValue("ETag").orElse(null);
    }

    private static Instant lastModified(HttpHeaders h) {
        Optional<String> v = h.firstValue("Last-Modified");
        if (v.isEmpty()) return null;
        try {
            return ZonedDateTime.parse(v.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
