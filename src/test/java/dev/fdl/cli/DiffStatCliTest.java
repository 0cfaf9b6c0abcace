package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl diff --stat} lists, as git does, only the tables that differ (rows or schema), in text,
 * JSON and CSV alike; the summary line counts a table whose only change is a column as changed.
 */
class DiffStatCliTest {
    @TempDir Path dir;

    @Test
    void onlyTablesThatDifferAreListed() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path a = Files.writeString(dir.resolve("a.csv"), "id,name\n1,a\n2,b\n");
        Cli.ok(wc, "import", a.toString(), "--table", "t");
        Cli.ok(wc, "import", a.toString(), "--table", "p", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "import", a.toString(), "--table", "s", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "one");

        Cli.Result none = Cli.ok(wc, "diff", "HEAD", "--stat");
        assertThat(none.out()).doesNotContain(" | ").contains("0 table(s) added, 0 dropped, 0 changed; 0 row(s) added");
        assertThat(Cli.ok(wc, "diff", "HEAD").out()).doesNotContain(" | ");

        Cli.ok(wc, "import", Files.writeString(dir.resolve("b.csv"), "id,name\n1,a\n2,B\n3,c\n").toString(),
                "--table", "p", "--mode", "sync", "--key", "id");
        // s gains a column whose values are all NULL: a schema change, no row compared differs
        Cli.ok(wc, "import", Files.writeString(dir.resolve("c.csv"), "id,name,note\n1,a,\n2,b,\n").toString(),
                "--table", "s", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "two");

        Cli.Result stat = Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat");
        assertThat(stat.out()).contains(" main.p | +1 -0 ~1").contains(" main.s | +0 -0 ~0").doesNotContain("main.t")
                .contains("0 table(s) added, 0 dropped, 2 changed; 1 row(s) added, 0 removed, 1 changed");
        String json = Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat", "--json").out();
        assertThat(json).contains("{\"table\":\"main.p\",\"change\":\"stat\"").contains("\"tables_changed\":2")
                .doesNotContain("main.t");
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat", "--csv").out())
                .isEqualTo("table,added,removed,changed\nmain.p,1,0,1\nmain.s,0,0,0\n");
    }
}
