package dev.fdl.cli;

import dev.fdl.serve.RepoServer;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.fdl.cli.Pasted.paste;
import static dev.fdl.cli.Pasted.printed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the site, Iceberg and serve messages send the user to, pasted as printed: the site write a
 * failed automatic update and a read-only root ask for, the Iceberg metadata a version lacks and
 * the history a ref change could not write, and the attach serve offers to its readers.
 */
class SiteIcebergServeHintsCliTest {
    @TempDir Path dir;

    private Path wc;
    private Path root;

    private void repositoryWithOneVersion() throws IOException {
        wc = Cli.newWorkingCopy(dir);
        root = dir.resolve("repo");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n2\n").toString(), "-t", "t");
    }

    private static String commit(Path wc, String message) throws IOException {
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", message, "--json").out()).get("id").asText();
    }

    /**
     * A commit whose automatic site update failed (index.html in the way) says to run site; so does
     * site on an HTTP(S) root: pasted where the repository lives, each writes the site.
     */
    @Test
    void siteHints() throws Exception {
        repositoryWithOneVersion();
        Cli.ok(wc, "site", "--auto", "true", "--no-stat");
        Path index = root.resolve("index.html");
        Files.delete(index);
        Files.writeString(Files.createDirectories(index).resolve("in the way"), "x");
        Cli.Result committed = Cli.ok(wc, "commit", "-m", "first one");
        String site = printed(committed.err(), "but the site could not be written \\(.*\\); run (fdl site)$");
        Files.delete(index.resolve("in the way"));
        Files.delete(index);
        paste(wc, site);
        assertThat(Files.readString(index)).contains("first one");

        try (LocalStore store = new LocalStore(root); RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            Files.delete(index);
            Cli.Result readOnly = Cli.in(wc, "site", "--repo", server.url().toString());
            assertThat(readOnly.exit()).as(readOnly.toString()).isEqualTo(ExitCodes.FAILURE);
            paste(wc, printed(readOnly.err(), "run (fdl site) where the repository lives"));
            assertThat(Files.readString(index)).contains("first one");
        }
    }

    /**
     * serve's line for readers, and the attach its --help offers (at the URL serve printed), pasted
     * with a ref in a folder outside any working copy: each reads the version's catalog from the
     * server, which serves the repository's bytes.
     */
    @Test
    void serveAttachHint() throws Exception {
        repositoryWithOneVersion();
        String id = commit(wc, "one");
        try (LocalStore store = new LocalStore(root); RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            String attach = printed(ServeCommand.attachHint(server.url()), "Attach a version: (fdl attach <ref> --repo \\S+)$");
            String sql = paste(dir, attach.replace("<ref>", "main"));
            // serve --help's description as written (the printed help wraps it, breaking URLs at their colon)
            String help = String.join("\n", Main.commandLine().getSubcommands().get("serve").getCommandSpec().usageMessage().description());
            String helped = printed(help, "(fdl attach <ref> .*?http://127\\.0\\.0\\.1:8321/)");
            assertThat(paste(dir, helped.replace("<ref>", "main").replace("http://127.0.0.1:8321/", server.url().toString()))).isEqualTo(sql);
            String catalogUrl = printed(sql, "ATTACH 'ducklake:(http://[^']+)'");
            assertThat(catalogUrl).startsWith(server.url().toString()).endsWith(id + "/ducklake.duckdb");
            HttpResponse<byte[]> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(catalogUrl)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo(Files.readAllBytes(root.resolve("versions").resolve(id).resolve("ducklake.duckdb")));
            // the REST catalog line: the uri it names answers the Iceberg REST protocol's config request
            String uri = printed(ServeCommand.restCatalogHint(server.url()), "--conf spark\\.sql\\.catalog\\.fdl\\.uri=(\\S+)$");
            HttpResponse<String> config = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(uri + "v1/config")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(config.statusCode()).as(config.body()).isEqualTo(200);
            assertThat(config.body()).contains("\"defaults\"");
        }
    }

    /** The Iceberg metadata files of version {@code id} (its tables' metadata JSON). */
    private List<Path> icebergFiles(String id) throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("versions").resolve(id))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".metadata.json")).toList();
        }
    }

    /**
     * attach --iceberg of a version without Iceberg metadata offers the iceberg that writes it and
     * the --enable that has each commit write it; a tag whose history rewrite failed on a damaged
     * metadata file of a version offers the iceberg that writes that version's again once deleted,
     * and one that failed writing the history's own file the iceberg that writes it again.
     */
    @Test
    void icebergHints() throws Exception {
        repositoryWithOneVersion();
        String one = commit(wc, "one");
        Cli.Result none = Cli.in(wc, "attach", one, "--iceberg");
        assertThat(none.exit()).as(none.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        paste(wc, printed(none.err(), "write it with (fdl iceberg \\S+),"));
        assertThat(Cli.ok(wc, "attach", one, "--iceberg").out()).contains("iceberg_scan");
        paste(wc, printed(none.err(), "have every commit write it with (fdl iceberg --enable)$"));
        Cli.ok(wc, "import", Files.writeString(dir.resolve("u.csv"), "id\n3\n").toString(), "-t", "u");
        String two = commit(wc, "two");
        assertThat(icebergFiles(two)).isNotEmpty();

        // a version's metadata damaged: the warning names the iceberg that writes it again once deleted
        List<Path> damaged = icebergFiles(two);
        for (Path f : damaged) Files.writeString(f, "{\"not\": \"iceberg\"}");
        deleteTree(root.resolve("iceberg")); // no history to add the tag to: the rebuild reads every version's metadata
        Cli.Result tagged = Cli.ok(wc, "tag", "second");
        String again = printed(tagged.err(), "(?m)the Iceberg history could not be written \\(.*; delete it, then write it again with (fdl iceberg \\S+)\\)$");
        assertThat(tagged.err()).doesNotContain("run fdl iceberg");
        for (Path f : damaged) Files.delete(f);
        String written = paste(wc, again);
        assertThat(Files.readString(damaged.get(0))).contains("\"format-version\"");
        assertThat(written).contains("Iceberg history: 2 table(s)");

        // the history's own file could not be written (a folder in its way): once it can, iceberg writes it
        Path history;
        try (Stream<Path> files = Files.walk(root)) {
            history = files.filter(f -> !f.startsWith(root.resolve("versions")) && f.toString().endsWith("/t/metadata/" + f.getFileName())
                    && f.getFileName().toString().endsWith(".metadata.json")).findFirst().orElseThrow();
        }
        Files.delete(history);
        Files.writeString(Files.createDirectories(history).resolve("in the way"), "x");
        String hint = printed(Cli.ok(wc, "tag", "third").err(), "(?m)could not be written \\(.*\\); run (fdl iceberg) to write it again$");
        Files.delete(history.resolve("in the way"));
        Files.delete(history);
        assertThat(paste(wc, hint)).contains("Iceberg history: 2 table(s)");
        assertThat(Files.readString(history)).contains("\"format-version\"").contains("third");
    }

    private static void deleteTree(Path top) throws Exception {
        try (Stream<Path> files = Files.walk(top)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
