package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the rows of SQLite tables straight from the database file's table b-trees and renders
 * each as the CSV line {@link RowHandover} hands to DuckDB, without SQLite rendering them
 * (SQLite's {@code json_array} plus JDBC cost more than DuckDB loading the lines). The rules are
 * those of the SQLite file format (https://www.sqlite.org/fileformat2.html): the 100-byte
 * header (page size at offset 16, reserved bytes per page at 20, read/write versions at 18/19,
 * text encoding at 56), table b-tree pages (interior 0x05, leaf 0x0D), varints, overflow chains
 * (local payload sizes X, M, K) and records (serial types 0–9, 12+ blobs, 13+ text).
 *
 * <p>The line of a row is what {@link RowHandover} makes of SQLite's {@code json_array} of it,
 * byte for byte: an integer (also in a VARCHAR column) as its decimal digits, NULL as
 * {@code null}, text as {@code "} + its UTF-8 bytes with {@code "} doubled + {@code "}. A row
 * this reader does not render exactly that way (a REAL in a VARCHAR column, text that is
 * not valid UTF-8, a missing field whose column has a non-NULL default, a line that may be
 * longer than {@link RowHandover#MAX_LINE_BYTES}, a record it cannot make sense of) is handed back
 * by rowid for SQLite to render ({@link RowSink#fallback}); a BIGINT column holding anything but
 * an integer or NULL, or another column holding a BLOB, throws {@link
 * RowHandover.WrongStorageClass}, as scanning SQLite's rendering does.
 *
 * <p>The caller holds a read transaction on the file while reading (so no writer changes it) and
 * reads only files whose header says rollback journal (not WAL: then the file alone is not the
 * database) and UTF-8 ({@link #open} refuses the rest with {@link Unsupported}). Heap use is a
 * few pages per scan plus the longest row read, whatever the file's size.
 */
final class SqlitePages implements AutoCloseable {
    /** Rows whose payload is longer than this (bytes) are left to SQLite: their line would go to the overflow file anyway. */
    static final long MAX_PAYLOAD = 2L * RowHandover.MAX_LINE_BYTES + 65_536;

    private static final int MAX_DEPTH = 64;
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern WITHOUT_ROWID = Pattern.compile("(?is).*\\)\\s*WITHOUT\\s+ROWID.*");

    /** The file cannot be read here (encoding, journal mode, header): SQLite renders its rows instead. */
    static final class Unsupported extends IOException {
        Unsupported(String message) {
            super(message);
        }
    }

    /** The file's structure is not what the format says (page number, page type, cell bounds, key order). */
    static final class Corrupt extends IOException {
        Corrupt(long page, String what) {
            super("page " + page + ": " + what);
        }
    }

    /** Receives the rows of a scan, in rowid order. */
    interface RowSink {
        /** A row rendered as one CSV line, {@code line[0..length)}, without its newline. */
        void line(byte[] line, int length) throws IOException, SQLException, InterruptedException;

        /** A row this reader leaves to SQLite to render. */
        void fallback(long rowid) throws IOException, SQLException, InterruptedException;
    }

    /**
     * How one table is stored: its b-tree's root page, its columns in record order, which one
     * (if any) is the rowid alias (INTEGER PRIMARY KEY: the record holds NULL there), which are
     * BIGINT, and which have a NULL default (a record written before ALTER TABLE ADD COLUMN lacks
     * the field; the value is then the column's default).
     */
    record Layout(String table, long rootPage, int alias, boolean[] bigint, boolean[] nullDefault) {
        Layout {
            if (rootPage < 1 || bigint.length != nullDefault.length) {
                throw new IllegalArgumentException("bad layout of table " + table);
            }
        }
    }

    private final Path file;
    private final FileChannel channel;
    private final int pageSize;
    private final int usable;
    private final long pageCount;

    private SqlitePages(Path file, FileChannel channel, int pageSize, int usable, long pageCount) {
        this.file = file;
        this.channel = channel;
        this.pageSize = pageSize;
        this.usable = usable;
        this.pageCount = pageCount;
    }

    /**
     * Opens {@code file} for reading pages, after checking its header. Call it while holding a
     * read transaction on the file (the header changes with every write).
     *
     * @throws Unsupported if the file is not a UTF-8, rollback-journal SQLite database of a
     *     layout this reader knows (then SQLite renders the rows)
     * @throws IOException if the file cannot be read
     */
    static SqlitePages open(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            ByteBuffer h = ByteBuffer.allocate(100);
            while (h.hasRemaining() && channel.read(h, h.position()) > 0) {
                // read the whole header
            }
            byte[] b = h.array();
            if (h.hasRemaining()) {
                throw new Unsupported("shorter than a SQLite header");
            }
            for (int i = 0; i < MAGIC.length; i++) {
                if (b[i] != MAGIC[i]) {
                    throw new Unsupported("not a SQLite 3 file");
                }
            }
            int pageSize = u16(b, 16) == 1 ? 65_536 : u16(b, 16);
            if (pageSize < 512 || pageSize > 65_536 || Integer.bitCount(pageSize) != 1) {
                throw new Unsupported("page size " + pageSize);
            }
            if (b[18] != 1 || b[19] != 1) {
                throw new Unsupported("not in rollback-journal mode (WAL: the file alone is not the database)");
            }
            int usable = pageSize - (b[20] & 0xff);
            if (usable < 480 || b[21] != 64 || b[22] != 32 || b[23] != 32) {
                throw new Unsupported("unexpected header values");
            }
            if (u32(b, 56) != 1) {
                throw new Unsupported("text encoding is not UTF-8");
            }
            long fileSize = channel.size();
            long pages = u32(b, 28);
            if (pages == 0 || u32(b, 24) != u32(b, 92)) {
                pages = fileSize / pageSize; // the header's size is stale: the file's size is the database's
            } else if (pages * pageSize > fileSize) {
                throw new Unsupported("shorter than its header says (truncated?)");
            }
            return new SqlitePages(file, channel, pageSize, usable, pages);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The layouts of those of {@code tables} this reader can read (each a table with a rowid,
     * no hidden or generated columns, and the columns given in record order); the others are
     * left out, for SQLite to render. Reads {@code sqlite_schema} and {@code table_xinfo} through
     * {@code lite} (the connection holding the read transaction).
     */
    static Map<String, Layout> layouts(Connection lite, Map<String, List<CopyColumn>> tables) throws SQLException {
        Map<String, long[]> roots = new HashMap<>();
        Map<String, String> sqls = new HashMap<>();
        try (Statement s = lite.createStatement();
             ResultSet r = s.executeQuery("SELECT name, rootpage, sql FROM sqlite_schema WHERE type = 'table'")) {
            while (r.next()) {
                roots.put(r.getString(1), new long[] {r.getLong(2)});
                sqls.put(r.getString(1), r.getString(3));
            }
        }
        Map<String, Layout> layouts = new HashMap<>();
        for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
            String table = e.getKey();
            List<CopyColumn> columns = e.getValue();
            long[] root = roots.get(table);
            String sql = sqls.get(table);
            if (root == null || root[0] < 1 || sql == null || WITHOUT_ROWID.matcher(sql).matches()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            List<Boolean> nullDefaults = new ArrayList<>();
            int pkColumns = 0;
            int pk = -1;
            boolean hidden = false;
            try (Statement s = lite.createStatement();
                 ResultSet r = s.executeQuery("PRAGMA table_xinfo(" + SqlQuote.ident(table) + ")")) {
                while (r.next()) {
                    names.add(r.getString("name"));
                    types.add(r.getString("type"));
                    String dflt = r.getString("dflt_value");
                    nullDefaults.add(dflt == null || dflt.equalsIgnoreCase("NULL"));
                    if (r.getInt("pk") > 0) {
                        pkColumns++;
                        pk = names.size() - 1;
                    }
                    hidden |= r.getInt("hidden") != 0;
                }
            }
            if (hidden || names.size() != columns.size() || types.stream().anyMatch(SqlitePages::realAffinity)) {
                // (REAL affinity: SQLite stores 5.0 as the integer 5 on disk and reads it back as 5.0)
                continue;
            }
            boolean same = true;
            boolean[] bigint = new boolean[columns.size()];
            boolean[] nullDefault = new boolean[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                same &= names.get(i).equals(columns.get(i).name());
                bigint[i] = columns.get(i).sqliteType().equals("BIGINT");
                nullDefault[i] = nullDefaults.get(i);
            }
            int alias = -1;
            if (pkColumns == 1 && "INTEGER".equalsIgnoreCase(types.get(pk))) {
                if (hasPrimaryKeyIndex(lite, table)) {
                    // "INTEGER PRIMARY KEY DESC" (however written: comments, line breaks) is not an
                    // alias of the rowid: SQLite keeps it in an index of its own; not worth telling apart
                    continue;
                }
                alias = pk;
            }
            if (same) {
                layouts.put(table, new Layout(table, root[0], alias, bigint, nullDefault));
            }
        }
        return layouts;
    }

    /**
     * Whether {@code table} has an index made for its PRIMARY KEY ({@code origin} {@code pk} in
     * {@code PRAGMA index_list}): a table whose single INTEGER PRIMARY KEY column has one does not
     * alias the rowid with it (https://www.sqlite.org/lang_createtable.html#rowid).
     */
    private static boolean hasPrimaryKeyIndex(Connection lite, String table) throws SQLException {
        try (Statement s = lite.createStatement();
             ResultSet r = s.executeQuery("PRAGMA index_list(" + SqlQuote.ident(table) + ")")) {
            while (r.next()) {
                if ("pk".equals(r.getString("origin"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether SQLite gives a column of this declared type REAL affinity (rule 4 of
     * https://www.sqlite.org/datatype3.html#determination_of_column_affinity: "REAL", "FLOA" or
     * "DOUB", after none of "INT", "CHAR", "CLOB", "TEXT", "BLOB").
     */
    static boolean realAffinity(String declared) {
        String t = declared == null ? "" : declared.toUpperCase(java.util.Locale.ROOT);
        return (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB"))
                && !t.contains("INT") && !t.contains("CHAR") && !t.contains("CLOB") && !t.contains("TEXT") && !t.contains("BLOB");
    }

    /** The database file. */
    Path file() {
        return file;
    }

    /**
     * Renders the rows of {@code layout}'s table with rowids in {@code [fromRowid, toRowid]}, in
     * rowid order, to {@code sink}; subtrees outside the range are not read.
     *
     * @throws Corrupt if a page is not what the format says (nothing about the rows already given
     *     to the sink is wrong, but the scan cannot go on)
     * @throws RowHandover.WrongStorageClass if a BIGINT column holds something else than an integer
     *     or NULL, or another column a BLOB
     */
    void scan(Layout layout, long fromRowid, long toRowid, RowSink sink)
            throws IOException, SQLException, InterruptedException {
        new Scan(layout, fromRowid, toRowid, sink).visit(layout.rootPage(), 0);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** One scan's state and buffers (one thread). */
    private final class Scan {
        private final Layout layout;
        private final long from;
        private final long to;
        private final RowSink sink;
        private final byte[][] pages = new byte[MAX_DEPTH][];
        private byte[] overflowPage;
        private byte[] payload = new byte[0];
        private byte[] line = new byte[4096];
        private int n;
        private long lastRowid = Long.MIN_VALUE;
        private boolean anyRow;

        Scan(Layout layout, long from, long to, RowSink sink) {
            this.layout = layout;
            this.from = from;
            this.to = to;
            this.sink = sink;
        }

        private void visit(long page, int depth) throws IOException, SQLException, InterruptedException {
            if (depth >= MAX_DEPTH) {
                throw new Corrupt(page, "b-tree deeper than " + MAX_DEPTH + " levels (a loop?)");
            }
            if (pages[depth] == null) {
                pages[depth] = new byte[pageSize];
            }
            byte[] b = pages[depth];
            read(page, b);
            int h = page == 1 ? 100 : 0;
            int type = b[h] & 0xff;
            int cells = u16(b, h + 3);
            if (type == 0x05) {
                int pointers = h + 12;
                if (pointers + 2 * cells > usable) {
                    throw new Corrupt(page, "cell count " + cells + " does not fit the page");
                }
                long previous = Long.MIN_VALUE;
                for (int i = 0; i < cells; i++) {
                    int cell = cellOffset(b, page, pointers + 2 * i, pointers + 2 * cells, 5);
                    long child = u32(b, cell);
                    long key = varint(b, cell + 4, usable, page);
                    if (i > 0 && key <= previous) {
                        throw new Corrupt(page, "interior keys out of order");
                    }
                    previous = key;
                    if (key >= from) {
                        visit(child, depth + 1); // holds the rowids up to key
                    }
                    if (key >= to) {
                        return; // the rest holds rowids above key
                    }
                }
                visit(u32(b, h + 8), depth + 1);
            } else if (type == 0x0D) {
                int pointers = h + 8;
                if (pointers + 2 * cells > usable) {
                    throw new Corrupt(page, "cell count " + cells + " does not fit the page");
                }
                for (int i = 0; i < cells; i++) {
                    int cell = cellOffset(b, page, pointers + 2 * i, pointers + 2 * cells, 2);
                    long size = varint(b, cell, usable, page);
                    if (size < 0) {
                        throw new Corrupt(page, "negative payload size");
                    }
                    int at = pos;
                    long rowid = varint(b, at, usable, page);
                    at = pos;
                    if (anyRow && rowid <= lastRowid) {
                        throw new Corrupt(page, "rowids out of order");
                    }
                    anyRow = true;
                    lastRowid = rowid;
                    if (rowid < from) {
                        continue;
                    }
                    if (rowid > to) {
                        return;
                    }
                    row(b, page, at, size, rowid);
                }
            } else if (depth == 0) {
                throw new Corrupt(page, "the root of table " + layout.table() + " is not a table b-tree page (type " + type + ")");
            } else {
                throw new Corrupt(page, "not a table b-tree page (type " + type + ")");
            }
        }

        private int cellOffset(byte[] b, long page, int pointer, int contentStart, int minimum) throws Corrupt {
            int cell = u16(b, pointer);
            if (cell < contentStart || cell + minimum > usable) {
                throw new Corrupt(page, "cell offset " + cell + " outside the page's content area");
            }
            return cell;
        }

        /** One leaf cell: its payload of {@code size} bytes starts at {@code at} in {@code b}. */
        private void row(byte[] b, long page, int at, long size, long rowid) throws IOException, SQLException, InterruptedException {
            int maxLocal = usable - 35;
            if (size <= maxLocal) {
                if (at + size > usable) {
                    throw new Corrupt(page, "cell of rowid " + rowid + " runs past the page");
                }
                render(b, at, (int) size, rowid);
                return;
            }
            int minLocal = (usable - 12) * 32 / 255 - 23;
            long k = minLocal + (size - minLocal) % (usable - 4);
            int local = (int) (k <= maxLocal ? k : minLocal);
            if (at + local + 4 > usable) {
                throw new Corrupt(page, "cell of rowid " + rowid + " runs past the page");
            }
            if (size > MAX_PAYLOAD) {
                sink.fallback(rowid);
                return;
            }
            if (payload.length < size) {
                payload = new byte[(int) Math.max(size, Math.min(2L * payload.length, MAX_PAYLOAD))];
            }
            System.arraycopy(b, at, payload, 0, local);
            int filled = local;
            long next = u32(b, at + local);
            if (overflowPage == null) {
                overflowPage = new byte[pageSize];
            }
            long chain = 0;
            while (filled < size) {
                if (next == 0 || ++chain > pageCount) {
                    throw new Corrupt(page, "overflow chain of rowid " + rowid + " ends early");
                }
                read(next, overflowPage);
                int take = (int) Math.min(usable - 4, size - filled);
                System.arraycopy(overflowPage, 4, payload, filled, take);
                filled += take;
                next = u32(overflowPage, 0);
            }
            render(payload, 0, (int) size, rowid);
            if (payload.length > (1 << 20)) {
                payload = new byte[0]; // a rare long row does not keep its buffer
            }
        }

        /** Renders the record {@code p[off..off+len)} as a CSV line, or hands the row back. */
        private void render(byte[] p, int off, int len, long rowid) throws IOException, SQLException, InterruptedException {
            int end = off + len;
            long headerSize = varintIn(p, off, end);
            if (headerSize < 0 || headerSize > len || headerSize < pos - off) {
                sink.fallback(rowid);
                return;
            }
            int hp = pos;
            int hEnd = off + (int) headerSize;
            int body = hEnd;
            boolean[] bigint = layout.bigint();
            int columns = bigint.length;
            n = 0;
            long jsonExtra = 0; // bytes SQLite's JSON adds over the CSV line (upper bound)
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    put((byte) ',');
                }
                if (hp >= hEnd) { // a record older than ALTER TABLE ADD COLUMN
                    if (!layout.nullDefault()[c] || c == layout.alias()) {
                        sink.fallback(rowid);
                        return;
                    }
                    putNull();
                    continue;
                }
                long type = varintIn(p, hp, hEnd);
                if (type < 0) {
                    sink.fallback(rowid);
                    return;
                }
                hp = pos;
                if (type == 0) {
                    if (c == layout.alias()) {
                        digits(rowid);
                    } else {
                        putNull();
                    }
                } else if (type <= 6 || type == 8 || type == 9) {
                    int bytes = type <= 4 ? (int) type : type == 5 ? 6 : type == 6 ? 8 : 0;
                    if (body + bytes > end || c == layout.alias()) {
                        sink.fallback(rowid);
                        return;
                    }
                    long v = type == 8 ? 0 : type == 9 ? 1 : p[body]; // sign-extended first byte
                    for (int i = 1; i < bytes; i++) {
                        v = (v << 8) | (p[body + i] & 0xff);
                    }
                    body += bytes;
                    digits(v);
                } else if (bigint[c]) {
                    throw new RowHandover.WrongStorageClass(c); // a REAL, BLOB or TEXT in a BIGINT column
                } else if (type >= 13 && (type & 1) == 1) {
                    long bytes = (type - 13) / 2;
                    if (body + bytes > end) {
                        sink.fallback(rowid);
                        return;
                    }
                    int from = body;
                    int until = body + (int) bytes;
                    body = until;
                    ensure(2 * (until - from) + 2);
                    byte[] l = line;
                    int k = n;
                    l[k++] = '"';
                    int controls = 0;
                    int backslashes = 0;
                    boolean high = false;
                    for (int i = from; i < until; i++) {
                        byte x = p[i];
                        if (x == '"') {
                            l[k++] = '"';
                        } else if (x < 0x20) {
                            if (x < 0) {
                                high = true;
                            } else {
                                controls++;
                            }
                        } else if (x == '\\') {
                            backslashes++;
                        }
                        l[k++] = x;
                    }
                    l[k++] = '"';
                    n = k;
                    if (high && !utf8(p, from, until)) {
                        sink.fallback(rowid); // SQLite's rendering decides what becomes of it
                        return;
                    }
                    jsonExtra += 5L * controls + backslashes; // \u0001 for one byte, \\ for one
                } else if (type >= 12) {
                    // a BLOB where text belongs (SQLite's json_array would read it as JSONB: X'00' as null)
                    throw new RowHandover.WrongStorageClass(c);
                } else {
                    sink.fallback(rowid); // a REAL in a VARCHAR column, or a reserved type
                    return;
                }
            }
            if (hp < hEnd || body > end) {
                sink.fallback(rowid); // more fields than columns
                return;
            }
            if (n + jsonExtra > RowHandover.MAX_LINE_BYTES) {
                sink.fallback(rowid); // SQLite's JSON may be too long for a line: the overflow file decides
                return;
            }
            sink.line(line, n);
        }

        private void putNull() {
            ensure(4);
            System.arraycopy(NULL, 0, line, n, 4);
            n += 4;
        }

        private void put(byte x) {
            ensure(1);
            line[n++] = x;
        }

        private void digits(long v) {
            ensure(20);
            if (v == Long.MIN_VALUE) {
                byte[] min = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(min, 0, line, n, min.length);
                n += min.length;
                return;
            }
            if (v < 0) {
                line[n++] = '-';
                v = -v;
            }
            int start = n;
            do {
                line[n++] = (byte) ('0' + v % 10);
                v /= 10;
            } while (v != 0);
            for (int i = start, j = n - 1; i < j; i++, j--) {
                byte t = line[i];
                line[i] = line[j];
                line[j] = t;
            }
        }

        private void ensure(int more) {
            if (n + more > line.length) {
                byte[] bigger = new byte[Math.max(n + more, 2 * line.length)];
                System.arraycopy(line, 0, bigger, 0, n);
                line = bigger;
            }
        }

        private void read(long page, byte[] into) throws IOException {
            if (page < 1 || page > pageCount) {
                throw new Corrupt(page, "page number out of range 1.." + pageCount + " (table " + layout.table() + ")");
            }
            ByteBuffer buffer = ByteBuffer.wrap(into, 0, pageSize);
            long position = (page - 1) * pageSize;
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    throw new Corrupt(page, "past the end of the file");
                }
            }
        }

        /** The position after the last varint read. */
        private int pos;

        /** A varint at {@code at} within a page ({@code limit}: usable size), or Corrupt. */
        private long varint(byte[] b, int at, int limit, long page) throws Corrupt {
            long v = varintIn(b, at, limit);
            if (v == -1 && pos < 0) {
                throw new Corrupt(page, "varint runs past the page");
            }
            return v;
        }

        /**
         * A varint at {@code at} ending before {@code limit}; sets {@link #pos} after it. Returns
         * -1 with pos = -1 if it runs past the limit (a negative 9-byte varint is returned as is:
         * callers that cannot take negatives treat -1 as bad).
         */
        private long varintIn(byte[] b, int at, int limit) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                if (at + i >= limit) {
                    pos = -1;
                    return -1;
                }
                int x = b[at + i] & 0xff;
                v = (v << 7) | (x & 0x7f);
                if (x < 0x80) {
                    pos = at + i + 1;
                    return v;
                }
            }
            if (at + 8 >= limit) {
                pos = -1;
                return -1;
            }
            pos = at + 9;
            return (v << 8) | (b[at + 8] & 0xff);
        }
    }

    /** Whether {@code b[from..until)} is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
    static boolean utf8(byte[] b, int from, int until) {
        int i = from;
        while (i < until) {
            int x = b[i] & 0xff;
            if (x < 0x80) {
                i++;
                continue;
            }
            int more;
            int lo = 0x80;
            int hi = 0xBF;
            if (x >= 0xC2 && x <= 0xDF) {
                more = 1;
            } else if (x >= 0xE0 && x <= 0xEF) {
                more = 2;
                lo = x == 0xE0 ? 0xA0 : 0x80;
                hi = x == 0xED ? 0x9F : 0xBF;
            } else if (x >= 0xF0 && x <= 0xF4) {
                more = 3;
                lo = x == 0xF0 ? 0x90 : 0x80;
                hi = x == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
            if (i + more >= until) {
                return false;
            }
            int second = b[i + 1] & 0xff;
            if (second < lo || second > hi) {
                return false;
            }
            for (int j = 2; j <= more; j++) {
                int y = b[i + j] & 0xff;
                if (y < 0x80 || y > 0xBF) {
                    return false;
                }
            }
            i += more + 1;
        }
        return true;
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
    }

    private static long u32(byte[] b, int at) {
        return ((long) (b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }
}
