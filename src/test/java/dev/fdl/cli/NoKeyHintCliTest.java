package dev.fdl.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sync or merge of a table without a key (none given, none recorded) matches rows whole, as
 * multisets; it says so once on stderr in git's hint style, with the command that records or gives
 * a key, and leaves stdout and the exit code as they are. Whole rows asked for ({@code --no-key}),
 * a key given or recorded, and {@code --quiet} print no hint.
 */
class NoKeyHintCliTest {
    @TempDir Path dir;
    Path wc;
    int files;

    @BeforeEach
    void workingCopy() {
        wc = Cli.newWorkingCopy(dir);
    }

    String csv(String content) throws IOException {
        Path p = dir.resolve("f" + (files++) + ".csv");
        Files.writeString(p, content);
        return p.toString();
    }

    static List<String> hints(Cli.Result r) {
        return r.err().lines().filter(l -> l.startsWith("hint: ")).toList();
    }

    /** The command a hint line names after {@code marker}, with {@code <column>} filled, as fdl's arguments (without "fdl"). */
    static String[] pasted(String hint, String marker, String column) {
        String command = hint.substring(hint.indexOf(marker) + marker.length()).replace("<column>", column);
        int end = command.indexOf(';');
        List<String> words = new ArrayList<>(Arrays.asList((end < 0 ? command : command.substring(0, end)).split(" ")));
        assertThat(words.remove(0)).isEqualTo("fdl");
        return words.toArray(String[]::new);
    }

    @Test
    void aSyncWithoutAKeySaysOnceThatRowsCompareWholeAndHowToRecordOne() throws IOException {
        // geonameid repeats, as in a world-cities file: it looks like a key and is none
        String first = csv("geonameid,name\n1,Aachen\n1,Aachen Mitte\n2,Bonn\n");
        Cli.Result created = Cli.ok(wc, "import", first, "--table", "cities", "--mode", "sync");
        assertThat(created.out()).startsWith("Synced main.cities to 3 rows").doesNotContain("hint");
        assertThat(hints(created)).containsExactly(
                "hint: table 'main.cities' has no key: sync compared rows whole (a changed row is one removed and one added)",
                "hint: to match rows by a key (unique, never NULL), record it: fdl import " + first
                        + " --table cities --mode sync --key <column>");

        String changed = csv("geonameid,name\n1,Aachen\n1,Aix-la-Chapelle\n2,Bonn\n");
        Cli.Result whole = Cli.ok(wc, "import", changed, "--table", "cities", "--mode", "sync");
        assertThat(whole.out()).contains("): 1 added, 1 removed\n").doesNotContain("changed");
        assertThat(hints(whole)).hasSize(2).first().asString().contains("table 'main.cities' has no key");

        Cli.Result quiet = Cli.ok(wc, "import", csv("geonameid,name\n1,Aachen\n1,Aix-la-Chapelle\n2,Bonn\n3,Köln\n"),
                "--table", "cities", "--mode", "sync", "-q");
        assertThat(quiet.out()).isEmpty();
        assertThat(quiet.err()).isEmpty();
        String asked = csv("geonameid,name\n1,Aachen\n1,Aix-la-Chapelle\n2,Bonn\n");
        Cli.Result noKey = Cli.ok(wc, "import", asked, "--table", "cities", "--mode", "sync", "--no-key");
        assertThat(hints(noKey)).as("--no-key asks for whole rows").isEmpty();

        // the hint's command: the repeated geonameid is refused as a key; a unique column is recorded
        Cli.Result equal = Cli.ok(wc, "import", asked, "--table", "cities", "--mode", "sync");
        String record = hints(equal).get(1);
        Cli.Result refused = Cli.in(wc, pasted(record, "record it: ", "geonameid"));
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("geonameid");
        Cli.Result recorded = Cli.ok(wc, pasted(record, "record it: ", "name"));
        assertThat(recorded.out()).contains("records the key (name)");
        assertThat(hints(recorded)).isEmpty();
        Cli.Result keyed = Cli.ok(wc, "import", csv("geonameid,name\n1,Aachen\n7,Aix-la-Chapelle\n2,Bonn\n"),
                "--table", "cities", "--mode", "sync");
        assertThat(keyed.out()).contains("0 added, 0 removed, 1 changed").contains("recorded key (name)");
        assertThat(keyed.err()).doesNotContain("hint:");
    }

    @Test
    void aMergeOfATableWithoutAKeySaysOnceThatRowsMatchedWholeAndAKeyedMergeDoesNot() throws IOException {
        Cli.ok(wc, "import", csv("x,y\n1,a\n2,b\n"), "--table", "bag");
        Cli.ok(wc, "commit", "-m", "base");
        Path other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(other, "checkout", "--repo", dir.resolve("repo").toString(), "-b", "staging", "main");
        Cli.ok(other, "import", csv("x,y\n3,c\n"), "--table", "bag", "--mode", "append");
        Cli.ok(other, "commit", "-m", "staging: 3");
        Cli.ok(wc, "import", csv("x,y\n4,d\n"), "--table", "bag", "--mode", "append");
        Cli.ok(wc, "commit", "-m", "main: 4");

        Cli.Result merged = Cli.ok(wc, "merge", "staging");
        assertThat(merged.out()).contains("rows merged as multisets").doesNotContain("hint");
        assertThat(hints(merged)).containsExactly(
                "hint: table 'bag' has no key: the merge matched its rows whole, as multisets (a changed row is one removed and one added)",
                "hint: to merge rows by a key (unique, never NULL) instead: fdl merge --abort, then fdl merge staging --key <column>; "
                        + "fdl import --mode sync --key <column> records a key for later merges");
        Cli.ok(wc, "merge", "--abort");
        Cli.Result quiet = Cli.ok(wc, "merge", "staging", "-q");
        assertThat(quiet.err()).doesNotContain("hint:");
        Cli.ok(wc, "merge", "--abort");
        Cli.Result keyed = Cli.ok(wc, pasted(hints(merged).get(1), "then ", "x"));
        assertThat(keyed.out()).contains("rows merged on key (x)");
        assertThat(keyed.err()).doesNotContain("hint:");
        assertThat(Cli.ok(wc, "query", "--csv", "--working", "SELECT x FROM bag ORDER BY x").out()).isEqualTo("x\n1\n2\n3\n4\n");
    }
}
