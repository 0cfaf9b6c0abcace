package dev.fdl.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shrink guard on a merge's commit (docs/checks.md): the rule is a commit's (more than 10% of a
 * table's rows removed, against both parents), and a refusal says the merge removed them and how to
 * go on: {@code --allow-shrink} (then recorded as a warning worded the same way) or {@code fdl merge --abort}.
 */
class MergeShrinkMessageCliTest {
    @TempDir Path dir;
    Path wc, other;
    int files;

    String csv(int from, int to, int... without) throws IOException {
        StringBuilder b = new StringBuilder("id\n");
        outer:
        for (int i = from; i <= to; i++) {
            for (int w : without) if (w == i) continue outer;
            b.append(i).append('\n');
        }
        Path p = dir.resolve("f" + (files++) + ".csv");
        Files.writeString(p, b.toString());
        return p.toString();
    }

    @BeforeEach
    void branches() throws IOException {
        wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv(1, 10), "--table", "cities", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "ten cities");
        other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(other, "checkout", "--repo", dir.resolve("repo").toString(), "-b", "staging", "main");
    }

    @Test
    void aMergeThatRemovesTooManyRowsSaysTheMergeDidItAndHowToAcceptIt() throws IOException {
        // each side removes two other cities (20%, accepted on each side); together the merge removes 2 of main's 8
        Cli.ok(other, "import", csv(1, 10, 3, 4), "--table", "cities", "--mode", "sync");
        Cli.ok(other, "commit", "--allow-shrink", "-m", "staging: without 3 and 4");
        Cli.ok(wc, "import", csv(1, 10, 1, 2), "--table", "cities", "--mode", "sync");
        Cli.ok(wc, "commit", "--allow-shrink", "-m", "main: without 1 and 2");
        Cli.ok(wc, "merge", "staging");

        Cli.Result refused = Cli.in(wc, "commit");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("failed  guard: cities keeps its rows\n").contains("the merge removes 2 rows of 'cities' "
                        + "(25.0%: 8 rows on the branch -> 6 merged; at most 10% allowed, the default")
                .contains("if the merge is meant to remove them, commit it with --allow-shrink (fdl merge --abort undoes a pending merge)");
        Cli.Result checked = Cli.in(wc, "check", "--working");
        assertThat(checked.exit()).isEqualTo(1);
        assertThat(checked.out() + checked.err()).contains("the merge removes 2 rows of 'cities'");

        Cli.ok(wc, "commit", "--allow-shrink");
        assertThat(Cli.ok(wc, "show", "--json").out()).contains("the merge removes 2 rows of 'cities'").contains("allowed by --allow-shrink");
        assertThat(Cli.ok(wc, "query", "--csv", "HEAD", "SELECT count(*) AS n FROM cities").out()).isEqualTo("n\n6\n");
    }

    @Test
    void aMergeThatOnlyBringsInTheOtherSidesRemovalPassesAndAPlainShrinkKeepsItsWords() throws IOException {
        Cli.ok(other, "import", csv(1, 10, 3, 4), "--table", "cities", "--mode", "sync");
        Cli.ok(other, "commit", "--allow-shrink", "-m", "staging: without 3 and 4");
        Cli.ok(wc, "import", csv(1, 11), "--table", "cities", "--mode", "sync");
        Cli.ok(wc, "commit", "-m", "main: one more");
        Cli.ok(wc, "merge", "staging");
        Cli.ok(wc, "commit"); // 11 -> 9 against main, but staging published that removal: not refused again

        Cli.ok(wc, "import", csv(1, 5), "--table", "cities", "--mode", "sync");
        Cli.Result plain = Cli.in(wc, "commit", "-m", "fewer");
        assertThat(plain.exit()).as(plain.toString()).isEqualTo(1);
        assertThat(plain.err()).contains("failed  guard: cities keeps its rows\n").contains(" 9 rows -> 5 (44.4% removed;")
                .contains("if this is meant, commit with --allow-shrink").doesNotContain("merge");
    }
}
