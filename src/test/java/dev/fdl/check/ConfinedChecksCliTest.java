package dev.fdl.check;

import dev.fdl.cli.Cli;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An SQL check of {@code fdl:checks} travels with the dataset and runs with the rights of whoever
 * checks it out: it reads the version's tables and nothing else (docs/checks.md, "What a check may
 * read"). A check reaching a local file, a URL, an extension or a setting is refused, naming the
 * check, and the repository is left as it was.
 */
@UsesS3Mock
class ConfinedChecksCliTest {
    @TempDir Path dir;

    /** Each reach beyond the dataset: the SQL, and what the refusal names besides the check. */
    private List<String[]> reaches(Path secret) {
        return List.of(
                new String[]{"SELECT content FROM read_text('" + secret + "')", "reaches the file \"" + secret + "\""},
                new String[]{"SELECT content FROM read_text('/etc/hostname')", "reaches the file \"/etc/hostname\""},
                new String[]{"SELECT * FROM read_csv('https://127.0.0.1:9/x.csv')", "reaches the file \"https://127.0.0.1:9/x.csv\""},
                new String[]{"SELECT * FROM sqlite_scan('" + secret + "', 't')", "reaches the extension sqlite_scanner"},
                new String[]{"LOAD httpfs", "its sql must be one read-only query"},
                new String[]{"INSTALL httpfs", "its sql must be one read-only query"},
                new String[]{"SET enable_external_access = true", "its sql must be one read-only query"});
    }

    @Test
    void aCheckReadsOnlyTheVersionsTablesOnALocalRepository() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        refusesEveryReachAndRunsAnOrdinaryCheck(wc, dir.resolve("repo"));
    }

    @Test
    void aCheckReadsOnlyTheMirroredTablesOnARepositoryOnS3() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        s3.installSystemProperties();
        String root = s3.newRoot();
        Cli.ok(dir, "init", root);
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(wc, "checkout", "--repo", root);
        refusesEveryReachAndRunsAnOrdinaryCheck(wc, null);
        assertThat(Cli.ok(wc, "log", "--oneline").out().lines().count()).as("only the ordinary check's commit").isEqualTo(1);
    }

    /** {@code root} null: a remote repository (its version count is read through {@code fdl log}). */
    private void refusesEveryReachAndRunsAnOrdinaryCheck(Path wc, Path root) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "the secret\n");
        Files.writeString(dir.resolve("t.csv"), "id,name\n1,a\n2,b\n");
        Cli.ok(wc, "import", dir.resolve("t.csv").toString(), "--table", "t");
        List<String> before = root == null ? List.of() : files(root);
        for (String[] reach : reaches(secret)) {
            describe(wc, reach[0]);
            Cli.Result r = Cli.in(wc, "commit", "-m", "x");
            assertThat(r.exit()).as(reach[0] + ": " + r).isEqualTo(1);
            assertThat(r.err()).as(reach[0]).contains("check 'reach' (fdl:checks of dataset.json)").contains(reach[1])
                    .contains("nothing was uploaded").doesNotContain("the secret");
            assertThat(r.out()).doesNotContain("the secret");
            if (root != null) assertThat(files(root)).as(reach[0] + ": the repository is unchanged").isEqualTo(before);
            Cli.Result checked = Cli.in(wc, "check", "--working");
            assertThat(checked.exit()).as(reach[0] + ": " + checked).isEqualTo(1);
            assertThat(checked.err()).contains("check 'reach'").contains(reach[1]);
        }
        if (root == null) assertThat(Cli.in(wc, "log", "--oneline").out()).isEmpty();
        describe(wc, "SELECT * FROM t WHERE id > 2");
        Cli.ok(wc, "commit", "-m", "an ordinary check passes");
        describe(wc, "SELECT * FROM main.t WHERE name = 'b'");
        Cli.Result failed = Cli.in(wc, "commit", "-m", "x", "--allow-empty");
        assertThat(failed.exit()).as(failed.toString()).isEqualTo(1);
        assertThat(failed.err()).contains("failed  check 'reach'  (1 row)").contains("id=2, name=b");
    }

    private static void describe(Path wc, String sql) throws Exception {
        String quoted = sql.replace("\\", "\\\\").replace("\"", "\\\"");
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"d\", \"resources\": [{\"name\": \"t\"}], "
                + "\"fdl:checks\": [{\"name\": \"reach\", \"sql\": \"" + quoted + "\"}]}");
    }

    private static List<String> files(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p) + (Files.isRegularFile(p) ? " " + p.toFile().length() : "")).sorted().toList();
        }
    }
}
