package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 15 end to end: months loaded with import --mode sync share data files; diff between versions; retention keeps them readable. */
class SyncDiffCliTest {
    static final String[] MONTHS = {"2024-10-04", "2024-12-01", "2025-03-01", "2025-06-01"};
    static final String CHECKSUM = "SELECT count(*) AS n, md5(string_agg(CAST(x AS VARCHAR), chr(10) ORDER BY CAST(x AS VARCHAR))) AS md5 "
            + "FROM (SELECT * FROM cities) AS x";

    @TempDir Path dir;

    private static String csv(Path file) {
        return "SELECT * FROM read_csv(" + SqlQuote.literal(file.toString()) + ", header = true)";
    }

    /** {added, removed} as DuckDB's EXCEPT ALL counts them over the two files. */
    private static long[] exceptAll(Path a, Path b) throws Exception {
        try (Connection c = dev.fdl.ducklake.engine.DuckDbPool.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT (SELECT count(*) FROM (" + csv(b) + " EXCEPT ALL " + csv(a) + ")), (SELECT count(*) FROM ("
                     + csv(a) + " EXCEPT ALL " + csv(b) + "))")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2)};
        }
    }

    private static String fileChecksum(Path file) throws Exception {
        try (Connection c = dev.fdl.ducklake.engine.DuckDbPool.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(CHECKSUM.replace("FROM cities", "FROM (" + csv(file) + ")"))) {
            rs.next();
            return "n,md5\n" + rs.getLong(1) + "," + rs.getString(2) + "\n";
        }
    }

    private static JsonNode lastLine(String out) throws Exception {
        List<String> lines = out.lines().toList();
        return Json.MAPPER.readTree(lines.get(lines.size() - 1));
    }

    @Test
    void syncedMonthsShareFilesDiffCountsEqualExceptAllAndRetentionKeepsEveryLiveVersionReadable() throws Exception {
        Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
        String repo = root.toString(), cache = dir.resolve("cache").toString();
        Cli.ok(dir, "init", repo);
        Cli.ok(wc, "checkout", "--repo", repo);
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path csv = WorkflowCliTest.month(dir, MONTHS[i]);
            files.add(csv);
            Cli.Result imp = Cli.ok(wc, "import", csv.toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
            if (i > 0) assertThat(imp.out()).startsWith("Synced main.cities to ").contains(" delete file(s)");
            Cli.ok(wc, "commit", "-m", "cities " + MONTHS[i]);
            Cli.ok(wc, "tag", "m" + i);
        }
        // the same file again: nothing written
        assertThat(Cli.ok(wc, "import", files.get(2).toString(), "--table", "cities", "--mode", "sync").out())
                .contains("nothing to write, no snapshot made");
        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit");

        // diff --stat --no-key (whole rows) between tags equals EXCEPT ALL over the two files
        long[] expected = exceptAll(files.get(0), files.get(2));
        JsonNode stat = lastLine(Cli.ok(wc, "diff", "--stat", "--json", "--no-key", "m0", "m2").out()).get("summary");
        assertThat(List.of(stat.get("added").asLong(), stat.get("removed").asLong(), stat.get("changed").asLong()))
                .containsExactly(expected[0], expected[1], 0L);
        assertThat(Cli.ok(wc, "diff", "--stat", "--no-key", "m0", "m2").out()).contains(" main.cities | +" + expected[0] + " -" + expected[1] + " ~0");
        // with the key a changed city is one changed row; added + changed and removed + changed are the EXCEPT ALL counts.
        // Without --key, diff uses the key import --mode sync --key recorded in the catalog: the same output.
        Cli.Result keyed = Cli.ok(wc, "diff", "--json", "m0", "m2");
        assertThat(keyed.out()).isEqualTo(Cli.ok(wc, "diff", "--json", "--key", "geonameid", "m0", "m2").out());
        JsonNode sum = lastLine(keyed.out()).get("summary");
        assertThat(sum.get("added").asLong() + sum.get("changed").asLong()).isEqualTo(expected[0]);
        assertThat(sum.get("removed").asLong() + sum.get("changed").asLong()).isEqualTo(expected[1]);
        assertThat(sum.get("changed").asLong()).isPositive();
        List<JsonNode> changed = new ArrayList<>();
        for (String line : keyed.out().lines().toList()) {
            JsonNode n = Json.MAPPER.readTree(line);
            if (n.has("change") && n.get("change").asText().equals("changed")) changed.add(n);
        }
        assertThat(changed).hasSize((int) sum.get("changed").asLong());
        JsonNode one = changed.get(0);
        assertThat(one.get("key").get("geonameid").isNumber()).isTrue();
        String column = one.get("columns").fieldNames().next();
        assertThat(one.get("columns").get(column).get("old")).isNotEqualTo(one.get("columns").get(column).get("new"));
        // rows as text and CSV: one line per added and removed row
        long plusLines = Cli.ok(wc, "diff", "--no-key", "m0", "m2").out().lines().filter(l -> l.startsWith("+ ")).count();
        assertThat(plusLines).isEqualTo(expected[0]);
        String csv = Cli.ok(wc, "diff", "--csv", "--no-key", "m0", "m2").out();
        assertThat(csv.lines().filter(l -> l.startsWith("main.cities,removed,")).count()).isEqualTo(expected[1]);
        // nothing but CSV: a header, then rows of the table, \n line ends (--crlf for CRLF)
        assertThat(csv).startsWith("table,change,").doesNotContain("\r").doesNotContain("\n#");
        assertThat(csv.lines().filter(l -> !l.startsWith("main.cities,")).count()).isEqualTo(1);
        assertThat(Cli.ok(wc, "diff", "m0", "m2").out().lines().filter(l -> l.startsWith("~ ")).count()).isEqualTo(sum.get("changed").asLong());

        // the working copy against its base, and one version against the working copy
        Path next = WorkflowCliTest.month(dir, MONTHS[3]);
        Cli.ok(wc, "import", next.toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        long[] working = exceptAll(files.get(2), next);
        String m2 = Json.MAPPER.readTree(Cli.ok(wc, "show", "--json", "m2").out()).get("id").asText();
        Cli.Result wcDiff = Cli.ok(wc, "diff", "--stat", "--no-key");
        assertThat(wcDiff.err()).isEqualTo("# the working copy (branch 'main') against its base, version " + m2 + "\n");
        assertThat(wcDiff.out().lines().toList()).doesNotContain("# the working copy (branch 'main') against its base, version " + m2)
                .contains(" main.cities | +" + working[0] + " -" + working[1] + " ~0");
        long[] fromFirst = exceptAll(files.get(0), next);
        Cli.Result m0Diff = Cli.ok(wc, "diff", "--stat", "--no-key", "m0");
        assertThat(m0Diff.err()).isEqualTo("# m0 against the working copy (branch 'main')\n");
        assertThat(m0Diff.out().lines().toList())
                .contains(" main.cities | +" + fromFirst[0] + " -" + fromFirst[1] + " ~0");
        // outside a working copy, one version is compared with HEAD, and the first line says so
        Cli.Result headDiff = Cli.ok(dir, "diff", "--repo", repo, "--stat", "--no-key", "m0");
        assertThat(headDiff.err()).isEqualTo("# m0 against HEAD (branch 'main')\n");
        assertThat(headDiff.out().lines().toList())
                .contains(" main.cities | +" + expected[0] + " -" + expected[1] + " ~0");
        Cli.ok(wc, "commit", "-m", "cities " + MONTHS[3]);
        files.add(next);

        // versions share data files: the first month's file is named by all four
        JsonNode log = Json.MAPPER.readTree(Cli.ok(dir, "log", "--repo", repo, "--json").out());
        List<String> ids = new ArrayList<>(); // oldest first
        for (JsonNode v : log) ids.add(0, v.get("id").asText());
        // expire the middle ones, gc with no grace: every live version still reads as its month
        Cli.ok(dir, "tag", "--repo", repo, "-d", "m1");
        Cli.ok(dir, "expire", "--repo", repo, "--keep", "1");
        Cli.ok(dir, "gc", "--repo", repo, "--grace", "0s", "--cache-dir", cache);
        assertThat(Cli.ok(wc, "query", "--csv", "m0", CHECKSUM).out()).isEqualTo(fileChecksum(files.get(0)));
        assertThat(Cli.ok(wc, "query", "--csv", "m2", CHECKSUM).out()).isEqualTo(fileChecksum(files.get(2)));
        assertThat(Cli.ok(wc, "query", "--csv", ids.get(3), CHECKSUM).out()).isEqualTo(fileChecksum(files.get(3)));
        assertThat(Cli.in(wc, "query", "--csv", ids.get(1), CHECKSUM).exit()).isEqualTo(4);
        assertThat(Cli.ok(dir, "verify", "--repo", repo, "--cache-dir", cache).out()).contains("no problems");
        long[] last = exceptAll(files.get(2), files.get(3));
        assertThat(Cli.ok(wc, "diff", "--stat", "--no-key", "m2", ids.get(3)).out()).contains(" main.cities | +" + last[0] + " -" + last[1] + " ~0");
    }

    @Test
    void logStatCountsFromTheCatalogsAndCompactionKeepsTheRowsAndDeletesNothing() throws Exception {
        Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
        String repo = root.toString();
        Cli.ok(dir, "init", repo);
        Cli.ok(wc, "checkout", "--repo", repo);
        Path m0 = WorkflowCliTest.month(dir, MONTHS[0]), m1 = WorkflowCliTest.month(dir, MONTHS[1]);
        Cli.ok(wc, "import", m0.toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        Cli.ok(wc, "commit", "-m", "first");
        Cli.ok(wc, "import", m1.toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        Cli.ok(wc, "commit", "-m", "second");
        long[] d = exceptAll(m0, m1);
        List<String> log = Cli.ok(wc, "log", "--oneline", "--stat").out().lines().toList();
        assertThat(log).contains(" main.cities | +" + d[0] + " -" + d[1] + " (28,796 rows)", " main.cities | +28500 -0 (28,500 rows)");
        JsonNode json = Json.MAPPER.readTree(Cli.ok(wc, "log", "--json", "--stat").out());
        assertThat(json.get(0).get("stat").get(0).get("added").asLong()).isEqualTo(d[0]);

        long files;
        try (var s = Files.walk(root.resolve("data"))) {
            files = s.filter(Files::isRegularFile).count();
        }
        assertThat(Cli.ok(wc, "compact", "cities").out()).contains("Compacted main.cities: 2 data file(s), 1 delete file(s)")
                .contains("nothing was deleted");
        assertThat(Cli.ok(wc, "compact", "cities").out()).contains("nothing to compact");
        Cli.ok(wc, "commit", "-m", "compacted");
        try (var s = Files.walk(root.resolve("data"))) {
            assertThat(s.filter(Files::isRegularFile).count()).isEqualTo(files + 1);
        }
        assertThat(Cli.ok(wc, "query", "--csv", CHECKSUM).out()).isEqualTo(fileChecksum(m1));
        JsonNode after = Json.MAPPER.readTree(Cli.ok(wc, "log", "--json").out());
        JsonNode none = lastLine(Cli.ok(wc, "diff", "--stat", "--json", after.get(1).get("id").asText(), after.get(0).get("id").asText())
                .out()).get("summary");
        assertThat(none.get("added").asLong() + none.get("removed").asLong()).isZero();
    }

    @Test
    void diffUsesTheKeyTheLastSyncRecordedAndOnlyAWorkingCopyOfTheSameRepository() throws Exception {
        String a = dir.resolve("a").toString(), b = dir.resolve("b").toString();
        Path wcA = Files.createDirectories(dir.resolve("wcA")), wcB = Files.createDirectories(dir.resolve("wcB"));
        Cli.ok(dir, "init", a);
        Cli.ok(dir, "init", b);
        Cli.ok(wcA, "checkout", "--repo", a);
        Cli.ok(wcB, "checkout", "--repo", b);
        Path one = Files.writeString(dir.resolve("one.csv"), "id,name\n1,Oslo\n2,Rome\n3,Lima\n");
        Path two = Files.writeString(dir.resolve("two.csv"), "id,name\n1,Oslo\n2,Roma\n4,Kyiv\n");
        Cli.ok(wcA, "import", one.toString(), "--table", "towns");
        Cli.ok(wcA, "commit", "-m", "a");
        Cli.ok(wcB, "import", one.toString(), "--table", "towns", "--mode", "sync", "--key", "id");
        Cli.ok(wcB, "commit", "-m", "b1");
        Cli.ok(wcB, "import", two.toString(), "--table", "towns", "--mode", "sync", "--key", "id");
        // the key the sync recorded: Rome -> Roma is one changed row
        assertThat(Cli.ok(wcB, "diff").out()).contains("~ 2: name: Rome -> Roma").contains("+ 4 | Kyiv").contains("- 3 | Lima");
        assertThat(Cli.ok(wcB, "diff", "--stat").out()).contains(" main.towns | +1 -1 ~1");
        assertThat(Cli.ok(wcB, "diff", "--stat", "--no-key").out()).contains(" main.towns | +2 -2 ~0");
        assertThat(Cli.in(wcB, "diff", "--no-key", "--key", "id").exit()).isEqualTo(2);
        Cli.ok(wcB, "commit", "-m", "b2");
        // a sync without --key uses the recorded key, which this file holds twice; --no-key ends it
        Path three = Files.writeString(dir.resolve("three.csv"), "id,name\n1,Oslo\n1,Oslo\n2,Rom\n");
        assertThat(Cli.in(wcB, "import", three.toString(), "--table", "towns", "--mode", "sync").err())
                .contains("the key an earlier sync --key recorded").contains("--no-key");
        Cli.ok(wcB, "import", three.toString(), "--table", "towns", "--mode", "sync", "--no-key");
        assertThat(Cli.ok(wcB, "diff", "--stat").out()).contains(" main.towns | +2 -2 ~0");

        // inside wcA, --repo b: wcA belongs to another repository, so one version is compared with b's HEAD
        Cli.Result ab = Cli.ok(wcA, "diff", "--repo", b, "--stat", "HEAD");
        assertThat(ab.err()).isEqualTo("# HEAD against HEAD (branch 'main')\n");
        assertThat(ab.out().lines().toList())
                .contains("0 table(s) added, 0 dropped, 0 changed; 0 row(s) added, 0 removed, 0 changed");
        assertThat(Cli.in(wcA, "diff", "--repo", b).err()).contains("run it inside a working copy of " + b);
    }
}
