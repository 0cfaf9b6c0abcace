package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --null-string} for CSV import and sync (docs/data.md): a field holding exactly the text
 * reads as NULL, in the types detected and in the values read. The late-type warning's advice,
 * pasted as printed, keeps the column's type with NULL where the text was; import and sync alike.
 */
class NullStringCliTest {
    @TempDir Path dir;

    /** Data rows beyond DuckDB's 20,480-row sample. */
    private static final int ROWS = 25_000;

    /** {@code id,qty}: qty is {@code id % 97}, but {@code n/a} at the data rows in {@code na}. */
    private Path file(String name, int... na) throws IOException {
        StringBuilder b = new StringBuilder("id,qty\n");
        for (int i = 1; i <= ROWS; i++) {
            final int row = i;
            b.append(i).append(',').append(Arrays.stream(na).anyMatch(n -> n == row) ? "n/a" : Integer.toString(i % 97)).append('\n');
        }
        return Files.writeString(dir.resolve(name), b);
    }

    /** The flags the late-type warning advises for a missing value, split into words by bash as the user's shell would. */
    private List<String> advised(String err) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("import again adding (.+?); otherwise").matcher(err);
        assertThat(m.find()).as(err).isTrue();
        Process p = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + m.group(1)).directory(dir.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ArrayList<>(Arrays.asList(out.split("\0")));
    }

    private static String[] args(List<String> first, List<String> then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(then);
        return all.toArray(String[]::new);
    }

    /** {@code typeof(qty)}, the rows and the NULL qty's ids of {@code table}, as query --csv prints them. */
    private static String shape(Path wc, String table) {
        return Cli.ok(wc, "query", "--working", "--csv", "SELECT any_value(typeof(qty)) AS t, count(*) AS n, "
                + "string_agg(id::VARCHAR, ' ' ORDER BY id) FILTER (WHERE qty IS NULL) AS nulls FROM " + table).out();
    }

    @Test
    void theAdvisedFlagsPastedKeepTheTypeWithNullWhereTheTextWas() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path late = file("late.csv", 22_000);
        Cli.Result plain = Cli.ok(wc, "import", late.toString(), "-t", "t");
        assertThat(plain.err()).contains("column 'qty'").contains("line 22,001").contains("'n/a'")
                .contains("--schema 'qty BIGINT' --null-string n/a");
        assertThat(shape(wc, "t")).contains("VARCHAR," + ROWS + ",\n");

        List<String> flags = advised(plain.err());
        assertThat(flags).containsExactly("--schema", "qty BIGINT", "--null-string", "n/a");
        Cli.Result pasted = Cli.ok(wc, args(List.of("import", late.toString(), "-t", "u"), flags));
        assertThat(pasted.err()).doesNotContain("warning");
        assertThat(shape(wc, "u")).contains("BIGINT," + ROWS + ",22000\n");
    }

    @Test
    void syncReadsTheNullStringAsImportDoes() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path late = file("late.csv", 22_000);
        Cli.Result plain = Cli.ok(wc, "import", late.toString(), "-t", "fresh", "--mode", "sync", "--key", "id");
        assertThat(plain.err()).contains("column 'qty'").contains("line 22,001");
        assertThat(shape(wc, "fresh")).contains("VARCHAR,");
        List<String> flags = advised(plain.err());

        // a new table made by sync, and an existing BIGINT table whose row 22,000 becomes NULL
        Cli.ok(wc, args(List.of("import", late.toString(), "-t", "made", "--mode", "sync", "--key", "id"), flags));
        assertThat(shape(wc, "made")).contains("BIGINT," + ROWS + ",22000\n");
        Cli.ok(wc, "import", file("clean.csv").toString(), "-t", "s", "--mode", "sync", "--key", "id");
        Cli.Result synced = Cli.ok(wc, args(List.of("import", late.toString(), "-t", "s", "--mode", "sync", "--key", "id"), flags));
        assertThat(synced.err()).doesNotContain("warning");
        assertThat(synced.out()).contains("0 added, 0 removed, 1 changed");
        assertThat(shape(wc, "s")).contains("BIGINT," + ROWS + ",22000\n");
    }

    @Test
    void theNullStringAloneTypesTheColumnInTheSampleAndOverTheWholeFile() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        // n/a inside the sample: the sample's sniff must read it as NULL
        Cli.ok(wc, "import", file("early.csv", 3, 22_000).toString(), "-t", "early", "--null-string", "n/a");
        assertThat(shape(wc, "early")).contains("BIGINT," + ROWS + ",3 22000\n");
        // a late 2.5 in x fails the read with the sample's types: the whole-file sniff must read n/a as NULL too
        StringBuilder b = new StringBuilder("id,qty,x\n");
        for (int i = 1; i <= ROWS; i++) b.append(i).append(',').append(i == 3 ? "n/a" : "7").append(',').append(i == 23_000 ? "2.5" : "1").append('\n');
        Path wide = Files.writeString(dir.resolve("wide.csv"), b);
        Cli.Result r = Cli.ok(wc, "import", wide.toString(), "-t", "wide", "--null-string", "n/a");
        assertThat(r.err()).doesNotContain("warning");
        assertThat(shape(wc, "wide")).contains("BIGINT," + ROWS + ",3\n");
        Cli.ok(wc, "import", wide.toString(), "-t", "wsync", "--mode", "sync", "--key", "id", "--null-string", "n/a");
        assertThat(shape(wc, "wsync")).contains("BIGINT," + ROWS + ",3\n");
    }

    @Test
    void severalNullStringsAndAnEmptyFieldAreNull() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path f = Files.writeString(dir.resolve("f.csv"), "id,qty\n1,5\n2,n/a\n3,-\n4,\n5,6\n");
        Cli.ok(wc, "import", f.toString(), "-t", "t", "--null-string", "n/a", "--null-string", "-");
        assertThat(Cli.ok(wc, "query", "--working", "--csv", "SELECT string_agg(id::VARCHAR, ' ' ORDER BY id) FILTER (WHERE qty IS NULL) AS n, "
                + "typeof(any_value(qty)) AS t FROM t").out()).contains("2 3 4,BIGINT");
    }

    @Test
    void aNullStringForAFileThatIsNotCsvIsAUsageError() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path json = Files.writeString(dir.resolve("a.json"), "[{\"id\": 1}]");
        Cli.Result r = Cli.in(wc, "import", json.toString(), "-t", "j", "--null-string", "n/a");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--null-string is for CSV files").contains("a.json");
    }
}
