package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * fdl merge, merge --abort, revert and pull through the command line, on a repository with a keyed
 * table {@code kt} (recorded key {@code k}) and an unkeyed table {@code bag}: a fast-forward, a
 * merge of diverged branches published with two parents (a table changed on one side only taken
 * without copying a data file, then changed and committed again), conflicts that exit 1 and write
 * nothing, settled by {@code --strategy}, {@code --theirs T}, a revert, and a pull that keeps
 * history linear.
 */
class MergeCliTest {
    @TempDir Path dir;
    Path root, wc, other;
    int files;

    Path csv(String content) throws IOException {
        Path p = dir.resolve("f" + (files++) + ".csv");
        Files.writeString(p, content);
        return p;
    }

    void sync(Path w, String table, String content) throws IOException {
        Cli.ok(w, "import", csv(content).toString(), "--table", table, "--mode", "sync");
    }

    String commit(Path w, String message) throws IOException {
        return Json.MAPPER.readTree(Cli.ok(w, "commit", "--allow-shrink", "-m", message, "--json").out()).get("id").asText();
    }

    String rows(Path w, String ref, String table) {
        return ref == null ? Cli.ok(w, "query", "--csv", "--working", "SELECT * FROM " + table + " ORDER BY ALL").out()
                : Cli.ok(w, "query", "--csv", ref, "SELECT * FROM " + table + " ORDER BY ALL").out();
    }

