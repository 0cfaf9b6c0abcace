package dev.fdl.site;

import dev.fdl.FdlException;
import dev.fdl.cli.Cli;
import dev.fdl.repo.ExpiredInfo;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefUpdate;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.CountingStore;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.store.WriteResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 16: the static site written into the repository. */
class SiteTest {
    @TempDir static Path shared;
    static SiteRepo towns;

    @BeforeAll
    static void build() {
        towns = SiteRepo.copy(shared);
    }

    private static Map<String, byte[]> render(Path root) {
        try (ObjectStore store = new LocalStore(root)) {
            return Site.render(Repository.open(store), SiteOptions.defaults());
        }
    }

    private static String page(Map<String, byte[]> pages, String key) {
        assertThat(pages).containsKey(key);
        return new String(pages.get(key), StandardCharsets.UTF_8);
    }

    @Test
    void theDatasetPageShowsTitleLicenseSourcesRefsAndTheLatestVersion() {
        String index = page(render(towns.root), "index.html");
        assertThat(index).contains("<h1 id=\"title\">Towns &lt;of&gt; the world</h1>")
                .contains("Small towns &amp; villages")
                .contains("<a href=\"https://creativecommons.org/licenses/by/4.0/\" rel=\"noopener\">CC BY 4.0</a>")
                .contains("Gazetteer")
                .contains("<span id=\"version-count\">3</span> versions (2 in retention), 2 refs")
                .contains("tag: first").contains("HEAD &rarr; main")
                .contains("href=\"site/versions/" + towns.third + ".html\"")
                .contains("href=\"site/log/1.html\"");
        // only http(s) targets become links
        assertThat(index).doesNotContain("href=\"javascript:").contains("Evil link");
        // the table of the latest version, with the rows commit filled in
        assertThat(index).contains("<td>towns</td><td class=\"num\">4</td>");
    }

    @Test
    void aVersionPageListsTablesColumnsRowsAndAttachStatementsForItsOwnUrl() {
        Map<String, byte[]> pages = render(towns.root);
        String v = page(pages, "site/versions/" + towns.third + ".html");
        assertThat(v).contains("<span class=\"id\" id=\"version-id\">" + towns.third + "</span>")
                .contains("data-rows=\"4\"").contains("<td>name</td><td>string</td><td><code>VARCHAR</code></td><td>Town name</td>")
                .contains("<td>population</td>")
                .contains("data-root-rel=\"../../\"")
                .contains("ducklake:" + Site.ROOT_PLACEHOLDER + "versions/" + towns.third + "/ducklake.duckdb")
                .contains("href=\"../../index.html\"")
                .contains("Bob &lt;bob@example.org&gt;");
        String first = page(pages, "site/versions/" + towns.first + ".html");
        assertThat(first).contains("tag: first").contains("data-rows=\"2\"");
        // the publisher's folder never appears in a page: it would be published with the site
        String folder = towns.root.toAbsolutePath().toString();
        for (Map.Entry<String, byte[]> e : pages.entrySet())
            assertThat(new String(e.getValue(), java.nio.charset.StandardCharsets.UTF_8)).as(e.getKey()).doesNotContain(folder);
    }

    @Test
    void versionPagesShowTheirChangeOverTheParentWhenGivenTheCatalogs() {
        Map<String, byte[]> pages;
        try (ObjectStore store = new LocalStore(towns.root)) {
            pages = Site.render(Repository.open(store), SiteOptions.defaults(), dev.fdl.cache.CatalogCache.fromEnvironment(), dev.fdl.ducklake.engine.DuckDbPool.shared());
        }
        assertThat(page(pages, "site/versions/" + towns.first + ".html")).contains("<h2>Changes over an empty catalog</h2>")
                .contains("<tr><td>main.towns</td><td class=\"num\">+2</td><td class=\"num\">-0</td><td class=\"num\">2</td></tr>");
        // the parent expired: its rows are unknown, so removed is "?" (replace wrote every row again)
        assertThat(page(pages, "site/versions/" + towns.third + ".html"))
                .contains("<tr><td>main.towns</td><td class=\"num\">+4</td><td class=\"num\">?</td><td class=\"num\">4</td></tr>");
        assertThat(page(pages, "site/versions/" + towns.second + ".html")).doesNotContain("id=\"stat\"");
        assertThat(page(render(towns.root), "site/versions/" + towns.first + ".html")).doesNotContain("id=\"stat\"");
    }

