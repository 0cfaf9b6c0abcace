package dev.fdl.ducklake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Adversarial cases for the SQLite page reader: files SQLite itself reshaped (updates, deletes,
 * vacuum modes, page sizes), odd table definitions, lines at the handover's limits, split
 * boundaries, damaged files and concurrent writers. Each compares the page reader with SQLite's
 * own rendering (the reference path) or with known values.
 */
class SqlitePagesEdgeTest {
    @TempDir
    Path dir;

    private static final String NUMBERS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)";

    private Path sqlite(String name, String... statements) throws SQLException {
        return SqliteFiles.create(dir.resolve(name), statements);
    }

    private Path catalog(String... statements) throws Exception {
        return SqliteFiles.catalog(dir.resolve("w.sqlite"), statements);
    }

    /** Converts {@code sqlite} once through SQLite's rendering and once reading pages; asserts both catalogs are equal. */
    private void assertConversionsAgree(Path sqlite, boolean pipes) throws Exception {
        Path viaSqlite = dir.resolve("jdbc.duckdb");
        Path viaPages = dir.resolve("pages.duckdb");
        Files.deleteIfExists(viaSqlite);
        Files.deleteIfExists(viaPages);
        SqliteFiles.withSqliteRendering(() -> CatalogConverter.convert(sqlite, viaSqlite, CatalogKind.DUCKDB, ProgressListener.NONE, pipes));
        CatalogConverter.convert(sqlite, viaPages, CatalogKind.DUCKDB, ProgressListener.NONE, pipes);
        assertThat(CatalogCompare.differences(viaSqlite, viaPages)).isEmpty();
    }

    // ------------------------------------------------------------------ files SQLite reshaped

    @ParameterizedTest
    @CsvSource({"512, NONE, 0", "1024, FULL, 1", "4096, INCREMENTAL, 0", "65536, NONE, 1", "2048, FULL, 0"})
    void aFileReshapedByUpdatesAndDeletesRendersAsSqliteDoes(int pageSize, String autoVacuum, int secureDelete) throws Exception {
        Path sqlite = sqlite("t.sqlite", "PRAGMA page_size = " + pageSize, "PRAGMA auto_vacuum = " + autoVacuum,
                "PRAGMA secure_delete = " + secureDelete,
                "CREATE TABLE t(i BIGINT, s VARCHAR, u TEXT)",
                String.format(NUMBERS, 6000) + " INSERT INTO t SELECT i, 'r' || i || hex(randomblob(i % 50)), NULL FROM n",
                // longer, then shorter, rows; some spill to overflow chains
                "UPDATE t SET s = s || replace(hex(zeroblob(i % 700)), '0', 'x') WHERE i % 3 = 0",
                "UPDATE t SET u = replace(hex(zeroblob(" + pageSize + " + i % 97)), '00', 'é') WHERE i % 41 = 0",
                "DELETE FROM t WHERE i % 7 = 0 OR i BETWEEN 2000 AND 3500",
                "UPDATE t SET s = 'short' WHERE i % 5 = 0",
                "UPDATE t SET u = NULL WHERE i % 82 = 0",
                "INSERT INTO t(rowid, i, s) VALUES (9223372036854775807, 1, 'max'), (-9223372036854775808, 2, 'min'), (-1, -1, 'minus one')",
                String.format(NUMBERS, 500) + " INSERT INTO t(rowid, i, s) SELECT i * 1000000007, i, 'sparse' FROM n",
                "PRAGMA incremental_vacuum(10)");
        assertThat(PageRenderings.assertSameLines(sqlite, "t")).isZero();
        PageRenderings.assertSameLines(sqlite, "t", -1, 4000);
        PageRenderings.assertSameLines(sqlite, "t", 3000, 5_000_000_000L);

        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "VACUUM");
        }
        assertThat(PageRenderings.assertSameLines(sqlite, "t")).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 4096})
    void pagesWithReservedBytesRenderAsSqliteDoes(int pageSize) throws Exception {
        // reserved bytes at each page's end (checksum or encryption VFSes): not settable by SQL, so set
        // in the header of a file with no tables yet; SQLite then leaves them free on every page it writes
        Path sqlite = sqlite("t.sqlite", "PRAGMA page_size = " + pageSize, "PRAGMA user_version = 1");
        int reserved = 32;
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "rw")) {
            f.seek(20);
            f.write(reserved);
            f.seek(105); // page 1 (empty sqlite_schema leaf): its cell content area now starts before the reserved bytes
            f.writeShort(pageSize - reserved);
        }
        int usable = pageSize - reserved;
        int minLocal = (usable - 12) * 32 / 255 - 23;
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "CREATE TABLE t(i BIGINT, s VARCHAR)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                c.setAutoCommit(false);
                for (int length : new int[] {1, minLocal, usable - 40, usable - 38, usable - 36, usable, 3 * usable + 5, 20_000}) {
                    for (int d = -2; d <= 2; d++) {
                        ps.setLong(1, length + d);
                        ps.setString(2, "ab\"".repeat(length + d + 3).substring(0, Math.max(0, length + d)));
                        ps.executeUpdate();
                    }
                }
                c.commit();
            }
            try (Statement st = c.createStatement(); ResultSet r = st.executeQuery("PRAGMA integrity_check")) {
                r.next();
                assertThat(r.getString(1)).isEqualTo("ok");
            }
        }
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "r")) {
            f.seek(20);
            assertThat(f.read()).as("reserved bytes kept").isEqualTo(reserved);
        }
        assertThat(PageRenderings.assertSameLines(sqlite, "t")).isZero();
    }

    @Test
    void aDeepTreeOfTinyPagesRendersAsSqliteDoesOverEveryRange() throws Exception {
        // 512-byte pages, rows near the local payload limit: every leaf holds one or two rows
        Path sqlite = sqlite("t.sqlite", "PRAGMA page_size = 512", "CREATE TABLE t(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 20_000) + " INSERT INTO t(rowid, i, s) SELECT i * i, i, printf('%0470d', i) FROM n");
        assertThat(PageRenderings.assertSameLines(sqlite, "t")).isZero();
        for (long[] r : new long[][] {{1, 1}, {2, 3}, {4, 4}, {100, 10_000}, {10_001, 10_001}, {399_999_999, 400_000_000}}) {
            PageRenderings.assertSameLines(sqlite, "t", r[0], r[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 1024, 4096})
    void textEndingExactlyAtOverflowPageBoundariesRendersAsSqliteDoes(int pageSize) throws Exception {
        Path sqlite = sqlite("t.sqlite", "PRAGMA page_size = " + pageSize, "CREATE TABLE t(s VARCHAR)");
        int usable = pageSize;
        int maxLocal = usable - 35;
        int minLocal = (usable - 12) * 32 / 255 - 23;
        try (Connection c = Sql.sqlite(sqlite, false); PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
            c.setAutoCommit(false);
            // record: header (2 or 3 bytes) + text; payload P; local K = M + (P - M) % (U - 4)
            for (int chunks = 1; chunks <= 4; chunks++) {
                for (int delta = -3; delta <= 3; delta++) {
                    for (int local : new int[] {minLocal, maxLocal}) {
                        int payload = local + chunks * (usable - 4) + delta;
                        int header = payload - 3 > 57 ? 3 : 2;
                        ps.setString(1, "q\"".repeat((payload - header) / 2) + ((payload - header) % 2 == 1 ? "z" : ""));
                        ps.executeUpdate();
                    }
                }
            }
            c.commit();
        }
        assertThat(PageRenderings.assertSameLines(sqlite, "t")).isZero();
    }

    // ------------------------------------------------------------------ table definitions

    @Test
    void integerPrimaryKeysAutoincrementStrictAndRenamedColumnsRenderAsSqliteDoes() throws Exception {
        Path sqlite = sqlite("t.sqlite",
                "CREATE TABLE a(id INTEGER PRIMARY KEY AUTOINCREMENT, s VARCHAR)",
                "INSERT INTO a(s) VALUES ('one'), ('two')", "INSERT INTO a VALUES (-5, 'minus'), (9223372036854775807, 'max')",
                "CREATE TABLE b(x VARCHAR, id integer, y BIGINT, PRIMARY KEY(id DESC))",
                "INSERT INTO b VALUES ('p', 10, 1), ('q', NULL, 2), ('r', -3, 3)",
                "CREATE TABLE c(id INTEGER PRIMARY KEY, i INT, s TEXT, n ANY, a ANY) STRICT",
                "INSERT INTO c VALUES (1, 5, 'x', 1.0, 'any'), (2, NULL, NULL, 7, 3), (3, 1, 'y', 1.5, 2.5)",
                "CREATE TABLE d(i BIGINT, old_name VARCHAR, gone VARCHAR, s VARCHAR)",
                "INSERT INTO d VALUES (1, 'a', 'g', 's'), (2, 'b', 'h', 't')",
                "ALTER TABLE d RENAME COLUMN old_name TO new_name", "ALTER TABLE d DROP COLUMN gone",
                "INSERT INTO d VALUES (3, 'c', 'u')",
                "CREATE TABLE e(id INT PRIMARY KEY, s VARCHAR)", "INSERT INTO e VALUES (7, 'int is not integer'), (NULL, 'null key')");
        for (String table : new String[] {"a", "b", "c", "d", "e"}) {
            assertThat(PageRenderings.assertSameLines(sqlite, table)).as(table).isBetween(0, 2);
        }
    }

    @Test
    void columnsAddedWithDefaultsRenderAsSqliteDoes() throws Exception {
        Path sqlite = sqlite("t.sqlite", "CREATE TABLE t(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 300) + " INSERT INTO t SELECT i, 'r' || i FROM n",
                "ALTER TABLE t ADD COLUMN a BIGINT DEFAULT -7",
                "ALTER TABLE t ADD COLUMN b VARCHAR DEFAULT 'it''s'",
                "ALTER TABLE t ADD COLUMN c VARCHAR DEFAULT NULL",
                "ALTER TABLE t ADD COLUMN d VARCHAR DEFAULT (NULL)",
                "ALTER TABLE t ADD COLUMN e NUMERIC DEFAULT 2.5",
                "ALTER TABLE t ADD COLUMN f VARCHAR DEFAULT 'null'",
                "ALTER TABLE t ADD COLUMN g BIGINT DEFAULT -0",
                "ALTER TABLE t ADD COLUMN k VARCHAR DEFAULT ''",
                "INSERT INTO t(i, s) VALUES (1000, 'new')");
        PageRenderings.assertSameLines(sqlite, "t");
    }

    @Test
    void aColumnWithRealAffinityRendersAsSqliteDoes() throws Exception {
        // "DOUB" has REAL affinity in SQLite (it stores 5.0 as the integer 5 on disk, reads it as 5.0),
        // yet is no DOUBLE/REAL/FLOA type for conversion: a VARCHAR column of the CSV handover
        Path sqlite = sqlite("t.sqlite", "CREATE TABLE t(i BIGINT, d DOUB)", "INSERT INTO t VALUES (1, 5), (2, 1.0), (3, 'x'), (4, 2.5)");
        assertThat(PageRenderings.columns(sqlite, "t").get(1).sqliteType()).isEqualTo("VARCHAR");

        PageRenderings.assertSameLines(sqlite, "t");
        assertThat(SqlitePages.realAffinity("DOUB")).isTrue();
        assertThat(SqlitePages.realAffinity("FLOATING POINT")).isFalse(); // "INT" wins
        assertThat(SqlitePages.realAffinity("REAL TEXT")).isFalse();

        Path catalog = catalog("CREATE TABLE ducklake_probe(i BIGINT, d DOUB)", "INSERT INTO ducklake_probe VALUES (1, 5), (2, 1.0), (3, 'x')");
        assertConversionsAgree(catalog, false);
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT string_agg(d, ',' ORDER BY i) FROM ducklake_probe")).containsExactly("5.0,1.0,x");
    }

    @Test
    void anIntegerPrimaryKeyDescWrittenWithACommentIsNotTakenForTheRowid() throws Exception {
        Path sqlite = sqlite("t.sqlite", "CREATE TABLE t(id INTEGER PRIMARY KEY /* descending */ DESC, s VARCHAR)",
                "INSERT INTO t VALUES (5, 'five'), (NULL, 'none')");

        PageRenderings.assertSameLines(sqlite, "t");
    }

    // ------------------------------------------------------------------ line limits

    @ParameterizedTest
    @ValueSource(strings = {"x", "\"", "\\", "\u0001", "\n", "é"})
    void textsAroundTheLineLimitRenderAsSqliteDoes(String unit) throws Exception {
        Path sqlite = sqlite("t.sqlite", "CREATE TABLE t(i BIGINT, s VARCHAR)");
        int limit = RowHandover.MAX_LINE_BYTES;
        int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
        try (Connection c = Sql.sqlite(sqlite, false); PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            c.setAutoCommit(false);
            long id = 0;
            // line = "<id>,\"" + text + "\"": a 1-digit id makes 4 bytes besides the text
            for (int base : new int[] {limit - 4, limit - 4 - 5 * 16, limit / 2, limit / 6}) {
                for (int d = -2; d <= 2; d++) {
                    int bytes = base + d;
                    int n = bytes / unitBytes;
                    String text = (unit.repeat(Math.max(0, n - 8))) + "a".repeat(bytes - Math.max(0, n - 8) * unitBytes);
                    ps.setLong(1, id++ % 10);
                    ps.setString(2, text);
                    ps.executeUpdate();
                }
            }
            c.commit();
        }
        PageRenderings.assertSameLines(sqlite, "t");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void rowsLongerThanALineOrThanThePayloadLimitConvertAsThroughSqlite() throws Exception {
        int line = RowHandover.MAX_LINE_BYTES;
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR, t VARCHAR)",
                "INSERT INTO ducklake_probe VALUES (1, printf('%.*c', " + (line / 2 + 10) + ", 'a'), printf('%.*c', " + (line / 2 + 10) + ", 'b'))",
                "INSERT INTO ducklake_probe VALUES (2, printf('%.*c', " + (SqlitePages.MAX_PAYLOAD + 1) + ", 'c'), 'short')",
                "INSERT INTO ducklake_probe VALUES (3, replace(printf('%.*c', " + (line - 20) + ", 'd'), 'dddd', 'd\\\"'), NULL)",
                "INSERT INTO ducklake_probe VALUES (4, printf('%.*c', " + (line - 6) + ", 'e'), NULL)",
                "INSERT INTO ducklake_probe VALUES (5, 'plain', '')");
        for (boolean pipes : new boolean[] {true, false}) {
            assertConversionsAgree(sqlite, pipes);
        }
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT string_agg(i || ':' || length(s) || ':' || coalesce(length(t), -1), ',' ORDER BY i) FROM ducklake_probe"))
                .containsExactly("1:" + (line / 2 + 10) + ":" + (line / 2 + 10) + ",2:" + (SqlitePages.MAX_PAYLOAD + 1) + ":5,3:" + (line - 20 - (line - 20) / 4)
                        + ":-1,4:" + (line - 6) + ":-1,5:5:0");
    }

    // ------------------------------------------------------------------ conversion: split boundaries

    @ParameterizedTest
    @ValueSource(ints = {65_535, 65_536, 65_537})
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void tablesAroundTheSplitThresholdConvertAsThroughSqlite(int rows) throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, rows) + " INSERT INTO ducklake_probe SELECT i, CASE WHEN i % 1000 = 0 THEN 'q\"' || i ELSE 'r' END FROM n");
        assertConversionsAgree(sqlite, true);
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT count(*) || ' ' || sum(i) FROM ducklake_probe"))
                .containsExactly(rows + " " + ((long) rows * (rows + 1) / 2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"FULL", "INCREMENTAL"})
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aReshapedAutoVacuumCatalogConvertsAsThroughSqlite(String autoVacuum) throws Exception {
        Path sqlite = catalog("PRAGMA auto_vacuum = " + autoVacuum, "VACUUM", "PRAGMA secure_delete = 1",
                "CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR, t NUMERIC)",
                String.format(NUMBERS, 120_000) + " INSERT INTO ducklake_probe SELECT i, 'r' || i, CASE WHEN i % 9 = 0 THEN i / 7.0 END FROM n",
                "UPDATE ducklake_probe SET s = printf('%.*c', i % 3000, 'y') WHERE i % 101 = 0",
                "DELETE FROM ducklake_probe WHERE i % 3 = 0 OR i BETWEEN 40000 AND 60000",
                "UPDATE ducklake_probe SET s = NULL WHERE i % 5 = 0",
                "INSERT INTO ducklake_probe(rowid, i, s) VALUES (-7, -7, 'negative')",
                "PRAGMA incremental_vacuum");
        assertConversionsAgree(sqlite, true);
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT count(*) FROM ducklake_probe")).containsExactly("66667");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void splitTablesLeftToSqliteShareTheReadTransactionsConnection() throws Exception {
        // ducklake_doub has no layout (REAL affinity): all its parts render through SQLite at once;
        // every row of ducklake_real is left to SQLite one by one, from every part
        Path sqlite = catalog("CREATE TABLE ducklake_doub(i BIGINT, d DOUB)",
                String.format(NUMBERS, 80_000) + " INSERT INTO ducklake_doub SELECT i, i % 13 FROM n",
                "CREATE TABLE ducklake_real(i BIGINT, n NUMERIC)",
                String.format(NUMBERS, 70_000) + " INSERT INTO ducklake_real SELECT i, i + 0.5 FROM n");
        assertConversionsAgree(sqlite, true);
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT count(*) || ' ' || max(d) FROM ducklake_doub")).containsExactly("80000 9.0");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void oddlyNamedTablesAndOddlyDeclaredColumnsConvertAsThroughSqlite() throws Exception {
        Path sqlite = catalog("CREATE TABLE \"ducklake_we\"\"ird t\"(\"id\" INTEGER PRIMARY KEY, \"a b\" INT, \"c\"\"\" TEXT, n NUMERIC, bo BOOLEAN)",
                "INSERT INTO \"ducklake_we\"\"ird t\" VALUES (-3, 1, 'x', 7, 1), (NULL, NULL, 'y', '2024-01-01', 0), (10, 9223372036854775807, NULL, 1e300, NULL)",
                "CREATE TABLE ducklake_desc(id INTEGER PRIMARY KEY DESC, s VARCHAR)", "INSERT INTO ducklake_desc VALUES (5, 'five'), (-2, 'minus two')",
                "CREATE TABLE ducklake_without(id INTEGER PRIMARY KEY, s VARCHAR) WITHOUT ROWID", "INSERT INTO ducklake_without VALUES (1, 'one')");
        for (boolean pipes : new boolean[] {true, false}) {
            assertConversionsAgree(sqlite, pipes);
        }
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT string_agg(id || s, ',' ORDER BY id) FROM ducklake_desc")).containsExactly("-2minus two,5five");
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT string_agg(coalesce(id, 0) || ':' || \"a b\" || ':' || n, ',' ORDER BY id)"
                + " FROM \"ducklake_we\"\"ird t\"")).containsExactly("-3:1:7,10:9223372036854775807:1.0e+300");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterHoldingAnExclusiveLockFailsTheConversionCleanly() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)", "INSERT INTO ducklake_probe VALUES (1, 'a')");
        Path target = dir.resolve("c.duckdb");
        try (Connection w = Sql.sqlite(sqlite, false)) {
            Sql.exec(w, "BEGIN EXCLUSIVE");
            Sql.exec(w, "INSERT INTO ducklake_probe VALUES (2, 'uncommitted')");
            assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE, true))
                    .isInstanceOf(FdlException.class).hasMessageContaining("locked");
            Sql.exec(w, "ROLLBACK");
        }
        assertThat(CatalogCompare.fileNames(dir)).allMatch(f -> f.startsWith("w.sqlite"));
        CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE, true);
        assertThat(CatalogCompare.rows(target, "SELECT count(*) FROM ducklake_probe")).containsExactly("1");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSplitTableWithFewerRowsThanPartsAndHugeGapsConvertsAsThroughSqlite() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                "INSERT INTO ducklake_probe(rowid, i, s) VALUES (-9223372036854775808, 1, 'min'), (3, 2, 'three'), (9223372036854775807, 3, 'max')",
                "CREATE TABLE ducklake_probe2(i BIGINT, s VARCHAR)",
                "INSERT INTO ducklake_probe2(rowid, i, s) VALUES (1, 1, 'a'), (70000, 2, 'b')",
                "CREATE TABLE ducklake_probe3(i INTEGER PRIMARY KEY, s VARCHAR)",
                "INSERT INTO ducklake_probe3 VALUES (-100000, 'a'), (0, 'b'), (100000, 'c')");
        assertConversionsAgree(sqlite, true);
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT string_agg(s, ',' ORDER BY i) FROM ducklake_probe")).containsExactly("min,three,max");
        assertThat(CatalogCompare.rows(dir.resolve("pages.duckdb"), "SELECT string_agg(s || i, ',' ORDER BY i) FROM ducklake_probe3"))
                .containsExactly("a-100000,b0,c100000");
    }

    // ------------------------------------------------------------------ damaged files, hot journals, writers

    /** The page numbers of the given b-tree page type (0x05 interior, 0x0D leaf, ...) in a file. */
    private static List<Long> pagesOfType(Path file, int pageSize, int type) throws IOException {
        List<Long> found = new ArrayList<>();
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long pages = f.length() / pageSize;
            for (long p = 2; p <= pages; p++) {
                f.seek((p - 1) * pageSize);
                if (f.read() == type) {
                    found.add(p);
                }
            }
        }
        return found;
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aDamagedInteriorPageFailsClearlyAndLeavesNoTarget() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 200_000) + " INSERT INTO ducklake_probe SELECT i, 'row ' || i FROM n");
        List<Long> interior = pagesOfType(sqlite, 4096, 0x05);
        assertThat(interior).isNotEmpty();
        // a child pointer of every interior page points past the file
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "rw")) {
            for (long p : interior) {
                f.seek((p - 1) * 4096 + 8);
                f.writeInt(0x7fffff00);
            }
        }
        Path target = dir.resolve("c.duckdb");
        for (boolean pipes : new boolean[] {true, false}) {
            assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE, pipes))
                    .isInstanceOf(FdlException.class).hasMessageContaining("w.sqlite");
            assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBrokenOverflowChainFailsClearlyAndLeavesNoTarget() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 70_000) + " INSERT INTO ducklake_probe SELECT i, CASE WHEN i = 69000 THEN printf('%.*c', 20000, 'x') ELSE 'r' END FROM n");
        long overflow;
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT page_count FROM pragma_page_count")) {
            r.next();
            overflow = r.getLong(1);
        }
        // overflow pages start with the next page's number; the long text's chain is near the end: zero one link
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "rw")) {
            for (long p = overflow; p > overflow - 200; p--) {
                f.seek((p - 1) * 4096);
                int next = f.readInt();
                f.seek((p - 1) * 4096 + 4);
                if (next > 0 && next <= overflow && f.read() == 'x') {
                    f.seek((p - 1) * 4096);
                    f.writeInt(0);
                    break;
                }
            }
        }
        Path target = dir.resolve("c.duckdb");
        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE, true))
                .isInstanceOf(FdlException.class).hasMessageContaining("w.sqlite");
        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFileTruncatedMidPageFailsAndLeavesNoTarget() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 30_000) + " INSERT INTO ducklake_probe SELECT i, 'row ' || i FROM n");
        try (RandomAccessFile f = new RandomAccessFile(sqlite.toFile(), "rw")) {
            f.setLength(f.length() - 4096 - 1000);
        }
        Path target = dir.resolve("c.duckdb");
        assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, ProgressListener.NONE, true))
                .isInstanceOf(FdlException.class).hasMessageContaining("w.sqlite");
        assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHotJournalIsRolledBackOrRefusedNeverReadAround() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_probe(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 20_000) + " INSERT INTO ducklake_probe SELECT i, 'before' FROM n");
        Path copy = dir.resolve("hot");
        Files.createDirectories(copy);
        Path hot = copy.resolve("h.sqlite");
        try (Connection w = Sql.sqlite(sqlite, false)) {
            Sql.exec(w, "PRAGMA cache_size = 10"); // the change spills into the file before commit
            w.setAutoCommit(false);
            Sql.exec(w, "UPDATE ducklake_probe SET s = 'after, uncommitted'");
            // the file and its journal mid-transaction: what a crashed writer leaves
            Files.copy(sqlite, hot);
            Files.copy(dir.resolve("w.sqlite-journal"), copy.resolve("h.sqlite-journal"));
            w.rollback();
        }
        Path target = copy.resolve("c.duckdb");
        try {
            CatalogConverter.convert(hot, target, CatalogKind.DUCKDB, ProgressListener.NONE, true);
        } catch (FdlException e) {
            assertThat(Files.exists(target)).isFalse();
            assertThat(e.getMessage()).contains("h.sqlite");
            return; // refused: fine
        }
        assertThat(CatalogCompare.rows(target, "SELECT s || count(*) FROM ducklake_probe GROUP BY s")).containsExactly("before20000");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterDuringConversionWaitsOrFailsAndNeverTearsTheCopy() throws Exception {
        // rollback-journal file: the handover's read transaction keeps writers out until it ends
        Path sqlite = catalog("CREATE TABLE ducklake_a(i BIGINT, s VARCHAR)", "CREATE TABLE ducklake_z(i BIGINT, s VARCHAR)",
                "INSERT INTO ducklake_a VALUES (1, 'a')", "INSERT INTO ducklake_z VALUES (1, 'z')");
        assertWritesDuringConversionDoNotTear(sqlite);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterDuringConversionOfAWalFileNeverTearsTheCopyOfATableOffTheHandover() throws Exception {
        Path sqlite = catalog("PRAGMA journal_mode = WAL", "CREATE TABLE ducklake_a(i BIGINT, s VARCHAR)",
                "CREATE TABLE ducklake_z(i BIGINT, d DOUBLE)", "INSERT INTO ducklake_a VALUES (1, 'a')", "INSERT INTO ducklake_z VALUES (1, 0.5)");
        assertWritesDuringConversionDoNotTear(sqlite);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterDuringConversionOfARollbackFileNeverTearsTheCopyOfATableOffTheHandover() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_a(i BIGINT, s VARCHAR)",
                "CREATE TABLE ducklake_z(i BIGINT, d DOUBLE)", "INSERT INTO ducklake_a VALUES (1, 'a')", "INSERT INTO ducklake_z VALUES (1, 0.5)");
        assertWritesDuringConversionDoNotTear(sqlite);
        SqliteFiles.withSqliteRendering(() -> {
            assertWritesDuringConversionDoNotTear(sqlite);
            return null;
        });
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterDuringConversionOfAWalFileNeverTearsTheCopy() throws Exception {
        Path sqlite = catalog("PRAGMA journal_mode = WAL", "CREATE TABLE ducklake_a(i BIGINT, s VARCHAR)",
                "CREATE TABLE ducklake_z(i BIGINT, s VARCHAR)", "INSERT INTO ducklake_a VALUES (1, 'a')", "INSERT INTO ducklake_z VALUES (1, 'z')");
        assertWritesDuringConversionDoNotTear(sqlite);
    }

    /** After the first table is copied, one transaction adds a row to ducklake_a and one to ducklake_z: the copy holds both or neither. */
    private void assertWritesDuringConversionDoNotTear(Path sqlite) throws Exception {
        Path target = dir.resolve("c.duckdb");
        boolean[] wrote = new boolean[1];
        ProgressListener writeAfterFirst = (table, rows, done, total) -> {
            if (done != 1) {
                return;
            }
            try (Connection w = Sql.sqlite(sqlite, false)) {
                Sql.exec(w, "PRAGMA busy_timeout = 0");
                w.setAutoCommit(false);
                Sql.exec(w, "INSERT INTO ducklake_a VALUES (2, 'a2')");
                Sql.exec(w, "INSERT INTO ducklake_z VALUES (2, '2')");
                w.commit();
                wrote[0] = true;
            } catch (SQLException e) {
                // locked out: fine
            }
        };
        for (boolean pipes : new boolean[] {true, false}) {
            Files.deleteIfExists(target);
            wrote[0] = false;
            try {
                CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, writeAfterFirst, pipes);
            } catch (FdlException e) {
                // failing cleanly is fine: a writer committed, and nothing was left behind
                assertThat(wrote[0]).as("failed without a writer: %s", e.getMessage()).isTrue();
                assertThat(e.getMessage()).contains("changed while it was being converted");
                assertThat(CatalogCompare.fileNames(dir)).allMatch(f -> f.startsWith("w.sqlite"));
                continue;
            }
            List<String> a = CatalogCompare.rows(target, "SELECT count(*) FROM ducklake_a");
            List<String> z = CatalogCompare.rows(target, "SELECT count(*) FROM ducklake_z");
            assertThat(a).as("ducklake_a (a writer committed: %s)", wrote[0]).isEqualTo(z);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterWaitingForTheLockDoesNotFailTheConversion() throws Exception {
        // ducklake_z holds rows the page reader leaves to SQLite (reals in a NUMERIC column): they
        // are read while a writer waits for its exclusive lock (holding PENDING, which keeps new readers out)
        Path sqlite = catalog("CREATE TABLE ducklake_a(i BIGINT, s VARCHAR)", "INSERT INTO ducklake_a VALUES (1, 'a')",
                "CREATE TABLE ducklake_z(i BIGINT, n NUMERIC)", "INSERT INTO ducklake_z VALUES (1, 1.5), (2, 2.5)");
        Path target = dir.resolve("c.duckdb");
        java.util.concurrent.CompletableFuture<Void> writer = new java.util.concurrent.CompletableFuture<>();
        ProgressListener writeAfterFirst = (table, rows, done, total) -> {
            if (done != 1) {
                return;
            }
            Thread t = new Thread(() -> {
                try (Connection w = Sql.sqlite(sqlite, false)) {
                    Sql.exec(w, "PRAGMA busy_timeout = 60000");
                    Sql.exec(w, "INSERT INTO ducklake_z VALUES (3, 3.5)");
                    writer.complete(null);
                } catch (SQLException e) {
                    writer.completeExceptionally(e);
                }
            });
            t.start();
            // wait until the writer holds PENDING: a new reader is then kept out
            while (!writer.isDone()) {
                try (Connection probe = Sql.sqlite(sqlite, true)) {
                    Sql.exec(probe, "PRAGMA busy_timeout = 0");
                    Sql.exec(probe, "SELECT count(*) FROM ducklake_z");
                } catch (SQLException e) {
                    break;
                }
                Thread.onSpinWait();
            }
        };
        CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, writeAfterFirst, true);
        writer.get(1, TimeUnit.MINUTES);

        assertThat(CatalogCompare.rows(target, "SELECT string_agg(n, ',' ORDER BY i) FROM ducklake_z")).containsExactly("1.5,2.5");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anInterruptedConversionLeavesNoThreadsPipesOrFiles() throws Exception {
        Path sqlite = catalog("CREATE TABLE ducklake_aaa(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 100_000) + " INSERT INTO ducklake_aaa SELECT i, 'r' || i FROM n",
                "CREATE TABLE ducklake_zzz(i BIGINT, s VARCHAR)",
                String.format(NUMBERS, 100_000) + " INSERT INTO ducklake_zzz SELECT i, 'r' || i FROM n");
        Path target = dir.resolve("c.duckdb");
        for (boolean pipes : new boolean[] {true, false}) {
            ProgressListener interrupt = (table, rows, done, total) -> {
                if (table.equals("ducklake_aaa")) {
                    Thread.currentThread().interrupt();
                }
            };
            assertThatThrownBy(() -> CatalogConverter.convert(sqlite, target, CatalogKind.DUCKDB, interrupt, pipes))
                    .isInstanceOf(FdlException.class).hasMessageContaining("interrupted");
            Thread.interrupted();
            assertThat(CatalogCompare.fileNames(dir)).containsExactly("w.sqlite");
            assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("fdl-sqlite-reader") && t.isAlive());
        }
    }
}
