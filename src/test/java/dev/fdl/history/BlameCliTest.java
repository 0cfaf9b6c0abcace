package dev.fdl.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code fdl blame}: per row the version that last added or changed it (docs/history.md). */
class BlameCliTest {
    @TempDir Path dir;

    /** Row (the shown values joined by '|') → version id, or "expired", from {@code fdl blame --json}. */
    static Map<String, String> blame(Path wc, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("blame"));
        all.addAll(List.of(args));
        all.add("--json");
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Cli.ok(wc, all.toArray(String[]::new)).out().lines().toList()) {
            JsonNode o = Json.MAPPER.readTree(line);
            List<String> values = new ArrayList<>();
            o.get("row").forEach(v -> values.add(v.asText()));
            String row = String.join("|", values);
            assertThat(out).as("rows shown once").doesNotContainKey(row);
            out.put(row, o.has("expired") ? "expired" : o.get("version").asText());
        }
        return out;
    }

    private String commit(Path wc, String message) throws Exception {
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-shrink", "-m", message, "--json").out()).get("id").asText();
    }

    private Path csv(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name + ".csv"), text);
    }

    @Test
    void randomizedSyncsAndAppendsBlameAsWalkingEveryVersionsRowsDoes() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Random random = new Random(42);
        List<String> versions = new ArrayList<>();
        List<Map<String, String>> keyedAt = new ArrayList<>(); // per version: id → whole row
        List<List<String>> bagAt = new ArrayList<>();
        Map<String, String> keyed = new HashMap<>();
        List<String> bag = new ArrayList<>();
        int serial = 0;
        for (int v = 0; v < 8; v++) {
            for (int id = 0; id < 120; id++) {
                int dice = random.nextInt(10);
                if (v == 0 || dice < 2) keyed.put(Integer.toString(id), id + ",n" + random.nextInt(1000));
                else if (dice == 2) keyed.remove(Integer.toString(id));
            }
            StringBuilder k = new StringBuilder("id,name\n");
            keyed.values().forEach(r -> k.append(r).append('\n'));
            Cli.ok(wc, "import", csv("k" + v, k.toString()).toString(), "--table", "keyed", "--mode", "sync", "--key", "id");
            StringBuilder b = new StringBuilder("serial,x\n");
            for (int i = 0; i < 1 + random.nextInt(5); i++) {
                String row = (serial++) + "," + random.nextInt(3);
                bag.add(row);
                b.append(row).append('\n');
            }
            Cli.ok(wc, "import", csv("b" + v, b.toString()).toString(), "--table", "bag", "--mode", v == 0 ? "replace" : "append");
            versions.add(commit(wc, "v" + v));
            keyedAt.add(new HashMap<>(keyed));
            bagAt.add(new ArrayList<>(bag));
        }
        // the slow way: a row was last added or changed by the oldest version from which on every version holds it unchanged
        Map<String, String> expected = new HashMap<>();
        int last = versions.size() - 1;
        for (Map.Entry<String, String> e : keyedAt.get(last).entrySet()) {
            int from = last;
            while (from > 0 && e.getValue().equals(keyedAt.get(from - 1).get(e.getKey()))) from--;
            expected.put(e.getKey(), versions.get(from));
        }
        Map<String, String> got = blame(wc, "keyed");
        Map<String, String> byId = new HashMap<>();
        got.forEach((row, version) -> byId.put(row, version));
        assertThat(byId).isEqualTo(expected);
        Map<String, String> expectedBag = new HashMap<>();
        for (String row : bagAt.get(last)) {
            int from = last;
            while (from > 0 && bagAt.get(from - 1).contains(row)) from--;
            expectedBag.put(row.replace(',', '|'), versions.get(from));
        }
        assertThat(blame(wc, "bag")).isEqualTo(expectedBag);
        // an older version blames from its own history
        Map<String, String> atThree = new HashMap<>();
        for (Map.Entry<String, String> e : keyedAt.get(3).entrySet()) {
            int from = 3;
            while (from > 0 && e.getValue().equals(keyedAt.get(from - 1).get(e.getKey()))) from--;
            atThree.put(e.getKey(), versions.get(from));
        }
        assertThat(blame(wc, "keyed", versions.get(3))).isEqualTo(atThree);
        // --where chooses rows; --key shows other columns
        assertThat(blame(wc, "keyed", "--where", "id < 10").keySet()).allMatch(id -> Integer.parseInt(id) < 10);
        assertThat(blame(wc, "keyed", "--key", "id,name").keySet()).allMatch(r -> r.contains("|n"));
    }

    @Test
    void replacedAndCompactedTablesBlameTheVersionThatRewroteTheirRowsAndExpiredHistorySaysSo() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv("a", "id,v\n1,a\n2,b\n3,c\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        String first = commit(wc, "first");
        Cli.ok(wc, "import", csv("b", "id,v\n1,a\n2,B\n3,c\n4,d\n").toString(), "--table", "t", "--mode", "sync");
        String second = commit(wc, "second");
        assertThat(blame(wc, "t")).isEqualTo(Map.of("1", first, "2", second, "3", first, "4", second));
        Cli.ok(wc, "compact", "t");
        String compacted = commit(wc, "compact");
        assertThat(blame(wc, "t").values()).containsOnly(compacted);
        Cli.ok(wc, "import", csv("c", "id,v\n1,a\n2,B\n5,e\n").toString(), "--table", "t", "--mode", "sync");
        String third = commit(wc, "third");
        assertThat(blame(wc, "t")).isEqualTo(Map.of("1", compacted, "2", compacted, "5", third));
        Cli.ok(wc, "import", csv("d", "id,v\n1,a\n").toString(), "--table", "r", "--mode", "replace");
        commit(wc, "r one");
        Cli.ok(wc, "import", csv("e", "id,v\n1,a\n2,b\n").toString(), "--table", "r", "--mode", "replace");
        String replaced = commit(wc, "r replaced");
        assertThat(blame(wc, "r", "--key", "id").values()).containsOnly(replaced);
        // expire everything before the newest two versions: rows they began are expired, never another version
        Cli.ok(wc, "expire", "--keep", "2");
        Map<String, String> after = blame(wc, "t");
        assertThat(after).isEqualTo(Map.of("1", "expired", "2", "expired", "5", "expired"));
        assertThat(blame(wc, "r", "--key", "id").values()).containsOnly(replaced);
        assertThat(Cli.ok(wc, "blame", "t").out()).contains("expired");
    }

    @Test
    void aMergeBlamesTakenRowsOnTheSideTheyCameFromAndItsOwnRowsOnItself() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo"), other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(wc, "import", csv("k0", "k,a\n1,10\n2,20\n3,30\n").toString(), "--table", "kt", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "import", csv("b0", "k,a\n1,1\n2,2\n").toString(), "--table", "both", "--mode", "sync", "--key", "k");
        String base = commit(wc, "base");
        Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "staging", "main");
        Cli.ok(other, "import", csv("k1", "k,a\n1,10\n2,21\n3,30\n").toString(), "--table", "kt", "--mode", "sync");
        Cli.ok(other, "import", csv("b1", "k,a\n1,1\n2,22\n").toString(), "--table", "both", "--mode", "sync");
        String staged = commit(other, "staging");
        Cli.ok(wc, "import", csv("b2", "k,a\n1,11\n2,2\n").toString(), "--table", "both", "--mode", "sync");
        String ours = commit(wc, "main");
        Cli.ok(wc, "merge", "staging");
        String merge = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--json").out()).get("id").asText();
        // kt changed on staging only: taken by naming staging's files, so its changed row is staging's
        assertThat(blame(wc, "kt")).isEqualTo(Map.of("1", base, "2", staged, "3", base));
        // both sides changed 'both': the row the merge wrote from staging is the merge's; ours keeps its version
        assertThat(blame(wc, "both")).isEqualTo(Map.of("1", ours, "2", merge));
    }

    @Test
    void badInputIsAClearError() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv("a", "id,v\n1,a\n1,b\n2,c\n").toString(), "--table", "t");
        commit(wc, "one");
        Cli.Result notUnique = Cli.in(wc, "blame", "t", "--key", "id");
        assertThat(notUnique.exit()).isEqualTo(2);
        assertThat(notUnique.err()).contains("--key id").contains("1 is held by 2 rows");
        Cli.Result noColumn = Cli.in(wc, "blame", "t", "--key", "nosuch");
        assertThat(noColumn.exit()).isEqualTo(2);
        assertThat(noColumn.err()).contains("no column nosuch");
        for (String where : List.of("1=1; DROP TABLE t", "id IN (SELECT 1) ; COPY t TO 'x.csv'", "nosuch > 1")) {
            Cli.Result r = Cli.in(wc, "blame", "t", "--where", where);
            assertThat(r.exit()).as(where).isEqualTo(2);
            assertThat(r.err()).as(where).contains("--where");
        }
        Cli.Result missing = Cli.in(wc, "blame", "nosuch");
        assertThat(missing.exit()).isEqualTo(4);
        assertThat(missing.err()).contains("table main.nosuch is not in version").contains("main.t");
        assertThat(Cli.ok(wc, "blame", "t", "--where", "v <> 'b'").out().lines().count()).isEqualTo(3); // header + two rows
    }

    /**
     * A snapshot that adds one inlined row, written into the working catalog (SQLite) as DuckDB's
     * DuckLake extension writes one (DUCKLAKE.md "Data": an inlined-data table per schema version).
     */
    private static void addInlinedRow(Path wc, long id, String v) throws Exception {
        java.nio.file.Path catalog = dev.fdl.workingcopy.WorkingCopy.find(wc).orElseThrow().catalog();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + catalog); java.sql.Statement st = c.createStatement()) {
            long snapshot, schema, table;
            try (java.sql.ResultSet rs = st.executeQuery("SELECT snapshot_id, schema_version FROM ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 1")) {
                rs.next();
                snapshot = rs.getLong(1);
                schema = rs.getLong(2);
            }
            try (java.sql.ResultSet rs = st.executeQuery("SELECT table_id FROM ducklake_table WHERE table_name = 't' AND end_snapshot IS NULL")) {
                rs.next();
                table = rs.getLong(1);
            }
            String name = "ducklake_inlined_data_" + table + "_" + schema;
            long next = snapshot + 1;
            st.execute("CREATE TABLE IF NOT EXISTS " + name + " (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, id BIGINT, v VARCHAR)");
            st.execute("INSERT INTO ducklake_inlined_data_tables SELECT " + table + ", '" + name + "', " + schema
                    + " WHERE NOT EXISTS (SELECT 1 FROM ducklake_inlined_data_tables WHERE table_name = '" + name + "')");
            st.execute("INSERT INTO ducklake_snapshot SELECT " + next + ", snapshot_time, schema_version, next_catalog_id, next_file_id FROM ducklake_snapshot"
                    + " WHERE snapshot_id = " + snapshot);
            st.execute("INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made) VALUES (" + next + ", 'inlined_insert:" + table + "')");
            st.execute("INSERT INTO " + name + " SELECT next_row_id, " + next + ", NULL, " + id + ", '" + v + "' FROM ducklake_table_stats WHERE table_id = " + table);
            st.execute("UPDATE ducklake_table_stats SET record_count = record_count + 1, next_row_id = next_row_id + 1 WHERE table_id = " + table);
        }
    }

    @Test
    void inlinedRowsAreBlamedOnTheVersionThatAddedThem() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv("a", "id,v\n1,a\n2,b\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        String first = commit(wc, "first");
        addInlinedRow(wc, 9, "inlined");
        String second = commit(wc, "inlined row");
        assertThat(blame(wc, "t")).isEqualTo(Map.of("1", first, "2", first, "9", second));
        // a later sync that keeps the inlined row unchanged leaves it to the version that added it
        Cli.ok(wc, "import", csv("b", "id,v\n1,a\n2,B\n9,inlined\n").toString(), "--table", "t", "--mode", "sync");
        String third = commit(wc, "third");
        assertThat(blame(wc, "t")).isEqualTo(Map.of("1", first, "2", third, "9", second));
        assertThat(blame(wc, "t", second)).isEqualTo(Map.of("1", first, "2", first, "9", second));
    }

    @Test
    void everyFormPrintsTheOwnerThenTheRowsValuesAlikeInProcessAndToTheProcessStdout() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", csv("a", "id,v\n2,\"a,b\"\n1,\"q\"\"q\"\n3,\n").toString(), "--table", "t");
        String id = commit(wc, "first, \"quoted\"");
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "log", "-n", "1", "--json").out()).get(0);
        String author = v.get("author").get("name").asText(), email = v.get("author").get("email").asText();
        String created = v.get("created_at").asText();
        long seq = v.get("seq").asLong();
        // git blame's shape: short id, seq, date, author (16 characters at most), then the values by tabs, NULL as NULL
        String prefix = String.format("%-13s %5d %-10s %-16s ", id.substring(0, 13), seq, created.substring(0, 10),
                author.length() > 16 ? author.substring(0, 16) : author);
        String text = Cli.ok(wc, "blame", "t").out();
        assertThat(text.lines().toList()).containsExactly(String.format("%-13s %5s %-10s %-16s ", "version", "seq", "date", "author") + "id\tv",
                prefix + "1\tq\"q", prefix + "2\ta,b", prefix + "3\tNULL");
        String csvPrefix = id + "," + seq + "," + created + "," + author + " <" + email + ">,\"first, \"\"quoted\"\"\",";
        assertThat(Cli.ok(wc, "blame", "t", "--csv").out().lines().toList()).containsExactly("version,seq,created_at,author,message,id,v",
                csvPrefix + "1,\"q\"\"q\"", csvPrefix + "2,\"a,b\"", csvPrefix + "3,");
        List<String> json = Cli.ok(wc, "blame", "t", "--json").out().lines().toList();
        assertThat(json).hasSize(3);
        JsonNode first = Json.MAPPER.readTree(json.get(0));
        assertThat(first.get("version").asText()).isEqualTo(id);
        assertThat(first.get("message").asText()).isEqualTo("first, \"quoted\"");
        assertThat(first.get("row").toString()).isEqualTo("{\"id\":1,\"v\":\"q\\\"q\"}");
        assertThat(Json.MAPPER.readTree(json.get(2)).get("row").get("v").isNull()).isTrue();
        // run as a user runs it: the rows DuckDB wrote go to the process's stdout after the header, appended to what a file holds
        Path out = Files.writeString(dir.resolve("out.txt"), "before\n");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.fdl.cli.Main", "-C", wc.toString(), "blame", "t", "main")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor()).isZero();
        assertThat(Files.readString(out)).isEqualTo("before\n" + text);
    }
}
