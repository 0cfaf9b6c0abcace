package dev.fdl.serve;

import dev.fdl.cli.Cli;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.site.SiteRepo;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 16: {@code fdl serve}, a read-only HTTP server over a repository. */
class RepoServerTest {
    @TempDir static Path shared;
    static SiteRepo towns;
    static LocalStore store;
    static RepoServer server;
    static HttpClient http = HttpClient.newHttpClient();
    static String catalogKey;
    static byte[] catalog;
    static final String SECRET = "top secret outside the root";

    @BeforeAll
    static void start() throws IOException {
        towns = SiteRepo.copy(shared);
        Files.writeString(shared.resolve("secret.txt"), SECRET);
        Files.createSymbolicLink(towns.root.resolve("link.txt"), shared.resolve("secret.txt"));
        Files.createSymbolicLink(towns.root.resolve("outside"), shared);
        store = new LocalStore(towns.root);
        server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0);
        catalogKey = "versions/" + towns.third + "/ducklake.duckdb";
        catalog = Files.readAllBytes(towns.root.resolve(catalogKey));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path));
        if (headers.length > 0) b.headers(headers);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpResponse<byte[]> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                .method(method, method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("x"));
        if (headers.length > 0) b.headers(headers);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aRangeGivesExactlyThoseBytesWith206AndContentRange() throws Exception {
        HttpResponse<byte[]> r = get(catalogKey, "Range", "bytes=1000-66535");
        assertThat(r.statusCode()).isEqualTo(206);
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(catalog, 1000, 66536));
        assertThat(r.headers().firstValue("Content-Range")).hasValue("bytes 1000-66535/" + catalog.length);
        HttpResponse<byte[]> suffix = get(catalogKey, "Range", "bytes=-100");
        assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(catalog, catalog.length - 100, catalog.length));
        HttpResponse<byte[]> open = get(catalogKey, "Range", "bytes=" + (catalog.length - 10) + "-");
        assertThat(open.body()).isEqualTo(Arrays.copyOfRange(catalog, catalog.length - 10, catalog.length));
        HttpResponse<byte[]> past = get(catalogKey, "Range", "bytes=" + catalog.length + "-");
        assertThat(past.statusCode()).isEqualTo(416);
        assertThat(past.headers().firstValue("Content-Range")).hasValue("bytes */" + catalog.length);
        HttpResponse<byte[]> whole = get(catalogKey);
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.body()).isEqualTo(catalog);
        assertThat(whole.headers().firstValue("Accept-Ranges")).hasValue("bytes");
        // several ranges: the whole object, as RFC 9110 allows
        assertThat(get(catalogKey, "Range", "bytes=0-1,5-6").statusCode()).isEqualTo(200);
        // If-Range with another ETag: the whole object
        assertThat(get(catalogKey, "Range", "bytes=0-1", "If-Range", "\"other\"").statusCode()).isEqualTo(200);
        // a small object (a tag: a branch moves under the concurrent-commit test) takes ranges too
        HttpResponse<byte[]> ref = get("refs/tags/first", "Range", "bytes=0-7");
        assertThat(ref.statusCode()).isEqualTo(206);
        assertThat(new String(ref.body(), StandardCharsets.UTF_8)).isEqualTo(towns.first.substring(0, 8));
    }

    @Test
    void etagsGive304AndHeadGivesHeadersWithoutABody() throws Exception {
        HttpResponse<byte[]> r = get(catalogKey);
        String etag = r.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).startsWith("\"").endsWith("\"");
        assertThat(r.headers().firstValue("Last-Modified")).isPresent();
        HttpResponse<byte[]> again = get(catalogKey, "If-None-Match", etag);
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(get(catalogKey, "If-None-Match", "\"nope\"").statusCode()).isEqualTo(200);
        // Last-Modified is an IMF-fixdate (two-digit day) and If-Modified-Since with it gives 304
        String lastModified = r.headers().firstValue("Last-Modified").orElseThrow();
        assertThat(lastModified).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
        assertThat(get(catalogKey, "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        assertThat(get(catalogKey, "If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT").statusCode()).isEqualTo(200);
        HttpResponse<byte[]> head = send("HEAD", catalogKey);
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("Content-Length")).hasValue(Long.toString(catalog.length));
        assertThat(head.headers().firstValue("ETag")).hasValue(etag);
        HttpResponse<byte[]> headRange = send("HEAD", catalogKey, "Range", "bytes=0-9");
        assertThat(headRange.statusCode()).isEqualTo(206);
        assertThat(headRange.headers().firstValue("Content-Length")).hasValue("10");
    }

    /**
     * A folder's files of every size are kept open between requests (OpenFiles): a file replaced by a rename
     * (same size and time: a ref moved, a page rewritten) is served with its new bytes and ETag,
     * and a deleted one is not found.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {200, 300_000, RepoServer.WHOLE_READ_LIMIT + 1000})
    void aFileReplacedOrDeletedIsNotServedFromTheFileKeptOpen(int size, @TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectories(root.resolve("data"));
        byte[] one = new byte[size], two = one.clone();
        new Random(1).nextBytes(one);
        new Random(2).nextBytes(two);
        Path file = root.resolve("data/big.bin");
        Files.write(file, one);
        try (RepoServer s = RepoServer.start(new LocalStore(root), SiteOptions.defaults(), "127.0.0.1", 0)) {
            HttpRequest range = HttpRequest.newBuilder(s.url().resolve("data/big.bin")).header("Range", "bytes=10-99").build();
            HttpResponse<byte[]> first = http.send(range, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(first.body()).isEqualTo(Arrays.copyOfRange(one, 10, 100));
            // the ETag the store gives (a small file's: its content's MD5, as S3's)
            try (LocalStore ls = new LocalStore(root)) {
                assertThat(first.headers().firstValue("ETag")).hasValue("\"" + ls.get("data/big.bin").orElseThrow().etag() + "\"");
            }
            assertThat(http.send(range, HttpResponse.BodyHandlers.ofByteArray()).body()).isEqualTo(Arrays.copyOfRange(one, 10, 100));
            Path tmp = root.resolve("data/big.tmp");
            Files.write(tmp, two);
            Files.setLastModifiedTime(tmp, Files.getLastModifiedTime(file)); // only the file itself differs
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            HttpResponse<byte[]> second = http.send(range, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(second.body()).isEqualTo(Arrays.copyOfRange(two, 10, 100));
            assertThat(second.headers().firstValue("ETag")).isNotEqualTo(first.headers().firstValue("ETag"));
            Files.delete(file);
            assertThat(http.send(range, HttpResponse.BodyHandlers.ofByteArray()).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void corsContentTypesAndCacheHeaders() throws Exception {
        HttpResponse<byte[]> r = get("versions/" + towns.third + "/version.json", "Origin", "https://example.org");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(r.headers().firstValue("Access-Control-Expose-Headers").orElseThrow()).contains("ETag").contains("Content-Range");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.headers().firstValue("Cache-Control").orElseThrow()).contains("immutable");
        assertThat(get("HEAD").headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
        assertThat(get("refs/heads/main").headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(get(catalogKey).headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        HttpResponse<byte[]> pre = send("OPTIONS", catalogKey, "Origin", "https://example.org", "Access-Control-Request-Method", "GET");
        assertThat(pre.statusCode()).isEqualTo(204);
        assertThat(pre.headers().firstValue("Access-Control-Allow-Methods").orElseThrow()).contains("GET").doesNotContain("PUT");
        assertThat(pre.headers().firstValue("Access-Control-Allow-Headers").orElseThrow()).contains("Range");
    }

    /** The data folder is the repository's {@code data_dir} (fdl.json), not {@code data/} (SPEC.md section 3). */
    @Test
    void dataFilesAreImmutableUnderTheRepositorysDataDirOnly(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Files.writeString(root.resolve("fdl.json"), "{\"fdl\": \"0.1\", \"id\": \"" + java.util.UUID.randomUUID()
                + "\", \"data_dir\": \"parquet/\"}\n");
        Files.createDirectories(root.resolve("parquet/main/t"));
        Files.writeString(root.resolve("parquet/main/t/ducklake-1.parquet"), "PAR1");
        Files.createDirectories(root.resolve("data"));
        Files.writeString(root.resolve("data/notes.txt"), "not the data folder of this repository: may change");
        try (RepoServer s = RepoServer.start(new LocalStore(root), SiteOptions.defaults(), "127.0.0.1", 0)) {
            HttpResponse<byte[]> data = http.send(HttpRequest.newBuilder(s.url().resolve("parquet/main/t/ducklake-1.parquet")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(data.statusCode()).isEqualTo(200);
            assertThat(data.headers().firstValue("Cache-Control").orElseThrow()).contains("immutable");
            HttpResponse<byte[]> other = http.send(HttpRequest.newBuilder(s.url().resolve("data/notes.txt")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(other.statusCode()).isEqualTo(200);
            assertThat(other.headers().firstValue("Cache-Control")).hasValue("no-cache");
        }
    }

    @Test
    void noWriteMethodIsAcceptedAndNothingChanges() throws Exception {
        byte[] ref = Files.readAllBytes(towns.root.resolve("refs/tags/first"));
        for (String m : List.of("PUT", "POST", "DELETE", "PATCH")) {
            HttpResponse<byte[]> r = send(m, "refs/tags/first");
            assertThat(r.statusCode()).as(m).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow").orElseThrow()).doesNotContain(m);
        }
        assertThat(send("PUT", "new-object").statusCode()).isEqualTo(405);
        assertThat(Files.readAllBytes(towns.root.resolve("refs/tags/first"))).isEqualTo(ref);
        assertThat(towns.root.resolve("new-object")).doesNotExist();
    }

    /** Sends a raw request line, so that no client library normalizes the path first. */
    static String raw(String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            return b.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * HTTP/1.1 pipelining: responses come in the requests' order, also when the first one (a
     * site page rendered on the fly, on the server's pool) takes longer than the second (a ref,
     * answered on the event loop).
     */
    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            String first = "GET /site/versions/" + towns.second + ".html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            String second = "GET /refs/tags/first HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            s.getOutputStream().write((first + second).getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            s.getInputStream().transferTo(b);
            String both = b.toString(StandardCharsets.ISO_8859_1);
            String lower = both.toLowerCase(java.util.Locale.ROOT); // header names are case-insensitive
            int html = lower.indexOf("content-type: text/html"), text = lower.indexOf("content-type: text/plain");
            assertThat(both.split("HTTP/1\\.1 200 OK", -1)).hasSize(3);
            assertThat(html).isPositive();
            assertThat(text).isGreaterThan(html);
            assertThat(both.strip()).endsWith(towns.first);
        }
    }

    /**
     * A client pipelining many requests before reading: the connection stops reading once more
     * than {@link RepoServer#MAX_PENDING} responses are pending (site pages queue on the pool behind
     * each other) and reads again as they go out; every response comes, correct and in order, and
     * a second round on the same connection is read too.
     */
    @Test
    void manyPipelinedRequestsAreBoundedAndAllAnsweredInOrder() throws Exception {
        String page = "GET /site/versions/" + towns.second + ".html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        String tag = "GET /refs/tags/first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        int pairs = 3 * RepoServer.MAX_PENDING;
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(30_000); // a connection that never reads again fails here rather than hanging
            InputStream in = new java.io.BufferedInputStream(s.getInputStream());
            for (int round = 0; round < 2; round++) {
                int paused = server.pausedReads();
                s.getOutputStream().write((page + tag).repeat(pairs).getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                for (int i = 0; i < pairs; i++) {
                    String html = readResponse(in), ref = readResponse(in);
                    assertThat(html).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: text/html").contains(towns.second);
                    assertThat(ref).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: text/plain").endsWith(towns.first + "\n");
                }
                assertThat(server.pausedReads()).as("round " + round + " stopped reading").isGreaterThan(paused);
            }
        }
    }

    /** One HTTP/1.1 response (status line, headers, a Content-Length body) as text. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) throw new IOException("connection closed after " + head);
            head.write(c);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(h);
        assertThat(m.find()).as(h).isTrue();
        return h + new String(in.readNBytes(Integer.parseInt(m.group(1))), StandardCharsets.ISO_8859_1);
    }

    @Test
    void noPathReadsOutsideTheRoot() throws Exception {
        List<String> attempts = List.of(
                "/../secret.txt", "/..%2fsecret.txt", "/%2e%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/%2E%2E/secret.txt",
                "/versions/../../secret.txt", "/versions/%2e%2e/%2e%2e/secret.txt", "/%252e%252e/secret.txt",
                "/%252e%252e%252fsecret.txt", "/..%5csecret.txt", "/..\\secret.txt", "/.%2e/secret.txt",
                "/%c0%ae%c0%ae/secret.txt", "/./secret.txt", "//secret.txt", "/" + shared.resolve("secret.txt"),
                "/%2f" + shared.resolve("secret.txt").toString().substring(1), "/link.txt", "/outside/secret.txt",
                "/.fdl-lock", "/versions/%00/../../secret.txt", "/refs/heads/main/..%2f..%2f..%2f..%2fsecret.txt",
                "http://127.0.0.1/../secret.txt");
        assertThat(attempts).hasSizeGreaterThanOrEqualTo(15);
        for (String a : attempts) {
            String response = raw(a);
            String status = response.substring(0, response.indexOf("\r\n"));
            assertThat(status).as(a).matches("HTTP/1\\.1 (400|404) .*");
            assertThat(response).as(a).doesNotContain(SECRET);
        }
        // a key with a literal '%' is looked up as such, not decoded twice
        Files.writeString(towns.root.resolve("a%2e.txt"), "literal");
        assertThat(raw("/a%252e.txt")).contains("literal");
    }

    @Test
    void aRootGivenThroughASymbolicLinkServesItsFiles(@TempDir Path dir) throws Exception {
        // the root's real path is resolved (once): a file inside is inside, wherever the link points
        Path link = Files.createSymbolicLink(dir.resolve("published"), towns.root);
        try (LocalStore linked = new LocalStore(link);
             RepoServer s = RepoServer.start(linked, SiteOptions.defaults(), "127.0.0.1", 0)) {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(s.url() + catalogKey)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(catalog);
            HttpResponse<byte[]> out = http.send(HttpRequest.newBuilder(URI.create(s.url() + "link.txt")).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(out.statusCode()).isEqualTo(404); // still: a link inside that leaves the root
        }
    }

    @Test
    void theSiteIsRenderedOnTheFlyWhenTheRepositoryHasNone() throws Exception {
        HttpResponse<byte[]> index = get("");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(new String(index.body(), StandardCharsets.UTF_8)).contains("Towns &lt;of&gt; the world");
        HttpResponse<byte[]> page = get("site/versions/" + towns.first + ".html");
        assertThat(new String(page.body(), StandardCharsets.UTF_8)).contains("tag: first");
        String etag = page.headers().firstValue("ETag").orElseThrow();
        assertThat(get("site/versions/" + towns.first + ".html", "If-None-Match", etag).statusCode()).isEqualTo(304);
        assertThat(get("site/versions/nope.html").statusCode()).isEqualTo(404);
        assertThat(get("versions/").statusCode()).isEqualTo(404); // no listing
    }

    @Test
    void readersUseItAsTheyUseAnyStaticHost() throws Exception {
        String url = server.url().toString();
        assertThat(Cli.ok(shared, "log", "--oneline", "--repo", url).out()).contains(towns.third.substring(0, 13));
        assertThat(Cli.ok(shared, "show", "first", "--repo", url).out()).contains(towns.first);
        assertThat(Cli.ok(shared, "attach", "first", "--repo", url).out()).contains(url + "versions/" + towns.first);
        assertThat(Cli.ok(shared, "query", "first", "--repo", url, "SELECT count(*) AS n FROM towns", "--csv").out()).contains("2");
        assertThat(Cli.ok(shared, "attach", "first", "--repo", towns.root.toString(), "--root-url", url).out())
                .contains("DATA_PATH '" + url + "data/'");
    }

    @Test
    void concurrentRangeReadsAreByteCorrectWhileACommitRuns(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("more.csv");
        Files.writeString(csv, "name,population\nGouda,75000\n");
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            Future<Cli.Result> commit = pool.submit(() -> {
                Cli.ok(towns.wc, "import", csv.toString(), "--table", "towns", "--mode", "append");
                return Cli.ok(towns.wc, "commit", "-m", "during reads");
            });
            Random rnd = new Random(42);
            // a data file over the whole-read limit: sent from the file kept open, shared by the requests
            byte[] large = new byte[3 * RepoServer.WHOLE_READ_LIMIT + 17];
            rnd.nextBytes(large);
            String largeKey = "data/concurrent-" + System.nanoTime() + ".bin";
            Files.createDirectories(towns.root.resolve(largeKey).getParent());
            Files.write(towns.root.resolve(largeKey), large);
            List<Callable<String>> reads = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                boolean ref = i % 10 == 0;
                String key = i % 2 == 0 ? catalogKey : largeKey;
                byte[] object = i % 2 == 0 ? catalog : large;
                long from = rnd.nextInt(object.length - 1);
                long to = Math.min(object.length - 1, from + rnd.nextInt(256 * 1024));
                reads.add(() -> {
                    if (ref) {
                        String body = new String(get("refs/heads/main").body(), StandardCharsets.UTF_8).strip();
                        return body.matches("[0-9a-f-]{36}") ? null : "bad ref body " + body;
                    }
                    HttpResponse<byte[]> r = get(key, "Range", "bytes=" + from + "-" + to);
                    byte[] want = Arrays.copyOfRange(object, (int) from, (int) to + 1);
                    return r.statusCode() == 206 && Arrays.equals(r.body(), want) ? null : key + " range " + from + "-" + to + " status " + r.statusCode();
                });
            }
            List<String> problems = new ArrayList<>();
            for (Future<String> f : pool.invokeAll(reads)) if (f.get() != null) problems.add(f.get());
            commit.get();
            assertThat(problems).isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }
}
