package dev.fdl.check;

import dev.fdl.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The change guards refuse a dropped table, a dropped or retyped column and a shrink unless the flag says it is meant. */
class GuardsCliTest {
    @TempDir Path dir;

    private static String rows(int n, boolean textIds) {
        StringBuilder sb = new StringBuilder("id,name\n");
        for (int i = 0; i < n; i++) sb.append(textIds ? "x" + i : Integer.toString(i)).append(",n").append(i).append('\n');
        return sb.toString();
    }

    @Test
    void droppedTablesRetypedColumnsAndShrinksNeedTheirFlag() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, rows(10, false));
        Cli.ok(wc, "import", csv.toString(), "--table", "t");
        Cli.ok(wc, "import", csv.toString(), "--table", "u");
        Cli.ok(wc, "commit", "-m", "t and u");

        Cli.ok(wc, "rm", "u");
        Cli.Result r = Cli.in(wc, "commit", "-m", "drop u");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("failed  guard: no table dropped").contains("dropped: u").contains("--allow-drop");
        assertThat(Cli.ok(wc, "commit", "-m", "drop u", "--allow-drop").err()).contains("fdl: warning: guard: no table dropped: dropped: u (allowed by --allow-drop)");

        Files.writeString(csv, rows(10, true));
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "replace");
        r = Cli.in(wc, "commit", "-m", "ids as text");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("t.id retyped BIGINT -> VARCHAR").contains("--allow-schema-change");
        Cli.ok(wc, "commit", "-m", "ids as text", "--allow-schema-change");

        // 4 of 10 rows removed: over the default 10%, within a threshold of 50% set on the resource
        Files.writeString(csv, rows(6, true));
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "replace");
        assertThat(Cli.in(wc, "check", "--working").out()).contains("failed  guard: t keeps its rows")
                .contains("at most 10% allowed, the default");
        Files.writeString(wc.resolve("dataset.json"), Files.readString(wc.resolve("dataset.json"))
                .replaceFirst("\"name\" *: *\"t\"", "\"name\": \"t\", \"fdl:max_shrink\": 0.5"));
        assertThat(Cli.ok(wc, "check", "--working").out()).contains("passed  guard: t keeps its rows");
        Cli.ok(wc, "commit", "-m", "fewer rows, within the table's threshold");
    }

    @Test
    void aColumnRenamedBySyncIsARenameNotADrop() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path csv = dir.resolve("k.csv");
        Files.writeString(csv, "id,v\n1,a\n2,b\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "k", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "k");

        // the file's header renames v to V (sync keeps the column's id); a rename needs no flag
        Files.writeString(csv, "id,V\n1,a\n2,b\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "k", "--mode", "sync");
        Cli.Result r = Cli.in(wc, "commit", "-m", "V");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).doesNotContain("dropped");

        assertThat(Cli.ok(wc, "check", "--working").out()).contains("passed  guard: no table dropped")
                .contains("passed  guard: no column dropped or retyped");
    }
}
