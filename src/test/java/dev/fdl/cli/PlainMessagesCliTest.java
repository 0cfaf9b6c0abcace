package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Messages that say what happened in plain words: counts in their number, what a forced checkout dropped, an invalid description. */
class PlainMessagesCliTest {
    @TempDir Path dir;

    @Test
    void oneRowIsCountedInTheSingular() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path one = Files.writeString(dir.resolve("one.csv"), "id,name\n1,a\n");
        assertThat(Cli.ok(wc, "import", one.toString(), "-t", "t").out()).startsWith("Imported 1 row into main.t ");
        assertThat(Cli.ok(wc, "import", one.toString(), "-t", "s", "--mode", "sync", "--key", "id").out()).startsWith("Synced main.s to 1 row ");
        assertThat(Cli.ok(wc, "import", one.toString(), "-t", "s", "--mode", "sync").out()).contains("(1 row)");
    }

    @Test
    void forcedCheckoutOfTheCurrentBranchSaysWhatItDiscarded() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path a = Files.writeString(dir.resolve("a.csv"), "id\n1\n2\n");
        Cli.ok(wc, "import", a.toString(), "-t", "t");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "import", a.toString(), "-t", "t", "--mode", "append");
        Cli.ok(wc, "import", a.toString(), "-t", "u");
        Cli.Result forced = Cli.ok(wc, "checkout", "--force", "main");
        assertThat(forced.out()).contains("Discarded 2 uncommitted snapshots");
        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit");
        assertThat(Cli.ok(wc, "checkout", "--force", "main").out()).doesNotContain("Discarded").contains("Already on 'main'");
    }

    @Test
    void statusSaysADescriptionThatIsNotJsonIsInvalid() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"x\",\n  \"title\" \"no colon\"}\n");
        Cli.Result st = Cli.ok(wc, "status");
        assertThat(st.out()).contains("Description: dataset.json").contains("invalid").contains("line 2")
                .doesNotContain("published by the next commit");
        assertThat(Cli.ok(wc, "status", "--json").out()).contains("\"description_invalid\"");
    }
}
