package dev.fdl.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.check.CheckReport;
import dev.fdl.check.Checks;
import dev.fdl.check.ChangeGuards;
import dev.fdl.check.Hook;
import dev.fdl.cli.Cli;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.workingcopy.Description;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.Stores;
import dev.fdl.util.JsonRead;
import dev.fdl.util.SqlQuote;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Incremental against full checking of row constraints, measured in one run: a table of N rows
 * (default 1,000,000) with every row constraint kind on its columns is committed, then a sync
 * changes 1% of its rows; the working copy is checked with only the added rows read for the row
 * constraints that held at the parent, and with {@code --full}. Prints the medians of 5 runs and
 * the ratio (target ≤ 0.3x), for the checks alone ({@code Checks.run} on the converted catalog) and
 * for {@code fdl check --working} end to end (catalog conversion included).
 * Run with
 * {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.bench.CheckBench -Dexec.args="1000000"}.
 */
public final class CheckBench {
    private static final int RUNS = 5;

    static final String DESCRIPTION = """
            {"name": "bench", "resources": [{"name": "t", "schema": {"fields": [
              {"name": "id", "constraints": {"required": true, "minimum": 0}},
              {"name": "name", "constraints": {"required": true, "minLength": 3, "maxLength": 40, "pattern": "[a-z]+ [0-9]+"}},
              {"name": "pop", "constraints": {"minimum": 0, "maximum": 1000000000}},
              {"name": "kind", "constraints": {"enum": ["city", "town", "village"]}},
              {"name": "code", "constraints": {"pattern": "[A-Z]{2}[0-9]+", "maxLength": 12}}]}}]}
            """;

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        Path tmp = Files.createTempDirectory("fdl-checkbench-");
        Path wc = Cli.newWorkingCopy(tmp);
        Path v1 = tmp.resolve("v1.parquet"), v2 = tmp.resolve("v2.parquet");
        String rows = "SELECT i AS id, 'town ' || i AS name, (i * 7919) % 1000000 AS pop, ['city', 'town', 'village'][1 + i % 3] AS kind, "
                + "'AB' || i AS code FROM range(" + n + ") AS r(i)";
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("COPY (" + rows + ") TO " + SqlQuote.literal(v1.toString()) + " (FORMAT parquet)");
            // 1% of the rows changed: every 100th gets a new population
            st.execute("COPY (SELECT id, name, CASE WHEN id % 100 = 0 THEN pop + 1 ELSE pop END AS pop, kind, code FROM ("
                    + rows + ")) TO " + SqlQuote.literal(v2.toString()) + " (FORMAT parquet)");
        }
        Cli.ok(wc, "import", v1.toString(), "--table", "t", "--mode", "sync", "--key", "id");
        Files.writeString(wc.resolve("dataset.json"), DESCRIPTION);
        Cli.ok(wc, "commit", "-m", "v1");
        Cli.ok(wc, "import", v2.toString(), "--table", "t", "--mode", "sync", "--key", "id");

        // the checks alone, on the working catalog converted once
        WorkingCopy copy = WorkingCopy.require(wc);
        Path catalog = CatalogConverter.scratchCopy(copy.catalog(), tmp.resolve("scratch.duckdb"));
        Repository repo = Repository.open(Stores.open(copy.state().root()));
        VersionInfo base = repo.readVersion(copy.state().baseVersion()).orElseThrow();
        ObjectNode parentDescriptor = JsonRead.parseObject(Description.read(repo, base), "parent");
        Set<String> held = new HashSet<>();
        base.checks().orElseThrow().path("held").forEach(k -> held.add(k.asText()));
        ObjectNode filled = parentDescriptor.deepCopy();
        Checks.Target target = new Checks.Target(catalog, repo.dataLocation(), filled, "dataset.json");
        Checks.Parent parent = new Checks.Parent(parentDescriptor, copy.state().baseSnapshot() + 1, held);
        PrintWriter nowhere = new PrintWriter(new StringWriter());
        Checks.Options full = new Checks.Options(true, ChangeGuards.Allow.NONE, Hook.DEFAULT_TIMEOUT);
        long[] inc = new long[RUNS], all = new long[RUNS], incCli = new long[RUNS], allCli = new long[RUNS];
        for (int i = 0; i < RUNS + 1; i++) { // the first round warms up and is not counted
            long t0 = System.nanoTime();
            CheckReport a = Checks.run(DuckDbPool.shared(), target, parent, Checks.Options.DEFAULT, List.of(), nowhere);
            long t1 = System.nanoTime();
            CheckReport b = Checks.run(DuckDbPool.shared(), target, parent, full, List.of(), nowhere);
            long t2 = System.nanoTime();
            Cli.ok(wc, "check", "--working");
            long t3 = System.nanoTime();
            Cli.ok(wc, "check", "--working", "--full");
            long t4 = System.nanoTime();
            if (!a.incremental() || b.incremental() || !a.failed().isEmpty() || !b.failed().isEmpty())
                throw new IllegalStateException("unexpected reports: " + a.toJson() + "\n" + b.toJson());
            if (i == 0) continue;
            inc[i - 1] = t1 - t0;
            all[i - 1] = t2 - t1;
            incCli[i - 1] = t3 - t2;
            allCli[i - 1] = t4 - t3;
        }
        System.out.printf("%,d rows, 1%% changed, %d row constraints; medians of %d runs%n", n, held.size(), RUNS);
        System.out.printf("checks alone:         incremental %,d ms, full %,d ms, ratio %.2fx (target <= 0.3x)%n",
                median(inc) / 1_000_000, median(all) / 1_000_000, median(inc) / (double) median(all));
        System.out.printf("fdl check --working:  incremental %,d ms, full %,d ms, ratio %.2fx%n",
                median(incCli) / 1_000_000, median(allCli) / 1_000_000, median(incCli) / (double) median(allCli));
    }

    private static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
