package dev.fdl.cli;

import dev.fdl.store.FolderHttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Messages in fdl's words with what to do: init on a file, a missing repository over HTTP, a damaged state file. */
class FdlWordsMessagesCliTest {
    @TempDir Path dir;

    /** A working copy of a new repository at {@code root} with one version: table t, one row. */
    private Path committedWorkingCopy(Path root) throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n").toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "one");
        return wc;
    }

    @Test
    void initOnAFileSaysItIsAFile() throws Exception {
        Files.writeString(dir.resolve("a.csv"), "id\n1\n");
        Cli.Result r = Cli.in(dir, "init", "a.csv");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("cannot init a.csv: it is a file, not a folder").doesNotContain("store error");
    }

    @Test
    void initOnAFileUrlNamingAFileSaysItIsAFile() throws Exception {
        Path csv = Files.writeString(dir.resolve("a.csv"), "id\n1\n");
        String url = csv.toUri().toString();
        Cli.Result r = Cli.in(dir, "init", url);
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("cannot init " + url + ": it is a file, not a folder").doesNotContain("store error");
        assertThat(csv).hasContent("id\n1\n");
    }

    @Test
    void noRepositoryOverHttpDoesNotSuggestInitThere() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        try (FolderHttpServer http = new FolderHttpServer(empty, "/")) {
            Cli.Result r = Cli.in(dir, "log", "--repo", http.root().toString());
            assertThat(r.exit()).as(r.toString()).isEqualTo(4);
            assertThat(r.err()).contains("no fdl repository at").contains("read-only").doesNotContain("fdl init");
        }
        assertThat(Cli.in(dir, "log", "--repo", empty.toString()).err()).contains("create one with: fdl init");
    }

    @Test
    void aDamagedStateFileIsTheWorkingCopysAndSaysHowToRecover() throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        Cli.ok(wc, "checkout", "--repo", dir.resolve("repo").toString());
        Files.writeString(wc.resolve(".fdl/state.json"), "{\"root\": 5");
        Cli.Result r = Cli.in(wc, "status");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("the working copy's state file").contains("fdl checkout --force --repo <root>")
                .doesNotContain("corrupt repository file").doesNotContain("fdl verify");
    }

    @Test
    void checkoutForceWithRepoStartsADamagedWorkingCopyOverKeepingTheOldFilesAside() throws Exception {
        Path root = dir.resolve("repo"), wc = committedWorkingCopy(root);
        Files.writeString(wc.resolve("notes.txt"), "mine");
        Files.writeString(wc.resolve(".fdl/state.json"), "{\"root\": 5");
        assertThat(Cli.in(wc, "status").err()).contains("fdl checkout --force --repo <root>");
        assertThat(Cli.in(wc, "checkout", "--force").exit()).isEqualTo(1); // without --repo the root is unknown: still the message
        assertThat(Cli.in(wc, "checkout", "--force", "--repo", dir.resolve("nosuch").toString()).exit()).isEqualTo(4);
        assertThat(wc.resolve(".fdl/state.json")).hasContent("{\"root\": 5"); // nothing moved for a wrong --repo
        assertThat(Cli.in(wc, "checkout", "--force", "--repo", root.toString(), "nosuch").exit()).isEqualTo(4);
        assertThat(wc.resolve(".fdl/state.json")).hasContent("{\"root\": 5"); // nor for a ref that does not resolve

        Cli.Result r = Cli.in(wc, "checkout", "--force", "--repo", root.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).contains("warning: the working copy's state file was damaged");
        assertThat(Cli.ok(wc, "status").out()).contains("On branch main");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n1\n");
        assertThat(wc.resolve("notes.txt")).hasContent("mine");
        Path aside;
        try (var s = Files.list(wc.resolve(".fdl"))) {
            aside = s.filter(p -> p.getFileName().toString().startsWith("damaged-")).findFirst().orElseThrow();
        }
        assertThat(aside.resolve("state.json")).hasContent("{\"root\": 5");
        try (var s = Files.list(aside)) {
            assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.matches("catalog-.*\\.sqlite"));
        }
    }

    @Test
    void anUnknownTableAndAMissingDataFileAreSaidInFdlsWords() throws Exception {
        Path root = dir.resolve("repo"), wc = committedWorkingCopy(root);
        Cli.Result table = Cli.in(wc, "query", "SELECT * FROM nosuch");
        assertThat(table.exit()).isEqualTo(1);
        assertThat(table.err()).contains("no table named 'nosuch'").contains("the tables are: main.t").doesNotContain("Catalog Error");

        Path data;
        try (var files = Files.walk(root.resolve("data"))) {
            data = files.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        Files.delete(data);
        Cli.Result missing = Cli.in(wc, "query", "SELECT * FROM t");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("data file " + data + " is missing").contains("fdl verify").doesNotContain("IO Error");
    }

    @Test
    void anAmbiguousVersionPrefixIsAUsageErrorNamingTheCandidates() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path csv = dir.resolve("t.csv");
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Files.writeString(csv, "id\n" + i + "\n");
            Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", i == 0 ? "create" : "append");
            Cli.ok(wc, "commit", "-m", "m" + i);
        }
        try (var s = Files.list(root.resolve("versions"))) {
            s.forEach(p -> ids.add(p.getFileName().toString()));
        }
        String prefix = ids.get(0).substring(0, 4); // UUIDv7 ids made a moment apart share their first characters
        Cli.Result r = Cli.in(wc, "show", prefix);
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("ambiguous").contains(ids.get(0)).contains(ids.get(1));
    }

    @Test
    void checkingOutTheBranchTheWorkingCopyIsOnSaysAlreadyOn() throws Exception {
        Path root = dir.resolve("repo"), wc = committedWorkingCopy(root);
        Cli.ok(wc, "branch", "dev");
        assertThat(Cli.ok(wc, "checkout", "main").out()).startsWith("Already on 'main' at version ");
        assertThat(Cli.ok(wc, "checkout", "dev").out()).startsWith("Switched working copy ");
    }

    @Test
    void sqlStartingWithACommentIsReadAsAnOptionAndTheMessageSaysToPutDashDashBeforeIt() throws Exception {
        Path wc = committedWorkingCopy(dir.resolve("repo"));
        String sql = "-- monthly report\nSELECT count(*) AS n FROM t";
        Cli.Result r = Cli.in(wc, "query", sql);
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("'-- monthly report…' starts with --, so it was read as an option; put -- before it");
        assertThat(Cli.ok(wc, "query", "--", sql).out()).contains("1");
        assertThat(Cli.in(wc, "query", "--bogus").err()).doesNotContain("put -- before it");
        assertThat(Cli.in(wc, "commit", "--mesage=fix the typo").err()).doesNotContain("put -- before it");
    }
}
