package dev.fdl.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code fdl log <ref> --table T --key col=value}: the versions that added, changed or removed a row (docs/history.md). */
class RowLogCliTest {
    static final String[] MONTHS = {"2024-10-04", "2024-12-01", "2025-03-01", "2025-06-01", "2025-10-01", "2026-01-01"};

    @TempDir Path dir;

    /** A city present in every month whose row (as the CSV text has it) differs from the month before exactly twice, and those months. */
    private Object[] cityChangedTwice() throws Exception {
        List<String> reads = new ArrayList<>();
        for (int m = 0; m < MONTHS.length; m++) {
            Path p = dir.resolve(MONTHS[m] + ".csv.gz");
            try (InputStream in = getClass().getResourceAsStream("/demo/world-cities/world-cities-" + MONTHS[m] + ".csv.gz")) {
                Files.copy(in, p);
            }
            reads.add("SELECT " + m + " AS m, c.geonameid, md5(CAST(c AS VARCHAR)) AS h FROM read_csv(" + SqlQuote.literal(p.toString())
                    + ", all_varchar = true) AS c");
        }
        String rows = String.join(" UNION ALL ", reads);
        String changes = "SELECT geonameid, list(m ORDER BY m) FILTER (WHERE prev IS NOT NULL AND prev <> h) AS months, count(*) AS n FROM "
                + "(SELECT *, lag(h) OVER (PARTITION BY geonameid ORDER BY m) AS prev FROM (" + rows + ")) GROUP BY geonameid";
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT geonameid, CAST(months AS VARCHAR) FROM (" + changes + ") WHERE n = 6 AND len(months) = 2 "
                     + "ORDER BY geonameid LIMIT 1")) {
            assertThat(rs.next()).as("a city of the demo changed twice").isTrue();
            return new Object[]{rs.getString(1), rs.getString(2)};
        }
    }

    @Test
    void aCityThatChangedTwiceAcrossTheDemosSixMonthsListsTheVersionsThatAddedAndChangedIt() throws Exception {
        Object[] city = cityChangedTwice();
        String id = (String) city[0];
        List<Integer> changedIn = new ArrayList<>();
        for (String m : ((String) city[1]).replaceAll("[\\[\\] ]", "").split(",")) changedIn.add(Integer.parseInt(m));
        Cli.ok(dir, "demo");
        Path wc = dir.resolve("fdl-demo/work");
        List<String> versions = new ArrayList<>(); // oldest first
        for (int m = 0; m < MONTHS.length; m++) versions.add(HistoryFixtures.versionId(dir.resolve("fdl-demo/repo"), "2026-01-01~" + (5 - m)));
        JsonNode log = Json.MAPPER.readTree(Cli.ok(wc, "log", "2026-01-01", "--table", "cities", "--key", "geonameid=" + id, "--json").out());
        List<String> expected = new ArrayList<>();
        for (int i = changedIn.size() - 1; i >= 0; i--) expected.add(versions.get(changedIn.get(i)) + " changed");
        expected.add(versions.get(0) + " added");
        List<String> got = new ArrayList<>();
        log.forEach(e -> got.add(e.get("version").asText() + " " + e.get("change").asText()));
        assertThat(got).isEqualTo(expected);
        for (JsonNode e : log) {
            assertThat(e.get("after").get(0).get("geonameid").asText()).isEqualTo(id);
            if (e.get("change").asText().equals("changed")) assertThat(e.get("before").get(0)).isNotEqualTo(e.get("after").get(0));
        }
        // the text form names each version and marks the changed columns off a terminal
        String text = Cli.ok(wc, "log", "2026-01-01", "--table", "cities", "--where", "geonameid = " + id).out();
        assertThat(text).contains("version " + versions.get(changedIn.get(1)) + "  changed").contains("* ").contains(" -> ");
        // the same row asked at the first month has only its beginning
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "log", "2024-10-04", "--table", "cities", "--key", "geonameid=" + id, "--json").out()))
                .hasSize(1);
    }

    @Test
    void aRemovedRowAndBadInput() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), "id,v\n1,a\n2,b\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("b.csv"), "id,v\n1,a\n").toString(), "--table", "t", "--mode", "sync");
        Cli.ok(wc, "commit", "--allow-shrink", "-m", "two");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("c.csv"), "id,v\n1,a\n3,c\n").toString(), "--table", "t", "--mode", "sync");
        Cli.ok(wc, "commit", "-m", "three");
        JsonNode log = Json.MAPPER.readTree(Cli.ok(wc, "log", "--table", "t", "--key", "id=2", "--json").out());
        assertThat(log).hasSize(2);
        assertThat(log.get(0).get("change").asText()).isEqualTo("removed");
        assertThat(log.get(0).get("before").get(0).get("v").asText()).isEqualTo("b");
        assertThat(log.get(1).get("change").asText()).isEqualTo("added");
        // row 1 never changed after it was added
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "log", "--table", "t", "--key", "id=1", "--json").out())).hasSize(1);
        assertThat(Cli.in(wc, "log", "--table", "t").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "log", "--table", "t", "--key", "id").err()).contains("col=value");
        assertThat(Cli.in(wc, "log", "--table", "t", "--key", "nosuch=1").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "log", "--table", "t", "--where", "1=1; DROP TABLE t").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "log", "--table", "nosuch", "--key", "id=1").exit()).isEqualTo(4);
        assertThat(Cli.in(wc, "log", "--key", "id=1").exit()).isEqualTo(2);
    }

    @Test
    void severalRowsShowOnlyWhatEachVersionChanged() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), "id,v\n1,same\n2,old\n3,gone\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("b.csv"), "id,v\n1,same\n2,new\n4,added\n").toString(), "--table", "t", "--mode", "sync");
        Cli.ok(wc, "commit", "-m", "two");
        String text = Cli.ok(wc, "log", "--table", "t", "--where", "id > 0").out();
        String two = text.substring(0, text.indexOf("\nversion "));
        assertThat(two).contains("3 row(s) before, 3 after; 2 removed or changed, 2 added or changed:")
                .contains("    - v: old").contains("    - v: gone").contains("    + v: new").contains("    + v: added")
                .doesNotContain("same");
        // the version that added them shows every row it added
        assertThat(text.substring(text.indexOf("\nversion "))).contains("+ v: same").contains("+ v: old").contains("+ v: gone");
        // --json keeps every row before and after
        JsonNode log = Json.MAPPER.readTree(Cli.ok(wc, "log", "--table", "t", "--where", "id > 0", "--json").out());
        assertThat(log.get(0).get("before")).hasSize(3);
        assertThat(log.get(0).get("after")).hasSize(3);
    }

    @Test
    void allParentsAddTheVersionsOfAMergedBranchThatChangedTheRow() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo"), other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), "id,v\n1,a\n2,b\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        String base = id(Cli.ok(wc, "commit", "-m", "base", "--json").out());
        Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "staging", "main");
        Cli.ok(other, "import", Files.writeString(dir.resolve("s.csv"), "id,v\n1,A\n2,b\n").toString(), "--table", "t", "--mode", "sync");
        String staged = id(Cli.ok(other, "commit", "-m", "staging", "--json").out());
        Cli.ok(wc, "import", Files.writeString(dir.resolve("m.csv"), "id,v\n1,a\n2,B\n").toString(), "--table", "t", "--mode", "sync");
        String ours = id(Cli.ok(wc, "commit", "-m", "main", "--json").out());
        Cli.ok(wc, "merge", "staging");
        String merge = id(Cli.ok(wc, "commit", "--json").out());
        // git log's rule: along first parents the merge changed row 1 (over main's version); every parent adds staging's change
        assertThat(changes(wc, "--key", "id=1")).containsExactly(merge + " changed", base + " added");
        assertThat(changes(wc, "--key", "id=1", "--all")).containsExactly(merge + " changed", staged + " changed", base + " added");
        // row 2 changed on main only: the merge took it unchanged
        assertThat(changes(wc, "--key", "id=2", "--all")).containsExactly(ours + " changed", base + " added");
    }

    private static String id(String json) throws Exception {
        return Json.MAPPER.readTree(json).get("id").asText();
    }

    private static List<String> changes(Path wc, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("log", "--table", "t", "--json"));
        all.addAll(List.of(args));
        List<String> out = new ArrayList<>();
        Json.MAPPER.readTree(Cli.ok(wc, all.toArray(String[]::new)).out()).forEach(e -> out.add(e.get("version").asText() + " " + e.get("change").asText()));
        return out;
    }
}
