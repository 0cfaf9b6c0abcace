package dev.fdl.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Shared steps of the history tests: repositories made through the CLI, versions' rows read apart from fdl's diff and blame. */
final class HistoryFixtures {
    private HistoryFixtures() {}

    /** The version id a ref names, from {@code fdl log --json -n 1}. */
    static String versionId(Path repo, String ref) throws Exception {
        JsonNode log = Json.MAPPER.readTree(Cli.ok(repo.getParent(), "log", "--repo", repo.toString(), "--json", "-n", "1", ref).out());
        return log.get(0).get("id").asText();
    }

    /** The versions a ref reaches along first parents, newest first, as {@code fdl log --json} lists them. */
    static List<JsonNode> firstParentLog(Path repo, String ref) throws Exception {
        JsonNode log = Json.MAPPER.readTree(Cli.ok(repo.getParent(), "log", "--repo", repo.toString(), "--json", "--first-parent", ref).out());
        List<JsonNode> out = new ArrayList<>();
        log.forEach(out::add);
        return out;
    }

    /** Writes {@code table}'s rows at the version {@code ref} names to {@code parquet}, read by the built-in reader from its catalog. */
    static void exportRows(Path repo, String ref, String table, Path parquet) throws Exception {
        Path catalog = repo.resolve("versions").resolve(versionId(repo, ref)).resolve("ducklake.duckdb");
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), catalog, repo.resolve("data").toString() + "/", null);
             Statement st = r.connection().createStatement()) {
            st.execute("COPY (SELECT * FROM " + table + ") TO " + SqlQuote.literal(parquet.toString()) + " (FORMAT parquet)");
        }
    }

    /** One number a query over a plain DuckDB gives. */
    static long count(String sql) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Applies the change feed {@code feed} (Parquet, {@code change_type} then the columns) to the rows
     * in {@code a} and asserts the result is the multiset of rows in {@code b}, every deleted or
     * pre-image row one that {@code a} holds, in plain SQL.
     */
    static void assertFeedApplies(Path a, Path b, Path feed) throws Exception {
        String ra = "read_parquet(" + SqlQuote.literal(a.toString()) + ")", rb = "read_parquet(" + SqlQuote.literal(b.toString()) + ")";
        String f = "read_parquet(" + SqlQuote.literal(feed.toString()) + ")";
        String gone = "SELECT * EXCLUDE (change_type) FROM " + f + " WHERE change_type IN ('delete', 'update_preimage')";
        String come = "SELECT * EXCLUDE (change_type) FROM " + f + " WHERE change_type IN ('insert', 'update_postimage')";
        assertThat(count("SELECT count(*) FROM (" + gone + " EXCEPT ALL SELECT * FROM " + ra + ")")).as("removed rows a lacks").isZero();
        String applied = "(SELECT * FROM " + ra + " EXCEPT ALL " + gone + ") UNION ALL (" + come + ")";
        assertThat(count("SELECT count(*) FROM (" + applied + ")")).isEqualTo(count("SELECT count(*) FROM " + rb));
        assertThat(count("SELECT count(*) FROM ((" + applied + ") EXCEPT ALL SELECT * FROM " + rb + ")")).as("applied minus b").isZero();
        assertThat(count("SELECT count(*) FROM (SELECT * FROM " + rb + " EXCEPT ALL (" + applied + "))")).as("b minus applied").isZero();
    }

    /** Writes a CSV file of {@code lines} (the first the header). */
    static Path csv(Path file, List<String> lines) throws Exception {
        Files.write(file, lines);
        return file;
    }
}
