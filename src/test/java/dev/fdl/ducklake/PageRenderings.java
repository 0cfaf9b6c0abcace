package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lines a SQLite table's rows become on their way to DuckDB, rendered by SQLite
 * ({@code json_array} through JDBC, the reference) and by {@link SqlitePages}, for tests that
 * compare the two byte for byte. A row bound for the overflow file is written as
 * {@code OVERFLOW <json>}.
 */
final class PageRenderings {
    private PageRenderings() {}

    /** The lines of the page reader, and how many rows it left to SQLite. */
    record Read(byte[] lines, int fallbacks) {}

    /** The columns of {@code table} as conversion types them (the DuckDB type of each SQLite declaration). */
    static List<CopyColumn> columns(Path sqlite, String table) throws SQLException {
        List<CopyColumn> columns = new ArrayList<>();
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("PRAGMA table_info(" + SqlQuote.ident(table) + ")")) {
            while (r.next()) {
                String type = DuckLakeSchema.duckTypeOfSqlite(r.getString("type"));
                columns.add(new CopyColumn(r.getString("name"), type, type, false, false));
            }
        }
        return columns;
    }

    static boolean[] bigint(List<CopyColumn> columns) {
        boolean[] mask = new boolean[columns.size()];
        for (int i = 0; i < mask.length; i++) {
            mask[i] = columns.get(i).sqliteType().equals("BIGINT");
        }
        return mask;
    }

    /** What the handover writes for one SQLite rendering: the line, or the JSON bound for the overflow file. */
    static void sqliteLine(ByteArrayOutputStream out, byte[] json, boolean[] bigint) throws IOException {
        boolean escaped = RowHandover.scan(json, bigint);
        if (!RowHandover.writeLine(out, json, escaped)) {
            out.write("OVERFLOW ".getBytes(StandardCharsets.US_ASCII));
            out.write(json);
            out.write('\n');
        }
    }

    /** The lines of rowids {@code [from, to]} as SQLite's rendering gives them (the reference). */
    static byte[] viaSqlite(Path sqlite, String table, long from, long to) throws Exception {
        List<CopyColumn> columns = columns(sqlite, table);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Connection c = Sql.sqlite(sqlite, true);
             PreparedStatement ps = c.prepareStatement(RowHandover.jsonSelect(table, columns) + " WHERE rowid BETWEEN ? AND ? ORDER BY rowid")) {
            ps.setLong(1, from);
            ps.setLong(2, to);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    sqliteLine(out, r.getBytes(1), bigint(columns));
                }
            }
        }
        return out.toByteArray();
    }

    /** The lines of rowids {@code [from, to]} as the page reader gives them; null if it leaves the table to SQLite. */
    static Read viaPages(Path sqlite, String table, long from, long to) throws Exception {
        List<CopyColumn> columns = columns(sqlite, table);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] fallbacks = new int[1];
        try (Connection c = Sql.sqlite(sqlite, true);
             PreparedStatement one = c.prepareStatement(RowHandover.jsonSelect(table, columns) + " WHERE rowid = ?")) {
            SqlitePages.Layout layout = SqlitePages.layouts(c, Map.of(table, columns)).get(table);
            if (layout == null) {
                return null;
            }
            try (SqlitePages pages = SqlitePages.open(sqlite)) {
                pages.scan(layout, from, to, new SqlitePages.RowSink() {
                    @Override
                    public void line(byte[] line, int length) {
                        out.write(line, 0, length);
                        out.write('\n');
                    }

                    @Override
                    public void fallback(long rowid) throws IOException, SQLException {
                        fallbacks[0]++;
                        one.setLong(1, rowid);
                        try (ResultSet r = one.executeQuery()) {
                            assertThat(r.next()).isTrue();
                            sqliteLine(out, r.getBytes(1), bigint(columns));
                        }
                    }
                });
            }
        }
        return new Read(out.toByteArray(), fallbacks[0]);
    }

    /**
     * Asserts both renderings of {@code [from, to]} are equal byte for byte.
     *
     * @return the rows the page reader left to SQLite; -1 if it left it the whole table
     */
    static int assertSameLines(Path sqlite, String table, long from, long to) throws Exception {
        byte[] expected = viaSqlite(sqlite, table, from, to);
        Read read = viaPages(sqlite, table, from, to);
        if (read == null) {
            return -1;
        }
        assertThat(new String(read.lines(), StandardCharsets.UTF_8)).as("%s rows %d..%d", table, from, to)
                .isEqualTo(new String(expected, StandardCharsets.UTF_8));
        assertThat(read.lines()).isEqualTo(expected);
        return read.fallbacks();
    }

    /** {@link #assertSameLines(Path, String, long, long)} over every rowid. */
    static int assertSameLines(Path sqlite, String table) throws Exception {
        return assertSameLines(sqlite, table, Long.MIN_VALUE, Long.MAX_VALUE);
    }
}
