package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** fdl check and the checks fdl commit runs, end to end on the real world-cities data. */
class CheckCliTest {
    @TempDir Path dir;

    static final String DESCRIPTION = """
            {"name": "world-cities", "title": "Major cities", "resources": [{"name": "cities", "schema": {
              "primaryKey": "geonameid",
              "fields": [{"name": "name", "constraints": {"required": true, "minLength": 1}},
                         {"name": "geonameid", "constraints": {"required": true, "minimum": 1}}]}}],
             "fdl:checks": [{"name": "no-country-named-x", "sql": "SELECT * FROM cities WHERE country = 'X'", "level": "warn"}]}
            """;

    /** The world-cities file of {@code date} as plain CSV, through DuckDB with {@code sql} applied to it ({@code t} is the file). */
    static Path cities(Path dir, String name, String select) throws Exception {
        Path gz = dir.resolve("wc-" + name + ".csv.gz");
        try (InputStream in = CheckCliTest.class.getResourceAsStream("/demo/world-cities/world-cities-2026-01-01.csv.gz")) {
            Files.copy(in, gz);
        }
        Path out = dir.resolve(name + ".csv");
        try (Connection c = dev.fdl.ducklake.engine.DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t AS SELECT * FROM read_csv(" + SqlQuote.literal(gz.toString()) + ", header = true)");
            st.execute("COPY (" + select + ") TO " + SqlQuote.literal(out.toString()) + " (HEADER)");
        }
        return out;
    }

    static long count(Path root, String folder) throws Exception {
        Path p = root.resolve(folder);
        if (!Files.exists(p)) return 0;
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    private Path wcWithCities() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", cities(dir, "full", "SELECT * FROM t").toString(), "--table", "cities");
        Files.writeString(wc.resolve("dataset.json"), DESCRIPTION);
        Cli.ok(wc, "commit", "-m", "all cities");
        return wc;
    }

    @Test
    void aBuildTruncatedToAThousandRowsIsRefusedByTheShrinkGuardAndAcceptedWithAllowShrink() throws Exception {
        Path wc = wcWithCities();
        Path root = dir.resolve("repo");
        JsonNode first = Json.MAPPER.readTree(Cli.ok(wc, "show", "--json").out());
        assertThat(first.path("checks").path("failed").asLong()).isZero();

        Cli.ok(wc, "import", cities(dir, "short", "SELECT * FROM t LIMIT 1000").toString(), "--table", "cities", "--mode", "replace");
        long versions = count(root, "versions"), data = count(root, "data");
        Cli.Result refused = Cli.in(wc, "commit", "-m", "upstream broke");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("guard: cities keeps its rows").contains("33,073 rows -> 1,000").contains("--allow-shrink")
                .contains("nothing was uploaded");
        assertThat(count(root, "versions")).isEqualTo(versions);
        assertThat(count(root, "data")).isEqualTo(data);

        Cli.Result accepted = Cli.ok(wc, "commit", "-m", "a small build, meant", "--allow-shrink");
        assertThat(accepted.err()).contains("fdl: warning: guard: cities keeps its rows").contains("allowed by --allow-shrink");
        JsonNode v = Json.MAPPER.readTree(Cli.ok(wc, "show", "--json").out());
        assertThat(v.path("checks").path("warned").asLong()).isEqualTo(1);
        assertThat(v.path("checks").path("warnings").get(0).path("check").asText()).isEqualTo("guard: cities keeps its rows");
        assertThat(Cli.ok(wc, "show").out()).contains("guard: cities keeps its rows");
        assertThat(Cli.ok(wc, "log").out()).contains("[1 warning]");
        Cli.ok(wc, "site");
        String page = Files.readString(root.resolve("site/versions/" + v.path("id").asText() + ".html"));
        assertThat(page).contains("<span id=\"check-warnings\">1</span> warned").contains("<h2>Check warnings</h2>")
                .contains("guard: cities keeps its rows: 33,073 rows -&gt; 1,000");
    }

    @Test
    void aGeonameidMadeNonUniqueIsRefusedByThePrimaryKey() throws Exception {
        Path wc = wcWithCities();
        Path root = dir.resolve("repo");
        Cli.ok(wc, "import", cities(dir, "dup", "SELECT * FROM t UNION ALL (SELECT name || ' again', country, subcountry, geonameid FROM t "
                + "WHERE geonameid = 3040051)").toString(), "--table", "cities", "--mode", "sync", "--key", "name,geonameid");
        long versions = count(root, "versions");
        Cli.Result refused = Cli.in(wc, "commit", "-m", "duplicate");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("failed  cities: primaryKey [geonameid]  (2 rows)").contains("geonameid=3040051")
                .contains("les Escaldes again");
        assertThat(count(root, "versions")).isEqualTo(versions);

        Cli.Result check = Cli.in(wc, "check", "--working", "--json");
        assertThat(check.exit()).isEqualTo(1);
        JsonNode report = Json.MAPPER.readTree(check.out());
        assertThat(report.path("failed").asLong()).isEqualTo(1);
        JsonNode pk = null;
        for (JsonNode r : report.path("results")) if (r.path("check").asText().contains("primaryKey")) pk = r;
        assertThat(pk.path("count").asLong()).isEqualTo(2);
        assertThat(pk.path("rows")).hasSize(2);
        // the row constraints held at the parent: only the added row was read for them
        assertThat(report.path("mode").asText()).isEqualTo("incremental");
        assertThat(Json.MAPPER.readTree(Cli.in(wc, "check", "--working", "--json", "--full").out()).path("mode").asText()).isEqualTo("full");
    }

    @Test
    void checkOfACommittedVersionReportsEveryCheck() throws Exception {
        Path wc = wcWithCities();
        Cli.Result r = Cli.ok(wc, "check");
        assertThat(r.out()).contains("passed  cities.name: required true").contains("passed  cities: primaryKey [geonameid]")
                .contains("passed  check 'no-country-named-x'").contains("0 warned, 0 failed");
    }
}
