package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl diff} across an import that replaced a table with other columns: {@code --mode
 * replace} ends every column and adds the file's under new column ids, so columns are paired by
 * name where their ids differ; the schema change is reported and the rows are compared on the
 * columns both sides have ("SELECT clause without selection list").
 */
class SchemaChangeDiffCliTest {
    @TempDir Path dir;

    Path wc;

    void init() throws Exception {
        Path root = dir.resolve("repo");
        wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), "id,v\n1,a\n2,b\n").toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "one");
    }

    @Test
    void aReplaceThatAddsAColumnIsDiffedOnTheColumnsBothSidesHave() throws Exception {
        init();
        Cli.ok(wc, "import", Files.writeString(dir.resolve("c.csv"), "id,v,w\n1,a,x\n2,c,y\n").toString(),
                "--table", "t", "--mode", "replace");
        Cli.Result work = Cli.ok(wc, "diff");
        assertThat(work.out()).contains("w VARCHAR").contains("+ 2 | c").contains("- 2 | b").doesNotContain("column dropped");
        Cli.ok(wc, "commit", "-m", "two");
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat").out())
                .contains("1 row(s) added, 1 removed");
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--key", "id", "--stat").out())
                .contains("0 row(s) added, 0 removed, 1 changed");
    }

    @Test
    void aReplaceThatRetypesAColumnReportsTheTypeAndComparesAsText() throws Exception {
        init();
        Cli.ok(wc, "import", Files.writeString(dir.resolve("d.csv"), "id,v\n1,a\n2,b\n3,c\n").toString(),
                "--table", "t", "--mode", "replace", "--schema", "id VARCHAR");
        Cli.Result stat = Cli.ok(wc, "diff", "--stat");
        assertThat(stat.out()).contains("1 row(s) added, 0 removed");
        assertThat(Cli.ok(wc, "diff").out()).contains("retyped").contains("id BIGINT -> VARCHAR");
    }

    @Test
    void aReplaceThatSharesNoColumnCountsEveryRowAsRemovedAndAdded() throws Exception {
        init();
        Cli.ok(wc, "import", Files.writeString(dir.resolve("e.csv"), "x\n1\n2\n3\n").toString(),
                "--table", "t", "--mode", "replace");
        assertThat(Cli.ok(wc, "diff", "--stat").out()).contains("3 row(s) added, 2 removed");
    }
}
