package dev.fdl.serve;

import dev.fdl.cli.Cli;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.site.SiteRepo;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

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
        return render(url, shot, 1000);
    }

    /** {@link #render(String, String)} in a window {@code height} pixels high (a whole page in the screenshot). */
    private static String render(String url, String shot, int height) throws Exception {
        Path profile = Files.createTempDirectory(shared, "chromium");
        Path shots = Files.createDirectories(Path.of("target", "site-screenshots"));
        List<String> base = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                // nothing may leave the page's origin: any other host resolves to nothing
                "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", "--window-size=1200," + height));
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
        return m.group(1).replace("&#39;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }

    @Test
    void theDatasetAndVersionPagesRenderFromFdlServe() throws Exception {
        try (LocalStore store = new LocalStore(towns.root);
             RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
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

    /** The attributes of each element {@code <tag class="cls" …>} in {@code dom}, in order. */
    static List<java.util.Map<String, String>> elements(String dom, String tag, String cls) {
        List<java.util.Map<String, String>> out = new ArrayList<>();
        Matcher m = Pattern.compile("<" + tag + "\\b([^>]*\\bclass=\"" + cls + "\"[^>]*)>").matcher(dom);
        while (m.find()) {
            java.util.Map<String, String> attrs = new java.util.HashMap<>();
            Matcher a = Pattern.compile("([\\w-]+)=\"([^\"]*)\"").matcher(m.group(1));
            while (a.find()) attrs.put(a.group(1), a.group(2).replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
            out.add(attrs);
        }
        return out;
    }

    /** The text of each {@code <td>} of each {@code <tr>} in {@code html}, entities decoded ({@code <th>} rows give an empty list). */
    static List<List<String>> cells(String html) {
        List<List<String>> out = new ArrayList<>();
        Matcher tr = Pattern.compile("<tr[^>]*>([\\s\\S]*?)</tr>").matcher(html);
        while (tr.find()) {
            List<String> row = new ArrayList<>();
            Matcher td = Pattern.compile("<td[^>]*>([\\s\\S]*?)</td>").matcher(tr.group(1));
            while (td.find()) row.add(td.group(1).replaceAll("<[^>]*>", "").replace("&#39;", "'").replace("&quot;", "\"")
                    .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
            out.add(row);
        }
        return out;
    }

    /**
     * Issue 31: what readers see, in a site written by {@code fdl site} (with the change over each
     * parent) and served by fdl serve: the dataset page's history chart holds {@code fdl log --stat}'s
     * numbers in its data attributes and marks the tags; each table of a version page says how to
     * get its data, with statements for the URL the page came from; nothing leaves the origin.
     */
    @Test
    void readersSeeTheHistoryAndHowToGetTheData() throws Exception {
        SiteRepo repo = SiteRepo.copy(Files.createDirectories(shared.resolve("readers")));
        Cli.ok(shared, "site", "--repo", repo.root.toString());
        com.fasterxml.jackson.databind.JsonNode log = dev.fdl.util.Json.MAPPER.readTree(
                Cli.ok(shared, "log", "--repo", repo.root.toString(), "--stat", "--json").out());
        try (LocalStore store = new LocalStore(repo.root);
             RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            String base = server.url().toString();
            String index = render(base + "index.html", "dataset-page-history.png", 1900);
            assertThat(fetchedUrls(index)).isEmpty();
            List<java.util.Map<String, String>> points = elements(index, "circle", "point");
            List<java.util.Map<String, String>> bars = elements(index, "g", "bar");
            int compared = 0;
            for (com.fasterxml.jackson.databind.JsonNode v : log) {
                String id = v.path("id").asText();
                if (!v.has("stat")) { // expired: its change is unknown, and not charted
                    assertThat(points).noneMatch(p -> p.get("data-version").equals(id));
                    continue;
                }
                long added = 0, removed = 0;
                boolean unknown = false;
                for (com.fasterxml.jackson.databind.JsonNode t : v.path("stat")) {
                    java.util.Map<String, String> p = points.stream()
                            .filter(x -> x.get("data-version").equals(id) && x.get("data-table").equals(t.path("table").asText()))
                            .findFirst().orElseThrow(() -> new AssertionError("no point for " + id + " " + t + " in " + points));
                    assertThat(p.get("data-rows")).isEqualTo(t.path("rows").asText());
                    assertThat(p.get("data-added")).isEqualTo(t.path("added").asText());
                    assertThat(p.get("data-removed")).isEqualTo(t.path("removed").isNull() ? "" : t.path("removed").asText());
                    added += t.path("added").asLong();
                    if (t.path("removed").isNull()) unknown = true;
                    else removed += t.path("removed").asLong();
                    compared++;
                }
                java.util.Map<String, String> bar = bars.stream().filter(x -> x.get("data-version").equals(id)).findFirst().orElseThrow();
                assertThat(bar.get("data-added")).isEqualTo(Long.toString(added));
                assertThat(bar.get("data-removed")).isEqualTo(unknown ? "" : Long.toString(removed));
            }
            assertThat(compared).as("points compared with fdl log --stat").isPositive();
            assertThat(elements(index, "g", "tag")).anyMatch(t -> t.get("data-tag").equals("first") && t.get("data-version").equals(repo.first));

            String version = render(base + "site/versions/" + repo.third + ".html", "version-page-data.png", 2200);
            assertThat(fetchedUrls(version)).isEmpty();
            String alias = "v_" + repo.third.substring(0, 8);
            assertThat(pre(version, "copy-towns")).contains("ATTACH 'ducklake:" + base + "versions/" + repo.third + "/ducklake.duckdb' AS " + alias)
                    .contains("COPY (FROM \"" + alias + "\".\"main\".\"towns\") TO 'towns.parquet' (FORMAT parquet);")
                    .contains("COPY (FROM \"" + alias + "\".\"main\".\"towns\") TO 'towns.csv' (FORMAT csv, HEADER);");
            // the preview's first row is the table's first row as fdl query returns it
            Matcher preview = Pattern.compile("<table class=\"preview\" data-table=\"towns\">([\\s\\S]*?)</table>").matcher(version);
            assertThat(preview.find()).as(version).isTrue();
            List<String> firstRow = cells(preview.group(1)).get(1); // after the header
            String[] queried = Cli.ok(shared, "query", "--repo", repo.root.toString(), repo.third, "--csv", "SELECT * FROM towns").out().split("\n");
            // its first cell names the version that last changed the row (docs/site.md), then the row
            assertThat(repo.first + " " + repo.second + " " + repo.third).contains(firstRow.get(0));
            assertThat(String.join(",", firstRow.subList(1, firstRow.size()))).isEqualTo(queried[1]);
            assertThat(cells(preview.group(1))).hasSize(queried.length); // 4 rows (fewer than 20) and the header
            // the statistics equal a DuckDB query over the same version
            for (String column : List.of("name", "population")) {
                String col = "\"" + column + "\"";
                String[] expected = Cli.ok(shared, "query", "--repo", repo.root.toString(), repo.third, "--csv",
                        "SELECT count(*) - count(" + col + "), approx_count_distinct(" + col + "), CAST(min(" + col + ") AS VARCHAR), CAST(max("
                                + col + ") AS VARCHAR) FROM towns").out().split("\n")[1].split(",");
                Matcher row = Pattern.compile("<tr data-column=\"" + column + "\" data-nulls=\"(\\d+)\" data-distinct=\"(\\d+)\">([\\s\\S]*?)</tr>")
                        .matcher(version);
                assertThat(row.find()).as(column + " statistics in " + version).isTrue();
                List<String> text = cells("<tr>" + row.group(3) + "</tr>").get(0);
                assertThat(List.of(row.group(1), row.group(2), text.get(3), text.get(4))).as(column).containsExactly(expected);
            }
            String command = pre(version, "fdl-towns");
            assertThat(command).isEqualTo("fdl query --repo '" + base + "' " + repo.third + " --csv 'SELECT * FROM \"main\".\"towns\"' > towns.csv");
            // the command does what it says
            assertThat(Cli.ok(shared, "query", "--repo", base, repo.third, "--csv", "SELECT * FROM \"main\".\"towns\"").out())
                    .startsWith("name,population\n");
        }
    }

    /**
     * A {@code '} in the repository's folder or in the URL path the site is
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
