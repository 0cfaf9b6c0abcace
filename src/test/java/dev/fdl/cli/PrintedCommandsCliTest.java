package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static dev.fdl.cli.Pasted.commands;
import static dev.fdl.cli.Pasted.paste;
import static dev.fdl.cli.Pasted.printed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command fdl prints for the user to run works when pasted as printed: each message is
 * triggered, its indented command lines taken from it, and run, a shell command through
 * {@code bash -c}, an {@code fdl …} command split into words by bash and run through fdl's Main.
 */
class PrintedCommandsCliTest {
    @TempDir Path dir;

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

    /** A new, empty repository in {@code dir/repo}. */
    private Path newRepository() {
        Path root = dir.resolve("repo");
        Cli.ok(dir, "init", root.toString());
        return root;
    }

    /** Imports table {@code table} holding one row, {@code id}, into {@code wc}'s working catalog. */
    private void importRow(Path wc, String table, int id) throws IOException {
        Cli.ok(wc, "import", csv(table + ".csv", "id\n" + id + "\n").toString(), "-t", table);
    }

    /** A new folder {@code name} holding a working copy of {@code root}'s branch {@code main}. */
    private Path workingCopyOf(Path root, String name) throws IOException {
        Path wc = java.nio.file.Files.createDirectories(dir.resolve(name));
        Cli.ok(wc, "checkout", "--repo", root.toString());
        return wc;
    }

    private static String count(Path wc, String ref, String table) {
        Cli.Result r = ref == null ? Cli.in(wc, "query", "--working", "SELECT count(*) AS n FROM " + table, "--csv")
                : Cli.in(wc, "query", ref, "SELECT count(*) AS n FROM " + table, "--csv");
        return r.exit() == 0 ? r.out().trim().substring(2) : "missing";
    }

    private static String lastMessage(Path wc, String ref) {
        return Cli.ok(wc, "log", "-n", "1", ref).out();
    }

    /**
     * {@code ahead} commits table {@code theirs} (one row, {@code id}) to main; then {@code behind}
     * imports table {@code mine} and commits, refused because the branch moved. Returns what it printed.
     */
    private String commitAfterTheBranchMoved(Path ahead, Path behind, String theirs, String mine, int id) throws IOException {
        Cli.ok(ahead, "pull");
        importRow(ahead, theirs, id);
        Cli.ok(ahead, "commit", "-m", "theirs: " + theirs);
        importRow(behind, mine, id + 1);
        Cli.Result moved = Cli.in(behind, "commit", "-m", "mine: " + mine);
        assertThat(moved.exit()).as(moved.toString()).isEqualTo(ExitCodes.CONFLICT);
        return moved.err();
    }

