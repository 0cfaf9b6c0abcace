package dev.fdl.cli;

import dev.fdl.store.ChildJvm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl query} prints every value as DuckDB renders it
 * ({@code CAST(x AS VARCHAR)}, TIMESTAMPTZ in UTC), in the table, {@code --csv} and {@code --json}
 * alike, whatever the JVM's and the machine's time zone and locale: a TIMESTAMP in New York's DST
 * gap was shifted by an hour (java.sql.Timestamp through the JVM's zone), TIMESTAMP printed
 * {@code …00.0}, TIME {@code 02:30}, TIMESTAMPTZ {@code 2024-01-01T23:30Z}; NaN and infinities
 * printed as Java spells them at the top level and as DuckDB does nested. The tests share one working
 * copy and run one after another: {@code query --working} converts the catalog to a scratch file
 * named by the process id, which two queries of one JVM at once would share.
 */
@Execution(ExecutionMode.SAME_THREAD)
class QueryValueTextCliTest {
    @TempDir static Path dir;
    static Path wc;

    /** Temporal columns of the table and as literals, a nested one, a number (stays a JSON number). */
    static final String TEMPORAL = "SELECT ts, t, d, TIMESTAMPTZ '2024-01-01 23:30:00+00' AS tz, "
            + "TIMESTAMPTZ '2024-01-01 23:30:15+00' AS tz2, TIMESTAMP_NS '2024-03-10 02:30:00.123456789' AS ns, "
            + "[ts] AS l, 1.5::DOUBLE AS x FROM ev";

    @BeforeAll
    static void aTableWithATimestampInADstGap() throws Exception {
        wc = Cli.newWorkingCopy(dir);
        Path csv = dir.resolve("ev.csv");
        Files.writeString(csv, "id,ts,t,d\n1,2024-03-10 02:30:00,02:30:00,2024-03-10\n", StandardCharsets.UTF_8);
        Cli.ok(wc, "import", csv.toString(), "--table", "ev", "--schema", "id BIGINT, ts TIMESTAMP, t TIME, d DATE");
    }

    @Test
    void valuesDoNotDependOnTheTimeZoneOrLocaleOfTheJvmOrTheMachine() throws Exception {
        // New York skips 02:00-03:00 on 2024-03-10; German formats differ from English ones
        ChildJvm.Result r = ChildJvm.await(ChildJvm.start(System.getProperty("java.class.path"), Main.class.getName(),
                List.of("-Xmx256m", "-Duser.timezone=America/New_York", "-Duser.language=de", "-Duser.country=DE"),
                Map.of("TZ", "America/New_York", "FDL_CACHE_DIR", dir.resolve("cache").toString()),
                "-C", wc.toString(), "query", "--working", "--csv", TEMPORAL), 180);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).isEqualTo("ts,t,d,tz,tz2,ns,l,x\n"
                + "2024-03-10 02:30:00,02:30:00,2024-03-10,2024-01-01 23:30:00+00,2024-01-01 23:30:15+00,"
                + "2024-03-10 02:30:00.123456789,['2024-03-10 02:30:00'],1.5\n");
    }

    @Test
    void jsonAndTheTableShowDuckDbsTextAndJsonKeepsNumbers() {
        assertThat(Cli.ok(wc, "query", "--working", "--json", TEMPORAL).out()).isEqualTo("[{\"ts\":\"2024-03-10 02:30:00\","
                + "\"t\":\"02:30:00\",\"d\":\"2024-03-10\",\"tz\":\"2024-01-01 23:30:00+00\",\"tz2\":\"2024-01-01 23:30:15+00\","
                + "\"ns\":\"2024-03-10 02:30:00.123456789\",\"l\":[\"2024-03-10 02:30:00\"],\"x\":1.5}]\n");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT ts, t, TIMESTAMPTZ '2024-01-01 23:30:00+00' AS tz FROM ev").out())
                .contains("2024-03-10 02:30:00 | 02:30:00 | 2024-01-01 23:30:00+00");
    }

    @Test
    void nanAndInfinitiesAreSpelledAsDuckDbDoesAtTheTopLevelAndNested() {
        String sql = "SELECT 'nan'::DOUBLE AS a, '-inf'::FLOAT AS b, 'inf'::DOUBLE AS c, ['nan'::DOUBLE, 'inf'::DOUBLE] AS l, 2.5::FLOAT AS f";
        assertThat(Cli.ok(wc, "query", "--working", "--json", sql).out())
                .isEqualTo("[{\"a\":\"nan\",\"b\":\"-inf\",\"c\":\"inf\",\"l\":[\"nan\",\"inf\"],\"f\":2.5}]\n");
        assertThat(Cli.ok(wc, "query", "--working", "--csv", sql).out()).isEqualTo("a,b,c,l,f\nnan,-inf,inf,\"[nan, inf]\",2.5\n");
        assertThat(Cli.ok(wc, "query", "--working", sql).out()).contains("nan | -inf | inf | [nan, inf] | 2.5");
    }
}
