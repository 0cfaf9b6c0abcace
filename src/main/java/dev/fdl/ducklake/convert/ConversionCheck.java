package dev.fdl.ducklake.convert;

import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.fdl.ducklake.engine.Sql;

/**
 * The run-time check of every catalog conversion, made before the converted catalog
 * replaces anything: each database is asked, in SQL, for every table's row count and for the
 * rows that name files ({@code ducklake_data_file}, {@code ducklake_delete_file}: ids, table,
 * snapshot range, path); the counts must be equal and the file rows must form the same multiset,
 * compared by an order-independent digest. A dropped or altered file row would later let gc
 * delete a live file, so a difference fails the conversion naming the table; it is a bug to
 * report, never a reason to try another way.
 */
final class ConversionCheck {
    /**
     * The columns of the file tables that are compared, as SQL valid in both databases (the
     * boolean as 0/1), each an integer or text.
     */
    private static final List<FileTable> FILE_TABLES = List.of(
            new FileTable("ducklake_data_file", List.of("data_file_id", "table_id", "begin_snapshot", "end_snapshot", "path",
                    "CAST(path_is_relative AS BIGINT)"), new boolean[] {false, false, false, false, true, false}),
            new FileTable("ducklake_delete_file", List.of("delete_file_id", "table_id", "begin_snapshot", "end_snapshot", "data_file_id", "path",
                    "CAST(path_is_relative AS BIGINT)"), new boolean[] {false, false, false, false, false, true, false}));

