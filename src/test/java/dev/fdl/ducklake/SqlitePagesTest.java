package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SQLite page reader renders exactly the lines SQLite's {@code json_array} rendering gives
 * (compared byte for byte, row range by row range), leaves odd rows and odd files to SQLite, and
 * fails clearly on a damaged file.
 */
class SqlitePagesTest {
    @TempDir
    Path dir;

    private static final String NUMBERS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)";

    private static final String[] AWKWARD = {"nul\u0000inside", "\u0000", "lone\rcr", "crlf\r\n", "tab\t", "ends with backslash\\",
        "\\", "\\\"", "line\u2028sep\u2029", "emoji 🦆 \uD83D\uDE00", "null", "NULL", "", "\"", "\"\"", ",", "a,\"b\"\n,c",
        "\u007f\u0001\u001f", "ü", null};

    /** A SQLite file of the given page size (0: SQLite's default) after {@code statements}. */
    private Path sqlite(int pageSize, String... statements) throws SQLException {
        Path file = dir.resolve("t.sqlite");
        if (pageSize > 0) {
            SqliteFiles.create(file, "PRAGMA page_size = " + pageSize);
        }
        return SqliteFiles.create(file, statements);
    }


    private static void insertTexts(Path sqlite, String table, List<String> texts) throws SQLException {
        try (Connection c = Sql.sqlite(sqlite, false)) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
                long i = 0;
                for (String t : texts) {
                    ps.setLong(1, i++);
                    ps.setString(2, t);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }

    /** {@link PageRenderings#assertSameLines}, also asserting that the page reader reads the table. */
    private static int assertSameLines(Path sqlite, String table, long from, long to) throws Exception {
        int fallbacks = PageRenderings.assertSameLines(sqlite, table, from, to);
        assertThat(fallbacks).as("the page reader reads " + table).isNotNegative();
        return fallbacks;
    }

    @Test
    void aMultiLevelTreeRendersAsSqliteDoesOverEveryRange() throws Exception {
        Path sqlite = sqlite(0, "CREATE TABLE t(i BIGINT, s VARCHAR, u VARCHAR)",
                String.format(NUMBERS, 120_000) + " INSERT INTO t SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE i * (i % 3 - 1) * 1000003 END,"
                        + " 'text ' || i || CASE WHEN i % 5 = 0 THEN ' \"quoted\" ü' ELSE '' END, CASE WHEN i % 11 = 0 THEN i END FROM n",
                "INSERT INTO t VALUES (9223372036854775807, NULL, -9223372036854775808), (0, '', 1), (-1, 'a', 255)");
        insertTexts(sqlite, "t(i, s)", java.util.Arrays.stream(AWKWARD).map(s -> s == null ? "x" : s).toList());

        int fallbacks = assertSameLines(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE);
        assertSameLines(sqlite, "t", 1, 60_000);
        assertSameLines(sqlite, "t", 60_001, 120_003);
        assertSameLines(sqlite, "t", 77_777, 77_777);
        assertSameLines(sqlite, "t", 500_000, 600_000);

        assertThat(fallbacks).as("rows left to SQLite").isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 4096, 65536})
    void textAroundTheLocalPayloadLimitsAndOverSeveralOverflowPagesRendersAsSqliteDoes(int pageSize) throws Exception {
        Path sqlite = sqlite(pageSize, "CREATE TABLE t(i BIGINT, s VARCHAR)");
        int maxLocal = pageSize - 35;
        int minLocal = (pageSize - 12) * 32 / 255 - 23;
        List<String> texts = new ArrayList<>();
        for (int limit : new int[] {maxLocal, minLocal, 2 * pageSize}) {
            for (int length = limit - 12; length <= limit + 12; length++) {
                texts.add("x".repeat(length));
            }
        }
        for (int length : new int[] {3 * pageSize + 7, 20_000, 250_000, RowHandover.MAX_LINE_BYTES / 2, RowHandover.MAX_LINE_BYTES + 5}) {
            StringBuilder b = new StringBuilder(length);
            for (int i = 0; b.length() < length; i++) {
                b.append((char) ('a' + i % 26)).append(i % 97 == 0 ? "\"" : "").append(i % 1001 == 0 ? "é" : "");
            }
            texts.add(b.substring(0, length));
        }
        insertTexts(sqlite, "t", texts);

        int fallbacks = assertSameLines(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE);

        assertThat(fallbacks).as("only the row too long for a CSV line is left to SQLite").isEqualTo(1);
    }

    @Test
    void anIntegerPrimaryKeyIsTheRowid() throws Exception {
        Path sqlite = sqlite(0, "CREATE TABLE t(a VARCHAR, id INTEGER PRIMARY KEY, b BIGINT)",
                String.format(NUMBERS, 5000) + " INSERT INTO t SELECT 'a' || i, i * 3 - 7000, i FROM n");

        assertThat(assertSameLines(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).isZero();
        assertSameLines(sqlite, "t", -100, 100);
        assertThat(new String(PageRenderings.viaPages(sqlite, "t", -4, -4).lines(), StandardCharsets.UTF_8)).isEqualTo("\"a2332\",-4,2332\n");
    }

    @Test
    void sparseAndNegativeRowidsRenderAsSqliteDoesOverSplitRanges() throws Exception {
        Path sqlite = sqlite(512, "CREATE TABLE t(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 20_000) + " INSERT INTO t(rowid, i, s) SELECT (i - 10000) * 99991, i, 'r' || i FROM n",
                "INSERT INTO t(rowid, i, s) VALUES (-9223372036854775808, 1, 'min'), (9223372036854775807, 2, 'max')");

        for (long[] range : new long[][] {{Long.MIN_VALUE, Long.MAX_VALUE}, {Long.MIN_VALUE, -1}, {0, Long.MAX_VALUE},
            {-5 * 99991, 5 * 99991}, {-99990, 99990}, {Long.MIN_VALUE, Long.MIN_VALUE}, {Long.MAX_VALUE, Long.MAX_VALUE}}) {
            assertThat(assertSameLines(sqlite, "t", range[0], range[1])).isZero();
        }
    }

    @Test
    void rowsOlderThanAnAddedColumnTakeItsDefault() throws Exception {
        Path sqlite = sqlite(0, "CREATE TABLE t(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 1000) + " INSERT INTO t SELECT i, 'r' || i FROM n",
                "ALTER TABLE t ADD COLUMN plain VARCHAR",
                "ALTER TABLE t ADD COLUMN number BIGINT DEFAULT NULL",
                String.format(NUMBERS, 10) + " INSERT INTO t SELECT -i, 'new', 'p', i FROM n");
        assertThat(assertSameLines(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).as("NULL defaults need no SQLite").isZero();

        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "ALTER TABLE t ADD COLUMN answer BIGINT DEFAULT 42");
            Sql.exec(c, "ALTER TABLE t ADD COLUMN word VARCHAR DEFAULT 'word'");
            Sql.exec(c, "INSERT INTO t VALUES (7, 's', 'p', 1, 2, 'w')");
        }
        assertThat(assertSameLines(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).as("other defaults come from SQLite").isEqualTo(1010);
    }

    @Test
    void aRealInAVarcharColumnIsLeftToSqlite() throws Exception {
        // a column declared VARCHAR has TEXT affinity (SQLite stores numbers given to it as text), one
        // declared NUMERIC (VARCHAR for conversion, like DATE or UUID) keeps them as numbers
        Path sqlite = sqlite(0, "CREATE TABLE t(i BIGINT, s NUMERIC)",
                "INSERT INTO t VALUES (1, 'a'), (2, 1.5), (3, 1e300), (4, -2.5e-7), (5, 7), (6, CAST(X'ff' AS TEXT)), (7, 'b')");

        assertThat(assertSameLines(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).as("three reals, one invalid UTF-8 text").isEqualTo(4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"X'00'", "X'ff'", "X''", "X'7b7d'"})
    void aBlobInAVarcharColumnStopsBothPaths(String blob) throws Exception {
        // SQLite's json_array reads a BLOB as JSONB (X'00' is its null): left to it, the value would be lost
        Path sqlite = sqlite(0, "CREATE TABLE t(i BIGINT, s VARCHAR)", "INSERT INTO t VALUES (1, 'a'), (2, " + blob + "), (3, 'c')");

        assertThatThrownBy(() -> PageRenderings.viaPages(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).isInstanceOf(RowHandover.WrongStorageClass.class);
        assertThatThrownBy(() -> PageRenderings.viaSqlite(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).isInstanceOf(RowHandover.WrongStorageClass.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "'abc'", "X'3132'"})
    void aBigintColumnHoldingSomethingElseStopsTheScan(String value) throws Exception {
        Path sqlite = sqlite(0, "CREATE TABLE t(i BIGINT, s VARCHAR)", "INSERT INTO t VALUES (1, 'a'), (" + value + ", 'b')");

        assertThatThrownBy(() -> PageRenderings.viaPages(sqlite, "t", Long.MIN_VALUE, Long.MAX_VALUE)).isInstanceOf(RowHandover.WrongStorageClass.class);
    }

    @Test
    void whereTheBytesAreValidUtf8() {
        assertThat(SqlitePages.utf8("aü🦆€".getBytes(StandardCharsets.UTF_8), 0, 10)).isTrue();
        for (String hex : new String[] {"ff", "c0af", "eda080", "f4908080", "e282", "80", "c3"}) {
            byte[] b = java.util.HexFormat.of().parseHex(hex);
            assertThat(SqlitePages.utf8(b, 0, b.length)).as(hex).isFalse();
        }
    }

    // ------------------------------------------------------------------ through the handover and the converter

    /** The rows of {@code table} after a handover into an in-memory DuckDB, as text, sorted. */
    private List<String> handedOver(Path sqlite, String table, boolean pipes) throws Exception {
        List<CopyColumn> columns = PageRenderings.columns(sqlite, table);
        Map<String, List<CopyColumn>> tables = new LinkedHashMap<>();
        tables.put(table, columns);
        StringBuilder ddl = new StringBuilder("CREATE TABLE cat.main.").append(SqlQuote.ident(table)).append('(');
        for (int i = 0; i < columns.size(); i++) {
            ddl.append(i > 0 ? ", " : "").append(SqlQuote.ident(columns.get(i).name())).append(' ').append(columns.get(i).duckType());
        }
        List<String> rows = new ArrayList<>();
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.exec(duck, "ATTACH ':memory:' AS cat");
            Sql.exec(duck, ddl.append(')').toString());
            try (RowHandover handover = new RowHandover(sqlite, dir.resolve("target.duckdb.tmp"), tables, pipes)) {
                handover.load(duck, table);
            }
            try (Statement s = duck.createStatement();
                 ResultSet r = s.executeQuery("SELECT CAST(x AS VARCHAR) FROM cat.main." + SqlQuote.ident(table) + " x ORDER BY 1")) {
                while (r.next()) {
                    rows.add(r.getString(1));
                }
            }
        }
        return rows;
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWalSourceIsRenderedBySqliteWithTheRowsOnlyItsLogHolds() throws Exception {
        Path sqlite = sqlite(0, "PRAGMA journal_mode = WAL", "CREATE TABLE t(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 1000) + " INSERT INTO t SELECT i, 'r' || i FROM n");
        // a writer that keeps its connection open: its last rows stay in the log, not in the file
        try (Connection writer = Sql.sqlite(sqlite, false)) {
            Sql.exec(writer, "PRAGMA wal_autocheckpoint = 0");
            Sql.exec(writer, String.format(NUMBERS, 500) + " INSERT INTO t SELECT 1000 + i, 'late' FROM n");
            assertThatThrownBy(() -> SqlitePages.open(sqlite)).isInstanceOf(SqlitePages.Unsupported.class);

            for (boolean pipes : new boolean[] {true, false}) {
                assertThat(handedOver(sqlite, "t", pipes)).hasSize(1500).contains("{'i': 1500, 's': late}");
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aUtf16SourceIsRenderedBySqlite() throws Exception {
        Path sqlite = sqlite(0, "PRAGMA encoding = 'UTF-16le'", "CREATE TABLE t(i BIGINT, s VARCHAR)",
                "INSERT INTO t VALUES (1, 'ü 🦆'), (2, 'plain'), (3, NULL)");
        assertThatThrownBy(() -> SqlitePages.open(sqlite)).isInstanceOf(SqlitePages.Unsupported.class);

        assertThat(handedOver(sqlite, "t", false)).containsExactly("{'i': 1, 's': ü 🦆}", "{'i': 2, 's': plain}", "{'i': 3, 's': NULL}");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void tablesWhoseRecordsHoldOtherFieldsAreRenderedBySqlite() throws Exception {
        // a stored generated column sits in the record between i and s; "INTEGER PRIMARY KEY DESC"
        // is not an alias of the rowid (its record field holds the value)
        Path sqlite = sqlite(0, "CREATE TABLE g(i BIGINT, x VARCHAR GENERATED ALWAYS AS ('gen' || i) STORED, s VARCHAR)",
                "INSERT INTO g(i, s) VALUES (1, 'one'), (2, 'two')",
                "CREATE TABLE d(id INTEGER PRIMARY KEY DESC, s VARCHAR)", "INSERT INTO d VALUES (5, 'five'), (NULL, 'none')");
        try (Connection c = Sql.sqlite(sqlite, true)) {
            Map<String, List<CopyColumn>> tables = Map.of("g", PageRenderings.columns(sqlite, "g"), "d", PageRenderings.columns(sqlite, "d"));
            assertThat(SqlitePages.layouts(c, tables)).isEmpty();
        }

        assertThat(handedOver(sqlite, "g", false)).containsExactly("{'i': 1, 's': one}", "{'i': 2, 's': two}");
        assertThat(handedOver(sqlite, "d", false)).containsExactly("{'id': 5, 's': five}", "{'id': NULL, 's': none}");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void writersWaitUntilTheHandoverIsClosed() throws Exception {
        Path sqlite = sqlite(0, "CREATE TABLE t(i BIGINT, s VARCHAR)", "INSERT INTO t VALUES (1, 'a')");
        List<CopyColumn> columns = PageRenderings.columns(sqlite, "t");
        try (Connection duck = Sql.duckDbMemory(); Connection writer = Sql.sqlite(sqlite, false)) {
            Sql.exec(writer, "PRAGMA busy_timeout = 0");
            Sql.exec(duck, "ATTACH ':memory:' AS cat");
            Sql.exec(duck, "CREATE TABLE cat.main.t(i BIGINT, s VARCHAR)");
            try (RowHandover handover = new RowHandover(sqlite, dir.resolve("x.duckdb.tmp"), Map.of("t", columns), false)) {
                assertThat(handover.load(duck, "t")).isEqualTo(1);
                // every row is read, but the file must not change before the handover ends
                assertThatThrownBy(() -> Sql.exec(writer, "INSERT INTO t VALUES (2, 'b')")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("locked");
            }
            Sql.exec(writer, "INSERT INTO t VALUES (2, 'b')");
        }
    }

    /** A catalog with one more table of {@code rows} rows of varied text, {@code ducklake_probe(i, s, t)}. */
    private Path catalog(int rows) throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        Catalogs.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(sqlite, false)) {
            // t: NUMERIC affinity keeps integers and reals as numbers (VARCHAR for conversion)
            Sql.exec(c, "CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR, t NUMERIC)");
            Sql.exec(c, String.format(NUMBERS, rows) + " INSERT INTO ducklake_probe SELECT i, 'row \"' || i || '\" ' || hex(randomblob(i % 40)),"
                    + " CASE WHEN i % 3 = 0 THEN NULL ELSE i * 7 END FROM n");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ducklake_probe VALUES (?, ?, 1.5)")) {
                for (int i = 0; i < AWKWARD.length; i++) {
                    ps.setLong(1, -i);
                    ps.setString(2, AWKWARD[i]);
                    ps.executeUpdate();
                }
            }
        }
        return sqlite;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void conversionReadingPagesGivesWhatConversionThroughSqliteGives(boolean pipes) throws Exception {
        Path sqlite = catalog(100_000);
        Path viaSqlite = dir.resolve("jdbc.duckdb");
        Path viaPages = dir.resolve("pages.duckdb");

        SqliteFiles.withSqliteRendering(() -> CatalogConverter.convert(sqlite, viaSqlite, CatalogKind.DUCKDB, ProgressListener.NONE, pipes));
        ConversionResult result = CatalogConverter.convert(sqlite, viaPages, CatalogKind.DUCKDB, ProgressListener.NONE, pipes);

        assertThat(CatalogCompare.differences(viaSqlite, viaPages)).isEmpty();
        assertThat(result.rows()).isGreaterThan(100_000);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aDamagedPageFailsNamingFileTableAndPageAndLeavesNoTarget() throws Exception {
        Path sqlite = catalog(50_000);
        long pageSize;
        long pages;
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT page_size, page_count FROM pragma_page_size, pragma_page_count")) {
            r.next();
            pageSize = r.getLong(1);
            pages = r.getLong(2);
        }
        // a leaf among the probe table's last pages (rows are appended in rowid order): SQLite's
        // min(rowid) and max(rowid) do not read it, the scan meets it after thousands of rows
        long damaged = pages - 20;
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "rw")) {
            while (true) {
                f.seek((damaged - 1) * pageSize);
                if (f.read() == 0x0D) {
                    break;
                }
                damaged--;
            }
            f.seek((damaged - 1) * pageSize);
            f.write(0x07);
        }
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE, false))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining(sqlite.toString()).hasMessageContaining("ducklake_probe").hasMessageContaining("page " + damaged);

        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTruncatedFileFailsAndLeavesNoTarget() throws Exception {
        Path sqlite = catalog(50_000);
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        assertThatThrownBy(() -> SqlitePages.open(sqlite)).isInstanceOf(SqlitePages.Unsupported.class);
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("w.sqlite");

        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }
}