    @Test
    void anExpiredVersionPageSaysWhenAndOffersNoAttach() {
        String v = page(render(towns.root), "site/versions/" + towns.second + ".html");
        assertThat(v).contains("id=\"expired\">This version expired on ").doesNotContain("<pre class=\"attach\"");
        // the message's markup is text, never markup
        assertThat(v).contains("second &lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert(1)");
        String log = page(render(towns.root), "site/log/1.html");
        assertThat(log).contains("<span class=\"expired\">expired</span>");
        assertThat(log.split("<tr class=\"version\">", -1)).hasSize(4);
    }

    @Test
    void aRerunWritesOnlyChangedPagesAndRemovesStaleOnes(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        try (ObjectStore store = new LocalStore(root)) {
            Repository repo = Repository.open(store);
            Site.SiteResult first = Site.write(repo, new SiteOptions("site/", "index.html", 1));
            assertThat(first.written()).isEqualTo(first.pages()).isEqualTo(1 + 3 + 3);
            assertThat(Site.write(repo, new SiteOptions("site/", "index.html", 1)).written()).isZero();
            // a page deleted by hand is written again, the others are left alone
            Files.delete(root.resolve("site/log/2.html"));
            assertThat(Site.write(repo, new SiteOptions("site/", "index.html", 1)).written()).isEqualTo(1);
            // pages are written without a flush to disk: one left empty by a power loss (its size
            // is not the page's) is written again although the manifest names its content
            Path emptied = root.resolve("site/log/1.html");
            String content = Files.readString(emptied);
            Files.write(emptied, new byte[0]);
            assertThat(Site.write(repo, new SiteOptions("site/", "index.html", 1)).written()).isEqualTo(1);
            assertThat(emptied).hasContent(content);
            // fewer log pages: the third is removed; the index and the remaining log pages change
            Files.writeString(root.resolve("site/notes.txt"), "mine");
            Site.SiteResult fewer = Site.write(repo, new SiteOptions("site/", "index.html", 2));
            assertThat(fewer.removed()).isEqualTo(1);
            assertThat(root.resolve("site/log/3.html")).doesNotExist();
            assertThat(root.resolve("site/log/2.html")).exists();
            assertThat(root.resolve("site/notes.txt")).exists(); // never a file the site did not write
        }
    }

    @Test
    void aRerunRendersAgainOnlyTheVersionPagesWhoseInputsChanged(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        try (CountingStore store = new CountingStore(new LocalStore(root))) {
            Repository repo = Repository.open(store);
            String datasetFile = repo.readVersion(towns.first).orElseThrow().dataset().path();
            Site.write(repo, SiteOptions.defaults());
            store.reset();
            assertThat(Site.write(repo, SiteOptions.defaults()).written()).isZero();
            // no version page was rendered: only the index's version (HEAD's tip) had its dataset.json read
            assertThat(datasetReads(store, datasetFile)).containsExactly(towns.third);

            // a tag at the first version: its page (and the index and log) is rendered and written again
            assertThat(repo.updateRef(RefValue.Kind.TAG, new RefName("kept")).create(towns.first).result())
                    .isEqualTo(RefUpdate.Result.CREATED);
            store.reset();
            assertThat(Site.write(repo, SiteOptions.defaults()).written()).isEqualTo(3); // index.html, site/log/1.html, its page
            assertThat(datasetReads(store, datasetFile)).containsExactlyInAnyOrder(towns.first, towns.third);
            assertThat(Files.readString(root.resolve("site/versions/" + towns.first + ".html"))).contains("tag: kept");

            // the first version expires: its page is rendered and written again, and so is its child's
            // (whose change over the parent depends on the parent's expiry; without catalogs it came out the same)
            store.putIfAbsent(RepoLayout.expiredJson(towns.first), new ExpiredInfo(Instant.parse("2026-12-01T00:00:00Z"), "retention", Map.of()).toBytes());
            store.reset();
            Site.SiteResult r = Site.write(repo, SiteOptions.defaults());
            assertThat(r.written()).isEqualTo(3);
            assertThat(datasetReads(store, datasetFile)).containsExactlyInAnyOrder(towns.first, towns.second, towns.third);
            assertThat(Files.readString(root.resolve("site/versions/" + towns.first + ".html"))).contains("id=\"expired\"");

            // the manifest records what each version page was made of; one damaged is a full rewrite
            Files.writeString(root.resolve("site/manifest.json"), "{");
            assertThat(Site.write(repo, SiteOptions.defaults()).written()).isEqualTo(r.pages());
        }
    }

