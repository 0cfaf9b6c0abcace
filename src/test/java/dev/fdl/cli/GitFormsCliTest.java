package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** git's command-line forms a new user types: {@code log -3}, {@code log a..b}, {@code diff a..b}, and {@code log -- path} refused clearly. */
class GitFormsCliTest {
    @TempDir Path dir;

    /** The messages of {@code log --oneline} lines, newest first. */
    private static List<String> messages(Cli.Result r) {
        return r.out().lines().filter(l -> !l.startsWith("#")).map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList();
    }

    @Test
    void logTakesMinusNAndTwoDotRangesAndDiffTakesTwoDots() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path csv = dir.resolve("t.csv");
        for (int i = 1; i <= 4; i++) {
            Files.writeString(csv, "id\n" + i + "\n");
            Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", i == 1 ? "create" : "append");
            Cli.ok(wc, "commit", "-m", "m" + i);
            if (i == 1) Cli.ok(wc, "tag", "v1");
            if (i == 2) {
                // dev branches off at m2 and adds d1
                Path other = Files.createDirectories(dir.resolve("other"));
                Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "dev");
                Files.writeString(dir.resolve("d.csv"), "id\n100\n");
                Cli.ok(other, "import", dir.resolve("d.csv").toString(), "--table", "t", "--mode", "append");
                Cli.ok(other, "commit", "-m", "d1");
            }
        }
        assertThat(messages(Cli.ok(wc, "log", "--oneline", "-2"))).containsExactly("m4", "m3");
        assertThat(messages(Cli.ok(wc, "log", "-3", "--oneline", "main~1"))).containsExactly("m3", "m2", "m1");
        assertThat(messages(Cli.ok(wc, "log", "--oneline", "v1..main"))).containsExactly("m4", "m3", "m2");
        assertThat(messages(Cli.ok(wc, "log", "--oneline", "main..dev"))).containsExactly("d1");
        assertThat(messages(Cli.ok(wc, "log", "--oneline", "dev..main"))).containsExactly("m4", "m3");
        assertThat(messages(Cli.ok(wc, "log", "--oneline", "dev.."))).containsExactly("m4", "m3");
        assertThat(messages(Cli.ok(wc, "log", "--oneline", "-1", "v1..dev"))).containsExactly("d1");
        assertThat(Cli.ok(wc, "log", "--oneline", "main..v1").out()).isEmpty();

        Cli.Result paths = Cli.in(wc, "log", "--", "people");
        assertThat(paths.exit()).as(paths.toString()).isEqualTo(2);
        assertThat(paths.err()).contains("takes no paths");
        assertThat(Cli.in(wc, "log", "v1...main").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "log", "v1", "main").exit()).isEqualTo(2);

        Cli.Result range = Cli.ok(wc, "diff", "v1..main", "--stat");
        assertThat(range.out()).isEqualTo(Cli.ok(wc, "diff", "v1", "main", "--stat").out()).contains(" main.t | +3 -0 ~0");
        assertThat(Cli.in(wc, "diff", "v1..main", "dev").exit()).isEqualTo(2);
    }
}
