package dev.fdl.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cache.CatalogCache;
import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.LocalStore;
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

/**
 * {@code fdl log --table --key} against the slow way (every version's rows compared with its
 * parent's), and which catalogs it opens: along first parents, those of versions where the row's
 * data file changed, not of those between (docs/history.md).
 */
class RowLogReadsTest {
    @TempDir Path dir;

    private Path csv(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name + ".csv"), text);
    }

    private static String commit(Path wc, String message) throws Exception {
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "--allow-shrink", "-m", message, "--json").out()).get("id").asText();
    }

    @Test
    void randomizedSyncsLogEachKeyAsComparingEveryVersionWithItsParentDoes() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Random random = new Random(7);
        List<String> versions = new ArrayList<>();
        List<Map<Integer, String>> at = new ArrayList<>(); // per version: id → name
        Map<Integer, String> rows = new LinkedHashMap<>();
        for (int v = 0; v < 9; v++) {
            for (int id = 0; id < 60; id++) {
                int dice = random.nextInt(10);
                if (v == 0 || dice < 2) rows.put(id, "n" + random.nextInt(4));
                else if (dice == 2) rows.remove(id);
            }
            boolean extra = v >= 6; // a column added, NULL in every row: each row then changes, its data file may stay
            StringBuilder text = new StringBuilder(extra ? "id,name,extra\n" : "id,name\n");
            rows.forEach((id, name) -> text.append(id).append(',').append(name).append(extra ? ",\n" : "\n"));
            Cli.ok(wc, "import", csv("v" + v, text.toString()).toString(), "--table", "t", "--mode", "sync", "--key", "id");
            if (v == 5) Cli.ok(wc, "compact", "t"); // rewritten data files hold the same rows: no change of a row
            versions.add(commit(wc, "v" + v));
            Map<Integer, String> shown = new HashMap<>();
            rows.forEach((id, name) -> shown.put(id, name + (extra ? "|null" : "")));
            at.add(shown);
        }
        for (int id = 0; id < 60; id++) {
            // the slow way: git log's rule over each version's row and its parent's
            List<String> expected = new ArrayList<>();
            for (int v = versions.size() - 1; v >= 0; v--) {
                String before = v == 0 ? null : at.get(v - 1).get(id), after = at.get(v).get(id);
                if (java.util.Objects.equals(before, after)) continue;
                String change = before == null ? "added" : after == null ? "removed" : "changed";
                expected.add(versions.get(v) + " " + change + " " + before + " -> " + after);
            }
            List<String> got = new ArrayList<>();
            for (JsonNode e : Json.MAPPER.readTree(Cli.ok(wc, "log", "--table", "t", "--key", "id=" + id, "--json").out()))
                got.add(e.get("version").asText() + " " + e.get("change").asText() + " " + name(e.get("before")) + " -> " + name(e.get("after")));
            assertThat(got).as("row %d", id).isEqualTo(expected);
        }
    }

    private static String name(JsonNode rows) {
        return rows.isEmpty() ? null : rows.get(0).get("name").asText() + (rows.get(0).has("extra") ? "|" + rows.get(0).get("extra").asText() : "");
    }

    @Test
    void alongFirstParentsOnlyTheCatalogsOfVersionsWhereTheRowCanHaveChangedAreOpened() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo"), other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(wc, "import", csv("a", "id,v\n1,a\n2,b\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        String base = commit(wc, "base");
        String last = null;
        for (int i = 0; i < 4; i++) { // row 2 changes in each of these versions, row 1 in none
            Cli.ok(wc, "import", csv("m" + i, "id,v\n1,a\n2,b" + i + "\n").toString(), "--table", "t", "--mode", "sync");
            last = commit(wc, "main " + i);
        }
        Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "staging", base);
        Cli.ok(other, "import", csv("s", "id,v\n1,A\n2,b\n").toString(), "--table", "t", "--mode", "sync");
        String staged = commit(other, "staging");
        Cli.ok(wc, "merge", "staging");
        String merge = commit(wc, "merge");

        Repository repo = Repository.open(new LocalStore(root));
        CatalogCache cache = new CatalogCache(dir.resolve("cache"));
        List<String> opened = new ArrayList<>();
        CatalogSource counting = (r, v) -> {
            opened.add(v.id());
            return cache.versionCatalog(r, v);
        };
        RowLog log = new RowLog(repo, counting, DuckDbPool.shared(), catalog -> ReadableCatalog.version(catalog)
                .dataPath(DuckDbPool.shared(), new ReadableCatalog.DataFiles(repo.store(), repo.dataDir(), cache.dataFolder(repo)), null));
        VersionInfo start = repo.readVersion(merge).orElseThrow();
        List<RowLog.Entry> first = log.run(new RowLog.Request(start, "t", Map.of("id", "1"), null, HistoryWalk.Parents.FIRST));
        assertThat(first).extracting(e -> e.version().id() + " " + e.change()).containsExactly(merge + " CHANGED", base + " ADDED");
        // the merge's, then its first parent's, where row 1 is in the base's data file: the versions between did not change it
        assertThat(opened).as("catalogs opened along first parents").containsExactly(merge, last);

        opened.clear();
        List<RowLog.Entry> all = log.run(new RowLog.Request(start, "t", Map.of("id", "1"), null, HistoryWalk.Parents.ALL));
        assertThat(all).extracting(e -> e.version().id() + " " + e.change())
                .containsExactly(merge + " CHANGED", staged + " CHANGED", base + " ADDED");
        assertThat(opened).as("catalogs opened with every parent").contains(merge, staged, last, base);
    }
}