    /** The versions whose dataset.json the store was asked for. */
    private static java.util.List<String> datasetReads(CountingStore store, String datasetFile) {
        return store.contentReads.stream().filter(k -> k.endsWith("/" + datasetFile)).map(k -> k.split("/")[1]).toList();
    }

    @Test
    void theSiteNeverWritesIntoTheRepositorysOwnKeys(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        String[] owned = {"HEAD", "fdl.json", "refs/heads/main", "refs/tags/first", "versions/" + towns.third + "/version.json",
                "data/x.html", ".fdl-lock", "HEAD/x.html", "site/manifest.json", "site/index.html"};
        Map<String, byte[]> before = new java.util.HashMap<>();
        for (String k : new String[] {"HEAD", "fdl.json", "refs/heads/main", "refs/tags/first", "versions/" + towns.third + "/version.json"})
            before.put(k, Files.readAllBytes(root.resolve(k)));
        for (String key : owned) {
            Cli.Result r = Cli.in(dir, "site", "--repo", root.toString(), "--index", key, "--auto", "true");
            assertThat(r.exit()).as(key + ": " + r).isEqualTo(2);
            assertThat(r.err()).as(key).contains("'" + key + "'");
        }
        for (String prefix : new String[] {"refs/", "versions/", "data/", "HEAD/", ".fdl-x/"}) {
            Cli.Result r = Cli.in(dir, "site", "--repo", root.toString(), "--out", prefix);
            assertThat(r.exit()).as(prefix + ": " + r).isEqualTo(2);
        }
        before.forEach((k, bytes) -> assertThat(root.resolve(k)).as(k).hasBinaryContent(bytes));
        assertThat(root.resolve("site")).doesNotExist();
        // a repository whose data folder is not data/ (fdl.json data_dir): its folder is refused too
        String cfg = Files.readString(root.resolve("fdl.json"));
        Files.writeString(root.resolve("fdl.json"), cfg.replace("\"data_dir\" : \"data/\"", "\"data_dir\" : \"parquet/\""));
        assertThat(RepoConfig.parse(Files.readAllBytes(root.resolve("fdl.json"))).dataDir()).isEqualTo("parquet/");
        Cli.Result r = Cli.in(dir, "site", "--repo", root.toString(), "--out", "parquet/site/");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        Cli.ok(dir, "site", "--repo", root.toString());
    }

    @Test
    void gcKeepsTheSiteAndVerifyIgnoresIt(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        Cli.ok(dir, "site", "--repo", root.toString());
        Cli.ok(dir, "gc", "--repo", root.toString(), "--grace", "0s");
        assertThat(root.resolve("index.html")).exists();
        assertThat(root.resolve("site/versions/" + towns.third + ".html")).exists();
        assertThat(root.resolve("site/manifest.json")).exists();
        Cli.ok(dir, "verify", "--repo", root.toString());
    }

    @Test
    void noStatLeavesOutTheChangeOverTheParentAndAPlainRunAddsItBack(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        Path first = root.resolve("site/versions/" + towns.first + ".html");
        Cli.ok(dir, "site", "--repo", root.toString(), "--no-stat");
        assertThat(Files.readString(first)).doesNotContain("id=\"stat\"").contains("data-table=\"towns\"");
        // whether the change is shown is one of a page's inputs: the plain run renders the pages again
        Cli.ok(dir, "site", "--repo", root.toString());
        assertThat(Files.readString(first)).contains("<h2>Changes over an empty catalog</h2>");
    }

