package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * fdl restore through the command line: an old version comes back as a new version that reads
 * identically (checksum over all rows), names the old files (no data file copied), survives
 * expire and gc of the original, and an expired version is refused by name.
 */
class RestoreCliTest {
    @TempDir Path dir;

    static final String MD5 = "SELECT count(*) AS n, md5(coalesce(string_agg(CAST(x AS VARCHAR), chr(10) ORDER BY CAST(x AS VARCHAR)), '')) "
            + "AS m FROM (SELECT * FROM cities) AS x";

    String checksum(Path wc, String ref) {
        return Cli.ok(wc, "query", "--csv", ref, MD5).out();
    }

    static List<String> dataFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root.resolve("data"))) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void aRestoredVersionReadsAsTheOriginalNamesItsFilesAndOutlivesItsExpiry() throws Exception {
        Path root = dir.resolve("repo"), wc = dir.resolve("wc");
        Files.createDirectories(wc);
        Path m1 = WorkflowCliTest.month(dir, "2024-10-04"), m2 = WorkflowCliTest.month(dir, "2024-12-01");
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", m1.toString(), "--table", "cities");
        String v1 = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "October", "--json").out()).get("id").asText();
        Cli.ok(wc, "import", m2.toString(), "--table", "cities", "--mode", "replace");
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "December");
        String october = checksum(wc, v1);
        assertThat(checksum(wc, "HEAD")).isNotEqualTo(october);
        List<String> files = dataFiles(root);

        Cli.Result restored = Cli.ok(wc, "restore", v1.substring(0, 13));
        assertThat(restored.out()).contains("Restored version " + v1).contains("No data file was copied")
                .containsPattern("(inserted into|deleted from) main\\.cities").doesNotContainPattern("[a-z]+_[a-z_]+:\\d");
        assertThat(dataFiles(root)).as("no data file copied").isEqualTo(files);
        JsonNode v3 = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "--json").out());
        assertThat(v3.get("message").asText()).contains("Restore version " + v1).contains("October");
        assertThat(v3.get("parents").get(0).asText()).as("a new version on the branch").isNotEqualTo(v1);
        assertThat(checksum(wc, "HEAD")).isEqualTo(october);
        assertThat(dataFiles(root)).isEqualTo(files);

        // the original and December expire; gc keeps the files the restored version names
        Cli.ok(wc, "expire", "--keep-last", "1");
        Cli.ok(wc, "gc", "--grace", "0s");
        assertThat(dataFiles(root)).hasSize(files.size() - 1);
        assertThat(checksum(wc, "HEAD")).isEqualTo(october);
        Cli.ok(wc, "verify");

        Cli.Result gone = Cli.in(wc, "restore", v1);
        assertThat(gone.exit()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(gone.err()).contains("version " + v1 + " expired on");
    }

    @Test
    void aMessageGivenAtCommitStillNamesTheRestoredVersion() throws Exception {
        Path root = dir.resolve("repo"), wc = dir.resolve("wc"), csv = dir.resolve("t.csv");
        Files.createDirectories(wc);
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Files.writeString(csv, "id,name\n1,a\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "t");
        String v1 = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "one", "--json").out()).get("id").asText();
        Files.writeString(csv, "id,name\n2,b\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "append");
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "two");
        assertThat(Cli.in(wc, "commit").exit()).as("no message and nothing restored").isEqualTo(ExitCodes.USAGE);

        Cli.ok(wc, "restore", v1, "-m", "back to one");
        JsonNode v3 = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "undo two", "--json").out());
        assertThat(v3.get("message").asText()).startsWith("undo two").contains("Restores version " + v1);
        assertThat(Cli.ok(wc, "query", "--csv", "SELECT id, name FROM t").out().lines()).containsExactly("id,name", "1,a");
        assertThat(Cli.ok(wc, "query", "--csv", "--working", "SELECT count(*) AS n FROM t").out().lines()).containsExactly("n", "1");
        Cli.Result bad = Cli.in(wc, "query", "--working", "--snapshot", "999", "SELECT count(*) FROM t");
        assertThat(bad.exit()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(bad.err()).contains("999").contains("the working copy").doesNotContain(".fdl").doesNotContain("query-");
        Cli.Result again = Cli.in(wc, "restore", v1);
        assertThat(again.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(again.err()).contains("nothing to restore");
    }
}
