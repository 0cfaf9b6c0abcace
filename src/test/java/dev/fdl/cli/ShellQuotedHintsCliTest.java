package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The commands fdl suggests quote a user's path or ref name for a POSIX shell: pasted as printed, each runs. */
class ShellQuotedHintsCliTest {
    @TempDir Path dir;

    @Test
    void aRootWithASpaceIsQuotedInTheInitHint() throws Exception {
        Path root = Files.createDirectories(dir.resolve("my repo"));
        Cli.Result r = Cli.in(dir, "log", "--repo", root.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(r.err()).contains("create one with: fdl init '" + root + "/'");
        Pasted.paste(dir, Pasted.printed(r.err(), "create one with: (fdl init .*)$"));
        Cli.ok(dir, "branch", "--repo", root.toString());
    }

    @Test
    void aRefNameWithQuotesAndDollarsIsQuotedInTheNewBranchHint() throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        Cli.ok(wc, "checkout", "--repo", dir.resolve("repo").toString());
        Cli.Result r = Cli.in(wc, "checkout", "it's$new");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(r.err()).contains("to start a new branch: fdl checkout -b 'it'\\''s$new'");
        Pasted.paste(wc, Pasted.printed(r.err(), "to start a new branch: (fdl checkout -b .*)$"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch it's$new");
    }

    @Test
    void aTagThatExistsIsQuotedInTheDeleteHint() throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        Cli.ok(wc, "checkout", "--repo", dir.resolve("repo").toString());
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n").toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "tag", "v$1");
        Cli.Result r = Cli.in(wc, "tag", "v$1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(3);
        assertThat(r.err()).contains("delete it with fdl tag -d 'v$1'");
        Pasted.paste(wc, Pasted.printed(r.err(), "delete it with (fdl tag -d \\S+)"));
        assertThat(Cli.ok(wc, "tag").out()).doesNotContain("v$1");
    }
}
