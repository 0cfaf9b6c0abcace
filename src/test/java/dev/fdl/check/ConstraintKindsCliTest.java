package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each constraint kind fails on data that breaks it and passes otherwise, on a table loaded from
 * CSV (every row new: checked in full) and on one synced from CSV (only the changed rows are new:
 * row constraints checked incrementally), as fdl check --working reports it.
 */
class ConstraintKindsCliTest {
    @TempDir Path dir;

    static final String DESCRIPTION = """
            {"name": "places", "resources": [
              {"name": "countries", "schema": {"primaryKey": ["code"]}},
              {"name": "places", "schema": {"primaryKey": "id",
                "foreignKeys": [{"fields": "country", "reference": {"resource": "countries", "fields": "code"}}],
                "fields": [
                  {"name": "name", "constraints": {"required": true}},
                  {"name": "pop", "constraints": {"minimum": 0, "maximum": 1000000000}},
                  {"name": "label", "constraints": {"minLength": 2, "maxLength": 10}},
                  {"name": "code", "constraints": {"pattern": "[A-Z]{3}", "unique": true}},
                  {"name": "kind", "constraints": {"enum": ["city", "town"]}}]}}]}
            """;

    /** The check each kind's bad row breaks, and how row 5 is changed to break it. */
    static final Map<String, String[]> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("required", new String[]{"places.name: required true", "name="});
        KINDS.put("minimum", new String[]{"places.pop: minimum 0", "pop=-1"});
        KINDS.put("maximum", new String[]{"places.pop: maximum 1000000000", "pop=2000000000"});
        KINDS.put("minLength", new String[]{"places.label: minLength 2", "label=a"});
        KINDS.put("maxLength", new String[]{"places.label: maxLength 10", "label=abcdefghijkl"});
        KINDS.put("pattern", new String[]{"places.code: pattern \"[A-Z]{3}\"", "code=ab1"});
        KINDS.put("enum", new String[]{"places.kind: enum [\"city\",\"town\"]", "kind=village"});
        KINDS.put("unique", new String[]{"places.code: unique", "code=AAE"});
        KINDS.put("primaryKey", new String[]{"places: primaryKey [id]", "id=4"});
        KINDS.put("foreignKeys", new String[]{"places: foreignKey [country] -> countries [code]", "country=ZZ"});
    }

    static final String[] COLUMNS = {"id", "name", "pop", "label", "code", "kind", "country"};

    /** 20 rows that meet every constraint; {@code change} ("column=value") applied to row 5. */
    static String places(String change) {
        StringBuilder sb = new StringBuilder(String.join(",", COLUMNS)).append('\n');
        Random r = new Random(7);
        for (int i = 0; i < 20; i++) {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("id", Integer.toString(i));
            row.put("name", "place " + i);
            row.put("pop", Integer.toString(r.nextInt(1_000_000)));
            row.put("label", "l" + i);
            row.put("code", "AA" + (char) ('A' + i));
            row.put("kind", i % 2 == 0 ? "city" : "town");
            row.put("country", i % 3 == 0 ? "FR" : "NO");
            if (i == 5 && change != null) row.put(change.substring(0, change.indexOf('=')), change.substring(change.indexOf('=') + 1));
            sb.append(String.join(",", row.values())).append('\n');
        }
        return sb.toString();
    }

    private static Map<String, String> results(JsonNode report) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode r : report.path("results"))
            if (!r.path("check").asText().startsWith("guard:")) out.put(r.path("check").asText(), r.path("status").asText() + " " + r.path("count").asLong());
        return out;
    }

    @Test
    void eachConstraintKindFailsOnDataThatBreaksItOnLoadedAndSyncedTables() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Files.writeString(dir.resolve("countries.csv"), "code,name\nFR,France\nNO,Norway\n");
        Path good = dir.resolve("good.csv");
        Files.writeString(good, places(null));
        Cli.ok(wc, "import", dir.resolve("countries.csv").toString(), "--table", "countries");
        Cli.ok(wc, "import", good.toString(), "--table", "places");
        Files.writeString(wc.resolve("dataset.json"), DESCRIPTION);
        JsonNode passing = Json.MAPPER.readTree(Cli.ok(wc, "check", "--working", "--json").out());
        assertThat(results(passing)).hasSize(KINDS.size() + 1).allSatisfy((k, v) -> assertThat(v).as(k).isEqualTo("passed 0"));
        Cli.ok(wc, "commit", "-m", "good places");

        for (var kind : KINDS.entrySet()) {
            Path bad = dir.resolve(kind.getKey() + ".csv");
            Files.writeString(bad, places(kind.getValue()[1]));
            for (String mode : new String[]{"replace", "sync"}) {
                Cli.ok(wc, "import", bad.toString(), "--table", "places", "--mode", mode);
                Cli.Result r = Cli.in(wc, "check", "--working", "--json");
                assertThat(r.exit()).as(kind.getKey() + " " + mode + "\n" + r).isEqualTo(1);
                Map<String, String> results = results(Json.MAPPER.readTree(r.out()));
                long expected = kind.getKey().equals("unique") || kind.getKey().equals("primaryKey") ? 2 : 1;
                for (var e : results.entrySet())
                    assertThat(e.getValue()).as(kind.getKey() + " " + mode + ": " + e.getKey())
                            .isEqualTo(e.getKey().equals(kind.getValue()[0]) ? "failed " + expected : "passed 0");
                assertThat(results).containsKey(kind.getValue()[0]);
                Cli.ok(wc, "import", good.toString(), "--table", "places", "--mode", "replace");
            }
        }
    }

    @Test
    void incrementalEqualsFullOnRandomSyncs() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Files.writeString(dir.resolve("countries.csv"), "code,name\nFR,France\nNO,Norway\n");
        Path good = dir.resolve("good.csv");
        Files.writeString(good, places(null));
        Cli.ok(wc, "import", dir.resolve("countries.csv").toString(), "--table", "countries");
        Cli.ok(wc, "import", good.toString(), "--table", "places", "--mode", "sync", "--key", "id");
        Files.writeString(wc.resolve("dataset.json"), DESCRIPTION);
        Cli.ok(wc, "commit", "-m", "good places");
        List<String> changes = new ArrayList<>();
        for (String[] k : KINDS.values()) if (!k[1].startsWith("id=")) changes.add(k[1]);
        changes.add("pop=12");
        changes.add("label=ok");
        for (long seed = 1; seed <= 4; seed++) {
            Random random = new Random(seed);
            StringBuilder csv = new StringBuilder(String.join(",", COLUMNS)).append('\n');
            List<String> lines = places(null).lines().skip(1).toList();
            for (String line : lines) {
                String[] cells = line.split(",", -1);
                if (random.nextInt(4) == 0) {
                    String change = changes.get(random.nextInt(changes.size()));
                    int col = List.of(COLUMNS).indexOf(change.substring(0, change.indexOf('=')));
                    cells[col] = change.substring(change.indexOf('=') + 1);
                }
                csv.append(String.join(",", cells)).append('\n');
            }
            Path changed = dir.resolve("changed-" + seed + ".csv");
            Files.writeString(changed, csv.toString());
            Cli.ok(wc, "import", changed.toString(), "--table", "places", "--mode", "sync", "--key", "id");
            JsonNode incremental = Json.MAPPER.readTree(Cli.in(wc, "check", "--working", "--json").out());
            JsonNode full = Json.MAPPER.readTree(Cli.in(wc, "check", "--working", "--json", "--full").out());
            assertThat(incremental.path("mode").asText()).isEqualTo("incremental");
            assertThat(results(incremental)).as("seed " + seed).isEqualTo(results(full));
            Cli.ok(wc, "import", good.toString(), "--table", "places", "--mode", "sync", "--key", "id");
        }
    }
}