    /**
     * What a refused commit prints, pasted as printed: the message it asks for (the placeholder
     * filled in), the empty commit it offers, and each way on when the branch moved since checkout
     * (pull then commit, commit --pull, a new branch then commit, a forced checkout of the branch).
     */
    @Test
    void commitHints() throws Exception {
        Path root = newRepository();
        Path a = workingCopyOf(root, "a");
        importRow(a, "t", 1);
        Cli.Result noMessage = Cli.in(a, "commit");
        assertThat(noMessage.exit()).as(noMessage.toString()).isEqualTo(ExitCodes.USAGE);
        paste(a, printed(noMessage.err(), "(fdl commit -m \"\\.\\.\\.\")").replace("...", "first one"));
        assertThat(lastMessage(a, "main")).contains("first one");
        assertThat(count(a, "main", "t")).isEqualTo("1");

        Cli.Result empty = Cli.in(a, "commit", "-m", "an empty one");
        assertThat(empty.exit()).as(empty.toString()).isEqualTo(ExitCodes.FAILURE);
        String head = Cli.ok(a, "log", "--json").out();
        paste(a, printed(empty.err(), "(fdl commit --allow-empty(?: -m '[^']*'| -m \\S+)?)"));
        assertThat(Cli.ok(a, "log", "--json").out()).isNotEqualTo(head);
        assertThat(lastMessage(a, "main")).contains("an empty one");

        // the branch moved since b's checkout: pull, then commit (the refused commit's message kept)
        Path b = workingCopyOf(root, "b");
        String moved = commitAfterTheBranchMoved(a, b, "s", "u", 2);
        paste(b, printed(moved, "\\((fdl pull), then fdl commit"));
        paste(b, printed(moved, "fdl pull, then (fdl commit);"));
        assertThat(count(b, "main", "t") + count(b, "main", "u")).isEqualTo("11");
        assertThat(lastMessage(b, "main")).contains("mine: u");

        // commit --pull, which does both
        moved = commitAfterTheBranchMoved(a, b, "v", "w", 3);
        paste(b, printed(moved, "or (fdl commit --pull), which does both"));
        assertThat(count(b, "main", "v") + count(b, "main", "w")).isEqualTo("11");
        assertThat(lastMessage(b, "main")).contains("mine: w");

        // keep the work on a new branch, then commit
        moved = commitAfterTheBranchMoved(a, b, "x", "y", 5);
        paste(b, printed(moved, "\\((fdl checkout -b <new-branch>), then fdl commit\\)").replace("<new-branch>", "mine"));
        paste(b, printed(moved, "fdl checkout -b <new-branch>, then (fdl commit)\\)"));
        assertThat(count(b, "mine", "y") + count(b, "mine", "x") + count(b, "main", "y")).isEqualTo("1missingmissing");
        assertThat(lastMessage(b, "mine")).contains("mine: y");

        // start again from the branch
        Cli.ok(b, "checkout", "main");
        moved = commitAfterTheBranchMoved(a, b, "z", "q", 7);
        paste(b, printed(moved, "\\((fdl checkout --force \\S+), apply your changes again"));
        assertThat(count(b, null, "z") + count(b, null, "q")).isEqualTo("1missing");
        assertThat(Cli.ok(b, "status").out()).contains("On branch main").contains("Nothing to commit");

        // an imported data file gone from the repository (as gc deletes one left uncommitted too long)
        importRow(b, "r", 9);
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(root)) {
            Path newest = files.filter(f -> f.toString().endsWith(".parquet"))
                    .max(java.util.Comparator.comparing(f -> f.toFile().lastModified())).orElseThrow();
            java.nio.file.Files.delete(newest);
        }
        Cli.Result missing = Cli.in(b, "commit", "-m", "mine: r");
        assertThat(missing.exit()).as(missing.toString()).isEqualTo(ExitCodes.FAILURE);
        paste(b, printed(missing.err(), "import again: (fdl checkout --force \\S+)"));
        assertThat(count(b, null, "r") + count(b, null, "z")).isEqualTo("missing1");
        assertThat(Cli.ok(b, "status").out()).contains("Nothing to commit");
    }

    /**
     * What checkout prints, pasted as printed: the checkout of a branch that exists, the new branch
     * for a name that is none, the forced checkout that discards uncommitted snapshots and the commit
     * that keeps them, and the new branch a detached checkout needs to commit.
     */
    @Test
    void checkoutHints() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("c"));
        importRow(wc, "t", 1);
        String first = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "one", "--json").out()).get("id").asText();

        Cli.Result none = Cli.in(wc, "checkout", "feature");
        assertThat(none.exit()).as(none.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        paste(wc, printed(none.err(), "to start a new branch: (fdl checkout -b \\S+)"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch feature");
        importRow(wc, "f", 9);
        Cli.ok(wc, "commit", "-m", "feature: f");

        Cli.Result exists = Cli.in(wc, "checkout", "-b", "main");
        assertThat(exists.exit()).as(exists.toString()).isEqualTo(ExitCodes.CONFLICT);
        paste(wc, printed(exists.err(), "check it out with (fdl checkout \\S+)"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch main");

        importRow(wc, "u", 2);
        Cli.Result pending = Cli.in(wc, "checkout", "feature");
        assertThat(pending.exit()).as(pending.toString()).isEqualTo(ExitCodes.FAILURE);
        paste(wc, printed(pending.err(), "discard them with (fdl checkout --force(?: \\S+)?)$"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch feature").contains("Nothing to commit");
        assertThat(count(wc, null, "u") + count(wc, null, "f")).isEqualTo("missing1");

        importRow(wc, "v", 3);
        pending = Cli.in(wc, "checkout", "main");
        paste(wc, printed(pending.err(), "commit them \\((fdl commit -m \"\\.\\.\\.\")\\)").replace("...", "on feature"));
        assertThat(count(wc, "feature", "v")).isEqualTo("1");
        assertThat(lastMessage(wc, "feature")).contains("on feature");

        String detached = Cli.ok(wc, "checkout", first).out();
        paste(wc, printed(detached, "create a branch to commit, (fdl checkout -b <name>)").replace("<name>", "from-one"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch from-one");
        importRow(wc, "w", 4);
        Cli.ok(wc, "commit", "-m", "on from-one");
        assertThat(count(wc, "from-one", "w") + count(wc, "from-one", "t")).isEqualTo("11");
    }

    /**
     * What rm, restore, status and branch print, pasted as printed: the commit that publishes a
     * removal and a restore, the Merging line's abort and commit, the branch delete a working copy on
     * the branch refuses (and the checkout away it offers), the new branch status offers when the
     * branch was deleted or moved under uncommitted snapshots.
     */
    @Test
    void rmRestoreStatusAndBranchHints() throws Exception {
        Path root = newRepository();
        Path a = workingCopyOf(root, "a"), b = workingCopyOf(root, "b");
        importRow(a, "t", 1);
        Cli.ok(a, "commit", "-m", "one");
        importRow(a, "u", 2);
        String two = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(a, "commit", "-m", "two", "--json").out()).get("id").asText();

        paste(a, printed(Cli.ok(a, "rm", "u").out(), "; (fdl commit(?: --allow-drop)?(?: -m '[^']*'| -m \\S+)?) publishes it"));
        assertThat(count(a, "main", "t") + count(a, "main", "u")).isEqualTo("1missing");
        Cli.Result restored = Cli.ok(a, "restore", two);
        paste(a, printed(restored.out() + restored.err(), "Publish it with: (fdl commit) \\(message"));
        assertThat(count(a, "main", "t") + count(a, "main", "u")).isEqualTo("11");

        // the Merging line: abort, then merge again and commit
        Cli.ok(a, "branch", "staging");
        Cli.ok(b, "checkout", "staging");
        importRow(b, "v", 3);
        Cli.ok(b, "commit", "-m", "staging: v");
        importRow(a, "w", 4);
        Cli.ok(a, "commit", "-m", "main: w");
        Cli.ok(a, "merge", "staging");
        paste(a, printed(Cli.ok(a, "status").out(), "(fdl merge --abort) puts the working copy back"));
        assertThat(Cli.ok(a, "status").out()).doesNotContain("Merging");
        assertThat(count(a, null, "v")).isEqualTo("missing");
        Cli.ok(a, "merge", "staging");
        paste(a, printed(Cli.ok(a, "status").out(), "Merging version \\S+: (fdl commit) publishes the merge"));
        assertThat(count(a, "main", "v") + count(a, "main", "w")).isEqualTo("11");
        assertThat(Cli.ok(a, "log", "-n", "1", "--json", "main").out()).contains(
                dev.fdl.util.Json.MAPPER.readTree(Cli.ok(b, "log", "-n", "1", "--json").out()).toString().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1"));

        // a working copy on the branch refuses its deletion: switch away, or delete anyway
        Cli.Result refused = Cli.in(b, "branch", "-d", "staging");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.FAILURE);
        paste(b, printed(refused.err(), "switch it first \\((fdl checkout <other-branch>)\\)").replace("<other-branch>", "main"));
        assertThat(Cli.ok(b, "status").out()).contains("On branch main");
        Cli.ok(b, "checkout", "staging");
        paste(b, printed(Cli.in(b, "branch", "-d", "staging").err(), "delete anyway with (fdl branch -D \\S+)$"));
        assertThat(Cli.ok(b, "branch").out()).doesNotContainPattern("(?m)^[* ] staging ");
        // status on the deleted branch: a branch of that name again
        importRow(b, "x", 5);
        paste(b, printed(Cli.ok(b, "status").out(), "\\((fdl checkout -b \\S+) to commit your snapshots on a branch of that name again"));
        Cli.ok(b, "commit", "-m", "staging again");
        assertThat(count(b, "staging", "x")).isEqualTo("1");

        // status on a branch that moved under uncommitted snapshots: keep them on a new branch
        Cli.ok(b, "checkout", "main");
        importRow(b, "y", 6);
        Cli.ok(b, "commit", "-m", "main: y");
        importRow(a, "z", 7);
        paste(a, printed(Cli.ok(a, "status").out(), "(fdl checkout -b <new-branch>) to keep them on a new branch").replace("<new-branch>", "kept"));
        assertThat(Cli.ok(a, "status").out()).contains("On branch kept");
        Cli.ok(a, "commit", "-m", "kept: z");
        assertThat(count(a, "kept", "z") + count(a, "main", "z")).isEqualTo("1missing");
    }

    /**
     * The rest, pasted as printed: the working copy a command outside one asks for (placeholders
     * filled in), the policy expire and commit --expire ask for, log's --stat, the tag gc offers for
     * an unreachable version, and the query of the version that keeps an older snapshot.
     */
    @Test
    void otherHints() throws Exception {
        Path root = newRepository();
        Path wc = java.nio.file.Files.createDirectories(dir.resolve("wc"));
        Cli.Result outside = Cli.in(wc, "status");
        assertThat(outside.exit()).as(outside.toString()).isNotZero();
        paste(wc, printed(outside.err(), "create one with: (fdl checkout --repo <root> \\[<branch>\\])")
                .replace("<root>", root.toString()).replace("[<branch>]", "main"));
        assertThat(Cli.ok(wc, "status").out()).contains("On branch main");

        importRow(wc, "t", 1);
        Cli.Result noPolicy = Cli.in(wc, "commit", "-m", "one", "--expire");
        assertThat(noPolicy.exit()).as(noPolicy.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(paste(wc, printed(noPolicy.err(), "for example: (fdl expire --save-policy .*)$"))).contains("Saved the retention policy");
        String one = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "one", "--json").out()).get("id").asText();
        Path other = dir.resolve("other");
        Cli.ok(dir, "init", other.toString());
        Cli.Result none = Cli.in(dir, "expire", "--repo", other.toString());
        assertThat(none.exit()).as(none.toString()).isEqualTo(ExitCodes.USAGE);
        paste(dir, printed(none.err(), "for example: (fdl expire --save-policy .*)$") + " --repo " + other);
        assertThat(Cli.ok(dir, "expire", "--repo", other.toString(), "--dry-run").exit()).isZero();

        Cli.Result dashes = Cli.in(wc, "log", "--", "t");
        assertThat(dashes.exit()).as(dashes.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(paste(wc, printed(dashes.err(), "per table with (fdl log --stat)$"))).contains("t").contains("+1");

        // an unreachable version: gc offers to tag it
        Cli.ok(wc, "checkout", "-b", "gone");
        importRow(wc, "u", 2);
        String gone = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "gone", "--json").out()).get("id").asText();
        Cli.ok(wc, "checkout", "main");
        Cli.ok(wc, "branch", "-D", "gone");
        // aged past gc's grace period, as a version of a branch deleted long after its commit
        java.nio.file.Files.setLastModifiedTime(root.resolve("versions").resolve(gone).resolve("version.json"),
                java.nio.file.attribute.FileTime.from(java.time.Instant.now().minus(java.time.Duration.ofDays(30))));
        String gc = Cli.ok(wc, "gc", "--dry-run").out();
        assertThat(gc).contains(gone);
        paste(wc, printed(gc, "(fdl tag <name> <version-id>)").replace("<name>", "kept").replace("<version-id>", gone));
        assertThat(count(wc, "kept", "u")).isEqualTo("1");

        // a site that a tag makes stale
        Cli.ok(wc, "site", "--no-stat");
        Cli.ok(wc, "tag", "first", one);
        paste(wc, printed(Cli.ok(wc, "tag", "second", one).err(), "stale: run (fdl site)$"));
        assertThat(java.nio.file.Files.readString(root.resolve("index.html"))).contains("second");

        // a snapshot an older version keeps
        String snapshot = printed(Cli.ok(wc, "log", "-n", "1", "--json", one).out(), "\"snapshot_id\"\\s*:\\s*(\\d+)");
        importRow(wc, "v", 3);
        String two = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "two", "--json").out()).get("id").asText();
        Cli.Result old = Cli.in(wc, "query", "--snapshot", snapshot, two, "SELECT count(*) AS n FROM t", "--csv");
        assertThat(old.exit()).as(old.toString()).isNotZero();
        assertThat(paste(wc, printed(old.err(), "(fdl query --snapshot .*)$").replace("\"...\"", "'SELECT count(*) AS n FROM t' --csv")))
                .isEqualTo("n\n1\n");
    }
    /**
     * The verify that messages about a damaged repository send the user to, pasted as printed: a
     * query of a version whose data file is gone, a log whose parent version.json is gone, a diff
     * against that parent. Each verify exits 1 and names what is missing.
     */
    @Test
    void verifyHints() throws Exception {
        Path root = newRepository();
        Path wc = workingCopyOf(root, "wc");
        importRow(wc, "t", 1);
        String one = dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "one", "--json").out()).get("id").asText();
        importRow(wc, "u", 2);
        Cli.ok(wc, "commit", "-m", "two");
        Path gone;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(root)) {
            gone = files.filter(f -> f.toString().endsWith(".parquet"))
                    .max(java.util.Comparator.comparing(f -> f.toFile().lastModified())).orElseThrow();
        }
        java.nio.file.Files.delete(gone);
        Cli.Result query = Cli.in(wc, "query", "main", "SELECT * FROM u");
        assertThat(query.exit()).as(query.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(paste(wc, printed(query.err(), "run (fdl verify) to list every missing file"), ExitCodes.FAILURE))
                .contains(gone.getFileName().toString());

        java.nio.file.Files.delete(root.resolve("versions").resolve(one).resolve("version.json"));
        Cli.Result log = Cli.ok(wc, "log");
        assertThat(paste(wc, printed(log.err(), "history stops there; run (fdl verify)\\b"), ExitCodes.FAILURE)).contains(one);
        Cli.Result diff = Cli.in(wc, "diff", "HEAD~1", "HEAD");
        assertThat(diff.exit()).as(diff.toString()).isNotZero();
        assertThat(paste(wc, printed(diff.err(), "history stops there; run (fdl verify)\\b"), ExitCodes.FAILURE)).contains(one);
    }

    /**
     * What ref commands and revisions print, pasted as printed: the delete a branch that exists
     * offers, the tag that keeps an unmerged branch's version before its deletion, and the log
     * that shows the parents a revision asked for more of.
     */
    @Test
    void refAndRevisionHints() throws Exception {
        Path root = newRepository();
        Path wc = workingCopyOf(root, "wc");
        importRow(wc, "t", 1);
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "branch", "feature");
        Cli.Result exists = Cli.in(wc, "branch", "feature");
        assertThat(exists.exit()).as(exists.toString()).isEqualTo(ExitCodes.CONFLICT);
        paste(wc, printed(exists.err(), "delete it with (fdl branch -d \\S+)"));
        assertThat(Cli.ok(wc, "branch").out()).doesNotContain("feature");

        Cli.ok(wc, "checkout", "-b", "topic");
        importRow(wc, "u", 2);
        Cli.ok(wc, "commit", "-m", "topic: u");
        Cli.ok(wc, "checkout", "main");
        Cli.Result unmerged = Cli.in(wc, "branch", "-d", "topic");
        assertThat(unmerged.exit()).as(unmerged.toString()).isEqualTo(ExitCodes.FAILURE);
        paste(wc, printed(unmerged.err(), "Keep it with a tag first \\((fdl tag <name> \\S+)\\)").replace("<name>", "kept"));
        Cli.ok(wc, "branch", "-d", "topic");
        assertThat(count(wc, "kept", "u")).isEqualTo("1");

        Cli.Result parent = Cli.in(wc, "diff", "HEAD^2", "HEAD");
        assertThat(parent.exit()).as(parent.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(paste(wc, printed(parent.err(), "see (fdl log --graph \\S+)$"))).contains("one");
    }
}
