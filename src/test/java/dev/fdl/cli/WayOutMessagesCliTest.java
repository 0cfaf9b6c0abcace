package dev.fdl.cli;

import dev.fdl.store.FolderHttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Mistakes whose message and exit code say what happened in fdl's words and the way out: a folder imported, a negative snapshot, verify over HTTP, a moved branch, files gc deleted. */
class WayOutMessagesCliTest {
    @TempDir Path dir;

    private Path repo() {
        Path root = dir.resolve("repo");
        if (!Files.exists(root)) Cli.ok(dir, "init", root.toString());
        return root;
    }

    private Path workingCopy(String name) throws Exception {
        Path wc = Files.createDirectories(dir.resolve(name));
        Cli.ok(wc, "checkout", "--repo", repo().toString());
        return wc;
    }

    private Path csv(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void importOfAnEmptyFolderSaysItHoldsNoFile() throws Exception {
        Path wc = workingCopy("wc");
        Path folder = Files.createDirectories(dir.resolve("months"));
        Cli.Result r = Cli.in(wc, "import", folder.toString(), "-t", "x");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("cannot import " + folder + ": the folder holds no file to load").doesNotContain("unknown format");
        assertThat(Cli.in(wc, "import", folder.toString(), "-t", "x", "--format", "csv").err()).contains("the folder holds no file to load");
    }

    @Test
    void aNegativeSnapshotIsAUsageError() {
        Cli.Result r = Cli.in(dir, "query", "--repo", repo().toString(), "--snapshot", "-1", "select 1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("invalid --snapshot -1");
    }

    @Test
    void verifyOverHttpSaysItNeedsAListableRoot() throws Exception {
        Path root = repo();
        try (FolderHttpServer http = new FolderHttpServer(root, "/")) {
            Cli.Result r = Cli.in(dir, "verify", "--repo", http.root().toString());
            assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
            assertThat(r.err()).contains("fdl verify needs a root it can list", "folder or s3:// root").doesNotContain("full version ids");
        }
    }

    @Test
    void statusAfterTheBranchMovedWithNothingPendingSuggestsPlainCheckout() throws Exception {
        Path behind = workingCopy("behind");
        Path ahead = workingCopy("ahead");
        Cli.ok(ahead, "import", csv("t.csv", "id\n1\n").toString(), "-t", "t");
        Cli.ok(ahead, "commit", "-m", "one");

        String status = Cli.ok(behind, "status").out();
        assertThat(status).contains("nothing to commit here, so move to it with: fdl checkout main").doesNotContain("checkout -b", "--force");
        Cli.ok(behind, "checkout", "main");
        assertThat(Cli.ok(behind, "status").out()).doesNotContain("moved");

        Cli.ok(behind, "import", csv("u.csv", "id\n2\n").toString(), "-t", "u"); // now there is something to keep
        Cli.ok(ahead, "import", csv("v.csv", "id\n3\n").toString(), "-t", "v");
        Cli.ok(ahead, "commit", "-m", "two");
        assertThat(Cli.ok(behind, "status").out()).contains("checkout -b <new-branch>", "--force main").doesNotContain("nothing to commit here");
    }

    @Test
    void commitAfterGcDeletedAnUncommittedImportsFilesNamesTheWayOut() throws Exception {
        Path wc = workingCopy("wc");
        Cli.ok(wc, "import", csv("t.csv", "id\n1\n").toString(), "-t", "t");
        Cli.ok(dir, "gc", "--repo", repo().toString(), "--grace", "0s", "--cache-dir", dir.resolve("cache").toString());
        Cli.Result r = Cli.in(wc, "commit", "-m", "lost");
        assertThat(r.exit()).as(r.toString()).isNotZero();
        assertThat(r.err()).contains("If fdl gc deleted them", "fdl checkout --force main", "import again");
    }
}