    static List<String> dataFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root.resolve("data"))) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    @BeforeEach
    void repository() throws IOException {
        root = dir.resolve("repo");
        wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv("k,a\n1,10\n2,20\n3,30\n").toString(), "--table", "kt", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "import", csv("x\n1\n1\n2\n").toString(), "--table", "bag");
        commit(wc, "base");
        other = dir.resolve("other");
        Files.createDirectories(other);
        Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "staging", "main");
    }

    @Test
    void aBranchAheadFastForwardsAndTheWorkingCopyFollows() throws IOException {
        sync(other, "kt", "k,a\n1,10\n2,21\n3,30\n");
        String staged = commit(other, "staging change");
        Cli.Result r = Cli.ok(wc, "merge", "staging");
        assertThat(r.out()).contains("Fast-forward to version " + staged);
        assertThat(Cli.ok(wc, "refs").out()).containsPattern("main\\s+" + staged.substring(0, 8));
        assertThat(rows(wc, null, "kt")).contains("2,21");
        Cli.ok(wc, "import", csv("k,a\n1,10\n2,21\n3,31\n").toString(), "--table", "kt", "--mode", "sync");
        commit(wc, "after the fast-forward"); // the working copy is on main at the staged version: If-Match holds
    }

    @Test
    void divergedBranchesMergeIntoAVersionWithTwoParentsNamingTheOtherSidesFiles() throws IOException {
        sync(other, "kt", "k,a\n1,10\n2,21\n3,30\n4,40\n");
        String staged = commit(other, "staging: kt");
        sync(wc, "bag", "x\n1\n2\n2\n");
        String mainV = commit(wc, "main: bag");
        List<String> before = dataFiles(root);

        Cli.Result r = Cli.ok(wc, "merge", "staging");
        assertThat(r.out()).contains("taken kt").contains("kept bag").contains("Merged version " + staged);
        assertThat(dataFiles(root)).as("a table changed on one side only is taken by naming its files").isEqualTo(before);
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--json").out());
        assertThat(v.get("parents").get(0).asText()).isEqualTo(mainV);
        assertThat(v.get("parents").get(1).asText()).isEqualTo(staged);
        assertThat(v.get("message").asText()).isEqualTo("Merge branch 'staging' into main"); // git's default message
        assertThat(rows(wc, "HEAD", "kt")).isEqualTo(rows(other, staged, "kt"));
        assertThat(rows(wc, "HEAD", "bag")).isEqualTo(rows(wc, mainV, "bag"));

        // renumbered ids: the merged version, checked out again, changed and committed, reads correctly
        Path third = dir.resolve("third");
        Files.createDirectories(third);
        Cli.ok(third, "checkout", "--repo", root.toString());
        sync(third, "kt", "k,a\n1,11\n2,21\n4,40\n5,50\n");
        sync(third, "bag", "x\n1\n2\n2\n3\n");
        String again = commit(third, "after the merge");
        assertThat(rows(third, again, "kt")).isEqualTo("k,a\n1,11\n2,21\n4,40\n5,50\n");
        assertThat(rows(third, again, "bag")).isEqualTo("x\n1\n2\n2\n3\n");
        assertThat(rows(third, v.get("id").asText(), "kt")).isEqualTo("k,a\n1,10\n2,21\n3,30\n4,40\n");
        Cli.ok(third, "verify");
    }

    @Test
    void noFfRecordsAMergeWhereAFastForwardWasPossible() throws IOException {
        sync(other, "bag", "x\n5\n");
        String staged = commit(other, "staging");
        Cli.ok(wc, "merge", "--no-ff", "staging");
        assertThat(Cli.ok(wc, "status").out()).contains("Merging version " + staged + ": fdl commit publishes the merge");
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out()).path("merging").asText()).isEqualTo(staged);
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--json").out());
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Merging");
        assertThat(v.get("parents")).hasSize(2);
        assertThat(v.get("parents").get(1).asText()).isEqualTo(staged);
        assertThat(Cli.in(wc, "merge", "--ff-only", "staging").out()).contains("Already up to date");
    }

    @Test
    void conflictsExit1ListTheKeysAndWriteNothingUntilSettled() throws IOException {
        sync(other, "kt", "k,a\n1,10\n2,22\n3,30\n");
        commit(other, "staging: 2 -> 22");
        sync(wc, "kt", "k,a\n1,10\n2,99\n3,31\n");
        commit(wc, "main: 2 -> 99");
        byte[] state = Files.readAllBytes(wc.resolve(".fdl/state.json"));
        List<String> files = dataFiles(root);

        Cli.Result r = Cli.in(wc, "merge", "staging");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.out()).contains("CONFLICT (rows) in kt: 1 key(s)").contains("    2  base: {\"k\":2,\"a\":20}")
                .contains("ours: {\"k\":2,\"a\":99}").contains("theirs: {\"k\":2,\"a\":22}");
        assertThat(r.err()).contains("nothing was written");
        assertThat(Files.readAllBytes(wc.resolve(".fdl/state.json"))).isEqualTo(state);
        assertThat(dataFiles(root)).isEqualTo(files);
        JsonNode j = Json.MAPPER.readTree(Cli.in(wc, "merge", "staging", "--json").out());
        assertThat(j.get("conflicts").get(0).get("keys").get(0).get("theirs").toString()).isEqualTo("{\"k\":2,\"a\":22}");

        Cli.ok(wc, "merge", "staging", "--theirs", "kt");
        assertThat(rows(wc, null, "kt")).as("key 2 theirs, key 3 ours").isEqualTo("k,a\n1,10\n2,22\n3,31\n");
        Cli.ok(wc, "merge", "--abort");
        assertThat(Files.readAllBytes(wc.resolve(".fdl/state.json"))).isEqualTo(state);
        assertThat(rows(wc, null, "kt")).isEqualTo("k,a\n1,10\n2,99\n3,31\n");
        Cli.ok(wc, "merge", "staging", "--strategy", "ours");
        assertThat(rows(wc, null, "kt")).isEqualTo("k,a\n1,10\n2,99\n3,31\n");
        Cli.ok(wc, "commit", "-m", "merged, ours");
    }

    @Test
    void revertUndoesOneVersionAsANewSnapshot() throws IOException {
        sync(wc, "kt", "k,a\n1,10\n2,25\n3,30\n");
        String v2 = commit(wc, "change 2");
        sync(wc, "bag", "x\n7\n");
        commit(wc, "change bag");
        Cli.Result r = Cli.ok(wc, "revert", v2);
        assertThat(r.out()).contains("Reverted version " + v2);
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "revert change 2", "--json").out());
        assertThat(v.get("parents")).hasSize(1);
        assertThat(rows(wc, "HEAD", "kt")).isEqualTo("k,a\n1,10\n2,20\n3,30\n");
        assertThat(rows(wc, "HEAD", "bag")).isEqualTo("x\n7\n");
    }

    @Test
    void pullPutsTheWorkingCopysChangesOnTopOfTheMovedBranch() throws IOException {
        Path second = dir.resolve("second");
        Files.createDirectories(second);
        Cli.ok(second, "checkout", "--repo", root.toString());
        sync(second, "bag", "x\n1\n2\n3\n");
        String theirs = commit(second, "second: bag");
        sync(wc, "kt", "k,a\n1,10\n2,20\n3,33\n");
        Cli.Result moved = Cli.in(wc, "commit", "-m", "first: kt");
        assertThat(moved.exit()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(moved.err()).contains("fdl pull").contains("fdl commit --pull");
        Cli.Result r = Cli.ok(wc, "pull");
        assertThat(r.out()).contains("Pulled version " + theirs);
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "first: kt", "--json").out());
        assertThat(v.get("parents")).hasSize(1);
        assertThat(v.get("parents").get(0).asText()).isEqualTo(theirs);
        assertThat(rows(wc, "HEAD", "kt")).isEqualTo("k,a\n1,10\n2,20\n3,33\n");
        assertThat(rows(wc, "HEAD", "bag")).isEqualTo("x\n1\n2\n3\n");

        // commit --pull does the same by itself
        sync(second, "kt", "k,a\n1,11\n2,20\n3,30\n"); // the second copy is behind: pull first
        Cli.ok(second, "pull");
        commit(second, "second: key 1");
        sync(wc, "bag", "x\n4\n");
        JsonNode w = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-shrink", "--pull", "-m", "first: bag", "--json").out());
        assertThat(w.get("parents")).hasSize(1);
        assertThat(rows(wc, "HEAD", "kt")).isEqualTo("k,a\n1,11\n2,20\n3,33\n");
        assertThat(rows(wc, "HEAD", "bag")).isEqualTo("x\n4\n");
    }

    @Test
    void pullReplaysEachPendingSnapshotWithItsMessageOnTopOfTheBranch() throws IOException {
        Path second = dir.resolve("second");
        Files.createDirectories(second);
        Cli.ok(second, "checkout", "--repo", root.toString());
        sync(second, "bag", "x\n1\n2\n3\n");
        String theirs = commit(second, "second: bag");
        Cli.ok(wc, "import", csv("k,a\n1,10\n2,20\n3,33\n").toString(), "--table", "kt", "--mode", "sync", "-m", "first: key 3");
        Cli.ok(wc, "import", csv("n\n5\n").toString(), "--table", "nt", "-m", "first: new table");
        Cli.ok(wc, "import", csv("k,a\n1,11\n2,20\n3,33\n").toString(), "--table", "kt", "--mode", "sync", "-m", "first: key 1");
        JsonNode before = Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out());
        assertThat(before.get("snapshots")).hasSize(3);

        Cli.ok(wc, "pull");

        JsonNode after = Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out());
        assertThat(after.get("base_version").asText()).isEqualTo(theirs);
        assertThat(after.get("snapshots")).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(after.get("snapshots").get(i).get("message").asText()).isEqualTo(before.get("snapshots").get(i).get("message").asText());
            assertThat(after.get("snapshots").get(i).get("author").asText()).isEqualTo(before.get("snapshots").get(i).get("author").asText());
        }
        // each replayed snapshot reads as the branch plus the pending changes up to it
        long first = after.get("snapshots").get(0).get("id").asLong();
        assertThat(Cli.ok(wc, "query", "--csv", "--working", "--snapshot", Long.toString(first), "SELECT * FROM kt ORDER BY ALL").out())
                .isEqualTo("k,a\n1,10\n2,20\n3,33\n");
        assertThat(Cli.ok(wc, "query", "--csv", "--working", "--snapshot", Long.toString(first), "SELECT * FROM bag ORDER BY ALL").out())
                .isEqualTo("x\n1\n2\n3\n");
        assertThat(rows(wc, null, "kt")).isEqualTo("k,a\n1,11\n2,20\n3,33\n");
        assertThat(rows(wc, null, "nt")).isEqualTo("n\n5\n");
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "first", "--json").out());
        assertThat(v.get("parents").get(0).asText()).isEqualTo(theirs);
        assertThat(rows(wc, "HEAD", "bag")).isEqualTo("x\n1\n2\n3\n");
        assertThat(rows(wc, "HEAD", "kt")).isEqualTo("k,a\n1,11\n2,20\n3,33\n");
    }

    @Test
    void aPullWhosePendingSnapshotConflictsWritesNothing() throws IOException {
        Path second = dir.resolve("second");
        Files.createDirectories(second);
        Cli.ok(second, "checkout", "--repo", root.toString());
        sync(second, "kt", "k,a\n1,10\n2,20\n3,39\n");
        commit(second, "second: key 3");
        Cli.ok(wc, "import", csv("x\n9\n").toString(), "--table", "bag", "--mode", "sync", "-m", "first: bag");
        Cli.ok(wc, "import", csv("k,a\n1,10\n2,20\n3,33\n").toString(), "--table", "kt", "--mode", "sync", "-m", "first: key 3");
        String state = Cli.ok(wc, "status", "--json").out();
        Cli.Result r = Cli.in(wc, "pull");
        assertThat(r.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.out()).contains("CONFLICT (rows) in kt");
        assertThat(Cli.ok(wc, "status", "--json").out()).isEqualTo(state);
        assertThat(rows(wc, null, "kt")).isEqualTo("k,a\n1,10\n2,20\n3,33\n");
        Cli.ok(wc, "pull", "--strategy", "ours");
        assertThat(rows(wc, null, "kt")).isEqualTo("k,a\n1,10\n2,20\n3,33\n");
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out()).get("snapshots")).hasSize(2);
    }

    @Test
    void aCrissCrossMergeUsesTheNewestOfTwoEquallyNearBasesAndSaysSo() throws IOException {
        sync(other, "kt", "k,a\n1,10\n2,21\n3,30\n");
        String s1 = commit(other, "staging: kt");
        sync(wc, "bag", "x\n1\n2\n2\n");
        String m1 = commit(wc, "main: bag");
        JsonNode first = Json.MAPPER.readTree(Cli.ok(wc, "merge", "staging", "--json").out());
        assertThat(first.get("base").asText()).isEqualTo(Json.MAPPER.readTree(Cli.ok(wc, "show", m1, "--json").out()).get("parents").get(0).asText());
        assertThat(first.has("base_ambiguous")).isFalse();
        commit(wc, "main: merge staging");
        Cli.ok(other, "merge", m1);
        commit(other, "staging: merge main's first version");

        // main's merge reaches s1 and m1, staging's too: both are common ancestors, equally near (seq 2)
        Cli.Result text = Cli.ok(wc, "merge", "staging");
        String newest = s1.compareTo(m1) > 0 ? s1 : m1;
        assertThat(text.err()).contains("several common ancestors are equally near").contains(newest);
        Cli.ok(wc, "merge", "--abort");
        JsonNode j = Json.MAPPER.readTree(Cli.ok(wc, "merge", "staging", "--json").out());
        assertThat(j.get("base_ambiguous").asBoolean()).isTrue();
        assertThat(j.get("base").asText()).isEqualTo(newest);
        assertThat(j.get("conflicts")).isEmpty();
    }
}
