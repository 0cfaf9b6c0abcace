package dev.fdl.cli;

import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Parquet file whose one row group does not fit the memory budget: import and sync fail naming
 * the file, the row group's size as DuckDB's {@code parquet_metadata()} gives it and a
 * {@code --memory} that holds it; the import then works under that {@code --memory} (docs/data.md, "Memory").
 */
class ParquetRowGroupBudgetCliTest {
    @TempDir Path dir;

    @Test
    void aRowGroupTooBigForTheBudgetIsNamedWithAMemoryThatHoldsIt() throws Exception {
        Path big = dir.resolve("big.parquet");
        long uncompressed;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT i AS id, md5(i::VARCHAR) AS s FROM range(800000) t(i)) TO " + SqlQuote.literal(big.toString())
                    + " (FORMAT parquet, ROW_GROUP_SIZE 800000)");
            try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT row_group_id), sum(total_uncompressed_size) FROM parquet_metadata("
                    + SqlQuote.literal(big.toString()) + ")")) {
                rs.next();
                assertThat(rs.getLong(1)).as("row groups").isEqualTo(1);
                uncompressed = rs.getLong(2);
            }
        }
        Path wc = Cli.newWorkingCopy(dir);
        Cli.Result r = Cli.in(wc, "import", big.toString(), "-t", "t", "--memory", "20MB");
        assertThat(r.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("cannot import " + big).contains("row group 0 of 1, 800,000 rows")
                .contains(String.format(java.util.Locale.ROOT, "%.1f MB uncompressed", uncompressed / 1e6))
                .doesNotContain("SET threads");
        String memory = advisedMemory(r.err());
        // the rewrite the message gives, pasted into DuckDB as printed, makes a file that fits a budget the original does not
        Matcher copy = Pattern.compile("DuckDB: (COPY .*? \\(ROW_GROUP_SIZE \\d+\\))").matcher(r.err());
        assertThat(copy.find()).as(r.err()).isTrue();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute(copy.group(1));
        }
        Path smaller = dir.resolve("big-smaller-row-groups.parquet");
        assertThat(Long.parseLong(memory.replace("MB", ""))).as("the original's advised budget").isGreaterThan(64);
        Cli.ok(wc, "import", smaller.toString(), "-t", "rewritten", "--memory", "64MB");
        assertThat(Cli.ok(wc, "query", "--working", "--csv", "SELECT count(*) FROM rewritten").out()).contains("800000");

        Cli.ok(wc, "import", big.toString(), "-t", "t", "--memory", memory);
        // sync into that table under the small budget: the syncer says the same
        Cli.Result sync = Cli.in(wc, "import", big.toString(), "-t", "t", "--mode", "sync", "--key", "id", "--memory", "20MB");
        assertThat(sync.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(sync.err()).contains("cannot import " + big).contains("row group 0 of 1").contains("Give --memory");
    }

    /** The {@code --memory} value a message advises. */
    private static String advisedMemory(String err) {
        Matcher m = Pattern.compile("Give --memory (\\d+MB) or more").matcher(err);
        assertThat(m.find()).as(err).isTrue();
        return m.group(1);
    }
}
