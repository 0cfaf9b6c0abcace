package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl diff --exit-code} and {@code --quiet} as git diff's: with either, exit 1 when the sides
 * differ (rows, a column, a table added or dropped) and 0 when they do not; {@code --quiet} prints
 * nothing at all; without them a diff that finds differences exits 0; an error keeps its own code.
 */
class DiffExitCodeCliTest {
    @TempDir Path dir;

    private String csv(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text).toString();
    }

    @Test
    void exitCodeAndQuietTellWhetherTheSidesDiffer() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv("a.csv", "id,name\n1,a\n2,b\n"), "--table", "t", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "one");

        Cli.Result same = Cli.in(wc, "diff", "--exit-code");
        assertThat(same.exit()).as(same.toString()).isZero();
        assertThat(same.out()).contains("0 table(s) added, 0 dropped, 0 changed");
        Cli.Result quietSame = Cli.in(wc, "diff", "--quiet");
        assertThat(quietSame.exit()).as(quietSame.toString()).isZero();
        assertThat(quietSame.out()).isEmpty();
        assertThat(quietSame.err()).isEmpty();

        Cli.ok(wc, "import", csv("b.csv", "id,name\n1,a\n2,B\n"), "--table", "t", "--mode", "sync");
        Cli.Result quiet = Cli.in(wc, "diff", "--quiet");
        assertThat(quiet.exit()).as(quiet.toString()).isEqualTo(1);
        assertThat(quiet.out()).isEmpty();
        assertThat(quiet.err()).isEmpty();
        Cli.Result shown = Cli.in(wc, "diff", "--exit-code");
        assertThat(shown.exit()).as(shown.toString()).isEqualTo(1);
        assertThat(shown.out()).contains("~ 2: name: b -> B");
        assertThat(Cli.ok(wc, "diff").out()).as("without --exit-code differences exit 0").contains("~ 2: name: b -> B");
        Cli.Result json = Cli.in(wc, "diff", "--exit-code", "--stat", "--json");
        assertThat(json.exit()).isEqualTo(1);
        assertThat(json.out()).contains("\"tables_changed\":1");
        Cli.ok(wc, "commit", "-m", "two");
        assertThat(Cli.in(wc, "diff", "--quiet", "HEAD~1", "HEAD").exit()).isEqualTo(1);
        assertThat(Cli.in(wc, "diff", "--quiet", "HEAD", "HEAD").exit()).isZero();
        assertThat(Cli.in(wc, "diff", "--quiet", "HEAD~1", "HEAD", "--table", "t").exit()).isEqualTo(1);

        // a column alone, a table added, a table dropped: each is a difference
        Cli.ok(wc, "import", csv("c.csv", "id,name,note\n1,a,\n2,B,\n"), "--table", "t", "--mode", "sync");
        assertThat(Cli.in(wc, "diff", "--quiet").exit()).as("a column of NULLs").isEqualTo(1);
        Cli.ok(wc, "commit", "-m", "three");
        Cli.ok(wc, "import", csv("u.csv", "x\n1\n"), "--table", "u");
        assertThat(Cli.in(wc, "diff", "--quiet").exit()).as("a table added").isEqualTo(1);
        Cli.ok(wc, "commit", "-m", "four");
        Cli.ok(wc, "rm", "u");
        assertThat(Cli.in(wc, "diff", "--quiet").exit()).as("a table dropped").isEqualTo(1);

        // an error keeps its own code and says so on stderr; the change feed takes neither option
        Cli.Result missing = Cli.in(wc, "diff", "--quiet", "no-such-ref");
        assertThat(missing.exit()).as(missing.toString()).isEqualTo(4);
        assertThat(missing.err()).contains("no-such-ref");
        assertThat(Cli.in(wc, "diff", "--quiet", "--changes").exit()).isEqualTo(2);
    }
}
