package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sync without {@code --key} into a table whose key an earlier {@code sync --key} recorded uses
 * that key (a daily job that forgets {@code --key} once does not lose it); {@code --no-key} compares
 * whole rows and ends it (the key was dropped without a word).
 */
class SyncKeepsRecordedKeyCliTest {
    @TempDir Path dir;

    @Test
    void aSyncWithoutKeyUsesTheRecordedKeyAndNoKeyEndsIt() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path a = Files.writeString(dir.resolve("a.csv"), "k1,k2,v\n1,a,x\n1,b,y\n");
        Path b = Files.writeString(dir.resolve("b.csv"), "k1,k2,v\n1,a,CHANGED\n1,b,y\n");
        Path c = Files.writeString(dir.resolve("c.csv"), "k1,k2,v\n1,a,AGAIN\n1,b,y\n");
        Cli.ok(wc, "import", a.toString(), "-t", "ck", "--mode", "sync", "--key", "k1,k2");
        Cli.ok(wc, "commit", "-m", "1");

        Cli.Result forgot = Cli.ok(wc, "import", b.toString(), "-t", "ck", "--mode", "sync");
        assertThat(forgot.out()).contains("0 added, 0 removed, 1 changed").contains("recorded key (k1, k2)");
        Cli.ok(wc, "commit", "-m", "2");
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat").out()).contains("0 row(s) added, 0 removed, 1 changed");

        // a file without a key column is refused, naming both ways out; nothing is imported
        Path noK2 = Files.writeString(dir.resolve("d.csv"), "k1,v\n1,x\n");
        Cli.Result missing = Cli.in(wc, "import", noK2.toString(), "-t", "ck", "--mode", "sync");
        assertThat(missing.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("'k2'").contains("--key").contains("--no-key");
        assertThat(Cli.in(wc, "import", c.toString(), "-t", "ck", "--mode", "sync", "--key", "k1", "--no-key").exit())
                .isEqualTo(ExitCodes.USAGE);

        Cli.Result whole = Cli.ok(wc, "import", c.toString(), "-t", "ck", "--mode", "sync", "--no-key", "--json");
        assertThat(whole.out()).contains("\"added\" : 1").contains("\"removed\" : 1").contains("\"key\" : [ ]");
        Cli.ok(wc, "commit", "-m", "3");
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat").out()).contains("1 row(s) added, 1 removed, 0 changed");
    }
}
