package dev.fdl.ducklake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import dev.fdl.ducklake.CatalogCompare;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.SqliteFiles;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.Sql;

/** SQLite ↔ DuckDB conversion at the edges of what a catalog's values can be. */
class CatalogConverterEdgeTest {
    @TempDir
    Path dir;

    private Path sqliteCatalog(String... statements) throws Exception {
        return SqliteFiles.catalog(dir.resolve("w.sqlite"), statements);
    }

    /** A SQLite catalog with one more table, {@code table(i BIGINT, s VARCHAR)}, of {@code rows} rows. */
    private Path sqliteCatalogWithRows(String table, int rows) throws Exception {
        return sqliteCatalog("CREATE TABLE " + table + "(i BIGINT, s VARCHAR)",
                "INSERT INTO " + table + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + rows + ")"
                        + " SELECT i, 'row ' || i FROM n");
    }

    static Stream<Arguments> each(String... values) {
        return Stream.of(values).map(v -> Arguments.of(v));
    }

    static Stream<Arguments> valuesOfTheWrongClass() {
        return each("1.5", "'0x10'", "'1_000'", "'abc'", "''", "X'3132'", "1e20");
    }

    @ParameterizedTest
    @MethodSource("valuesOfTheWrongClass")
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBigintColumnHoldingANonIntegerFailsNamingTheValueInsteadOfCastingIt(String value) throws Exception {
        // DuckDB casts '0x10' to 16, '1_000' to 1000 and 1.5 to 2; DuckDB's sqlite extension refuses them
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                "INSERT INTO ducklake_probe VALUES (1, 'a'), (" + value + ", 'b'), (3, 'c')");
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining("ducklake_probe").hasMessageContaining("rowid 2").hasMessageContaining("column i");

        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }

    @ParameterizedTest
    @ValueSource(strings = {"i = 1.5", "i = '0x10'", "d = 'abc'", "s = X'00'"})
    void aValueOfTheWrongClassFailsInATableWithADoubleColumnToo(String assignment) throws Exception {
        // with a DOUBLE column: DuckDB would cast '1.5' to 2 and fail on 'abc' without naming it
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(i BIGINT, d DOUBLE, s VARCHAR)",
                "INSERT INTO ducklake_probe VALUES (1, 0.5, 'a'), (2, 0.25, 'b')",
                "UPDATE ducklake_probe SET " + assignment + " WHERE i = 2");
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining("ducklake_probe").hasMessageContaining("rowid 2")
                .hasMessageContaining("column " + assignment.substring(0, 1));

        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }

    @ParameterizedTest
    @MethodSource("blobsInAVarcharColumn")
    void aBlobInAVarcharColumnFailsNamingTheValue(String blob) throws Exception {
        // SQLite's json_array would read X'00' as JSONB null: the value would be lost, not refused
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                "INSERT INTO ducklake_probe VALUES (1, 'a'), (2, " + blob + "), (3, 'c')");
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining("ducklake_probe").hasMessageContaining("rowid 2").hasMessageContaining("column s")
                .hasMessageContaining("blob");

        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }

    static Stream<Arguments> blobsInAVarcharColumn() {
        return each("X'00'", "X'ff'", "X'7b7d'");
    }

    @ParameterizedTest
    @ValueSource(ints = {127, 128, 300})
    void tablesWithMoreColumnsThanSqliteFunctionsTakeArgumentsAreCopiedToo(int columns) throws Exception {
        // SQLite's json_array takes at most 127 arguments: a wider row is rendered as several arrays
        StringBuilder create = new StringBuilder("CREATE TABLE ducklake_wide(");
        StringBuilder values = new StringBuilder("INSERT INTO ducklake_wide WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL"
                + " SELECT value + 1 FROM n WHERE value < 2000) SELECT ");
        for (int i = 0; i < columns; i++) {
            create.append(i > 0 ? ", " : "").append("c").append(i).append(i % 2 == 0 ? " BIGINT" : " VARCHAR");
            values.append(i > 0 ? ", " : "").append(i % 2 == 0 ? "value * " + i : "'v' || value || '_" + i + "'");
        }
        Path sqlite = sqliteCatalog(create.append(')').toString(),
                values.append(" FROM n").toString());
        Path target = dir.resolve("c.duckdb");

        CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE);

        int lastText = columns % 2 == 0 ? columns - 1 : columns - 2;
        assertThat(CatalogCompare.rows(target, "SELECT count(*) || '|' || sum(c2) || '|' || max(c" + lastText + ") FROM ducklake_wide"))
                .containsExactly("2000|" + (2L * 2000 * 2001 / 2) + "|v9_" + lastText);
    }

    private static final String[] AWKWARD = {"nul\u0000inside", "\u0000", "lone\rcr", "crlf\r\n", "tab\t", "ends with backslash\\",
        "\\", "\\\"", "line\u2028sep\u2029", "emoji 🦆 \uD83D\uDE00", "null", "NULL", "", "\"", "\"\"", ",", "a,\"b\"\n,c",
        "\u007f\u0001\u001f", "ü", null};

    @Test
    void awkwardTextSurvivesSqliteToDuckDbToSqliteToDuckDb() throws Exception {
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR, t VARCHAR)",
                // the same values in a table with a BLOB column (rendered as hex)
                "CREATE TABLE ducklake_probe_blob(i BIGINT, s VARCHAR, t VARCHAR, b BLOB)");
        try (Connection c = Sql.sqlite(sqlite, false);
             PreparedStatement a = c.prepareStatement("INSERT INTO ducklake_probe VALUES (?, ?, ?)");
             PreparedStatement b = c.prepareStatement("INSERT INTO ducklake_probe_blob VALUES (?, ?, ?, NULL)")) {
            for (int i = 0; i < AWKWARD.length; i++) {
                for (PreparedStatement ps : new PreparedStatement[] {a, b}) {
                    ps.setLong(1, i);
                    ps.setString(2, AWKWARD[i]);
                    ps.setString(3, AWKWARD[AWKWARD.length - 1 - i]);
                    ps.executeUpdate();
                }
            }
        }
        Path duck = dir.resolve("c.duckdb");
        Path lite2 = dir.resolve("again.sqlite");
        Path duck2 = dir.resolve("again.duckdb");

        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        CatalogConverter.convert(duck, lite2, CatalogKind.SQLITE, ProgressListener.NONE);
        CatalogConverter.convert(lite2, duck2, CatalogKind.DUCKDB, ProgressListener.NONE);

        List<String> expected = new ArrayList<>();
        for (String v : AWKWARD) {
            expected.add(v == null ? null : "[" + v + "]");
        }
        for (String table : new String[] {"ducklake_probe", "ducklake_probe_blob"}) {
            assertThat(CatalogCompare.rows(duck, "SELECT '[' || s || ']' FROM " + table + " ORDER BY i")).containsExactlyElementsOf(expected);
        }
        try (Connection c = Sql.sqlite(lite2, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT s, typeof(s) FROM ducklake_probe ORDER BY i")) {
            for (String v : AWKWARD) {
                r.next();
                assertThat(r.getString(1)).isEqualTo(v);
                assertThat(r.getString(2)).isEqualTo(v == null ? "null" : "text");
            }
        }
        assertThat(CatalogCompare.differences(duck, duck2)).isEmpty();
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("again.duckdb", "again.sqlite", "c.duckdb", "w.sqlite");
    }

    @ParameterizedTest
    @ValueSource(strings = {"61ff62", "eda080", "c0af", "f4908080"})
    void invalidUtf8InSqliteTextFailsInsteadOfBeingReplaced(String hex) throws Exception {
        for (String table : new String[] {"ducklake_probe", "ducklake_probe_blob"}) {
            Files.deleteIfExists(dir.resolve("w.sqlite"));
            Path sqlite = sqliteCatalog("CREATE TABLE " + table + "(i BIGINT, s VARCHAR" + (table.endsWith("blob") ? ", b BLOB)" : ")"),
                    "INSERT INTO " + table + "(i, s) VALUES (1, 'fine'), (2, CAST(X'" + hex + "' AS TEXT))");
            Path target = dir.resolve("c.duckdb");

            assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                    .as(table).isInstanceOf(FdlException.class).hasMessageContaining("w.sqlite");

            assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
        }
    }

    static Stream<Arguments> rowidLayouts() {
        String[] layouts = {
            "SELECT i FROM n WHERE i <= 65535", // one below the split
            "SELECT i FROM n WHERE i <= 65536", // the first split
            "SELECT i - 40000 FROM n WHERE i <= 70000", // negative rowids, split around 0
            "SELECT i * 1000003 FROM n WHERE i <= 3000", // sparse: few rows over a wide range, split
            "SELECT -9223372036854775808 UNION ALL SELECT 9223372036854775807 UNION ALL SELECT 0", // range wider than a long
            "SELECT -9223372036854775808 UNION ALL SELECT -9223372036854775808 + 70000", // split at the bottom edge
            "SELECT 9223372036854775807 UNION ALL SELECT 9223372036854775807 - 70000", // split at the top edge
        };
        return each(layouts);
    }

    @ParameterizedTest
    @MethodSource("rowidLayouts")
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyRowArrivesWhateverTheRowids(String rowids) throws Exception {
        String numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 70000)";
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                "INSERT INTO ducklake_probe(rowid, i, s) " + numbers + ", t(r) AS (" + rowids + ") SELECT r, r, 'row ' || r FROM t",
                // rowid as an INTEGER PRIMARY KEY column
                "CREATE TABLE ducklake_probe_pk(id INTEGER PRIMARY KEY, s VARCHAR)",
                "INSERT INTO ducklake_probe_pk " + numbers + ", t(r) AS (" + rowids + ") SELECT r, 'row ' || r FROM t",
                "CREATE TABLE ducklake_probe_empty(i BIGINT, s VARCHAR)");
        String expected;
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) || ' ' || sum(i % 1000) || ' ' || min(i) || ' ' || max(i) FROM ducklake_probe")) {
            r.next();
            expected = r.getString(1);
        }
        Path duck = dir.resolve("c.duckdb");

        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);

        assertThat(CatalogCompare.rows(duck, "SELECT count(*) || ' ' || sum(i % 1000) || ' ' || min(i) || ' ' || max(i) FROM ducklake_probe"
                + " WHERE s = 'row ' || i")).containsExactly(expected);
        assertThat(CatalogCompare.rows(duck, "SELECT count(*) || ' ' || sum(id % 1000) || ' ' || min(id) || ' ' || max(id) FROM ducklake_probe_pk"
                + " WHERE s = 'row ' || id")).containsExactly(expected);
        assertThat(CatalogCompare.rows(duck, "SELECT count(*) FROM ducklake_probe_empty")).containsExactly("0");
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("c.duckdb", "w.sqlite");
    }

    @Test
    void aWithoutRowidTableIsCopiedAndAMismatchInItIsNamed() throws Exception {
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(k BIGINT PRIMARY KEY, s VARCHAR) WITHOUT ROWID",
                "INSERT INTO ducklake_probe VALUES (2, 'b'), (1, 'a'), (-5, NULL)");
        Path duck = dir.resolve("c.duckdb");

        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(CatalogCompare.rows(duck, "SELECT k || ':' || coalesce(s, '-') FROM ducklake_probe ORDER BY k")).containsExactly("-5:-", "1:a", "2:b");

        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "INSERT INTO ducklake_probe VALUES (2.5, 'c')");
        }
        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, dir.resolve("d.duckdb"), CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("ducklake_probe").hasMessageContaining("column k")
                .hasMessageContaining("2.5");
    }

    @Test
    void rowsAroundTheLineLimitAreCopiedExactly() throws Exception {
        // the CSV line of (i, s) is digits + ',"' + s + '"': lengths around read_csv's default line limit
        int limit = DuckDbTableLoad.DEFAULT_MAX_LINE;
        Path sqlite = sqliteCatalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)");
        List<String> values = new ArrayList<>();
        try (Connection c = Sql.sqlite(sqlite, false); PreparedStatement ps = c.prepareStatement("INSERT INTO ducklake_probe VALUES (?, ?)")) {
            int i = 1;
            for (int delta = -2; delta <= 2; delta++) {
                int body = limit - 4 + delta; // "1," + quotes = 4 bytes
                for (String v : new String[] {"x".repeat(body), "\\" + "y".repeat(body - 2), "\"" + "z".repeat(body - 1), "é".repeat(body / 2)}) {
                    ps.setLong(1, i++);
                    ps.setString(2, v);
                    ps.executeUpdate();
                    values.add(v);
                }
            }
        }
        Path duck = dir.resolve("c.duckdb");

        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);

        try (CatalogInspector catalog = CatalogInspector.open(duck); Statement s = catalog.connection().createStatement();
             ResultSet r = s.executeQuery("SELECT s FROM ducklake_probe ORDER BY i")) {
            for (String v : values) {
                r.next();
                assertThat(r.getString(1)).isEqualTo(v);
            }
            assertThat(r.next()).isFalse();
        }
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("c.duckdb", "w.sqlite");
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void concurrentConversionsInOneFolderDoNotMeet() throws Exception {
        Path sqlite = sqliteCatalogWithRows("ducklake_probe", 100_000);
        String[] targets = {"a.duckdb", "b.duckdb", "same.duckdb", "same.duckdb"};
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(targets.length);
        try {
            List<java.util.concurrent.Future<ConversionResult>> results = new ArrayList<>();
            for (int i = 0; i < targets.length; i++) {
                Path target = dir.resolve(targets[i]);
                results.add(pool.submit(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE)));
            }
            for (java.util.concurrent.Future<ConversionResult> r : results) {
                assertThat(r.get().rows()).isGreaterThanOrEqualTo(100_000);
            }
        } finally {
            pool.shutdownNow();
        }
        for (String t : new String[] {"a.duckdb", "b.duckdb", "same.duckdb"}) {
            assertThat(CatalogCompare.rows(dir.resolve(t), "SELECT count(*) FROM ducklake_probe WHERE s = 'row ' || i")).containsExactly("100000");
        }
        assertThat(CatalogCompare.fileNames(dir)).containsExactly("a.duckdb", "b.duckdb", "same.duckdb", "w.sqlite");
    }
}
