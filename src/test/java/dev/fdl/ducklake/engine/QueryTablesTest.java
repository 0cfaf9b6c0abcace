package dev.fdl.ducklake.engine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Which tables a query names, as DuckDB's parser sees it; "all" whenever it may read others. */
class QueryTablesTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT count(*) FROM cities|main.cities",
            "select 42|",
            "FROM Cities|main.cities",
            "EXPLAIN SELECT * FROM a|main.a",
            "SELECT * FROM a WHERE id IN (SELECT id FROM b)|main.a main.b",
            "WITH x AS (SELECT * FROM a) SELECT * FROM x JOIN Sales.\"Order\" o USING (id)|main.a ?main.x sales.order",
            "WITH t AS (SELECT * FROM t WHERE id > 1) SELECT * FROM t|?main.t",
            "SELECT (SELECT max(v) FROM c) FROM a, b|main.a main.b main.c",
            "SELECT * FROM a UNION ALL SELECT * FROM s.b|main.a s.b",
            "SELECT * FROM query_table('b')|ALL",
            "SELECT * FROM read_parquet('x.parquet')|ALL",
            "DESCRIBE a|ALL",
            "SHOW TABLES|ALL",
            "SUMMARIZE a|ALL",
            "SELECT * FROM memory.main.a|ALL",
            "SELECT * FROM|ALL",
    })
    void theTablesAQueryNames(String sql, String expected) throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            Set<String> named = QueryTables.named(duck, sql);
            if ("ALL".equals(expected)) {
                assertThat(named).as(sql).isNull();
            } else {
                assertThat(named).as(sql).isNotNull();
                assertThat(new TreeSet<>(named)).as(sql)
                        .containsExactlyElementsOf(expected == null ? Set.of() : new TreeSet<>(Arrays.asList(expected.split(" "))));
            }
        }
    }
}
