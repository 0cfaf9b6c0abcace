package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.fdl.cli.Pasted.paste;
import static dev.fdl.cli.Pasted.printed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * More commands fdl prints for the user to run, pasted as printed (placeholders filled in) and
 * checked to do what the message promises: import's ways out, checkout's from inside a working
 * copy and from a damaged one, the new branch a detached or blocked commit asks for, check's full
 * listing, and the refs, branch and log lists that errors point at.
 */
class MorePrintedCommandsCliTest {
    @TempDir Path dir;

    private Path csv(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String rows(Path wc, String ref, String table) {
        return ref == null ? Cli.ok(wc, "query", "--csv", "--working", "SELECT * FROM " + table + " ORDER BY ALL").out()
                : Cli.ok(wc, "query", "--csv", ref, "SELECT * FROM " + table + " ORDER BY ALL").out();
    }

    private static String failing(Cli.Result r) {
        assertThat(r.exit()).as(r.toString()).isNotZero();
        return r.err();
    }

    private static String commit(Path wc, String message) throws IOException {
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", message, "--json").out()).get("id").asText();
    }

    /**
     * An append that would break the recorded key offers the sync that makes the table the file's
     * rows; fdl sql without DuckDB's extensions offers the import that loads a file without them.
     */
    @Test
    void importHints() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("i"));
        Cli.ok(wc, "import", csv("base.csv", "k,a\n1,10\n2,20\n").toString(), "-t", "my t", "--mode", "sync", "--key", "k");
        Path next = csv("next file.csv", "k,a\n2,21\n3,30\n");
        String refused = failing(Cli.in(wc, "import", next.toString(), "-t", "my t", "--mode", "append"));
        String sync = printed(refused, "Either sync instead \\((fdl import <file> .*--mode sync --key \\S+):");
        paste(wc, sync.replace("<file>", dev.fdl.util.ShellQuote.word(next.toString())));
        assertThat(rows(wc, null, "\"my t\"")).isEqualTo("k,a\n2,21\n3,30\n");

