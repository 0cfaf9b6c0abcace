package dev.fdl.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key {@code import --mode sync --key} records stays true (docs/data.md "The recorded key"): an
 * append or replace that would repeat it (or leave it NULL) is refused, nothing imported, unless
 * {@code --no-key} drops the key; and a diff that refuses a key prints nothing on stdout first.
 */
class RecordedKeyCliTest {
    @TempDir Path dir;
    Path wc;

    @BeforeEach
    void setUp() throws Exception {
        Path root = dir.resolve("repo");
        wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", csv("a.csv", "id,name\n1,a\n2,b\n"), "--table", "p", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "one");
    }

    private String csv(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text).toString();
    }

    private String rowsOfP() {
        return Cli.ok(wc, "query", "--working", "SELECT id, name FROM p ORDER BY ALL", "--csv").out();
    }

    @Test
    void anAppendOrReplaceThatWouldBreakTheRecordedKeyIsRefusedAndNothingIsImported() throws Exception {
        String before = rowsOfP();
        Cli.Result dup = Cli.in(wc, "import", csv("d.csv", "id,name\n1,dup\n"), "--table", "p", "--mode", "append");
        assertThat(dup.exit()).as(dup.toString()).isEqualTo(1);
        assertThat(dup.err()).contains("main.p").contains("(id)").contains("id = 1 would be held by 2 rows")
                .contains("--mode sync --key id").contains("--no-key").contains("Nothing was imported");
        Cli.Result inFile = Cli.in(wc, "import", csv("e.csv", "id,name\n7,x\n5,x\n5,y\n"), "--table", "p", "--mode", "append");
        assertThat(inFile.exit()).as(inFile.toString()).isEqualTo(1);
        assertThat(inFile.err()).contains("id = 5 would be held by 2 rows (first in data row 2 of the file)");
        Cli.Result replace = Cli.in(wc, "import", dir.resolve("e.csv").toString(), "--table", "p", "--mode", "replace");
        assertThat(replace.exit()).as(replace.toString()).isEqualTo(1);
        assertThat(replace.err()).contains("--mode replace").contains("id = 5");
        Cli.Result nul = Cli.in(wc, "import", csv("n.csv", "id,name\n8,x\n,y\n"), "--table", "p", "--mode", "append");
        assertThat(nul.exit()).as(nul.toString()).isEqualTo(1);
        assertThat(nul.err()).contains("would be NULL in data row 2 of the file");
        assertThat(rowsOfP()).isEqualTo(before);
        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit");

        // new keys append; a replace whose file holds the key unique is accepted
        Cli.ok(wc, "import", csv("g.csv", "id,name\n3,c\n"), "--table", "p", "--mode", "append");
        assertThat(rowsOfP()).isEqualTo("id,name\n1,a\n2,b\n3,c\n");
        Cli.ok(wc, "import", csv("r.csv", "id,name\n1,a\n2,b\n3,c\n4,d\n"), "--table", "p", "--mode", "replace");
        Cli.ok(wc, "commit", "-m", "two");

        // --no-key appends anyway and drops the key: diff then compares whole rows and works
        assertThat(Cli.in(wc, "import", dir.resolve("d.csv").toString(), "--table", "p", "--no-key").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "import", dir.resolve("d.csv").toString(), "--table", "p", "--mode", "create", "--no-key").exit())
                .isEqualTo(2);
        Cli.ok(wc, "import", dir.resolve("d.csv").toString(), "--table", "p", "--mode", "append", "--no-key");
        Cli.ok(wc, "commit", "-m", "three");
        Cli.Result diff = Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat");
        assertThat(diff.out()).contains(" main.p | +1 -0 ~0");
        Cli.ok(wc, "import", dir.resolve("e.csv").toString(), "--table", "p", "--mode", "append");
    }

    @Test
    void aSyncWhoseFileEqualsTheTableStillRecordsANewKeyOrEndsTheOldOne() throws Exception {
        Cli.ok(wc, "import", csv("q.csv", "id,name\n1,a\n2,b\n"), "--table", "q");
        Cli.ok(wc, "commit", "-m", "q without key");
        Cli.Result keyed = Cli.ok(wc, "import", dir.resolve("q.csv").toString(), "--table", "q", "--mode", "sync", "--key", "id");
        assertThat(keyed.out()).contains("no row written; snapshot 3 records the key (id)");
        Cli.Result dup = Cli.in(wc, "import", csv("qd.csv", "id,name\n1,dup\n"), "--table", "q", "--mode", "append");
        assertThat(dup.exit()).as(dup.toString()).isEqualTo(1);
        assertThat(dup.err()).contains("id = 1 would be held by 2 rows");

        // the same file again with the same key changes nothing
        Cli.Result again = Cli.ok(wc, "import", dir.resolve("q.csv").toString(), "--table", "q", "--mode", "sync");
        assertThat(again.out()).contains("nothing to write, no snapshot made");

        // --no-key on an equal file ends the recorded key: an append may then repeat it
        assertThat(Cli.ok(wc, "import", dir.resolve("q.csv").toString(), "--table", "q", "--mode", "sync", "--no-key").out())
                .contains("ends the recorded key");
        Cli.ok(wc, "import", dir.resolve("qd.csv").toString(), "--table", "q", "--mode", "append");
    }

    @Test
    void aDiffRefusingAKeyPrintsNothingOnStdout() throws Exception {
        Cli.ok(wc, "import", csv("u.csv", "id,name\n3,x\n4,x\n"), "--table", "u");
        Cli.ok(wc, "commit", "-m", "two");
        for (String[] args : new String[][]{{"diff", "HEAD~1", "HEAD", "--key", "name", "--stat"},
                {"diff", "HEAD~1", "HEAD", "--key", "name"}}) {
            Cli.Result r = Cli.in(wc, args);
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).contains("the key name is not unique in table main.u");
            assertThat(r.out()).as(r.toString()).isEmpty();
        }
    }
}
