package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DuckDB → SQLite with b-tree pages written directly ({@link SqliteFileWriter}), at the edges of
 * the file format: payload sizes at every local/overflow threshold, huge values, records with
 * two-byte headers, every kind of double, small integer key types and extreme keys, row counts
 * around page capacities, many tables, and files past SQLite's lock-byte page. Each file must be
 * sound ({@code PRAGMA integrity_check}), hold what SQLite's own inserts hold (value and storage
 * class), stay writable by SQLite, and convert back to the original DuckDB catalog.
 */
class SqliteFileWriterEdgeTest {
    @TempDir
    Path dir;

    // ------------------------------------------------------------------ payload thresholds

    @ParameterizedTest
    @ValueSource(ints = {512, 1024, 65_536})
    void payloadsAtEveryLocalAndOverflowThresholdAreSound(int pageSize) throws Exception {
        int u = pageSize;
        int maxLocal = u - 35;
        int minLocal = (u - 12) * 32 / 255 - 23;
        // record sizes where the cell's local part changes: all local up to U-35, then
        // M + (P-M) % (U-4) while that is at most U-35, else M; chains of U-4 bytes per page
        TreeSet<Integer> centers = new TreeSet<>(List.of(1, 2, 127, 128, minLocal, maxLocal, u - 4, u, 2 * (u - 4)));
        for (int k = 1; k <= 3; k++) {
            centers.add(minLocal + k * (u - 4));
            centers.add(maxLocal + k * (u - 4));
            centers.add(k * (u - 4) + 4);
        }
        TreeSet<Integer> lengths = new TreeSet<>();
        for (int c : centers) {
            for (int d = -8; d <= 8; d++) {
                if (c + d >= 0) {
                    lengths.add(c + d);
                }
            }
        }
        String list = lengths.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow();
        Path source = catalog(
                // a record of one blob of n bytes: header (1 + varint) + n
                "CREATE TABLE ducklake_probe_blob(b BLOB)",
                "INSERT INTO ducklake_probe_blob SELECT repeat(chr(65 + (n % 26)::INT), n)::BLOB FROM unnest([" + list + "]) t(n)",
                // with a key (and an index), text instead of a blob
                "CREATE TABLE ducklake_probe_keyed(k BIGINT PRIMARY KEY, t VARCHAR)",
                "INSERT INTO ducklake_probe_keyed SELECT n * 1000 - 500000, repeat('é', n // 2) || repeat('x', n % 2) FROM unnest([" + list + "]) t(n)");

        checkAll(source, pageSize, true);
    }

