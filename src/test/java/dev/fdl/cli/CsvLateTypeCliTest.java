package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CSV column whose late value breaks the type its first rows had becomes text, and fdl says so
 * (docs/data.md): the column, the line and the value, and how to keep the type; import and sync
 * alike. A header-only file given to sync says it holds no rows. {@code yes}/{@code no} are
 * BOOLEAN as docs/data.md says, and {@code --schema} keeps them text.
 */
class CsvLateTypeCliTest {
    @TempDir Path dir;

    /** 50,000 data rows (beyond DuckDB's 20,480-row sample): {@code n/a} in qty at data row 45,000, {@code 2024-13-45} in day at 48,000. */
    private Path late(String name) throws IOException {
        StringBuilder b = new StringBuilder("id,qty,day\n");
        for (int i = 1; i <= 50_000; i++)
            b.append(i).append(',').append(i == 45_000 ? "n/a" : Integer.toString(i % 97)).append(',')
                    .append(i == 48_000 ? "2024-13-45" : String.format("2024-01-%02d", i % 28 + 1)).append('\n');
        return Files.writeString(dir.resolve(name), b);
    }

    @Test
    void importNamesTheColumnLineAndValueThatMadeItText() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.Result r = Cli.ok(wc, "import", late("late.csv").toString(), "-t", "t");
        // the header is line 1: data row 45,000 is line 45,001
        assertThat(r.err()).contains("warning: column 'qty'").contains("line 45,001").contains("'n/a'").contains("BIGINT")
                .contains("--schema 'qty BIGINT'");
        assertThat(r.err()).contains("column 'day'").contains("line 48,001").contains("'2024-13-45'").contains("DATE");
        assertThat(Cli.ok(wc, "import", late("again.csv").toString(), "-t", "u", "--json").out())
                .contains("\"warnings\" : [ \"column 'qty'");
        // the remedy printed works once the value is made empty
        Path fixed = Files.writeString(dir.resolve("fixed.csv"), Files.readString(dir.resolve("late.csv")).replace(",n/a,", ",,")
                .replace("2024-13-45", "2024-12-15"));
        assertThat(Cli.ok(wc, "import", fixed.toString(), "-t", "v", "--schema", "qty BIGINT").err()).doesNotContain("warning");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT typeof(qty), typeof(day) FROM v LIMIT 1").out()).contains("BIGINT").contains("DATE");
    }

    @Test
    void syncSaysTheSame() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path first = Files.writeString(dir.resolve("first.csv"), "id,qty,day\n1,5,2024-01-01\n");
        Cli.ok(wc, "import", first.toString(), "-t", "s", "--schema", "qty VARCHAR, day VARCHAR");
        Cli.Result r = Cli.ok(wc, "import", late("late.csv").toString(), "-t", "s", "--mode", "sync", "--key", "id");
        assertThat(r.err()).contains("warning: column 'qty'").contains("line 45,001").contains("'n/a'");
        Cli.Result fresh = Cli.ok(wc, "import", late("late2.csv").toString(), "-t", "fresh", "--mode", "sync", "--key", "id");
        assertThat(fresh.err()).contains("warning: column 'qty'").contains("line 45,001");
    }

    @Test
    void aHeaderOnlyFileSyncedSaysItHoldsNoRows() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), "id,name\n1,a\n").toString(), "-t", "t", "--mode", "sync", "--key", "id");
        Cli.Result r = Cli.in(wc, "import", Files.writeString(dir.resolve("h.csv"), "id,name\n").toString(), "-t", "t", "--mode", "sync");
        assertThat(r.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("holds no data rows").doesNotContain("type");
    }

    @Test
    void yesAndNoAreBooleanUnlessNamedText() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path yn = Files.writeString(dir.resolve("yn.csv"), "id,answer\n1,yes\n2,no\n");
        Cli.ok(wc, "import", yn.toString(), "-t", "b");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT typeof(answer) AS t, answer FROM b ORDER BY id").out()).contains("BOOLEAN").contains("true");
        Cli.ok(wc, "import", yn.toString(), "-t", "v", "--schema", "answer VARCHAR");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT answer FROM v ORDER BY id").out()).contains("yes").contains("no");
    }
}