    private record FileTable(String name, List<String> columns, boolean[] text) {
        /**
         * The query of these columns on {@code side}: text as its UTF-8 bytes, which both databases
         * hand over without a Java String ({@code encode} in DuckDB; SQLite gives a TEXT value's
         * bytes as they are stored).
         */
        String select(CheckedCatalog side) {
            StringBuilder b = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                String c = columns.get(i);
                b.append(i > 0 ? ", " : "").append(text[i] && !side.sqlite() ? "encode(" + c + ")" : c);
            }
            return b.append(" FROM ").append(side.qualifier()).append(name).toString();
        }
    }

    /**
     * One side of a conversion: a connection, the qualifier its tables are named with
     * ({@code ""} or {@code "cat.main."}), and how messages name it.
     */
    record CheckedCatalog(Connection connection, String qualifier, String name) {
        /** Whether this side is a SQLite database (sqlite-jdbc), else DuckDB. */
        boolean sqlite() {
            return connection instanceof org.sqlite.SQLiteConnection;
        }
    }

    private ConversionCheck() {}

    /**
     * Every table's row count in one database, taken before the conversion writes anything (the
     * source is read in one transaction, so it is the state that is copied); the largest chooses
     * the target's block size ({@link dev.fdl.ducklake.engine.DuckDbStorage#forCatalog}).
     *
     * @param rows row count by table name, in the order given
     */
    record RowCounts(Map<String, Long> rows) {
        /** The row count of the largest table (0 for none). */
        long largest() {
            return rows.values().stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    /**
     * Counts the rows of every table of {@code tables} in {@code side}.
     *
     * @throws SQLException naming the table that cannot be counted
     */
    static RowCounts count(CheckedCatalog side, Collection<String> tables) throws SQLException {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : tables) {
            rows.put(table, count(side, table));
        }
        return new RowCounts(rows);
    }

    /**
     * Compares {@code target} with {@code source} over {@code tables} (every table of the
     * source): the same row count in each, and the same file rows.
     *
     * @throws SQLException naming the first table that differs and both sides' numbers
     */
    static void compare(CheckedCatalog source, CheckedCatalog target, Collection<String> tables) throws SQLException {
        compare(source, count(source, tables), target);
    }

    /**
     * Compares {@code target} with {@code source} over every table {@code sourceRows} counted in
     * it ({@link #count} of {@code source}): the same row count in each, and the same file rows.
     *
     * @throws SQLException naming the first table that differs and both sides' numbers
     */
    static void compare(CheckedCatalog source, RowCounts sourceRows, CheckedCatalog target) throws SQLException {
        for (Map.Entry<String, Long> e : sourceRows.rows().entrySet()) {
            String table = e.getKey();
            long expected = e.getValue();
            long actual = count(target, table);
            if (expected != actual) {
                throw new SQLException("check after conversion failed: table " + table + " has " + expected + " rows in "
                        + source.name() + " but " + actual + " in " + target.name() + " (a bug: please report it)");
            }
        }
        for (FileTable f : FILE_TABLES) {
            if (!sourceRows.rows().containsKey(f.name())) {
                continue;
            }
            Digest expected = digest(source, f);
            Digest actual = digest(target, f);
            if (!expected.equals(actual)) {
                throw new SQLException("check after conversion failed: table " + f.name() + " names other files or snapshot ranges in "
                        + target.name() + " than in " + source.name() + " (digest " + actual + ", expected " + expected
                        + "; a bug: please report it)");
            }
        }
    }

    /**
     * SQLite's {@code PRAGMA quick_check} of the database {@code lite} is connected to
     * (https://www.sqlite.org/pragma.html#pragma_quick_check): page structure, record formats,
     * NOT NULL constraints.
     *
     * @throws SQLException with SQLite's findings if it reports anything but {@code ok}
     */
    static void quickCheck(Connection lite) throws SQLException {
        StringBuilder findings = new StringBuilder();
        try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery("PRAGMA quick_check")) {
            while (r.next()) {
                findings.append(findings.length() > 0 ? "; " : "").append(r.getString(1));
            }
        }
        if (!"ok".equals(findings.toString())) {
            throw new SQLException("check after conversion failed: SQLite's quick_check of the SQLite catalog written reports: "
                    + findings + " (a bug: please report it)");
        }
    }

    /**
     * Lets SQLite read the file {@code lite} is connected to through a memory map (up to 1 GiB;
     * https://www.sqlite.org/mmap.html): the checks read every page once, and a mapped page costs
     * no system call or copy. The file is only read through it.
     */
    static void mapForReading(Connection lite) throws SQLException {
        Sql.exec(lite, "PRAGMA mmap_size = 1073741824");
    }

    private static long count(CheckedCatalog side, String table) throws SQLException {
        try (Statement s = side.connection().createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM " + side.qualifier() + SqlQuote.ident(table))) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new SQLException("check after conversion failed: cannot count the rows of table " + table + " in " + side.name()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * An order-independent digest of a multiset of rows: their number and two sums (mod 2^64)
     * of a 64-bit hash of each row, with different seeds.
     */
    record Digest(long rows, long sum1, long sum2) {
        @Override
        public String toString() {
            return rows + " rows/" + Long.toHexString(sum1) + Long.toHexString(sum2);
        }
    }

    private static Digest digest(CheckedCatalog side, FileTable table) throws SQLException {
        int n = table.text().length;
        long rows = 0;
        long sum1 = 0;
        long sum2 = 0;
        try (Statement s = side.connection().createStatement();
             ResultSet r = s.executeQuery(table.select(side))) {
            while (r.next()) {
                long h1 = 0x243F6A8885A308D3L;
                long h2 = 0x13198A2E03707344L;
                for (int i = 0; i < n; i++) {
                    long v;
                    if (table.text()[i]) {
                        byte[] text = r.getBytes(i + 1);
                        v = text == null ? 0x5bd1e995L : bytesHash(text);
                    } else {
                        long x = r.getLong(i + 1);
                        // NULL and 0 differ: NULL gets a value no integer's mix gives in practice
                        v = r.wasNull() ? 0x9E3779B97F4A7C15L : mix(x ^ 0x2545F4914F6CDD1DL);
                    }
                    h1 = mix(h1 ^ v) + i;
                    h2 = mix(h2 + v * 0xD6E8FEB86659FD93L) ^ i;
                }
                rows++;
                sum1 += h1;
                sum2 += h2;
            }
        }
        return new Digest(rows, sum1, sum2);
    }

    private static long bytesHash(byte[] bytes) {
        long h = 0xCBF29CE484222325L ^ bytes.length;
        for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * 0x100000001B3L;
        }
        return mix(h);
    }

    /** A 64-bit finalizer (MurmurHash3's fmix64): every input bit affects every output bit. */
    static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        x *= 0xC4CEB93FE53AA2BBL;
        x ^= x >>> 33;
        return x;
    }
}
