package dev.fdl.serve;

import dev.fdl.cli.Cli;
import dev.fdl.site.Site;
import dev.fdl.site.SiteRepo;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16: the site's pages as a browser renders them (headless Chromium, Debian package
 * {@code chromium}; skipped with a message where it is absent). The rendered DOM is checked
 * after the page's script ran; screenshots go to {@code target/site-screenshots/}.
 */
class SiteInBrowserTest {
    @TempDir static Path shared;
    static SiteRepo towns;
    static Path chromium;

    @BeforeAll
    static void setUp() {
        chromium = find();
        Assumptions.assumeTrue(chromium != null,
                "headless Chromium not found (apt-get install chromium; .ci/run installs it): the site's browser test is skipped");
        towns = SiteRepo.copy(shared);
    }

    private static Path find() {
        String env = System.getenv("FDL_CHROMIUM");
        if (env != null && Files.isExecutable(Path.of(env))) return Path.of(env);
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"))
            if (Files.isExecutable(Path.of(c))) return Path.of(c);
        return null;
    }

    /** Runs Chromium on {@code url}: the DOM after scripts ran, and a screenshot named {@code shot} unless null. */
    private static String render(String url, String shot) throws Exception {
        Path profile = Files.createTempDirectory(shared, "chromium");
        Path shots = Files.createDirectories(Path.of("target", "site-screenshots"));
        List<String> base = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                // nothing may leave the page's origin: any other host resolves to nothing
                "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", "--window-size=1200,1000"));
        List<String> dump = new ArrayList<>(base);
        dump.add("--dump-dom");
        dump.add(url);
        String dom = run(dump);
        if (shot == null) return dom;
        List<String> screenshot = new ArrayList<>(base);
        screenshot.add("--screenshot=" + shots.resolve(shot).toAbsolutePath());
        screenshot.add(url);
        run(screenshot);
        return dom;
    }

    private static String run(List<String> command) throws Exception {
        Path out = Files.createTempFile(shared, "chromium", ".out");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s: " + command);
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Every URL the page would fetch by itself (src, link href, CSS url()): none may leave the origin. */
    private static List<String> fetchedUrls(String dom) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?i)\\bsrc\\s*=\\s*\"([^\"]*)\"|<link[^>]*href\\s*=\\s*\"([^\"]*)\"|(?-i)(?<![A-Za-z])url\\(([^)]*)\\)").matcher(dom);
        while (m.find()) out.add(m.group(0));
        return out;
    }

    /** The text of {@code <pre id="id">} as the page shows it. */
    private static String pre(String dom, String id) {
        Matcher m = Pattern.compile("<pre[^>]*\\bid=\"" + id + "\"[^>]*>([\\s\\S]*?)</pre>").matcher(dom);
        assertThat(m.find()).as("pre#" + id + " in " + dom).isTrue();
        return m.group(1).replace("&#39;", "'").replace("&amp;", "&");
    }

    @Test
    void theDatasetAndVersionPagesRenderFromFdlServe() throws Exception {
        try (LocalStore store = new LocalStore(towns.root);
             RepoServer server = RepoServer.start(store, Site.Options.defaults(), "127.0.0.1", 0)) {
            String base = server.url().toString();
            String index = render(base + "index.html", "dataset-page.png");
            assertThat(index).contains("<span id=\"version-count\">3</span>")
                    .contains("tag: first")
                    .contains("<td>towns</td><td class=\"num\">4</td>");
            // the script rewrote the attach statement for the URL the page came from
            assertThat(pre(index, "attach-latest")).contains("ATTACH 'ducklake:" + base + "versions/" + towns.third + "/ducklake.duckdb'")
                    .contains("DATA_PATH '" + base + "data/'").contains("LOAD httpfs;");
            assertThat(fetchedUrls(index)).isEmpty();
            String version = render(base + "site/versions/" + towns.third + ".html", "version-page.png");
            assertThat(version).contains("data-rows=\"4\"");
            assertThat(pre(version, "attach")).contains("ATTACH 'ducklake:" + base + "versions/" + towns.third);
            assertThat(fetchedUrls(version)).isEmpty();
        }
        assertThat(Path.of("target", "site-screenshots", "dataset-page.png")).isNotEmptyFile();
    }

    @Test
    void theWrittenSiteWorksFromFileUrls() throws Exception {
        Cli.ok(shared, "site", "--repo", towns.root.toString());
        String index = render(towns.root.resolve("index.html").toUri().toString(), null);
        String rootPath = towns.root.toAbsolutePath() + "/";
        assertThat(index).contains("<span id=\"version-count\">3</span>").contains("tag: first");
        assertThat(pre(index, "attach-latest")).contains("ATTACH 'ducklake:" + rootPath + "versions/" + towns.third + "/ducklake.duckdb'")
                .doesNotContain("LOAD httpfs;");
        assertThat(fetchedUrls(index)).isEmpty();
    }

    /**
     * Tester finding G5: a {@code '} in the repository's folder or in the URL path the site is
     * served under is doubled in the ATTACH statements the page's script fills in, as fdl attach
     * quotes it; a lone quote ends DuckDB's string literal.
     */
    @Test
    void aQuoteInTheRootIsDoubledInTheAttachStatements() throws Exception {
        SiteRepo quoted = SiteRepo.copy(Files.createDirectories(shared.resolve("it's here")));
        Cli.ok(shared, "site", "--repo", quoted.root.toString());
        String fromFile = pre(render(quoted.root.resolve("index.html").toUri().toString(), null), "attach-latest");
        String rootPath = quoted.root.toAbsolutePath().toString().replace("'", "''") + "/";
        assertThat(fromFile).contains("ATTACH 'ducklake:" + rootPath + "versions/" + quoted.third + "/ducklake.duckdb'")
                .contains("DATA_PATH '" + rootPath + "data/'");

        // a web server serving the written site under a path holding a quote (browsers send ' unencoded)
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/it's/", exchange -> {
            String rest = exchange.getRequestURI().getPath().substring("/it's/".length());
            Path file = quoted.root.resolve(rest).normalize();
            byte[] body = file.startsWith(quoted.root) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/it's/";
            String fromHttp = pre(render(base + "index.html", null), "attach-latest");
            String quotedBase = base.replace("'", "''");
            assertThat(fromHttp).contains("ATTACH 'ducklake:" + quotedBase + "versions/" + quoted.third + "/ducklake.duckdb'")
                    .contains("DATA_PATH '" + quotedBase + "data/'");
        } finally {
            server.stop(0);
        }
    }
}
