package dev.fdl.store;

import dev.fdl.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Round trips of a reader over HTTP: compact catalogs (16 KiB DuckDB blocks) must not
 * cost a reader more GETs than the 256 KiB-block catalogs of fdl on DuckDB 1.5 did. The bars are
 * the numbers measured with that version on this same scenario (see docs/stores.md).
 */
class HttpReadRoundTripsTest {
    /** GETs of {@code fdl query --repo <http root> "SELECT count(*) …"} with an empty cache, measured on fdl with DuckDB 1.5.6. */
    static final int COLD_GETS_BEFORE = 9;
    /** The same query again (catalog cached). */
    static final int WARM_GETS_BEFORE = 7;

    @TempDir Path tmp;

    @Test
    void countOnAVersionOverHttpNeedsNoMoreGetsThanBefore() throws Exception {
        Path root = tmp.resolve("repo");
        Path wc = tmp.resolve("wc");
        Files.createDirectories(wc);
        Path month = tmp.resolve("m.csv.gz");
        try (InputStream in = getClass().getResourceAsStream("/demo/world-cities/world-cities-2024-10-04.csv.gz")) {
            Files.copy(in, month);
        }
        Cli.ok(tmp, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", month.toString(), "--table", "cities");
        Cli.ok(wc, "commit", "-m", "October");

        try (FolderHttpServer server = new FolderHttpServer(root, "/mirror/")) {
            int start = server.gets.get();
            assertThat(Cli.ok(tmp, "query", "--repo", server.root().toString(), "SELECT count(*) FROM cities").out()).contains("28500");
            int cold = server.gets.get() - start;
            assertThat(Cli.ok(tmp, "query", "--repo", server.root().toString(), "SELECT count(*) FROM cities").out()).contains("28500");
            int warm = server.gets.get() - start - cold;
            System.out.println("GETs for SELECT count(*) over HTTP: cold " + cold + ", warm " + warm);
            assertThat(cold).isLessThanOrEqualTo(COLD_GETS_BEFORE);
            assertThat(warm).isLessThanOrEqualTo(WARM_GETS_BEFORE);
        }
    }

    @Test
    void namingABranchCostsOnlyItsOwnReadsOverHttp() throws Exception {
        Path wc = Cli.newWorkingCopy(tmp), root = tmp.resolve("repo");
        Cli.ok(wc, "import", Files.writeString(tmp.resolve("t.csv"), "id\n1\n").toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "one");
        try (FolderHttpServer server = new FolderHttpServer(root, "/mirror/")) {
            String url = server.root().toString();
            int start = server.gets.get();
            Cli.ok(tmp, "show", "--repo", url);
            int head = server.gets.get() - start;
            Cli.ok(tmp, "show", "main", "--repo", url);
            int named = server.gets.get() - start - head;
            // HEAD, then refs/heads/main, against refs/tags/main (404: a tag is looked for first), then
            // refs/heads/main: the check for a ref named like a version-id prefix reads nothing for "main"
            assertThat(named).as("GETs naming main, against " + head + " for HEAD").isLessThanOrEqualTo(head);
        }
    }

    @Test
    void aQueryOverHttpFetchesOnlyTheDataFilesOfTheTablesItNames() throws Exception {
        Path wc = Cli.newWorkingCopy(tmp), root = tmp.resolve("repo");
        Cli.ok(wc, "import", Files.writeString(tmp.resolve("small.csv"), "id\n1\n2\n").toString(), "--table", "small");
        Cli.ok(wc, "import", Files.writeString(tmp.resolve("big.csv"), "id,v\n1,a\n2,b\n3,c\n").toString(), "--table", "big");
        Cli.ok(wc, "commit", "-m", "two tables");
        try (FolderHttpServer server = new FolderHttpServer(root, "/mirror/")) {
            String url = server.root().toString();
            assertThat(Cli.ok(tmp, "query", "--repo", url, "SELECT count(*) AS n FROM small").out()).contains("2");
            assertThat(server.getPaths).anyMatch(p -> p.contains("/data/main/small/")).noneMatch(p -> p.contains("/data/main/big/"));

            server.getPaths.clear();
            assertThat(Cli.ok(tmp, "query", "--repo", url, "SELECT 42 AS answer").out()).contains("42");
            assertThat(server.getPaths).noneMatch(p -> p.contains("/data/"));

            // a table function may read any table: every table's files, as before
            assertThat(Cli.ok(tmp, "query", "--repo", url, "SELECT count(*) AS n FROM query_table('big')").out()).contains("3");
            assertThat(server.getPaths).anyMatch(p -> p.contains("/data/main/big/"));
        }
    }
}
