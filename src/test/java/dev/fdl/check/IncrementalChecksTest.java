package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checking only the rows a version added gives the verdict and counts of checking every row, on
 * the real DuckLake fixture (Parquet rows and inlined rows) with seeded random inlined rows added
 * and old ones ended by hand, as a DuckLake writer would.
 */
class IncrementalChecksTest {
    @TempDir Path tmp;

    private static final PrintWriter NOWHERE = new PrintWriter(new StringWriter());

    /** towns' constraints, bounds taken from the fixture so that they hold on its rows at snapshot 15. */
    private static ObjectNode descriptor(long minPop, long maxPop, long maxName) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree("""
                {"name": "towns", "resources": [{"name": "towns", "schema": {"fields": [
                  {"name": "name", "constraints": {"required": true, "maxLength": %d, "pattern": "[A-Za-z0-9 -]+"}},
                  {"name": "pop", "constraints": {"minimum": %d, "maximum": %d}},
                  {"name": "note", "constraints": {"maxLength": 100}}]}}]}
                """.formatted(maxName, minPop, maxPop));
    }

    private static long one(BuiltInReader r, String sql) {
        return ((Number) r.query(sql).rows().get(0).get(0)).longValue();
    }

    @Test
    void incrementalEqualsFullOnRandomAddedRows() throws Exception {
        for (long seed = 1; seed <= 6; seed++) {
            FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp.resolve("s" + seed));
            ObjectNode d;
            try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
                d = descriptor(one(r, "SELECT min(pop) FROM towns"), one(r, "SELECT max(pop) FROM towns"),
                        one(r, "SELECT max(length(name)) FROM towns"));
            }
            Checks.Target target = new Checks.Target(towns.catalog(), towns.dataPath(), d, "dataset.json");
            CheckReport parent = Checks.run(DuckDbPool.shared(), target, null, Checks.Options.DEFAULT, List.of(), NOWHERE);
            assertThat(parent.failed()).as("the constraints hold at snapshot 15").isEmpty();
            assertThat(parent.held()).hasSize(6);

            addRandomSnapshot(towns.catalog(), new Random(seed));
            Checks.Parent p = new Checks.Parent(d, 16, parent.held());
            CheckReport incremental = Checks.run(DuckDbPool.shared(), target, p, Checks.Options.DEFAULT, List.of(), NOWHERE);
            CheckReport full = Checks.run(DuckDbPool.shared(), target, p, new Checks.Options(true, ChangeGuards.Allow.NONE,
                    Hook.DEFAULT_TIMEOUT), List.of(), NOWHERE);
            assertThat(incremental.incremental()).isTrue();
            assertThat(full.incremental()).isFalse();
            assertThat(verdicts(incremental)).as("seed " + seed).isEqualTo(verdicts(full));
            assertThat(incremental.held()).isEqualTo(full.held());
            assertThat(full.failed()).as("seed " + seed + " adds violations").isNotEmpty();
        }
    }

    /** name, status and count of every result, guards left out (none without a parent's description change). */
    private static List<String> verdicts(CheckReport r) {
        List<String> out = new ArrayList<>();
        for (CheckResult c : r.results()) if (!c.name().startsWith("guard:")) out.add(c.name() + " " + c.status() + " " + c.count());
        return out;
    }

    /**
     * Snapshot 16: between 1 and 10 inlined rows added with random values (some breaking a
     * constraint), and some of the old inlined rows ended.
     */
    private static void addRandomSnapshot(Path catalog, Random random) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH " + SqlQuote.literal(catalog.toString()) + " AS c");
            st.execute("USE c");
            st.execute("INSERT INTO ducklake_snapshot VALUES (16, now(), 9, 6, 7)");
            st.execute("INSERT INTO ducklake_snapshot_changes VALUES (16, 'inlined_insert:1,inlined_delete:1', NULL, NULL, NULL)");
            if (random.nextBoolean()) st.execute("UPDATE ducklake_inlined_data_1_9 SET end_snapshot = 16 WHERE end_snapshot IS NULL AND name = 'Oslo'");
            int n = 1 + random.nextInt(10);
            for (int i = 0; i < n; i++) {
                String[] names = {"'Bergen'", "NULL", "'a name far too long for the towns of the fixture'", "'bad_name!'", "'Tromso'"};
                long pop = switch (random.nextInt(4)) {
                    case 0 -> -1 - random.nextInt(1000);
                    case 1 -> 2_000_000_000L;
                    default -> random.nextInt(100_000);
                };
                st.execute("INSERT INTO ducklake_inlined_data_1_9 VALUES (" + (5000 + i) + ", 16, NULL, " + names[random.nextInt(names.length)]
                        + ", " + pop + ", 'added')");
            }
        }
    }
}
