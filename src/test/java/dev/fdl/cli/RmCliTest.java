package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import dev.fdl.util.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl rm <table>…} as git rm: the table leaves the working copy at once (one DuckLake
 * snapshot, shown by status), the published dataset at the next commit (query, diff and
 * log --stat of that version no longer show it; older versions still do), no data file is
 * deleted, and the same name can be imported again as a new table.
 */
class RmCliTest {
    @TempDir Path dir;

    private Path wc;
    private Path root;

    /** A working copy whose first version holds main.cities and sales.orders. */
    private String twoTables() throws Exception {
        wc = Cli.newWorkingCopy(dir);
        root = dir.resolve("repo");
        Path a = Files.writeString(dir.resolve("a.csv"), "id,name\n1,Lyon\n2,Quito\n");
        Cli.ok(wc, "import", a.toString(), "--table", "cities");
        Cli.ok(wc, "import", a.toString(), "--table", "sales.orders");
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "two tables", "--json").out()).get("id").asText();
    }

    private long dataFiles() throws Exception {
        try (var s = Files.walk(root.resolve("data"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void aRemovedTableLeavesTheNextVersionOnly() throws Exception {
        String v1 = twoTables();
        long files = dataFiles();

        Cli.Result rm = Cli.ok(wc, "rm", "cities", "-m", "cities move elsewhere");
        assertThat(rm.out()).contains("Removed main.cities from the working copy (snapshot 3); fdl commit --allow-drop -m 'cities move elsewhere' publishes it. No data file was deleted.");
        assertThat(Cli.ok(wc, "status").out()).contains("1 snapshot(s) to commit:")
                .contains("snapshot 3  dropped table main.cities  \"cities move elsewhere\"");
        assertThat(Cli.in(wc, "query", "--working", "SELECT * FROM cities").err()).contains("no table named 'cities'");
        assertThat(Cli.ok(wc, "diff").out()).contains("table dropped: main.cities");

        String v2 = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "without cities", "--json").out()).get("id").asText();
        Cli.Result gone = Cli.in(wc, "query", "HEAD", "SELECT count(*) FROM cities");
        assertThat(gone.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(gone.err()).contains("no table named 'cities'").contains("sales.orders");
        assertThat(Cli.ok(wc, "query", "--csv", "HEAD", "SELECT count(*) AS n FROM sales.orders").out()).isEqualTo("n\n2\n");
        assertThat(Cli.ok(wc, "query", "--csv", v1, "SELECT count(*) AS n FROM cities").out()).as("the older version keeps it").isEqualTo("n\n2\n");
        assertThat(Cli.ok(wc, "diff", v1, "HEAD", "--stat").out()).contains("table dropped: main.cities")
                .contains("0 table(s) added, 1 dropped, 0 changed; 0 row(s) added, 2 removed");
        assertThat(Cli.ok(wc, "log", "-1", "--stat").out()).contains(" main.cities | +0 -2 (dropped)").doesNotContain("sales.orders");
        JsonNode stat = Json.MAPPER.readTree(Cli.ok(wc, "log", "-1", "--stat", "--json").out()).get(0).get("stat");
        assertThat(stat.toString()).isEqualTo("[{\"table\":\"main.cities\",\"rows\":0,\"added\":0,\"removed\":2,\"dropped\":true}]");
        Cli.ok(wc, "site");
        assertThat(Files.readString(root.resolve("site/versions/" + v2 + ".html"))).as("the site's version page, as log --stat")
                .contains("<tr><td>main.cities</td><td class=\"num\">+0</td><td class=\"num\">-2</td><td class=\"num\">dropped</td></tr>");
        assertThat(dataFiles()).as("rm and commit delete no data file").isEqualTo(files);
        assertThat(Files.readString(wc.resolve("dataset.json"))).as("the filled description follows")
                .doesNotContain("\"cities\"").contains("\"sales.orders\"");
    }

    @Test
    void aMissingTableIsNamedAndNothingChanges() throws Exception {
        twoTables();
        Path catalog = Path.of(Json.MAPPER.readTree(Files.readString(wc.resolve(".fdl/state.json"))).get("catalog").asText());
        catalog = catalog.isAbsolute() ? catalog : wc.resolve(".fdl").resolve(catalog);
        String before = Sha256.of(catalog);

        Cli.Result r = Cli.in(wc, "rm", "cities", "towns");
        assertThat(r.exit()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.err()).contains("table main.towns does not exist in the working catalog (tables: main.cities, sales.orders); nothing was removed");
        assertThat(Cli.in(wc, "rm", "a.b.c").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.in(wc, "rm").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(Sha256.of(catalog)).isEqualTo(before);
        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit");
    }

    @Test
    void twoTablesAreOneSnapshot() throws Exception {
        twoTables();
        // names compare ignoring ASCII case, as DuckDB's; the stored spelling is reported, once
        JsonNode r = Json.MAPPER.readTree(Cli.ok(wc, "rm", "Sales.ORDERS", "cities", "sales.orders", "--json").out());
        assertThat(r.get("snapshot").asLong()).isEqualTo(3);
        assertThat(r.get("tables")).extracting(x -> x.get("table").asText()).containsExactly("sales.orders", "main.cities");
        assertThat(r.get("dataset").get("removed_resources")).extracting(JsonNode::asText).containsExactlyInAnyOrder("sales.orders", "cities");
        assertThat(Cli.ok(wc, "status").out()).contains("1 snapshot(s) to commit:")
                .contains("snapshot 3  dropped table main.cities, dropped table sales.orders");
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "empty");
        assertThat(Cli.in(wc, "query", "HEAD", "SELECT 1 FROM cities").err()).contains("no table named 'cities'");
    }

    @Test
    void theSameNameCanBeImportedAgainAsANewTable() throws Exception {
        String v1 = twoTables();
        Cli.ok(wc, "rm", "cities");
        Path b = Files.writeString(dir.resolve("b.csv"), "code,label\nx,1\ny,2\nz,3\n");
        Cli.ok(wc, "import", b.toString(), "--table", "cities");
        assertThat(Cli.ok(wc, "status").out()).contains("snapshot 3  dropped table main.cities")
                .contains("snapshot 4  created table main.cities, inserted into main.cities");
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "new cities");
        assertThat(Cli.ok(wc, "query", "--csv", "HEAD", "SELECT string_agg(code, '' ORDER BY code) AS c FROM cities").out())
                .isEqualTo("c\nxyz\n");
        assertThat(Cli.ok(wc, "query", "--csv", v1, "SELECT string_agg(name, ' ' ORDER BY id) AS c FROM cities").out())
                .isEqualTo("c\nLyon Quito\n");
    }

    @Test
    void theDescriptionLosesTheTableUnlessItHoldsWordsNoVersionHas() throws Exception {
        wc = Cli.newWorkingCopy(dir);
        Path a = Files.writeString(dir.resolve("a.csv"), "id\n1\n");
        for (String t : List.of("other", "described", "fresh", "stale")) Cli.ok(wc, "import", a.toString(), "--table", t);
        Files.writeString(wc.resolve("dataset.json"), "{\"title\": \"T\", \"resources\": [{\"name\": \"described\", \"description\": \"in v1\"}]}");
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "v1");
        // a description written since (no version has it), and a filled entry no longer as the base version has it
        com.fasterxml.jackson.databind.node.ObjectNode edited = (com.fasterxml.jackson.databind.node.ObjectNode)
                Json.MAPPER.readTree(Files.readString(wc.resolve("dataset.json")));
        for (JsonNode r : edited.get("resources"))
            if (r.get("name").asText().equals("fresh")) ((com.fasterxml.jackson.databind.node.ObjectNode) r).put("description", "not committed");
            else if (r.get("name").asText().equals("stale")) ((com.fasterxml.jackson.databind.node.ObjectNode) r).put("rows", 99);
        Files.write(wc.resolve("dataset.json"), Json.bytes(edited));

        Cli.Result rm = Cli.ok(wc, "rm", "described", "fresh", "stale");
        assertThat(rm.out()).contains("Removed resource(s) 'described', 'stale' from dataset.json.");
        assertThat(rm.err()).contains("dataset.json still describes 'fresh' with words no version has, so they were kept");
        JsonNode d = Json.MAPPER.readTree(Files.readString(wc.resolve("dataset.json")));
        assertThat(d.get("resources")).extracting(x -> x.get("name").asText()).containsExactly("fresh", "other");
        assertThat(d.get("title").asText()).isEqualTo("T");

        Cli.Result refused = Cli.in(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "v2");
        assertThat(refused.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(refused.err()).contains("resource 'fresh': no table fresh in the catalog");
        Files.writeString(wc.resolve("dataset.json"), "{\"title\": \"T\"}");
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "v2");
    }

    @Test
    void aBaseDescriptionThatCannotBeReadDoesNotStopRm() throws Exception {
        twoTables();
        Files.writeString(wc.resolve("dataset.json"), "{\"resources\": [{\"name\": \"cities\", \"description\": \"towns\"}]}");
        String v2 = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "described", "--json").out()).get("id").asText();
        Files.delete(root.resolve("versions/" + v2 + "/dataset.json"));

        Cli.Result rm = Cli.ok(wc, "rm", "cities");
        assertThat(rm.err()).contains("dataset.json still describes 'cities' with words no version has, so they were kept");
        assertThat(Cli.ok(wc, "status").out()).contains("dropped table main.cities");
    }
}