    @Test
    void theSettingKeepsUnknownKeysAndAConcurrentChangeOfFdlJsonIsNotLost(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        String cfg = Files.readString(root.resolve("fdl.json"));
        Files.writeString(root.resolve("fdl.json"), cfg.replaceFirst("\\{", "{\"publisher_note\": {\"x\": 1},"));
        Cli.Result r = Cli.ok(dir, "site", "--repo", root.toString(), "--auto", "true", "--out", "www/");
        assertThat(r.out()).contains("every fdl commit now regenerates the site");
        RepoConfig c = RepoConfig.parse(Files.readAllBytes(root.resolve("fdl.json")));
        assertThat(c.extra()).containsKey("publisher_note");
        assertThat(Site.autoUpdate(c)).isTrue();
        assertThat(SiteOptions.of(c).prefix()).isEqualTo("www/");
        assertThat(root.resolve("www/log/1.html")).exists();

        // someone else changes fdl.json between our read and our write: precondition failed, exit 3
        byte[] before = Files.readAllBytes(root.resolve("fdl.json"));
        LocalStore local = new LocalStore(root);
        ObjectStore racing = new dev.fdl.store.ForwardingStore(local) {
            @Override
            public WriteResult putIfMatch(String key, Payload body, String etag) {
                local.put(key, (new String(before, StandardCharsets.UTF_8).replace("\"x\" : 1", "\"x\" : 2")).getBytes(StandardCharsets.UTF_8));
                return super.putIfMatch(key, body, etag);
            }
        };
        assertThatThrownBy(() -> Site.saveSetting(Repository.open(racing), false, SiteOptions.defaults()))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.CONFLICT));
        assertThat(Files.readString(root.resolve("fdl.json"))).contains("\"x\" : 2").contains("\"auto\" : true");
    }

    @Test
    void commitRegeneratesTheSiteWhenAskedOrConfigured(@TempDir Path dir) throws IOException {
        Path root = copy(towns.root, dir.resolve("repo"));
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Path csv = dir.resolve("more.csv");
        Files.writeString(csv, "name,population\nGouda,75000\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "towns", "--mode", "append");
        Cli.Result c = Cli.ok(wc, "commit", "-m", "fourth", "--site");
        assertThat(c.out()).contains(" site: ");
        assertThat(Files.readString(root.resolve("index.html"))).contains("<span id=\"version-count\">4</span>");
        // the version page shows what the version changed over its (live) parent, from the catalogs: Gouda added
        String fourth = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "show", "--json").out()).get("id").asText();
        assertThat(Files.readString(root.resolve("site/versions/" + fourth + ".html"))).contains("<h2>Changes over its parent</h2>")
                .contains("<tr><td>main.towns</td><td class=\"num\">+1</td><td class=\"num\">-0</td><td class=\"num\">5</td></tr>");
        Cli.ok(dir, "site", "--repo", root.toString(), "--auto", "true");
        Cli.ok(wc, "import", csv.toString(), "--table", "towns", "--mode", "append");
        Cli.ok(wc, "commit", "-m", "fifth");
        assertThat(Files.readString(root.resolve("index.html"))).contains("<span id=\"version-count\">5</span>");
    }

    @Test
    void badOptionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> new SiteOptions("versions/", "index.html", 10)).hasMessageContaining("versions/");
        assertThatThrownBy(() -> new SiteOptions("../x/", "index.html", 10)).hasMessageContaining("../x/");
        assertThatThrownBy(() -> new SiteOptions("site", "index.html", 10)).hasMessageContaining("ending in '/'");
        Cli.Result r = Cli.run("site", "--repo", towns.root.toString(), "--out", "data/");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("data/");
    }

    static Path copy(Path from, Path to) throws IOException {
        try (var walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
        return to;
    }
}