        FdlException noExtensions = catchThrowableOfType(() -> new dev.fdl.ducklake.read.WorkingCopySql(dev.fdl.ducklake.engine.DuckDbPool.shared(),
                        dev.fdl.ducklake.engine.DuckLakeExtension.disabled("not installed")).run(wc.resolve("x.sqlite"), "data/", "SELECT 1"),
                FdlException.class);
        String load = printed(noExtensions.getMessage(), "load data without them: (fdl import <file> --table <name>)$");
        paste(wc, load.replace("<file>", dev.fdl.util.ShellQuote.word(next.toString())).replace("<name>", "loaded"));
        assertThat(rows(wc, null, "loaded")).isEqualTo("k,a\n2,21\n3,30\n");
    }

    /**
     * checkout --repo inside a working copy's subfolder offers to switch that working copy from
     * anywhere; a damaged state file offers the forced checkout that makes the folder a working copy again.
     */
    @Test
    void checkoutHints() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("c"));
        Path root = dir.resolve("c").resolve("repo");
        Cli.ok(wc, "import", csv("t.csv", "id\n1\n").toString(), "-t", "t");
        commit(wc, "one");
        Cli.ok(wc, "branch", "feature");
        Path inside = Files.createDirectories(wc.resolve("sub folder"));
        String nested = failing(Cli.in(inside, "checkout", "--repo", root.toString()));
        paste(dir, printed(nested, "To switch it: (fdl -C \\S+ checkout <ref>);").replace("<ref>", "feature"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch feature");

        Path state;
        try (java.util.stream.Stream<Path> files = Files.list(wc.resolve(".fdl"))) {
            state = files.filter(f -> f.getFileName().toString().equals("state.json")).findFirst().orElseThrow();
        }
        Files.writeString(state, "{\"repo\": ");
        String damaged = failing(Cli.in(wc, "status"));
        paste(wc, printed(damaged, "run (fdl checkout --force --repo <root> \\[<branch>\\]) here")
                .replace("<root>", root.toString()).replace("[<branch>]", "main"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch main").contains("Nothing to commit");
        assertThat(rows(wc, null, "t")).isEqualTo("id\n1\n");
    }

    /**
     * The new branch that commit and merge ask for when the working copy is detached, that pull asks
     * for when the working copy started its branch before the branch had a version, and that commit
     * asks for when another ref is in the way of its branch's name: each pasted with a name filled
     * in, and the commit (or merge) then goes through on that branch.
     */
    @Test
    void newBranchHints() throws Exception {
        Path a = Cli.newWorkingCopy(dir.resolve("n"));
        Path root = dir.resolve("n").resolve("repo");
        Path b = Files.createDirectories(dir.resolve("b"));
        Cli.ok(b, "checkout", "--repo", root.toString());
        // b started main before it had a version; a commits main's first version
        Cli.ok(b, "import", csv("mine.csv", "id\n7\n").toString(), "-t", "mine");
        Cli.ok(a, "import", csv("t.csv", "id\n1\n").toString(), "-t", "t");
        String first = commit(a, "one");
        String pull = failing(Cli.in(b, "pull"));
        paste(b, printed(pull, "commit it to another branch \\((fdl checkout -b <new-branch>)\\)").replace("<new-branch>", "early"));
        commit(b, "early: mine");
        assertThat(rows(b, "early", "mine")).isEqualTo("id\n7\n");

        Cli.ok(a, "checkout", first);
        Cli.ok(a, "import", csv("d.csv", "id\n2\n").toString(), "-t", "d");
        String detached = failing(Cli.in(a, "commit", "-m", "detached: d"));
        paste(a, printed(detached, "create one to commit to: (fdl checkout -b <new-branch>)$").replace("<new-branch>", "kept"));
        commit(a, "kept: d");
        assertThat(rows(a, "kept", "d")).isEqualTo("id\n2\n");

        Cli.ok(a, "checkout", first);
        String merge = failing(Cli.in(a, "merge", "kept"));
        paste(a, printed(merge, "create one first: (fdl checkout -b <new-branch>)$").replace("<new-branch>", "merged"));
        Cli.ok(a, "merge", "kept");
        assertThat(Cli.ok(a, "status").out()).contains("On branch merged");
        assertThat(rows(a, null, "d") + rows(a, null, "t")).isEqualTo("id\n2\nid\n1\n");

        // a new branch whose name another working copy made a folder of refs meanwhile
        Cli.ok(a, "checkout", "-b", "topic");
        Cli.ok(a, "import", csv("e.csv", "id\n3\n").toString(), "-t", "e");
        Cli.ok(b, "branch", "topic/x");
        Cli.Result blocked = Cli.in(a, "commit", "-m", "topic: e");
        assertThat(blocked.exit()).as(blocked.toString()).isEqualTo(ExitCodes.CONFLICT);
        paste(a, printed(blocked.err(), "Commit to another branch: (fdl checkout -b <new-branch>), then").replace("<new-branch>", "topic-e"));
        paste(a, printed(blocked.err(), "then (fdl commit)\\.$"));
        assertThat(rows(a, "topic-e", "e")).isEqualTo("id\n3\n");
        assertThat(Cli.ok(a, "log", "-n", "1", "topic-e").out()).contains("topic: e");
    }

    /** A commit refused by a failing check offers the check that lists every result. */
    @Test
    void checkWorkingHint() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("k"));
        Cli.ok(wc, "import", csv("t.csv", "id\n1\n-2\n").toString(), "-t", "t");
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"d\", \"fdl:checks\": [{\"name\": \"no-negative\", "
                + "\"sql\": \"SELECT * FROM t WHERE id < 0\"}, {\"name\": \"has-rows\", \"sql\": \"SELECT 1 WHERE (SELECT count(*) FROM t) = 0\"}]}\n");
        String refused = failing(Cli.in(wc, "commit", "-m", "checked"));
        assertThat(refused).doesNotContain("has-rows");
        String all = paste(wc, printed(refused, "or run (fdl check --working) to see every result$"), ExitCodes.FAILURE);
        assertThat(all).contains("no-negative").contains("has-rows");
    }

    /**
     * The lists errors point at: refs for a name that is no ref, branch for a retention policy of a
     * branch that is none, log of the first version for a revision past it, log for an expired version.
     */
    @Test
    void listHints() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("l"));
        Cli.ok(wc, "import", csv("t.csv", "id\n1\n").toString(), "-t", "t");
        commit(wc, "one");
        Cli.ok(wc, "tag", "first");
        String refs = paste(wc, printed(failing(Cli.in(wc, "query", "frist", "SELECT 1")), "list refs with: (fdl refs)$"));
        assertThat(refs).contains("main").contains("first");

        Cli.ok(wc, "branch", "staging");
        String branch = paste(wc, printed(failing(Cli.in(wc, "expire", "--keep-last", "1", "--branch", "stagin", "--dry-run")),
                "list branches with: (fdl branch)$"));
        assertThat(branch).contains("main").contains("staging");

        String log = paste(wc, printed(failing(Cli.in(wc, "diff", "HEAD~1", "HEAD")), "first version of its history\\); see (fdl log \\S+)$"));
        assertThat(log).contains("one");

        // a version past retention: log lists those still in it
        String one = printed(Cli.ok(wc, "log", "--json").out(), "\"id\"\\s*:\\s*\"([^\"]+)\"");
        Cli.ok(wc, "import", csv("u.csv", "id\n2\n").toString(), "-t", "u");
        String two = commit(wc, "two");
        Cli.ok(wc, "tag", "-d", "first");
        Cli.ok(wc, "branch", "-d", "staging");
        Cli.ok(wc, "expire", "--keep-last", "1");
        String expired = failing(Cli.in(wc, "query", one, "SELECT 1"));
        assertThat(paste(wc, printed(expired, "still in retention \\(see (fdl log)\\)$"))).contains(two).contains("two");
    }
}
