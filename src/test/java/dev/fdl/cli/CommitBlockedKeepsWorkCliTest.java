package dev.fdl.cli;

import dev.fdl.util.Json;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A commit refused at its last step (SPEC.md section 5, step 9: another ref is in the way of the
 * branch's name) leaves the work it was committing to commit again, as git leaves MERGE_HEAD and
 * MERGE_MSG after a refused commit: on a new branch, the next commit is the same merge, with the
 * same two parents, rows and the message given to the refused commit.
 */
class CommitBlockedKeepsWorkCliTest {
    @TempDir Path dir;

    @Test
    void mergeRefusedAtTheRefIsCommittedOnANewBranch() throws IOException {
        Path a = Cli.newWorkingCopy(dir.resolve("n"));
        Path root = dir.resolve("n").resolve("repo");
        Path b = Files.createDirectories(dir.resolve("b"));
        Cli.ok(a, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n").toString(), "-t", "t");
        Cli.ok(a, "commit", "-m", "one");
        Cli.ok(a, "checkout", "-b", "side");
        Cli.ok(a, "import", Files.writeString(dir.resolve("s.csv"), "id\n2\n").toString(), "-t", "s");
        String side = id(Cli.ok(a, "commit", "-m", "side: s", "--json").out());
        Cli.ok(a, "checkout", "main");
        String main = id(Cli.ok(a, "log", "-n", "1", "--json", "main").out());
        Cli.ok(a, "import", Files.writeString(dir.resolve("u.csv"), "id\n3\n").toString(), "-t", "u");
        Cli.ok(a, "checkout", "-b", "topic"); // with work not committed: the commit creates the branch
        Cli.ok(a, "merge", "side", "-m", "merge side into topic");

        Cli.ok(b, "checkout", "--repo", root.toString());
        Cli.ok(b, "branch", "topic/x");
        Cli.Result blocked = Cli.in(a, "commit", "-m", "publish topic");
        assertThat(blocked.exit()).as(blocked.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(Cli.ok(a, "status").out()).contains("Merging version " + side); // status reconciles the refused step 9: the merge stays

        Cli.ok(a, "checkout", "-b", "topic-m");
        Cli.ok(a, "commit");
        JsonNode v = Json.MAPPER.readTree(Cli.ok(a, "log", "-n", "1", "--json", "topic-m").out());
        JsonNode head = v.isArray() ? v.get(0) : v;
        assertThat(head.get("message").asText()).isEqualTo("publish topic"); // the refused commit's, over the merge's
        assertThat(Cli.ok(a, "log", "--oneline", "-n", "1").out()).contains("HEAD -> topic-m"); // the checked-out branch, as git decorates
        assertThat(Cli.ok(dir, "log", "--oneline", "-n", "1", "--repo", root.toString(), "topic-m").out()).doesNotContain("HEAD ->"); // outside: the repository's HEAD, main
        // git branch's * marks the checked-out branch too; outside a working copy, the repository's HEAD
        assertThat(Cli.ok(a, "branch").out()).containsPattern("(?m)^\\* topic-m ").containsPattern("(?m)^  main ");
        assertThat(Cli.ok(a, "refs").out()).containsPattern("(?m)^\\* topic-m ");
        assertThat(Cli.ok(dir, "branch", "--repo", root.toString()).out()).containsPattern("(?m)^\\* main ").containsPattern("(?m)^  topic-m ");
        assertThat(head.get("parents")).extracting(JsonNode::asText).containsExactly(main, side);
        assertThat(Cli.ok(a, "query", "--csv", "topic-m", "SELECT * FROM s UNION ALL SELECT * FROM u ORDER BY id").out()).isEqualTo("id\n2\n3\n");
    }

    private static String id(String json) throws IOException {
        JsonNode n = Json.MAPPER.readTree(json);
        return (n.isArray() ? n.get(0) : n).get("id").asText();
    }
}
