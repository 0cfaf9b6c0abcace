package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command fdl prints for the user to run works when pasted as printed: each message is
 * triggered, its indented command lines taken from it, and run, a shell command through
 * {@code bash -c}, an {@code fdl …} command split into words by bash and run through fdl's Main.
 */
class PrintedCommandsCliTest {
    @TempDir Path dir;

    /** The lines of {@code message} indented by two spaces: the commands it offers, in order. */
    private static List<String> commands(String message) {
        return message.lines().filter(l -> l.startsWith("  ") && !l.isBlank()).map(String::trim).toList();
    }

    /** Runs {@code line} in {@code cwd} as the user would paste it: {@code fdl …} through Main, anything else through bash. */
    private static void paste(Path cwd, String line) throws IOException, InterruptedException {
        if (line.startsWith("fdl ")) {
            List<String> words = shellWords(cwd, line.substring(4));
            Cli.Result r = Cli.in(cwd, words.toArray(String[]::new));
            assertThat(r.exit()).as(line + "\n" + r).isZero();
            return;
        }
        Process p = new ProcessBuilder("bash", "-c", line).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(line + "\n" + out).isZero();
    }

    /** {@code text} split into words by bash itself (quotes and escapes as the user's shell reads them). */
    private static List<String> shellWords(Path cwd, String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + text).directory(cwd.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ArrayList<>(Arrays.asList(out.split("\0")));
    }

    private Path outsideParquet(String name) throws Exception {
        Path f = dir.resolve("files with space").resolve(name);
        java.nio.file.Files.createDirectories(f.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id FROM range(3)) TO '" + f.toString().replace("'", "''") + "' (FORMAT parquet, FIELD_IDS {id: 1})");
        }
        return f;
    }

    @Test
    void addFilesOfAFileOutsideTheDataFolder() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("one"));
        Path f = outsideParquet("it's.parquet");
        Cli.Result refused = Cli.in(wc, "add-files", f.toString(), "--table", "my t", "--create");
        assertThat(refused.exit()).isEqualTo(ExitCodes.FAILURE);
        List<String> printed = commands(refused.err());
        assertThat(printed).hasSize(3);
        assertThat(printed.get(0)).contains("mkdir -p").contains("cp ");
        assertThat(printed.get(1)).startsWith("fdl add-files").contains("'my t'");
        assertThat(printed.get(2)).startsWith("fdl import");
        paste(wc, printed.get(0));
        paste(wc, printed.get(1));
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM \"my t\"", "--csv").out()).isEqualTo("n\n3\n");
        // the other way out, in a working copy of its own
        Path other = Cli.newWorkingCopy(dir.resolve("two"));
        paste(other, printed.get(2));
        assertThat(Cli.ok(other, "query", "--working", "SELECT count(*) AS n FROM \"my t\"", "--csv").out()).isEqualTo("n\n3\n");
    }

    @Test
    void addFilesToAnExistingTable() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("one"));
        Path f = outsideParquet("more.parquet");
        Cli.ok(wc, "import", f.toString(), "-t", "t");
        List<String> printed = commands(Cli.in(wc, "add-files", f.toString(), "--table", "t").err());
        assertThat(printed).hasSize(3);
        paste(wc, printed.get(0));
        paste(wc, printed.get(1));
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n6\n");
        paste(wc, printed.get(2));
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n9\n");
    }

    /** The command {@code pattern}'s group 1 finds in {@code text}; fails naming the text when it is absent. */
    private static String printed(String text, String pattern) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(text);
        assertThat(m.find()).as("a command matching " + pattern + " in:\n" + text).isTrue();
        return m.group(1);
    }

    private Path csv(String name, String text) throws IOException {
        return java.nio.file.Files.writeString(dir.resolve(name), text);
    }

    /**
     * The ways out status and revert print, pasted as printed: the checkout that moves to a branch
     * that moved, the pull that merges it under the working copy's snapshots, the forced checkout
     * that starts again from the branch, and the commit that publishes a revert.
     */
    @Test
    void statusPullAndRevertHints() throws Exception {
        Path root = dir.resolve("repo");
        Cli.ok(dir, "init", root.toString());
        Path behind = java.nio.file.Files.createDirectories(dir.resolve("behind")), ahead = java.nio.file.Files.createDirectories(dir.resolve("ahead"));
        Cli.ok(behind, "checkout", "--repo", root.toString());
        Cli.ok(ahead, "checkout", "--repo", root.toString());
        Cli.ok(ahead, "import", csv("t.csv", "id\n1\n").toString(), "-t", "t");
        Cli.ok(ahead, "commit", "-m", "one");
        paste(behind, printed(Cli.ok(behind, "status").out(), "move to it with: (fdl checkout \\S+)"));
        assertThat(Cli.ok(behind, "status").out()).doesNotContain("moved");

        Cli.ok(behind, "import", csv("u.csv", "id\n2\n").toString(), "-t", "u");
        Cli.ok(ahead, "import", csv("v.csv", "id\n3\n").toString(), "-t", "v");
        Cli.ok(ahead, "commit", "-m", "two");
        paste(behind, printed(Cli.ok(behind, "status").out(), "(fdl pull) to merge"));
        assertThat(Cli.ok(behind, "query", "--working", "SELECT (SELECT count(*) FROM u) + (SELECT count(*) FROM v) AS n", "--csv").out())
                .isEqualTo("n\n2\n");

        Cli.ok(ahead, "import", csv("w.csv", "id\n4\n").toString(), "-t", "w");
        Cli.ok(ahead, "commit", "-m", "three");
        paste(behind, printed(Cli.ok(behind, "status").out(), "(fdl checkout --force \\S+) to start from it"));
        assertThat(Cli.ok(behind, "query", "--working", "SELECT count(*) AS n FROM w", "--csv").out()).isEqualTo("n\n1\n");
        assertThat(Cli.in(behind, "query", "--working", "SELECT count(*) AS n FROM u", "--csv").exit()).isNotZero();

        Cli.Result reverted = Cli.ok(behind, "revert", "HEAD");
        paste(behind, printed(reverted.out() + reverted.err(), "publish (?:it|them) with (fdl commit)\\b"));
        assertThat(Cli.in(behind, "query", "--working", "SELECT count(*) AS n FROM w", "--csv").exit()).isNotZero();
    }
}
