package dev.fdl.ducklake.engine;

import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The DuckDB instance pool: an instance lent again looks exactly like a new one, and
 * one that failed or cannot be shown clean is closed. Each test has a pool of its own, so the
 * counts are its own while the rest of the suite runs in parallel.
 */
class DuckDbPoolTest {
    @TempDir
    Path tmp;

    private static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) s.execute(q);
        }
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) out.add(r.getString(1));
        }
        return out;
    }

    /** What a user sees of an instance: databases, objects of the in-memory database, settings, loaded extensions. */
    private static List<String> state(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        out.addAll(column(c, "SELECT 'database ' || database_name FROM duckdb_databases() ORDER BY 1"));
        out.addAll(column(c, "SELECT 'schema ' || schema_name FROM duckdb_schemas() WHERE database_name = 'memory' ORDER BY 1"));
        out.addAll(column(c, "SELECT 'table ' || table_name FROM duckdb_tables() ORDER BY 1"));
        out.addAll(column(c, "SELECT 'view ' || view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1"));
        out.addAll(column(c, "SELECT 'macro ' || function_name FROM duckdb_functions() WHERE NOT internal ORDER BY 1"));
        out.addAll(column(c, "SELECT 'setting ' || name || '=' || coalesce(value, 'NULL') FROM duckdb_settings() ORDER BY 1"));
        out.addAll(column(c, "SELECT 'extension ' || extension_name FROM duckdb_extensions() WHERE loaded ORDER BY 1"));
        return out;
    }

    private static List<String> newInstanceState() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            return state(c);
        }
    }

    @Test
    void anInstanceIsReusedAndLooksNewAfterAttachesObjectsAndSettings() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        Path file = tmp.resolve("other.duckdb");
        try (Connection c = pool.lend(new Properties())) {
            exec(c, "ATTACH " + SqlQuote.literal(file.toString()) + " AS other",
                    "CREATE TABLE other.kept AS SELECT 1 AS x",
                    "CREATE TABLE t AS SELECT 42 AS answer",
                    "CREATE SCHEMA s",
                    "CREATE VIEW s.v AS SELECT * FROM t",
                    "CREATE VIEW v AS SELECT * FROM other.kept",
                    "CREATE TEMP TABLE tt AS SELECT 1",
                    "SET threads = 1",
                    "SET preserve_insertion_order = false",
                    "SET memory_limit = '123MB'",
                    "SET TimeZone = 'Asia/Tokyo'",
                    "SET temp_directory = " + SqlQuote.literal(tmp.resolve("spill").toString()),
                    "USE other");
        }
        try (Connection c = pool.lend(new Properties())) {
            assertThat(state(c)).isEqualTo(newInstanceState());
            // the alias is free again, and what the first user wrote to its file is there
            exec(c, "ATTACH " + SqlQuote.literal(file.toString()) + " AS other");
            assertThat(column(c, "SELECT x FROM other.kept")).containsExactly("1");
            exec(c, "CREATE TABLE t AS SELECT 1 AS x");
        }
        assertThat(pool.created()).isEqualTo(1);
        assertThat(pool.lent()).isEqualTo(2);
        assertThat(pool.discarded()).isZero();
    }

    @Test
    void aFailingUsersInstanceIsClosedNotLentAgain() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        try (Connection c = pool.lend(new Properties())) {
            exec(c, "CREATE TABLE t AS SELECT 1 AS x");
            assertThatThrownBy(() -> exec(c, "SELECT no_such_column FROM t")).isInstanceOf(SQLException.class);
        }
        try (Connection c = pool.lend(new Properties())) {
            assertThat(state(c)).isEqualTo(newInstanceState());
        }
        assertThat(pool.created()).isEqualTo(2);
        assertThat(pool.discarded()).isEqualTo(1);
    }

    @Test
    void aFailureWhileReadingResultsLeavesAnInstanceThatStillLooksNew() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        try (Connection c = pool.lend(new Properties()); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT 1 AS x")) {
            r.next();
            assertThatThrownBy(() -> r.getString("no_such_column")).isInstanceOf(SQLException.class);
            // results come straight from the driver: no proxy between a reader and a million values
            assertThat(java.lang.reflect.Proxy.isProxyClass(r.getClass())).isFalse();
        }
        try (Connection c = pool.lend(new Properties())) {
            assertThat(state(c)).isEqualTo(newInstanceState());
        }
        assertThat(pool.created()).isEqualTo(1);
    }

    @Test
    void aConfinedInstanceReadsOnlyWithinItsBoundsAndIsNotLentAgain() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        Path inside = java.nio.file.Files.createDirectories(tmp.resolve("data"));
        java.nio.file.Files.writeString(inside.resolve("in.csv"), "x\n1\n");
        java.nio.file.Files.writeString(tmp.resolve("out.csv"), "x\n2\n");
        try (Connection c = pool.lend(new Properties())) {
            DuckDbPool.confine(c, List.of(inside + "/"), List.of());
            assertThat(column(c, "SELECT x FROM read_csv(" + SqlQuote.literal(inside.resolve("in.csv").toString()) + ")")).containsExactly("1");
            assertThatThrownBy(() -> column(c, "SELECT x FROM read_csv(" + SqlQuote.literal(tmp.resolve("out.csv").toString()) + ")"))
                    .hasMessageContaining("Permission Error");
            assertThatThrownBy(() -> exec(c, "SET threads = 1")).hasMessageContaining("the configuration has been locked");
            assertThatThrownBy(() -> exec(c, "SET GLOBAL enable_external_access = true")).hasMessageContaining("locked");
            assertThatThrownBy(() -> exec(c, "LOAD httpfs")).isInstanceOf(SQLException.class);
        }
        try (Connection c = pool.lend(new Properties())) {
            assertThat(state(c)).isEqualTo(newInstanceState());
            assertThat(column(c, "SELECT x FROM read_csv(" + SqlQuote.literal(tmp.resolve("out.csv").toString()) + ")")).containsExactly("2");
        }
        assertThat(pool.created()).isEqualTo(2);
        assertThat(pool.discarded()).isEqualTo(1);
        try (Connection plain = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> DuckDbPool.confine(plain, List.of(), List.of())).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anInstanceThatMayHoldAMacroIsNotLentAgain() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        try (Connection c = pool.lend(new Properties())) {
            exec(c, "CREATE MACRO plus_one(a) AS a + 1");
        }
        try (Connection c = pool.lend(new Properties())) {
            assertThatThrownBy(() -> column(c, "SELECT plus_one(1)")).isInstanceOf(SQLException.class);
        }
        assertThat(pool.created()).isEqualTo(2);
    }

    @Test
    void closingThroughTheStatementsConnectionGivesTheInstanceBackOnce() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        Connection c = pool.lend(new Properties());
        try (Statement s = c.createStatement()) {
            s.getConnection().close();
        }
        c.close();
        assertThat(c.isClosed()).isTrue();
        try (Connection a = pool.lend(new Properties()); Connection b = pool.lend(new Properties())) {
            // one idle instance, given back once: the second user needs a new one
            assertThat(column(a, "SELECT 1")).containsExactly("1");
            assertThat(column(b, "SELECT 1")).containsExactly("1");
        }
        assertThat(pool.created()).isEqualTo(2);
    }

    @Test
    void usersAtTheSameTimeGetInstancesOfTheirOwnAndIdleOnesAreBounded() throws Exception {
        DuckDbPool pool = new DuckDbPool(1);
        try (Connection a = pool.lend(new Properties()); Connection b = pool.lend(new Properties())) {
            exec(a, "ATTACH ':memory:' AS same");
            exec(b, "ATTACH ':memory:' AS same"); // would be "already attached" in a shared instance
            exec(a, "CREATE TABLE only_a AS SELECT 1");
            assertThat(column(b, "SELECT table_name FROM duckdb_tables() WHERE table_name = 'only_a'")).isEmpty();
        }
        assertThat(pool.created()).isEqualTo(2);
        assertThat(pool.discarded()).isEqualTo(1);
    }

    @Test
    void instancesArePooledPerConfiguration() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        Properties off = new Properties();
        off.setProperty("autoload_known_extensions", "false");
        pool.lend(new Properties()).close();
        try (Connection c = pool.lend(off)) {
            assertThat(column(c, "SELECT current_setting('autoload_known_extensions')")).containsExactly("false");
        }
        try (Connection c = pool.lend(new Properties())) {
            assertThat(column(c, "SELECT current_setting('autoload_known_extensions')")).containsExactly("true");
        }
        assertThat(off.getProperty("autoload_known_extensions")).isEqualTo("false"); // the caller's options are not consumed
        assertThat(pool.created()).isEqualTo(2);
    }

    @Test
    void aPoolWithoutIdleInstancesOpensANewOneEachTime() throws Exception {
        DuckDbPool pool = new DuckDbPool(0);
        pool.lend(new Properties()).close();
        pool.lend(new Properties()).close();
        assertThat(pool.created()).isEqualTo(2);
        assertThat(pool.discarded()).isEqualTo(2);
    }

    private static String setting(Connection c, String name) throws SQLException {
        return column(c, "SELECT current_setting('" + name + "')").get(0);
    }

    @Test
    void aBudgetStaysOnAnInstanceOnlyForLendingsUnderTheSameBudget() throws Exception {
        DuckDbPool pool = new DuckDbPool(1);
        DuckDbPool small = pool.within(MemoryBudget.of(64L << 20, tmp.resolve("spill-a")));
        DuckDbPool other = pool.within(MemoryBudget.of(300L << 20, null));
        String limit, threads, temp;
        try (Connection c = pool.connection()) {
            limit = setting(c, "memory_limit");
            threads = setting(c, "threads");
            temp = setting(c, "temp_directory");
        }
        try (Connection c = small.connection()) {
            assertThat(setting(c, "memory_limit")).isEqualTo("64.0 MiB");
            assertThat(setting(c, "temp_directory")).endsWith("spill-a");
            exec(c, "SET threads = 3"); // the user's own change
        }
        try (Connection c = small.connection()) {
            assertThat(setting(c, "memory_limit")).isEqualTo("64.0 MiB");
            assertThat(setting(c, "threads")).as("the user's change undone, the budget's kept").isEqualTo("1");
        }
        try (Connection c = other.connection()) {
            assertThat(setting(c, "memory_limit")).isEqualTo("300.0 MiB");
            assertThat(setting(c, "temp_directory")).as("no spill folder in this budget").isEqualTo(temp);
        }
        try (Connection c = pool.connection()) {
            assertThat(List.of(setting(c, "memory_limit"), setting(c, "threads"), setting(c, "temp_directory")))
                    .containsExactly(limit, threads, temp);
            assertThat(state(c)).isEqualTo(newInstanceState());
        }
        assertThat(pool.created()).as("one instance served every budget").isEqualTo(1);
    }
}
