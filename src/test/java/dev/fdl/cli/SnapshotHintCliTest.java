package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code query --snapshot N <version>} for a snapshot the version does not keep names the version
 * that does (each version keeps only the snapshots it added: SPEC.md section 3), walking first
 * parents by their snapshot ranges, or says that version expired.
 */
class SnapshotHintCliTest {
    @TempDir Path dir;

    @Test
    void theHintNamesTheVersionKeepingTheSnapshotOrSaysItExpired() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path csv = dir.resolve("t.csv");
        String[] ids = new String[3];
        for (int i = 0; i < 3; i++) {
            Files.writeString(csv, "id\n" + i + "\n");
            Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", i == 0 ? "create" : "append");
            Cli.ok(wc, "commit", "-m", "m" + i);
            ids[i] = Cli.ok(wc, "show", "--json").out().replaceAll("(?s).*\"id\"\\s*:\\s*\"([0-9a-f-]{36})\".*", "$1");
        }
        // m0 keeps snapshots 0..1, m1 2..2, m2 3..3: snapshot 1 is m0's, not the parent m1's
        Cli.Result r = Cli.in(wc, "query", "--snapshot", "1", ids[2], "SELECT 1");
        assertThat(r.exit()).as(r.toString()).isNotZero();
        assertThat(r.err()).contains("snapshot 1 is kept by version " + ids[0] + ": fdl query --snapshot 1 " + ids[0])
                .doesNotContain(ids[1]);
        assertThat(Cli.ok(wc, "query", "--snapshot", "1", ids[0], "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n1\n");

        Cli.ok(wc, "expire", "--keep-last", "1");
        Cli.Result gone = Cli.in(wc, "query", "--snapshot", "1", ids[2], "SELECT 1");
        assertThat(gone.err()).contains("snapshot 1 is kept by version " + ids[0] + ", which expired at").doesNotContain("fdl query --snapshot");
    }
}
