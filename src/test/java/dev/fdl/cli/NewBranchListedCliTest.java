package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * git's {@code checkout -b <new>} from a commit: {@code git branch} lists the new branch at once,
 * marked {@code *}. In fdl checkout writes nothing to the repository and the first commit creates
 * the ref (SPEC.md section 4, commit step 9), so until then {@code branch} and {@code refs} inside
 * that working copy list it at its start version, in its place among the branches, saying it has
 * no commit yet, and {@code status} says so; the repository itself has no such ref. An empty
 * repository's first branch is listed by neither, as git lists no unborn branch.
 */
class NewBranchListedCliTest {
    @TempDir Path dir;

    private static final String NO_COMMIT = "(no commit yet: the first commit creates the branch in the repository)";

    private String commit(Path wc, String table, String message) throws Exception {
        Cli.ok(wc, "import", Files.writeString(dir.resolve(table + ".csv"), "id\n1\n").toString(), "-t", table);
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", message, "--json").out()).get("id").asText();
    }

    @Test
    void aBranchStartedByCheckoutBIsListedAsCheckedOutUntilItsFirstCommitCreatesIt() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        assertThat(Cli.ok(wc, "branch").out()).isEmpty(); // an empty repository's branch is unborn
        assertThat(Cli.ok(wc, "status").out()).contains("No commit yet: the first commit creates branch 'main' in the repository");
        String one = commit(wc, "t", "one");
        Cli.ok(wc, "branch", "x");
        Cli.ok(wc, "tag", "v1");
        Cli.ok(wc, "checkout", "-b", "new");

        assertThat(Cli.ok(wc, "branch").out().lines()).containsExactly(
                "  main  " + one + "  one",
                "* new   " + one + "  " + NO_COMMIT,
                "  x     " + one + "  one");
        assertThat(Cli.ok(wc, "refs").out().lines()).containsExactly(
                "  main     " + one + "  one",
                "* new      " + one + "  " + NO_COMMIT,
                "  x        " + one + "  one",
                "  tag: v1  " + one + "  one");
        assertThat(Cli.ok(wc, "tag").out().lines()).containsExactly("  tag: v1  " + one + "  one");
        JsonNode pending = Json.MAPPER.readTree(Cli.ok(wc, "refs", "--json").out()).get(1);
        assertThat(pending.get("name").asText()).isEqualTo("new");
        assertThat(pending.get("version").asText()).isEqualTo(one);
        assertThat(pending.get("head").asBoolean()).isTrue();
        assertThat(pending.get("pending").asBoolean()).isTrue();
        assertThat(Cli.ok(wc, "status").out()).startsWith("On branch new\nNo commit yet: the first commit creates branch 'new' in the repository\n");
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out()).get("branch_pending").asBoolean()).isTrue();

        // the repository has no such ref: outside the working copy it is not listed
        assertThat(root.resolve("refs/heads/new")).doesNotExist();
        assertThat(Cli.ok(dir, "branch", "--repo", root.toString()).out()).doesNotContain("new");

        String two = commit(wc, "u", "two");
        assertThat(Cli.ok(wc, "branch").out().lines()).contains("* new   " + two + "  two");
        assertThat(Cli.ok(dir, "branch", "--repo", root.toString()).out().lines()).contains("  new   " + two + "  two");
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("No commit yet");
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out()).get("branch_pending").asBoolean()).isFalse();
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "refs", "--json").out()).get(1).has("pending")).isFalse();
    }
}
