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

    /**
     * Runs {@code line} in {@code cwd} as the user would paste it: {@code fdl …} through Main, anything
     * else through bash; it must succeed. Returns what it printed (standard output, then error).
     */
    private static String paste(Path cwd, String line) throws IOException, InterruptedException {
        return paste(cwd, line, 0);
    }

    /** As {@link #paste(Path, String)}, exiting with {@code exit}. */
    private static String paste(Path cwd, String line, int exit) throws IOException, InterruptedException {
        if (line.startsWith("fdl ")) {
            List<String> words = shellWords(cwd, line.substring(4));
            Cli.Result r = Cli.in(cwd, words.toArray(String[]::new));
            assertThat(r.exit()).as(line + "\n" + r).isEqualTo(exit);
            return r.out() + r.err();
        }
        Process p = new ProcessBuilder("bash", "-c", line).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(line + "\n" + out).isEqualTo(exit);
        return out;
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

    private String rows(Path wc, String ref) {
        return ref == null ? Cli.ok(wc, "query", "--csv", "--working", "SELECT * FROM \"my t\" ORDER BY ALL").out()
                : Cli.ok(wc, "query", "--csv", ref, "SELECT * FROM \"my t\" ORDER BY ALL").out();
    }

    private void sync(Path wc, String name, String rows) throws IOException {
        Cli.ok(wc, "import", csv(name, rows).toString(), "-t", "my t", "--mode", "sync", "--key", "k");
    }

    /** A working copy of a new repository in {@code dir/name}, whose first version holds table {@code my t} (key {@code k}: 1, 2, 3). */
    private Path keyedWorkingCopy(String name) throws IOException {
        Path wc = Cli.newWorkingCopy(dir.resolve(name));
        sync(wc, "base.csv", "k,a\n1,10\n2,20\n3,30\n");
        Cli.ok(wc, "commit", "-m", "base");
        return wc;
    }

    private static final String OURS = "k,a\n1,10\n2,99\n3,31\n", THEIRS = "k,a\n1,10\n2,22\n3,31\n";

    /**
     * What merge prints on a conflict and after it merged, pasted as printed: each re-run that settles
     * the conflict (one side throughout, one side per table: key 2 changed on both sides), the abort
     * that undoes a merge, the abort and the commit a merge still pending asks for, and the commit
     * that publishes the merge with two parents.
     */
    @Test
    void mergeConflictAbortAndCommitHints() throws Exception {
        Path wc = keyedWorkingCopy("m"), root = dir.resolve("m").resolve("repo");
        Path other = java.nio.file.Files.createDirectories(dir.resolve("other"));
        Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "staging", "main");
        sync(other, "theirs.csv", "k,a\n1,10\n2,22\n3,30\n");
        String theirs = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(other, "commit", "-m", "theirs: 2 is 22", "--json").out()).get("id").asText();
        sync(wc, "ours.csv", "k,a\n1,10\n2,99\n3,31\n");
        Cli.ok(wc, "commit", "-m", "ours: 2 is 99, 3 is 31");

        Cli.Result conflict = Cli.in(wc, "merge", "staging");
        assertThat(conflict.exit()).as(conflict.toString()).isEqualTo(ExitCodes.FAILURE);
        List<String> settle = commands(conflict.err());
        assertThat(settle).containsExactly("fdl merge staging --strategy ours", "fdl merge staging --strategy theirs",
                "fdl merge staging --ours 'my t'", "fdl merge staging --theirs 'my t'");
        String merged = "";
        for (int i = 0; i < settle.size(); i++) {
            merged = paste(wc, settle.get(i));
            assertThat(rows(wc, null)).as(settle.get(i)).isEqualTo(i % 2 == 0 ? OURS : THEIRS);
            if (i == settle.size() - 1) break;
            paste(wc, printed(merged, "undo it with (fdl merge --abort)\\."));
            assertThat(rows(wc, null)).as("aborted").isEqualTo(OURS);
            assertThat(Cli.ok(wc, "status").out()).doesNotContain("Merging");
        }
        // a merge pending refuses another and names both ways out
        String pending = paste(wc, "fdl merge staging", ExitCodes.FAILURE);
        paste(wc, printed(pending, "abort it \\((fdl merge --abort)\\)"));
        assertThat(rows(wc, null)).isEqualTo(OURS);
        paste(wc, settle.get(3));
        pending = paste(wc, "fdl pull", ExitCodes.FAILURE);
        paste(wc, printed(pending, "commit it \\((fdl commit)\\)"));
        assertThat(rows(wc, "HEAD")).isEqualTo(THEIRS);
        com.fasterxml.jackson.databind.JsonNode head = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "log", "-n", "1", "--json").out());
        assertThat(head.toString()).contains(theirs);
        // the published merge's hint, pasted once more from a fresh merge
        sync(other, "theirs2.csv", "k,a\n1,11\n2,22\n3,30\n");
        Cli.ok(other, "commit", "-m", "theirs: 1 is 11");
        paste(wc, printed(paste(wc, "fdl merge staging"), "publish it with (fdl commit) \\(its parents"));
        assertThat(rows(wc, "HEAD")).isEqualTo("k,a\n1,11\n2,22\n3,31\n");
    }

    /**
     * What pull prints on a conflict (ours: the working copy, theirs: the branch), pasted as printed,
     * and what a refused {@code commit --pull} and a merge that cannot fast-forward send the user to:
     * the pull that lists the conflicts, each re-run that settles them, the commit that publishes the
     * pull, and the pull that brings a working copy behind its branch up to date before merging again.
     */
    @Test
    void pullConflictAndCommitPullHints() throws Exception {
        Path wc = keyedWorkingCopy("p"), root = dir.resolve("p").resolve("repo");
        Path second = java.nio.file.Files.createDirectories(dir.resolve("second"));
        Cli.ok(second, "checkout", "--repo", root.toString());
        sync(second, "theirs.csv", "k,a\n1,10\n2,22\n3,30\n");
        Cli.ok(second, "commit", "-m", "branch: 2 is 22");
        sync(wc, "ours.csv", "k,a\n1,10\n2,99\n3,31\n");

        Cli.Result refused = Cli.in(wc, "commit", "--pull", "-m", "mine");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.FAILURE);
        String listed = paste(wc, printed(refused.err(), "See them with (fdl pull),"), ExitCodes.FAILURE);
        // ours: the working copy, theirs: the branch, in the listing as in the options that settle it
        assertThat(listed).contains("CONFLICT (rows) in my t").contains("ours: {\"k\":2,\"a\":99}").contains("theirs: {\"k\":2,\"a\":22}");
        List<String> settle = commands(listed.substring(listed.indexOf("nothing was written")));
        assertThat(settle).containsExactly("fdl pull --strategy ours", "fdl pull --strategy theirs", "fdl pull --ours 'my t'",
                "fdl pull --theirs 'my t'");
        String pulled = paste(wc, settle.get(3));
        assertThat(rows(wc, null)).isEqualTo(THEIRS);
        paste(wc, printed(pulled, "publish them with (fdl commit)\\."));
        assertThat(rows(wc, "HEAD")).isEqualTo(THEIRS);
        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit");

        // a merge that could fast-forward but finds the branch moved since checkout
        Cli.ok(wc, "branch", "staging");
        Path other = java.nio.file.Files.createDirectories(dir.resolve("other"));
        Cli.ok(other, "checkout", "--repo", root.toString(), "staging");
        sync(other, "staging.csv", "k,a\n1,12\n2,22\n3,31\n");
        Cli.ok(other, "commit", "-m", "staging: 1 is 12");
        Cli.ok(second, "pull");
        sync(second, "main.csv", "k,a\n1,10\n2,22\n3,33\n");
        Cli.ok(second, "commit", "-m", "main: 3 is 33");
        Cli.Result moved = Cli.in(wc, "merge", "staging");
        assertThat(moved.exit()).as(moved.toString()).isEqualTo(ExitCodes.CONFLICT);
        paste(wc, printed(moved.err(), "up to date with (fdl pull), then merge again"));
        paste(wc, "fdl merge staging");
        assertThat(rows(wc, null)).isEqualTo("k,a\n1,12\n2,22\n3,33\n");
    }
}