    @Test
    void tenMegabyteValuesBesideEmptyTablesAreSound() throws Exception {
        Path source = catalog(
                "CREATE TABLE ducklake_probe_huge(k BIGINT PRIMARY KEY, t VARCHAR, b BLOB)",
                "INSERT INTO ducklake_probe_huge SELECT i, repeat(chr(97 + i::INT), 10_000_000 + i::INT), repeat('\\xFF\\x00', 5_000_000 - i::INT)::BLOB FROM range(2) t(i)",
                "CREATE TABLE ducklake_probe_none(k BIGINT PRIMARY KEY, t VARCHAR)",
                "CREATE TABLE ducklake_probe_one(k BIGINT PRIMARY KEY, t VARCHAR)",
                "INSERT INTO ducklake_probe_one VALUES (42, 'one')");

        // 512-byte pages: 20,000 overflow pages per value
        Path direct = checkAll(source, 512, true);

        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT sum(length(t)), sum(length(b)) FROM ducklake_probe_huge")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(20_000_001L);
            assertThat(r.getLong(2)).isEqualTo(19_999_998L);
        }
    }

    // ------------------------------------------------------------------ records

    @Test
    void twoHundredSixtyColumnsMakeTwoByteRecordHeaders() throws Exception {
        StringBuilder create = new StringBuilder("CREATE TABLE ducklake_probe_wide(k BIGINT PRIMARY KEY");
        StringBuilder select = new StringBuilder("INSERT INTO ducklake_probe_wide SELECT i");
        for (int c = 0; c < 260; c++) {
            String[] types = {"BIGINT", "DOUBLE", "VARCHAR", "BLOB"};
            String type = types[c % 4];
            create.append(", c").append(c).append(' ').append(type);
            String value = switch (type) {
                case "BIGINT" -> "i * " + (c * 7919L) + " - 5000";
                case "DOUBLE" -> "i / " + (c + 3) + ".0";
                case "VARCHAR" -> "repeat('v', (i % " + (c + 2) + ")::INT)";
                default -> "repeat('\\x01', (i % 5)::INT)::BLOB";
            };
            select.append(", CASE WHEN (i + ").append(c).append(") % 11 = 0 THEN NULL ELSE ").append(value).append(" END");
        }
        Path source = catalog(create.append(')').toString(), select.append(" FROM range(700) t(i)").toString(),
                // all NULL but the key: a header of 261 one-byte types, a tiny body
                "INSERT INTO ducklake_probe_wide (k) SELECT 10_000 + i FROM range(300) t(i)");

        checkAll(source, 1024, true);
    }

    @Test
    void recordHeadersAroundOneHundredTwentySevenBytesAreSound() throws Exception {
        // n one-byte serial types: a header of n + 1 bytes up to 127, then n + 2 (a two-byte length)
        List<String> sql = new ArrayList<>();
        for (int n = 125; n <= 128; n++) {
            // (one DOUBLE column: SQLite → DuckDB renders all-BIGINT/VARCHAR rows with json_array, at most 127 arguments)
            StringBuilder create = new StringBuilder("CREATE TABLE ducklake_probe_h" + n + "(k BIGINT PRIMARY KEY, d DOUBLE");
            StringBuilder select = new StringBuilder("INSERT INTO ducklake_probe_h" + n + " SELECT i, i / 4");
            for (int c = 2; c < n; c++) {
                create.append(", c").append(c).append(" BIGINT");
                select.append(", CASE WHEN i % 3 = 0 THEN NULL ELSE i + ").append(c).append(" END");
            }
            sql.add(create.append(')').toString());
            sql.add(select.append(" FROM range(100) t(i)").toString());
        }
        Path source = catalog(sql.toArray(String[]::new));

        checkAll(source, 512, true);
    }

    @Test
    void keysOtherThanOneIntegerColumnFallBackToSqlitesInserts() throws Exception {
        Path source = catalog(
                "CREATE TABLE ducklake_probe_pair(a BIGINT, b BIGINT, v VARCHAR, PRIMARY KEY (a, b))",
                "INSERT INTO ducklake_probe_pair SELECT i % 10, i, 'v' || i FROM range(2000) t(i)",
                "CREATE TABLE ducklake_probe_text(k VARCHAR PRIMARY KEY, v DOUBLE)",
                "INSERT INTO ducklake_probe_text SELECT 'k' || i, i / 3 FROM range(2000) t(i)");

        checkAll(source, 1024, true);
    }

    @Test
    void doublesOfEveryKindMatchSqlitesInsertsAndRoundTrip() throws Exception {
        Path source = catalog(
                "CREATE TABLE ducklake_probe_double(k BIGINT PRIMARY KEY, d DOUBLE, f FLOAT)",
                "INSERT INTO ducklake_probe_double VALUES"
                        + " (1, 'nan', 'nan'), (2, 'inf', 'inf'), (3, '-inf', '-inf'), (4, 0.0, 0.0), (5, '-0.0', '-0.0'),"
                        + " (6, 4.9e-324, 1.4e-45), (7, 2.225073858507201e-308, 1.1754942e-38), (8, 1.7976931348623157e308, 3.4028235e38),"
                        + " (9, 1.0, 1.0), (10, -1.0, -1.0), (11, 0.1, 0.1), (12, 9007199254740993, 16777217),"
                        + " (13, 9.223372036854775807e18, 9.223372e18), (14, -9.223372036854775808e18, -9.223372e18), (15, 1e-300, 1e-30),"
                        + " (16, 123456789.123456789, 1234.5678), (17, NULL, NULL), (18, 1e15, 1e7), (19, -2.5, -2.5)");

        // FLOAT comes back as DOUBLE (SQLite declares it DOUBLE): the two round trips are compared
        Path direct = checkAll(source, 0, false);

        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT k, d, typeof(d) FROM ducklake_probe_double ORDER BY k")) {
            List<String> values = new ArrayList<>();
            while (r.next()) {
                values.add(r.getLong(1) + ":" + r.getString(3) + ":" + (r.getString(3).equals("real") ? Double.toString(r.getDouble(2)) : ""));
            }
            assertThat(values).startsWith("1:null:", "2:real:Infinity", "3:real:-Infinity", "4:real:0.0", "5:real:-0.0", "6:real:4.9E-324",
                    "7:real:2.225073858507201E-308", "8:real:1.7976931348623157E308");
        }
    }

    @Test
    void negativeZeroKeepsItsSignThroughSqlite() throws Exception {
        Path source = catalog(
                "CREATE TABLE ducklake_probe_double(k BIGINT PRIMARY KEY, d DOUBLE)",
                "INSERT INTO ducklake_probe_double VALUES (5, '-0.0'::DOUBLE)");

        Path direct = toSqlite(source, "direct.sqlite", true, 0);
        Path back = dir.resolve("back.duckdb");
        CatalogConverter.convert(direct, back, CatalogKind.DUCKDB, ProgressListener.NONE);

        // (SQLite's own insert stores -0.0 in a REAL column as the integer 0: the sign is lost;
        // quote() and printf() show neither sign, so the bits are read through JDBC)
        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT d, typeof(d) FROM ducklake_probe_double")) {
            r.next();
            assertThat(Double.doubleToRawLongBits(r.getDouble(1))).isEqualTo(Double.doubleToRawLongBits(-0.0));
            assertThat(r.getString(2)).isEqualTo("real");
        }
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, back, "cat", true);
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT d FROM cat.main.ducklake_probe_double")) {
                r.next();
                assertThat(Double.doubleToRawLongBits(r.getDouble(1))).isEqualTo(Double.doubleToRawLongBits(-0.0));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aNanInANotNullDoubleColumnFailsNamingItOnBothPaths(boolean direct) throws Exception {
        // SQLite stores NaN as NULL: in a NOT NULL column that is no value SQLite can hold
        Path source = catalog(
                "CREATE TABLE ducklake_probe_nan(k BIGINT PRIMARY KEY, d DOUBLE NOT NULL)",
                "INSERT INTO ducklake_probe_nan VALUES (1, 1.5), (2, 'nan'), (3, 2.5)");
        Path target = dir.resolve("c.sqlite");

        assertThatThrownBy(() -> CatalogConverter.convert(source, target, CatalogKind.SQLITE, ProgressListener.NONE, true, direct, 0))
                .isInstanceOf(FdlException.class).hasMessageContaining("ducklake_probe_nan");
        assertThat(CatalogCompare.fileNames(dir)).containsExactly("src.duckdb");
    }

    // ------------------------------------------------------------------ keys

    @Test
    void smallIntegerKeyTypesAndExtremeKeysMakeSoundIndexes() throws Exception {
        Path source = catalog(
                "CREATE TABLE ducklake_probe_bool(k BOOLEAN PRIMARY KEY, v VARCHAR)",
                "INSERT INTO ducklake_probe_bool VALUES (true, 't'), (false, 'f')",
                "CREATE TABLE ducklake_probe_utiny(k UTINYINT PRIMARY KEY, v VARCHAR)",
                "INSERT INTO ducklake_probe_utiny SELECT 255 - i, 'u' || i FROM range(256) t(i)",
                "CREATE TABLE ducklake_probe_tiny(k TINYINT PRIMARY KEY, v BIGINT)",
                "INSERT INTO ducklake_probe_tiny SELECT i, i FROM range(-128, 128) t(i) ORDER BY hash(i)",
                "CREATE TABLE ducklake_probe_usmall(k USMALLINT PRIMARY KEY, v BIGINT)",
                "INSERT INTO ducklake_probe_usmall SELECT i, i FROM range(0, 65536, 7) t(i) UNION ALL SELECT 65535, 0",
                "CREATE TABLE ducklake_probe_uint(k UINTEGER PRIMARY KEY, v BIGINT)",
                "INSERT INTO ducklake_probe_uint VALUES (0, 0), (4294967295, 1), (2147483648, 2), (2147483647, 3)",
                "CREATE TABLE ducklake_probe_int(k INTEGER PRIMARY KEY, v BIGINT)",
                "INSERT INTO ducklake_probe_int SELECT i::INT, i FROM range(-2147483648, 2147483647, 1000003) t(i)"
                        + " UNION ALL SELECT 2147483647, 0",
                "CREATE TABLE ducklake_probe_big(k BIGINT PRIMARY KEY, v BIGINT)",
                "INSERT INTO ducklake_probe_big SELECT k, k // 2 FROM (SELECT DISTINCT k FROM (SELECT -9223372036854775808 + i AS k FROM range(3000) t(i)"
                        + " UNION ALL SELECT 9223372036854775807 - i FROM range(3000) t(i)"
                        + " UNION ALL SELECT i - 1500 FROM range(3000) t(i)"
                        + " UNION ALL SELECT (1::BIGINT << (i % 63)::INT) * (CASE WHEN i < 63 THEN 1 ELSE -1 END) + 7 FROM range(126) t(i))) ORDER BY hash(k)");

        // the DuckDB types come back as BIGINT from SQLite: compare the two round trips instead
        Path direct = checkAll(source, 512, false);

        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT v FROM ducklake_probe_big WHERE k = -9223372036854775808 + 2999")) {
            assertThat(r.next()).as("looked up through the index").isTrue();
            assertThat(r.getLong(1)).isEqualTo((Long.MIN_VALUE + 2999) / 2);
        }
    }

    // ------------------------------------------------------------------ tree shapes

    @Test
    void rowCountsAroundLeafAndInteriorCapacitiesMakeSoundTrees() throws Exception {
        // 512-byte pages: about 3 rows of ~140 bytes per table leaf, ~60 children per interior
        // table page, ~36 index entries per leaf and ~27 per interior index page (6-byte keys):
        // every count from 0 to 130, and counts around the two-level fan-outs
        TreeSet<Integer> counts = new TreeSet<>();
        for (int n = 0; n <= 70; n++) {
            counts.add(n);
        }
        for (int base : new int[] {186, 975, 1330, 11_000}) {
            for (int d = -2; d <= 2; d++) {
                counts.add(base + d);
            }
        }
        List<String> sql = new ArrayList<>();
        for (int n : counts) {
            String t = "ducklake_probe_n" + n;
            sql.add("CREATE TABLE " + t + "(k BIGINT PRIMARY KEY, v VARCHAR)");
            sql.add("INSERT INTO " + t + " SELECT 1_099_511_627_776 + i * 3, repeat('r', 120 + (i % 30)::INT) FROM range(" + n + ") t(i)");
        }
        Path source = catalog(sql.toArray(String[]::new));

        checkAll(source, 512, true);
    }

    // ------------------------------------------------------------------ files past 1 GiB

    @Test
    void pagesPastTheLockBytePageLeaveItUnused() throws Exception {
        // SQLite never uses the page holding byte offset 2^30 (its lock bytes); a catalog over
        // 1 GiB must skip it too. 65,536-byte pages: page 16,385.
        Path file = dir.resolve("big.sqlite");
        try (Connection c = Sql.sqlite(file, false)) {
            Sql.exec(c, "PRAGMA page_size = 65536");
            Sql.exec(c, "CREATE TABLE ducklake_probe(k BIGINT PRIMARY KEY, b BLOB)");
        }
        int rootPage;
        int indexRoot;
        try (Connection c = Sql.sqlite(file, true); Statement s = c.createStatement()) {
            ResultSet r = s.executeQuery("SELECT rootpage FROM sqlite_schema WHERE name = 'ducklake_probe'");
            rootPage = r.getInt(1);
            r = s.executeQuery("SELECT rootpage FROM sqlite_schema WHERE type = 'index'");
            indexRoot = r.getInt(1);
        }
        byte[] value = new byte[3_000_000];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (i * 31);
        }
        int rows = 380; // 1.14 GB
        try (SqliteFileWriter writer = SqliteFileWriter.open(file)) {
            SqliteFileWriter.TableBuilder table = writer.table(rootPage, indexRoot);
            byte[] record = new byte[value.length + 16];
            for (int k = 0; k < rows; k++) {
                // header: its length (6), key (type 2), blob (type 2n + 12, a 4-byte varint)
                int at = 0;
                record[at++] = 6;
                record[at++] = 2;
                at += SqliteFileWriter.putVarint(record, at, 2L * value.length + 12);
                SqliteFileWriter.putInteger(record, at, k, 2);
                at += 2;
                System.arraycopy(value, 0, record, at, value.length);
                table.add(record, at + value.length, k);
            }
            table.finish();
            writer.finish();
        }

        assertThat(Files.size(file)).isGreaterThan(1L << 30);
        assertThat(SqliteFiles.integrity(file)).isEqualTo("ok");
        try (Connection c = Sql.sqlite(file, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*), sum(length(b)), count(DISTINCT b) FROM ducklake_probe")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(rows);
            assertThat(r.getLong(2)).isEqualTo((long) rows * value.length);
            assertThat(r.getLong(3)).isEqualTo(1);
        }
    }

    // ------------------------------------------------------------------ many tables, failures

    @Test
    void aHundredAndFiveTablesOfMixedColumnsAreSound() throws Exception {
        List<String> sql = new ArrayList<>();
        for (int t = 0; t < 105; t++) {
            String name = "ducklake_probe_t" + t;
            if (t % 3 == 0) {
                sql.add("CREATE TABLE " + name + "(k BIGINT PRIMARY KEY, d DOUBLE, b BLOB)");
                sql.add("INSERT INTO " + name + " SELECT i - " + t + ", i / 3.0, repeat('\\x00', (i % 4)::INT)::BLOB FROM range(" + (t * 7) + ") t(i)");
            } else {
                sql.add("CREATE TABLE " + name + "(s VARCHAR, i INTEGER, flag BOOLEAN)");
                sql.add("INSERT INTO " + name + " SELECT 'row ' || i, i::INT, i % 2 = 0 FROM range(" + (t * 3) + ") t(i)");
            }
        }
        Path source = catalog(sql.toArray(String[]::new));

        checkAll(source, 1024, false);
    }

    @Test
    void quotedNamesAndAKeyAfterOtherColumnsAreSound() throws Exception {
        Path source = catalog(
                "CREATE TABLE \"ducklake_probe \"\"quoted\"\" name\"(\"a b\" VARCHAR, \"K\"\"\" BIGINT PRIMARY KEY, \"CAST(K AS BIGINT)\" DOUBLE, k2 BLOB)",
                "INSERT INTO \"ducklake_probe \"\"quoted\"\" name\" SELECT 'a' || i, 5000 - i, i / 7, NULL FROM range(5000) t(i)",
                "CREATE TABLE ducklake_probe_nulls(v VARCHAR, w BIGINT, k BIGINT PRIMARY KEY)",
                "INSERT INTO ducklake_probe_nulls SELECT NULL, NULL, i * 1_000_000_007 FROM range(3000) t(i)");

        checkAll(source, 1024, true);
    }

    @Test
    void aConversionInterruptedWhileWritingPagesLeavesNoTemporaryFile() throws Exception {
        Path source = catalog("CREATE TABLE ducklake_probe(k BIGINT PRIMARY KEY, v VARCHAR)",
                "INSERT INTO ducklake_probe SELECT i, repeat('v', 40) FROM range(3_000_000) t(i)");
        Path target = dir.resolve("target.sqlite");
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread converter = new Thread(() -> {
            try {
                CatalogConverter.convert(source, target, CatalogKind.SQLITE, ProgressListener.NONE, true, true, 0);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        converter.start();
        // interrupt once pages are being written (the temporary file grows past the schema)
        while (converter.isAlive() && tempBytes() < 8 << 20) {
            Thread.onSpinWait();
        }
        converter.interrupt();
        converter.join();

        // (interrupted in a FileChannel write, the channel closes: ClosedByInterruptException, no message)
        assertThat(failure.get()).isInstanceOf(FdlException.class).hasMessageContaining("interrupted")
                .hasMessageContaining("target.sqlite was left unchanged");
        assertThat(CatalogCompare.fileNames(dir)).containsExactly("src.duckdb");
    }

    /** The bytes of the conversion's temporary files in {@link #dir}. */
    private long tempBytes() throws Exception {
        long bytes = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.getFileName().toString().contains(".tmp-")).toList()) {
                try {
                    bytes += Files.size(p);
                } catch (java.nio.file.NoSuchFileException gone) {
                    // removed meanwhile
                }
            }
        }
        return bytes;
    }

    @Test
    void aConversionOnAnInterruptedThreadLeavesTheTargetAndNoTemporaryFile() throws Exception {
        Path source = catalog("CREATE TABLE ducklake_probe(k BIGINT PRIMARY KEY, v VARCHAR)",
                "INSERT INTO ducklake_probe SELECT i, 'v' || i FROM range(100000) t(i)");
        Path target = dir.resolve("target.sqlite");
        Files.writeString(target, "previous");

        Thread.currentThread().interrupt();
        Throwable failure;
        try {
            CatalogConverter.convert(source, target, CatalogKind.SQLITE, ProgressListener.NONE, true, true, 0);
            failure = null;
        } catch (Throwable t) {
            failure = t;
        } finally {
            Thread.interrupted();
        }

        assertThat(failure).isInstanceOf(FdlException.class);
        assertThat(Files.readString(target)).isEqualTo("previous");
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("src.duckdb", "target.sqlite");
    }

    @Test
    void aTargetInsideAFileFailsCleanly() throws Exception {
        Path source = catalog();
        Files.writeString(dir.resolve("plain"), "x");
        Path target = dir.resolve("plain").resolve("c.sqlite");

        assertThatThrownBy(() -> CatalogConverter.convert(source, target, CatalogKind.SQLITE, ProgressListener.NONE, true, true, 0))
                .isInstanceOf(FdlException.class);
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("plain", "src.duckdb");
    }

    // ------------------------------------------------------------------ helpers

    /** A DuckDB catalog {@code src.duckdb} with {@code statements} run on it (attached and in use). */
    private Path catalog(String... statements) throws Exception {
        Path source = dir.resolve("src.duckdb");
        Catalogs.create(source, CatalogKind.DUCKDB, "/data/");
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, source, "cat", false);
            Sql.exec(c, "USE cat");
            for (String sql : statements) {
                Sql.exec(c, sql);
            }
        }
        return source;
    }

    /**
     * Converts {@code source} directly and through SQLite's inserts; checks the direct file is
     * sound and equal to the inserted one; converts both back to DuckDB and compares (with the
     * source too when {@code sameTypesBack}); then has SQLite write to the direct file and
     * checks it again.
     *
     * @return the directly written file (before SQLite wrote to it: a copy is changed)
     */
    private Path checkAll(Path source, int pageSize, boolean sameTypesBack) throws Exception {
        Path direct = toSqlite(source, "direct.sqlite", true, pageSize);
        Path inserted = toSqlite(source, "inserted.sqlite", false, pageSize);

        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
        assertThat(SqliteFiles.dump(direct)).isEqualTo(SqliteFiles.dump(inserted));

        Path back = dir.resolve("back.duckdb");
        Path insertedBack = dir.resolve("inserted-back.duckdb");
        CatalogConverter.convert(direct, back, CatalogKind.DUCKDB, ProgressListener.NONE);
        CatalogConverter.convert(inserted, insertedBack, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(CatalogCompare.differences(back, insertedBack)).isEmpty();
        if (sameTypesBack) {
            assertThat(CatalogCompare.differences(source, back)).isEmpty();
        }

        Path changed = dir.resolve("changed.sqlite");
        Files.copy(direct, changed);
        keepWriting(changed);
        assertThat(SqliteFiles.integrity(changed)).isEqualTo("ok");
        Files.delete(changed);
        return direct;
    }

    /** Inserts, updates and deletes in every table, then VACUUM. */
    private static void keepWriting(Path sqlite) throws Exception {
        try (Connection c = Sql.sqlite(sqlite, false); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            for (String table : tables) {
                String t = SqlQuote.ident(table);
                List<String> columns = new ArrayList<>();
                boolean keyed = false;
                try (ResultSet r = s.executeQuery("PRAGMA table_info(" + t + ")")) {
                    while (r.next()) {
                        columns.add(SqlQuote.ident(r.getString("name")));
                        keyed |= r.getInt("pk") > 0;
                    }
                }
                String first = columns.get(0);
                // the first half of the rows (by rowid) goes; the rest is rewritten once, doubled where a key allows
                s.execute("DELETE FROM " + t + " WHERE rowid % 2 = 0");
                s.execute("UPDATE " + t + " SET " + columns.get(columns.size() - 1) + " = NULL WHERE rowid % 3 = 0");
                if (!keyed) {
                    s.execute("INSERT INTO " + t + " SELECT * FROM " + t + " WHERE rowid % 5 = 1");
                } else if (table.equals("ducklake_probe_bool")) {
                    s.execute("INSERT OR REPLACE INTO " + t + " VALUES (0, 'again')");
                } else {
                    s.execute("INSERT OR IGNORE INTO " + t + " SELECT " + first + " + 1" + (columns.size() > 1 ? ", " : "")
                            + String.join(", ", columns.subList(1, columns.size())) + " FROM " + t + " WHERE rowid % 5 = 1");
                }
            }
        }
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "VACUUM");
        }
    }

    private Path toSqlite(Path source, String name, boolean direct, int pageSize) {
        Path target = dir.resolve(name);
        CatalogConverter.convert(source, target, CatalogKind.SQLITE, ProgressListener.NONE, true, direct, pageSize);
        return target;
    }

}
