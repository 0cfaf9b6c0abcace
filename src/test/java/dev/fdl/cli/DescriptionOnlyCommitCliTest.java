package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.util.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A version that changes only the description (or the DuckLake format) of its parent: as in git,
 * a commit publishes an edited tracked file on its own. A version still adds a snapshot (SPEC.md
 * section 4): with none since checkout, commit adds one that changes nothing, with the rows the
 * DuckLake extension writes for an empty change list (schema version and id counters unchanged,
 * {@code changes_made} NULL). A commit with nothing at all to publish is refused unless
 * {@code --allow-empty}.
 */
class DescriptionOnlyCommitCliTest {
    static final String TYPO = "{\"name\": \"towns\", \"title\": \"Towns of somewhre\"}\n";

    @TempDir Path dir;
    Path wc, root;
    JsonNode v1;

    @BeforeEach
    void firstVersion() throws IOException {
        wc = Cli.newWorkingCopy(dir);
        root = dir.resolve("repo");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id,name\n1,a\n2,b\n").toString(), "--table", "t");
        Files.writeString(wc.resolve("dataset.json"), TYPO);
        v1 = commit("first");
    }

    JsonNode commit(String message, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("commit", "-m", message, "--json"));
        args.addAll(Arrays.asList(more));
        return Json.MAPPER.readTree(Cli.ok(wc, args.toArray(String[]::new)).out());
    }

    static long first(JsonNode v) {
        return v.get("ducklake").get("snapshots").get(0).asLong();
    }

    static long last(JsonNode v) {
        return v.get("ducklake").get("snapshots").get(1).asLong();
    }

    long workingLastSnapshot() {
        try (CatalogInspector c = CatalogInspector.open(WorkingCopy.find(wc).orElseThrow().catalog())) {
            return c.lastSnapshotId();
        }
    }

    long versionFolders() throws IOException {
        try (Stream<Path> s = Files.list(root.resolve("versions"))) {
            return s.count();
        }
    }

    /** The catalog's snapshots, one line each: id, schema_version, next_catalog_id, next_file_id, changes_made, message. */
    List<String> snapshots(JsonNode v) throws SQLException {
        Path catalog = root.resolve("versions/" + v.get("id").asText() + "/ducklake.duckdb");
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("ATTACH '" + catalog + "' AS v (READ_ONLY)");
            try (ResultSet r = s.executeQuery("SELECT snapshot_id, schema_version, next_catalog_id, next_file_id, changes_made, commit_message "
                    + "FROM v.ducklake_snapshot LEFT JOIN v.ducklake_snapshot_changes USING (snapshot_id) ORDER BY snapshot_id")) {
                while (r.next())
                    rows.add(r.getLong(1) + " " + r.getLong(2) + " " + r.getLong(3) + " " + r.getLong(4) + " " + r.getString(5) + " " + r.getString(6));
            }
        }
        return rows;
    }

    @Test
    void aDescriptionOnlyChangeIsPublishedAsAVersionWhoseCatalogAddsOneEmptySnapshot() throws Exception {
        Files.writeString(wc.resolve("dataset.json"), Files.readString(wc.resolve("dataset.json")).replace("somewhre", "somewhere"));
        assertThat(Cli.ok(wc, "status").out())
                .contains("Description: dataset.json modified (published by the next commit)\n")
                .contains("No snapshot since checkout: the commit adds one that changes no data")
                .doesNotContain("needs a snapshot", "Nothing to commit");
        assertThat(Cli.ok(wc, "status", "--json").out()).contains("\"nothing_to_commit\" : false", "\"commit_adds_snapshot\" : true");

        JsonNode v2 = commit("Fix the title");
        assertThat(v2.get("parents").get(0).asText()).isEqualTo(v1.get("id").asText());
        assertThat(first(v2)).isEqualTo(last(v1) + 1);
        assertThat(last(v2)).isEqualTo(last(v1) + 1);
        assertThat(Files.readString(root.resolve("versions/" + v2.get("id").asText() + "/dataset.json")))
                .contains("Towns of somewhere").doesNotContain("somewhre").contains("\"rows\" : 2");

        // the new snapshot is the parent's newest with nothing changed: same schema version and id counters, no changes_made
        String parentNewest = snapshots(v1).get(snapshots(v1).size() - 1);
        String[] p = parentNewest.split(" ");
        assertThat(snapshots(v2)).containsExactly((last(v1) + 1) + " " + p[1] + " " + p[2] + " " + p[3] + " null Fix the title");

        // the same tables and rows: reads, diff, log --stat, verify, site and retention all take it
        String rows = Cli.ok(wc, "query", "HEAD", "--csv", "SELECT * FROM t ORDER BY id").out();
        assertThat(rows).isEqualTo("id,name\n1,a\n2,b\n");
        assertThat(Cli.ok(wc, "query", "HEAD~1", "--csv", "SELECT * FROM t ORDER BY id").out()).isEqualTo(rows);
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--json").out())
                .contains("{\"summary\":{\"tables_added\":0,\"tables_dropped\":0,\"tables_changed\":0,\"added\":0,\"removed\":0,\"changed\":0}}");
        assertThat(Cli.ok(wc, "log", "-n", "1", "--stat").out()).contains("Fix the title").doesNotContain("main.t");
        assertThat(Cli.ok(wc, "log", "--stat").out()).containsOnlyOnce("main.t | +2 -0 (2 rows)");
        assertThat(Cli.ok(wc, "verify").out()).contains("no problems");
        Cli.ok(wc, "site");

        assertThat(Cli.ok(wc, "status").out()).contains("Nothing to commit").doesNotContain("Description:");
        assertThat(workingLastSnapshot()).as("the working catalog has the published snapshot").isEqualTo(last(v2));

        Cli.ok(wc, "expire", "--keep-last", "1");
        Cli.ok(wc, "gc", "--grace", "0s");
        assertThat(Cli.ok(wc, "query", "HEAD", "--csv", "SELECT * FROM t ORDER BY id").out()).as("its catalog still names the data").isEqualTo(rows);
        assertThat(Cli.ok(wc, "verify").out()).contains("no problems");
    }

    @Test
    void aCommitWithNothingChangedIsRefusedUnlessAllowEmpty() throws Exception {
        long folders = versionFolders();
        Cli.Result nothing = Cli.in(wc, "commit", "-m", "nothing");
        assertThat(nothing.exit()).as(nothing.toString()).isEqualTo(1);
        assertThat(nothing.err()).contains("nothing to commit", "--allow-empty");
        assertThat(versionFolders()).isEqualTo(folders);
        assertThat(workingLastSnapshot()).isEqualTo(last(v1));
        assertThat(Cli.ok(wc, "status", "--json").out()).contains("\"nothing_to_commit\" : true", "\"commit_adds_snapshot\" : false");

        JsonNode v2 = commit("a version anyway", "--allow-empty");
        assertThat(first(v2)).isEqualTo(last(v1) + 1);
        assertThat(last(v2)).isEqualTo(last(v1) + 1);
        assertThat(v2.get("dataset").get("sha256").asText()).isEqualTo(v1.get("dataset").get("sha256").asText());
        assertThat(snapshots(v2)).hasSize(1).allSatisfy(s -> assertThat(s).endsWith(" null a version anyway"));
    }

    @Test
    void aRefusedDescriptionOnlyCommitTakesItsSnapshotBack() throws Exception {
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"towns\", \"title\": \"Towns\", "
                + "\"resources\": [{\"name\": \"t\", \"schema\": {\"fields\": [{\"name\": \"nope\"}]}}]}\n");
        long folders = versionFolders();
        Cli.Result refused = Cli.in(wc, "commit", "-m", "describe a column that is not there");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("nope");
        assertThat(versionFolders()).isEqualTo(folders);
        assertThat(workingLastSnapshot()).as("no snapshot left behind").isEqualTo(last(v1));
        assertThat(Cli.ok(wc, "status").out()).contains("No snapshot since checkout: the commit adds one");

        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"towns\", \"title\": \"Towns\"}\n");
        assertThat(last(commit("describe it right"))).isEqualTo(last(v1) + 1);
    }

    @Test
    void aDuckLakeFormatChangeAloneIsPublishedToo() throws Exception {
        Cli.ok(wc, "checkout", "--ducklake-format", "1.1");
        assertThat(Cli.ok(wc, "status").out()).contains("DuckLake format: 1.0 -> 1.1 (published by the next commit)")
                .contains("No snapshot since checkout: the commit adds one").doesNotContain("Description:");
        JsonNode v2 = commit("to 1.1");
        assertThat(v2.get("ducklake").get("format").asText()).isEqualTo("1.1");
        assertThat(last(v2)).isEqualTo(last(v1) + 1);
        assertThat(Cli.ok(wc, "log", "--oneline", "-n", "1").out()).contains("[DuckLake 1.0 -> 1.1]");
        assertThat(Cli.ok(wc, "query", "HEAD", "--csv", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n2\n");
    }
}
