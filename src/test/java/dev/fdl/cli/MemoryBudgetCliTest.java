package dev.fdl.cli;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data commands under a memory budget smaller than their data ({@code --memory}): an import, a
 * keyed sync changing, removing and adding rows, and a query over the result finish and read back
 * exactly the source; the spill folder is gone afterwards.
 */
class MemoryBudgetCliTest {
    private static final int ROWS = 700_000;
    private static final String BUDGET = "64MB";

    @TempDir Path dir;

    @Test
    void syncAndQueryUnderABudgetSmallerThanTheDataReadBackTheSource() throws Exception {
        Path v1 = dir.resolve("v1.csv"), v2 = dir.resolve("v2.csv");
        try (Connection c = DuckDbPool.connect(); Statement s = c.createStatement()) {
            String rows = "SELECT i AS id, i % 1000 AS d, 'name-' || i || '-' || md5(i::VARCHAR) AS s, (i * 7919 % 100003) / 7.0 AS x, "
                    + "DATE '2020-01-01' + (i % 3000)::INTEGER AS day, md5((i * 3)::VARCHAR) AS note FROM range(" + ROWS + ") t(i)";
            s.execute("COPY (" + rows + ") TO " + SqlQuote.literal(v1.toString()) + " (HEADER)");
            // v2: every 10th row changed, every 13th gone, 50k rows added
            s.execute("COPY (SELECT id, d, CASE WHEN id % 10 = 0 THEN s || '!' ELSE s END AS s, x, day, note FROM (" + rows
                    + ") WHERE id % 13 <> 0 UNION ALL SELECT i, i % 1000, 'new-' || i, i / 3.0, DATE '2021-01-01', md5(i::VARCHAR) FROM range("
                    + ROWS + ", " + (ROWS + 50_000) + ") t(i)) TO " + SqlQuote.literal(v2.toString()) + " (HEADER)");
        }
        assertThat(Files.size(v2)).as("the data is larger than the budget").isGreaterThan(64_000_000L);
        Path repo = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", repo.toString());
        Cli.ok(wc, "checkout", "--repo", repo.toString());
        Cli.ok(wc, "--memory", BUDGET, "import", v1.toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "v1");
        // the budget reaches DuckDB: 64 MB is 61.0 MiB, one thread per 256 MiB but at least one
        assertThat(Cli.ok(wc, "query", "--memory", BUDGET, "--csv", "SELECT current_setting('memory_limit') AS m, "
                + "current_setting('threads') AS n, current_setting('temp_directory') LIKE '%/.fdl/tmp/spill-%' AS spill").out())
                .contains("61.0 MiB,1,true");
        assertThat(Cli.ok(wc, "import", v2.toString(), "--table", "t", "--mode", "sync", "--key", "id", "--memory", BUDGET).out())
                .startsWith("Synced main.t");
        Cli.ok(wc, "--memory", BUDGET, "commit", "-m", "v2");
        String checksum = "SELECT count(*) || ' ' || bit_xor(hash(id, d, s, x, day, note)) || ' ' || sum(hash(id, d, s, x, day, note) % 1000003) FROM ";
        String expected;
        try (Connection c = DuckDbPool.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(checksum + "read_csv(" + SqlQuote.literal(v2.toString()) + ")")) {
            rs.next();
            expected = rs.getString(1);
        }
        assertThat(Cli.ok(wc, "query", "--memory", BUDGET, "--csv", checksum + "t").out()).contains(expected);
        try (Stream<Path> left = Files.list(wc.resolve(".fdl/tmp"))) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("spill-"))).as("spill folders left").isEmpty();
        } catch (java.nio.file.NoSuchFileException none) {
            // nothing was ever spilled or scratched
        }
    }

    @Test
    void aBadSizeIsAUsageErrorNamingTheValue() {
        Path wc = dir;
        Cli.Result r = Cli.in(wc, "--memory", "lots", "query", "SELECT 1");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--memory 'lots' is not a size");
    }

    /** v1.csv and v2 (in {@code v2Format}) in {@code dir}: 300,000 rows, then every 10th changed and every 13th gone; returns v2. */
    private Path twoVersions(String v2Name, String v2Format) throws Exception {
        Path v1 = dir.resolve("v1.csv"), v2 = dir.resolve(v2Name);
        try (Connection c = DuckDbPool.connect(); Statement s = c.createStatement()) {
            String rows = "SELECT i AS id, 'name-' || i || '-' || md5(i::VARCHAR) AS s, md5((i * 3)::VARCHAR) AS note FROM range(300000) t(i)";
            s.execute("COPY (" + rows + ") TO " + SqlQuote.literal(v1.toString()) + " (HEADER)");
            s.execute("COPY (SELECT id, CASE WHEN id % 10 = 0 THEN s || '!' ELSE s END AS s, note FROM (" + rows + ") WHERE id % 13 <> 0) TO "
                    + SqlQuote.literal(v2.toString()) + " (" + v2Format + ")");
        }
        return v2;
    }

    /**
     * A keyless sync under a budget too small for it (a Parquet file, whose need sync does not
     * estimate up front, in small row groups): DuckDB's out-of-memory error reaches the user with
     * the phase it happened in, a --memory that holds what DuckDB asked for, and the key that takes
     * less; nothing was imported.
     */
    @Test
    void aSyncOutOfMemorySaysWhereTheMemoryItNeedsAndTheKey() throws Exception {
        Path v2 = twoVersions("v2.parquet", "FORMAT parquet, ROW_GROUP_SIZE 10000");
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", dir.resolve("v1.csv").toString(), "--table", "t");
        Cli.Result r = Cli.in(wc, "import", v2.toString(), "--table", "t", "--mode", "sync", "--memory", "16MiB");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).containsPattern("ran out of the memory budget while (reading the file|reading the table|comparing|writing data files"
                + "|writing delete files) \\(it asked for ").contains("name the key with --key").doesNotContain("SET threads");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("--memory (\\d+)MiB or more").matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).as("more than the budget").isGreaterThan(16);
        assertThat(Cli.ok(wc, "query", "--working", "--csv", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n300000\n");
    }

    /**
     * A keyless sync of a CSV file whose estimated need (2.2 times its size) is over the budget is
     * refused before it runs, naming --key and a --memory that suffices; under that --memory it runs.
     */
    @Test
    void aKeylessSyncBeyondTheBudgetIsRefusedUpFront() throws Exception {
        Path v2 = twoVersions("v2.csv", "HEADER");
        long need = (long) (Files.size(v2) * 2.2);
        String budget = (need * 9 / 10 >> 20) + "MiB";
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", dir.resolve("v1.csv").toString(), "--table", "t");
        Cli.Result r = Cli.in(wc, "import", v2.toString(), "--table", "t", "--mode", "sync", "--memory", budget);
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("without a key").contains("Name the key with --key").contains("Nothing was imported");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("give (--memory \\d+MiB) or more").matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        assertThat(Cli.ok(wc, "query", "--working", "--csv", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n300000\n");
        String[] memory = m.group(1).split(" ");
        assertThat(Cli.ok(wc, "import", v2.toString(), "--table", "t", "--mode", "sync", memory[0], memory[1]).out()).startsWith("Synced main.t");
        assertThat(Cli.ok(wc, "query", "--working", "--csv", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n" + (300000 - 300000 / 13 - 1) + "\n");
    }
}
