package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What revert, pull and commit --pull tell a user to run works as told, as git's habits would have
 * it: {@code fdl revert} then {@code fdl commit} publishes the revert under its own message and is
 * not refused by the shrink guard for the rows it was asked to take out; a commit refused because
 * the branch moved keeps its message through {@code fdl pull}; pull speaks of the working copy as
 * ours; {@code commit --pull} says what it pulled; {@code --ours}/{@code --theirs} with a table
 * that does not exist is a usage error.
 */
class RevertPullHabitsCliTest {
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

    static String rowsOf(int from, int to) {
        StringBuilder b = new StringBuilder("k,a\n");
        for (int i = from; i <= to; i++) b.append(i).append(',').append(i * 10).append('\n');
        return b.toString();
    }

    JsonNode head(Path w) throws IOException {
        return Json.MAPPER.readTree(Cli.ok(w, "log", "--json").out()).get(0);
    }

    @BeforeEach
    void repository() throws IOException {
        root = dir.resolve("repo");
        wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv(rowsOf(1, 10)).toString(), "--table", "ta", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "import", csv(rowsOf(1, 10)).toString(), "--table", "tb", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "commit", "-m", "base");
        other = dir.resolve("other");
        Files.createDirectories(other);
        Cli.ok(other, "checkout", "--repo", root.toString());
    }

    @Test
    void aRevertIsCommittedUnderItsOwnMessageAndItsShrinkIsNotRefused() throws IOException {
        sync(wc, "ta", rowsOf(1, 20));
        Cli.ok(wc, "commit", "-m", "ten more rows");
        String added = head(wc).get("id").asText();
        Cli.Result reverted = Cli.ok(wc, "revert", added);
        assertThat(reverted.err()).doesNotContain("merge base");
        assertThat(reverted.out()).contains("publish it with fdl commit");
        Cli.Result committed = Cli.ok(wc, "commit");
        assertThat(committed.out() + committed.err()).doesNotContain("merge base");
        JsonNode v = head(wc);
        assertThat(v.get("message").asText()).startsWith("Revert version " + added + " (ten more rows)");
        assertThat(v.get("parents")).hasSize(1);
        assertThat(Cli.ok(wc, "query", "--csv", "HEAD", "SELECT count(*) AS n FROM ta").out()).isEqualTo("n\n10\n");
        assertThat(Cli.in(wc, "commit", "--allow-empty").exit()).as("the proposed message is used once").isEqualTo(2);
    }

    @Test
    void aRevertDoesNotLetAShrinkBeyondTheRevertedVersionsParentThrough() throws IOException {
        sync(wc, "ta", rowsOf(1, 20));
        Cli.ok(wc, "commit", "-m", "ten more rows");
        String added = head(wc).get("id").asText();
        Cli.ok(wc, "revert", added);
        sync(wc, "ta", rowsOf(1, 5)); // half of what the reverted version's parent had: not what the revert asked
        Cli.Result r = Cli.in(wc, "commit");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("guard: ta keeps its rows").contains("--allow-shrink");
        assertThat(Cli.ok(wc, "commit", "--allow-shrink").exit()).isZero();
        assertThat(head(wc).get("message").asText()).startsWith("Revert version " + added);
    }

    @Test
    void aCommitRefusedBecauseTheBranchMovedKeepsItsMessageThroughPull() throws IOException {
        sync(other, "ta", rowsOf(1, 11));
        Cli.ok(other, "commit", "-m", "theirs: one row more in ta");
        sync(wc, "tb", rowsOf(1, 12));
        Cli.Result refused = Cli.in(wc, "commit", "-m", "ours: two rows more in tb");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(3);
        Cli.Result pulled = Cli.ok(wc, "pull");
        assertThat(pulled.out()).contains("kept tb: changed on ours only").contains("taken ta: changed on theirs only");
        Cli.ok(wc, "commit");
        JsonNode v = head(wc);
        assertThat(v.get("message").asText()).isEqualTo("ours: two rows more in tb");
        assertThat(Cli.ok(wc, "query", "--csv", "HEAD", "SELECT (SELECT count(*) FROM ta) AS a, (SELECT count(*) FROM tb) AS b").out())
                .isEqualTo("a,b\n11,12\n");
    }

    @Test
    void commitPullSaysWhatItPulled() throws IOException {
        sync(other, "ta", rowsOf(1, 11));
        Cli.ok(other, "commit", "-m", "theirs");
        String theirs = head(other).get("id").asText();
        sync(wc, "tb", rowsOf(1, 12));
        Cli.Result r = Cli.ok(wc, "commit", "--pull", "-m", "ours");
        assertThat(r.out()).contains("Pulled version " + theirs).contains("taken ta: changed on theirs only")
                .contains("kept tb: changed on ours only").contains("] ours");
    }

    @Test
    void settlingATableThatDoesNotExistIsAUsageError() throws IOException {
        sync(other, "ta", rowsOf(1, 11));
        Cli.ok(other, "commit", "-m", "theirs");
        sync(wc, "ta", rowsOf(1, 12));
        Cli.Result pull = Cli.in(wc, "pull", "--ours", "nosuch");
        assertThat(pull.exit()).as(pull.toString()).isEqualTo(2);
        assertThat(pull.err()).contains("there is no table nosuch").contains("tables: ta, tb");
        assertThat(Cli.ok(wc, "pull", "--theirs", "TA").out()).contains("ta");

        Cli.ok(other, "checkout", "-b", "side");
        sync(other, "tb", rowsOf(1, 13));
        Cli.ok(other, "commit", "-m", "side");
        Cli.Result merge = Cli.in(wc, "merge", "side", "--theirs", "main.nosuch");
        assertThat(merge.exit()).as(merge.toString()).isEqualTo(2);
        assertThat(merge.err()).contains("there is no table main.nosuch").contains("tables: ta, tb");
        assertThat(Cli.ok(wc, "merge", "side", "--ours", "main.tb").exit()).isZero();
    }
}
