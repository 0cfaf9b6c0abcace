package dev.fdl.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code fdl diff <a> <b> --changes}: the feed applied to a's rows gives b's rows (docs/history.md). */
class ChangeFeedCliTest {
    @TempDir Path dir;

    private Path feed(Path wcOrDir, String a, String b, String table, String... more) {
        Path out = dir.resolve("feed-" + a.replaceAll("\\W", "_") + "-" + b.replaceAll("\\W", "_") + "-" + more.length + ".parquet");
        List<String> args = new ArrayList<>(List.of("diff", a, b, "--changes", "--table", table, "--format", "parquet", "--output", out.toString()));
        args.addAll(List.of(more));
        Cli.ok(wcOrDir, args.toArray(String[]::new));
        return out;
    }

    @Test
    void demoMonthsFeedsApplyToTheOlderMonthGivingTheNewerWithAndWithoutTheRecordedKey() throws Exception {
        Cli.ok(dir, "demo");
        Path repo = dir.resolve("fdl-demo/repo"), wc = dir.resolve("fdl-demo/work");
        String[] refs = {"2026-01-01~5", "2026-01-01~4", "2026-01-01~2", "2026-01-01"};
        for (String r : refs) HistoryFixtures.exportRows(repo, r, "cities", dir.resolve(r.replaceAll("\\W", "_") + ".parquet"));
        for (int i = 0; i + 1 < refs.length; i++) {
            Path a = dir.resolve(refs[i].replaceAll("\\W", "_") + ".parquet"), b = dir.resolve(refs[i + 1].replaceAll("\\W", "_") + ".parquet");
            Path keyed = feed(wc, refs[i], refs[i + 1], "cities");
            HistoryFixtures.assertFeedApplies(a, b, keyed);
            // keyed: a changed city is one update pair, never a delete and an insert of one geonameid
            assertThat(HistoryFixtures.count("SELECT count(*) FROM (SELECT geonameid FROM read_parquet(" + SqlQuote.literal(keyed.toString())
                    + ") GROUP BY geonameid HAVING count(*) > 1 AND bool_or(change_type = 'delete') AND bool_or(change_type = 'insert'))")).isZero();
            assertThat(HistoryFixtures.count("SELECT count(*) FROM read_parquet(" + SqlQuote.literal(keyed.toString())
                    + ") WHERE change_type = 'update_postimage'")).isPositive();
            Path whole = feed(wc, refs[i], refs[i + 1], "cities", "--no-key");
            HistoryFixtures.assertFeedApplies(a, b, whole);
            assertThat(HistoryFixtures.count("SELECT count(*) FROM read_parquet(" + SqlQuote.literal(whole.toString())
                    + ") WHERE change_type LIKE 'update%'")).isZero();
        }
        // the JSON form: one object per line with table, change_type and row, as many as the Parquet records
        String json = Cli.ok(wc, "diff", refs[2], refs[3], "--changes").out();
        List<String> lines = json.lines().toList();
        assertThat((long) lines.size()).isEqualTo(HistoryFixtures.count("SELECT count(*) FROM read_parquet("
                + SqlQuote.literal(feed(wc, refs[2], refs[3], "cities").toString()) + ")"));
        JsonNode first = Json.MAPPER.readTree(lines.get(0));
        assertThat(first.get("table").asText()).isEqualTo("main.cities");
        assertThat(first.get("row").has("geonameid")).isTrue();
        // CSV of one table to stdout: a header, then the records
        String csv = Cli.ok(wc, "diff", refs[2], refs[3], "--changes", "--table", "cities", "--format", "csv").out();
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("change_type,");
        assertThat(csv.lines().count()).isEqualTo(lines.size() + 1);
    }

    @Test
    void randomizedVersionsFeedsApplyWithAndWithoutAKey() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path repo = dir.resolve("repo");
        Random random = new Random(40);
        int versions = 5;
        for (int v = 0; v < versions; v++) {
            List<String> keyed = new ArrayList<>(List.of("id,name,score"));
            List<String> bag = new ArrayList<>(List.of("name,score"));
            for (int id = 0; id < 300; id++) {
                if (random.nextInt(10) == 0) continue; // some rows removed, some back again
                keyed.add(id + ",n" + (random.nextInt(4) == 0 ? random.nextInt(5) : id % 7) + "," + (random.nextInt(3) == 0 ? "" : id % 11));
            }
            for (int i = 0; i < 200; i++) bag.add("b" + random.nextInt(30) + "," + random.nextInt(4)); // duplicate rows
            Cli.ok(wc, "import", HistoryFixtures.csv(dir.resolve("k" + v + ".csv"), keyed).toString(), "--table", "keyed", "--mode", "sync", "--key", "id");
            Cli.ok(wc, "import", HistoryFixtures.csv(dir.resolve("b" + v + ".csv"), bag).toString(), "--table", "bag", "--mode", "replace");
            Cli.ok(wc, "commit", "-m", "v" + v);
            Cli.ok(wc, "tag", "v" + v);
        }
        for (int v = 0; v < versions; v++)
            for (String t : List.of("keyed", "bag")) HistoryFixtures.exportRows(repo, "v" + v, t, dir.resolve(t + v + ".parquet"));
        for (int[] pair : new int[][]{{0, 1}, {1, 4}, {4, 0}, {2, 3}}) {
            for (String t : List.of("keyed", "bag")) {
                Path a = dir.resolve(t + pair[0] + ".parquet"), b = dir.resolve(t + pair[1] + ".parquet");
                HistoryFixtures.assertFeedApplies(a, b, feed(wc, "v" + pair[0], "v" + pair[1], t));
            }
            HistoryFixtures.assertFeedApplies(dir.resolve("keyed" + pair[0] + ".parquet"), dir.resolve("keyed" + pair[1] + ".parquet"),
                    feed(wc, "v" + pair[0], "v" + pair[1], "keyed", "--no-key"));
        }
        // every table, CSV: a folder with one file per table
        Path folder = dir.resolve("all");
        Cli.ok(wc, "diff", "v0", "v1", "--changes", "--format", "csv", "--output", folder.toString());
        assertThat(folder.resolve("main.keyed.csv")).exists();
        assertThat(folder.resolve("main.bag.csv")).exists();
    }

    @Test
    void badCombinationsAreUsageErrors() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", HistoryFixtures.csv(dir.resolve("a.csv"), List.of("id", "1")).toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "import", HistoryFixtures.csv(dir.resolve("b.csv"), List.of("id", "2")).toString(), "--table", "t", "--mode", "append");
        Cli.ok(wc, "commit", "-m", "two");
        assertThat(Cli.in(wc, "diff", "HEAD~1", "HEAD", "--changes", "--format", "parquet").err()).contains("--output");
        assertThat(Cli.in(wc, "diff", "HEAD~1", "HEAD", "--changes", "--format", "xml").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "diff", "HEAD~1", "HEAD", "--changes", "--format", "csv").err()).contains("--table");
        assertThat(Cli.in(wc, "diff", "HEAD~1", "HEAD", "--format", "csv").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "diff", "HEAD~1", "HEAD", "--changes", "--stat").exit()).isEqualTo(2);
        assertThat(Cli.in(wc, "diff", "HEAD~1", "HEAD", "--changes", "--table", "nosuch").exit()).isEqualTo(4);
        assertThat(Files.list(wc).filter(p -> p.toString().endsWith(".parquet")).count()).isZero();
    }
}
