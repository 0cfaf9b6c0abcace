package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One exit code per situation, whichever command meets it (docs/cli.md, exit codes): a command run
 * outside a working copy, be it one that needs a working copy or one that needs a repository, is a
 * usage error (2) saying what to do; an input file that does not exist is not found (4), named,
 * and nothing is imported.
 */
class ExitCodesCliTest {
    @TempDir Path dir;

    @Test
    void outsideAWorkingCopyEveryCommandExitsWithTheUsageCode() throws IOException {
        Path nowhere = Files.createDirectories(dir.resolve("nowhere"));
        String[][] commands = {{"status"}, {"log"}, {"refs"}, {"diff"}, {"import", "a.csv", "--table", "t"}, {"commit", "-m", "x"},
                {"merge", "main"}, {"query", "--working", "SELECT 1"}, {"check", "--working"}};
        for (String[] args : commands) {
            Cli.Result r = Cli.in(nowhere, args);
            assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", args)).containsAnyOf("not inside a working copy", "no repository given")
                    .containsAnyOf("fdl checkout --repo", "--repo <root>");
            assertThat(r.out()).as(String.join(" ", args)).isEmpty();
        }
    }

    @Test
    void aMissingInputFileIsNotFoundNamedAndNothingIsImported() throws IOException {
        Path wc = Cli.newWorkingCopy(dir);
        Path missing = wc.resolve("missing.csv");
        for (String mode : new String[]{"create", "append", "sync"}) {
            Cli.Result r = Cli.in(wc, "import", "missing.csv", "--table", "t", "--mode", mode);
            assertThat(r.exit()).as(mode + "\n" + r).isEqualTo(4);
            assertThat(r.err()).as(mode).contains("cannot import " + missing + ": no such file");
        }
        Cli.Result glob = Cli.in(wc, "import", "parts/*.csv", "--table", "t");
        assertThat(glob.exit()).as(glob.toString()).isEqualTo(4);
        assertThat(glob.err()).contains("parts/*.csv").contains("no file matches it");
        Cli.Result added = Cli.in(wc, "add-files", "jobs/part-0.parquet", "--table", "t", "--create");
        assertThat(added.exit()).as(added.toString()).isEqualTo(4);
        assertThat(added.err()).contains("jobs/part-0.parquet");
        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit");

        // a file that is there but not a regular file stays a failure of the input
        Files.createDirectories(wc.resolve("empty-folder"));
        Cli.Result folder = Cli.in(wc, "import", "empty-folder", "--table", "t");
        assertThat(folder.exit()).as(folder.toString()).isEqualTo(1);
        assertThat(folder.err()).contains("empty-folder").contains("holds no file");
    }
}
