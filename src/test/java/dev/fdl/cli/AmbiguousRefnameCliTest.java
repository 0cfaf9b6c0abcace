package dev.fdl.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ref named like a prefix of another version's id hides that version from the bare name: as
 * git, the ref wins, with "warning: refname '…' is ambiguous." when it is created and when it is read.
 */
class AmbiguousRefnameCliTest {
    @TempDir Path dir;

    private static String id(Cli.Result show) throws Exception {
        return new ObjectMapper().readTree(show.out()).get("id").asText();
    }

    @Test
    void aRefNamedLikeAnotherVersionsPrefixWarnsAndWins() throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        Cli.ok(wc, "checkout", "--repo", dir.resolve("repo").toString());
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "id\n1\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "one");
        String v1 = id(Cli.ok(wc, "show", "--json"));
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "append");
        Cli.ok(wc, "commit", "-m", "two");
        String v2 = id(Cli.ok(wc, "show", "--json"));
        int common = 0;
        while (v1.charAt(common) == v2.charAt(common)) common++;
        String prefix = v1.substring(0, Math.max(8, common + 1)); // v1's alone
        String warning = "warning: refname '" + prefix + "' is ambiguous.";

        Cli.Result tag = Cli.ok(wc, "tag", prefix, v2);
        assertThat(tag.err()).contains(warning).contains(v1);
        Cli.Result show = Cli.ok(wc, "show", prefix, "--json");
        assertThat(id(show)).isEqualTo(v2); // the ref wins
        assertThat(show.err()).contains(warning);
        assertThat(Cli.ok(wc, "log", "--oneline", prefix + "~1").err()).contains(warning);

        // the ref's own version starting with its name, and a name that is no version prefix: no word
        String own = v2.substring(0, Math.max(8, common + 1));
        assertThat(Cli.ok(wc, "tag", own).err()).doesNotContain("ambiguous");
        assertThat(Cli.ok(wc, "show", own).err()).doesNotContain("ambiguous");
        assertThat(Cli.ok(wc, "branch", "dev").err()).doesNotContain("ambiguous");
        assertThat(Cli.ok(wc, "show", "dev").err()).doesNotContain("ambiguous");
    }
}
