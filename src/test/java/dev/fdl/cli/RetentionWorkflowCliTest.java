package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 7 end to end on the shipped world-cities months: commit, tag, expire, gc, query, verify. */
class RetentionWorkflowCliTest {
    static final String[] MONTHS = {"2024-10-04", "2024-12-01", "2025-03-01", "2025-06-01", "2025-10-01", "2026-01-01"};
    static final String QUERY = "SELECT count(*) AS n, sum(geonameid) AS s, min(name) AS lo, max(name) AS hi FROM cities";

    @TempDir Path dir;

    Cli.Result fdl(Path cwd, String... args) {
        return Cli.in(cwd, args);
    }

    Cli.Result ok(Path cwd, String... args) {
        return Cli.ok(cwd, args);
    }

    long dataFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root.resolve("data"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void manyCommitsExpiredToKeepTwoAndCollectedStillAnswerEveryQueryOnKeptVersionsAndTags() throws Exception {
        Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
        String repo = root.toString(), cache = dir.resolve("cache").toString();
        ok(dir, "init", repo);
        ok(wc, "checkout", "--repo", repo);
        for (int i = 0; i < MONTHS.length; i++) {
            Path csv = WorkflowCliTest.month(dir, MONTHS[i]);
            ok(wc, "import", csv.toString(), "--table", "cities", "--mode", i == 0 ? "create" : "replace");
            ok(wc, "commit", "-m", "cities " + MONTHS[i]);
            if (i == 0) ok(wc, "tag", "first");
            if (i == 2) ok(wc, "tag", "spring-2025");
        }
        JsonNode log = Json.MAPPER.readTree(ok(dir, "log", "--repo", repo, "--json").out());
        List<String> ids = new ArrayList<>(); // oldest first
        for (JsonNode v : log) ids.add(0, v.get("id").asText());
        assertThat(ids).hasSize(MONTHS.length);
        Map<String, String> answers = new LinkedHashMap<>();
        for (String id : ids) answers.put(id, ok(wc, "query", "--csv", id, QUERY).out());
        String firstAnswer = ok(wc, "query", "--csv", "first", QUERY).out();
        String springAnswer = ok(wc, "query", "--csv", "spring-2025", QUERY).out();
        long filesBefore = dataFiles(root);

        Cli.Result expire = ok(dir, "expire", "--repo", repo, "--keep", "2");
        // kept: the newest two, and the tagged first and third; expired: the second and fourth
        assertThat(expire.out()).contains("Expired " + ids.get(1), "Expired " + ids.get(3), "Expired 2 version(s); 4 in retention");
        Cli.Result gc = ok(dir, "gc", "--repo", repo, "--grace", "0s", "--cache-dir", cache, "--json");
        JsonNode report = Json.MAPPER.readTree(gc.out());
        assertThat(report.get("live_versions").asInt()).isEqualTo(4);
        assertThat(report.get("data_files").get("count").asLong()).isPositive();
        assertThat(dataFiles(root)).isEqualTo(filesBefore - report.get("data_files").get("count").asLong());

        for (int i : new int[]{0, 2, 4, 5})
            assertThat(ok(wc, "query", "--csv", ids.get(i), QUERY).out()).as("version " + (i + 1)).isEqualTo(answers.get(ids.get(i)));
        assertThat(ok(wc, "query", "--csv", "first", QUERY).out()).isEqualTo(firstAnswer);
        assertThat(ok(wc, "query", "--csv", "spring-2025", QUERY).out()).isEqualTo(springAnswer);
        assertThat(ok(wc, "query", "--csv", QUERY).out()).isEqualTo(answers.get(ids.get(5)));
        for (int i : new int[]{1, 3}) {
            Cli.Result gone = fdl(wc, "query", "--csv", ids.get(i), QUERY);
            assertThat(gone.exit()).isEqualTo(4);
            assertThat(gone.err()).contains("expired on");
        }
        assertThat(ok(dir, "log", "--repo", repo, "--oneline").out().lines().filter(l -> l.contains("[expired ")).count()).isEqualTo(2);
        assertThat(ok(dir, "verify", "--repo", repo, "--cache-dir", cache).out()).contains("no problems");

        // the working copy still commits on top of the kept head after all this
        ok(wc, "import", WorkflowCliTest.month(dir, MONTHS[0]).toString(), "--table", "cities", "--mode", "replace");
        ok(wc, "commit", "-m", "back to October", "--allow-shrink"); // October had fewer cities: the shrink guard asks for the flag
        assertThat(ok(wc, "query", "--csv", QUERY).out()).isEqualTo(answers.get(ids.get(0)));
        assertThat(ok(dir, "verify", "--repo", repo, "--cache-dir", cache).out()).contains("no problems");
    }
}
