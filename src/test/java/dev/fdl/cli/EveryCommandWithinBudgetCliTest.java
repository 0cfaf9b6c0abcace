package dev.fdl.cli;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.RunScope;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every DuckDB a command opens is under the run's memory budget, also where the command reaches
 * DuckDB through a static utility (catalog conversion on checkout and commit, catalog inspection,
 * the site's previews): with {@link RunScope#refuseUnbudgeted()} a lending without a budget fails
 * the command, so a day's work through the command line passes only when none is made.
 */
@Isolated("refuses DuckDB without a budget on every thread it starts, which would fail other tests running beside it")
class EveryCommandWithinBudgetCliTest {
    @TempDir Path dir;

    @Test
    void aDaysWorkOpensNoDuckDbOutsideTheBudget() throws Exception {
        Path csv = dir.resolve("t.csv"), csv2 = dir.resolve("t2.csv");
        try (Connection c = DuckDbPool.connect(); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT i AS id, 'n' || i AS name FROM range(100) t(i)) TO " + SqlQuote.literal(csv.toString()) + " (HEADER)");
            s.execute("COPY (SELECT i AS id, 'm' || i AS name FROM range(50, 150) t(i)) TO " + SqlQuote.literal(csv2.toString()) + " (HEADER)");
        }
        try (RunScope.Scope refuse = RunScope.refuseUnbudgeted()) {
            Path wc = Cli.newWorkingCopy(dir);
            Cli.ok(wc, "import", csv.toString(), "--table", "t");
            Cli.ok(wc, "commit", "-m", "v1");
            Cli.ok(wc, "import", csv2.toString(), "--table", "t", "--mode", "sync", "--key", "id");
            Cli.ok(wc, "check");
            Cli.ok(wc, "commit", "-m", "v2");
            Cli.ok(wc, "restore", "@~1");
            Cli.ok(wc, "commit", "-m", "v3");
            Cli.ok(wc, "log", "--stat");
            Cli.ok(wc, "diff", "@~2", "@");
            Cli.ok(wc, "query", "SELECT count(*) FROM t");
            Path other = Files.createDirectories(dir.resolve("other"));
            Cli.ok(other, "checkout", "--repo", dir.resolve("repo").toString());
            assertThat(Cli.ok(other, "query", "--csv", "SELECT count(*) FROM t").out()).contains("100");
            Cli.ok(wc, "--memory", "100MB", "site");
            Cli.ok(wc, "verify");
            Cli.ok(wc, "gc", "--dry-run");
        }
    }
}
