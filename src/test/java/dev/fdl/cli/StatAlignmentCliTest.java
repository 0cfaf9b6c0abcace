package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-table lines of log --stat and diff --stat are aligned as git's diff --stat: names padded, numbers right-aligned. */
class StatAlignmentCliTest {
    @TempDir Path dir;

    private static String csv(int from, int to) {
        return "id\n" + IntStream.range(from, to).mapToObj(Integer::toString).collect(Collectors.joining("\n")) + "\n";
    }

    private static List<String> statLines(String out) {
        return out.lines().filter(l -> l.contains(" | ")).toList();
    }

    @Test
    void logAndDiffStatLinesAreAligned() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), csv(0, 1)).toString(), "--table", "t");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("b.csv"), csv(0, 12)).toString(), "--table", "a_longer_name");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("c.csv"), csv(1, 2)).toString(), "--table", "t", "--mode", "append");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("d.csv"), csv(12, 1012)).toString(), "--table", "a_longer_name", "--mode", "append");
        Cli.ok(wc, "commit", "-m", "two");

        Cli.Result log = Cli.ok(wc, "log", "--stat", "--oneline", "-1");
        assertThat(statLines(log.out())).containsExactly(
                " main.t             |    +1 -0     (2 rows)",
                " main.a_longer_name | +1000 -0 (1,012 rows)");
        Cli.Result diff = Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat");
        assertThat(statLines(diff.out())).containsExactly(
                " main.t             |    +1 -0 ~0",
                " main.a_longer_name | +1000 -0 ~0");
    }
}
