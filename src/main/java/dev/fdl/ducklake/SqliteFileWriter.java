package dev.fdl.ducklake;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Fills the empty tables of a SQLite database file by writing their b-tree pages directly, the
 * fast half of DuckDB → SQLite conversion. SQLite itself creates the file and its schema (so the
 * schema table, the file header and every {@code CREATE} statement are its own); this writer then
 * bulk-loads each table's rows, and the rows of its primary key's index, bottom-up: leaves are
 * filled in key order, interior pages are built above them, and the top page is written over the
 * table's (or index's) existing root page. Binding values one by one through sqlite-jdbc costs a
 * JNI call per value plus SQLite's insert machinery per row; this costs neither.
 *
 * <p>The format is SQLite's (https://www.sqlite.org/fileformat2.html): table b-tree leaf (0x0D)
 * and interior (0x05) pages, index leaf (0x0A) and interior (0x02) pages, records of serial types,
 * overflow chains for payloads over a leaf's local limit. Rows get rowids 1, 2, 3… in the order
 * given, as SQLite's own inserts would; a primary key's index entries are (key, rowid), so the
 * rows of a table with a primary key must come in ascending key order with distinct keys. The
 * file must use no auto-vacuum, have an empty freelist and UTF-8 text ({@link #open} checks).
 * Pages are appended after the file's last page, never in the lock-byte page (the one holding byte
 * 2^30, which SQLite leaves unused); the header's page count and change counter are
 * updated by {@link #finish}. Nothing is read back: callers check the result with SQLite.
 */
final class SqliteFileWriter implements Closeable {
    /** Bytes buffered before a write to the file. */
    private static final int BUFFER_BYTES = 1 << 20;

    private final Path path;
    private final FileChannel file;
    private final int pageSize;
    /** Usable bytes of a page: the page size less the bytes reserved at each page's end. */
    private final int usable;
    /** Whether integers 0 and 1 may take serial types 8 and 9 (schema format 4). */
    private final boolean constantTypes;
    /**
     * The page holding bytes 2^30.. of the file (SQLite's lock bytes, PENDING_BYTE): SQLite never
     * stores anything in it (integrity_check reports a b-tree using it), so allocation skips it.
     */
    private final int lockBytePage;
    /** The file's pages, including those allocated and not yet written. */
    private int pageCount;
    private final ByteBuffer buffer;
    /** The page number of the first page in {@link #buffer}. */
    private int bufferFirst;

    private SqliteFileWriter(Path path, FileChannel file, int pageSize, int usable, boolean constantTypes, int pageCount) {
        this.path = path;
        this.file = file;
        this.pageSize = pageSize;
        this.usable = usable;
        this.constantTypes = constantTypes;
        this.pageCount = pageCount;
        this.lockBytePage = (int) ((1L << 30) / pageSize) + 1;
        this.buffer = ByteBuffer.allocate(Math.max(pageSize, BUFFER_BYTES / pageSize * pageSize));
        this.bufferFirst = pageCount + 1;
    }

    /**
     * Opens a SQLite database file, closed by every connection, for appending pages.
     *
     * @throws IOException if it cannot be read, or it is not a database this writer can extend
     *     (auto-vacuum, a non-empty freelist, text not UTF-8, a header whose page count is stale)
     */
    static SqliteFileWriter open(Path path) throws IOException {
        FileChannel file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            ByteBuffer header = ByteBuffer.allocate(100);
            while (header.hasRemaining() && file.read(header, header.position()) > 0) {
                // read the 100-byte header
            }
            header.flip();
            if (header.limit() < 100 || !new String(header.array(), 0, 15, java.nio.charset.StandardCharsets.US_ASCII).equals("SQLite format 3")) {
                throw new IOException(path + " is not a SQLite database file");
            }
            int pageSize = header.getShort(16) & 0xFFFF;
            pageSize = pageSize == 1 ? 65_536 : pageSize;
            int reserved = header.get(20) & 0xFF;
            int changeCounter = header.getInt(24);
            int pages = header.getInt(28);
            int freelist = header.getInt(36);
            int schemaFormat = header.getInt(44);
            int autoVacuumRoot = header.getInt(52);
            int encoding = header.getInt(56);
            int validFor = header.getInt(92);
            if (validFor != changeCounter || (long) pages * pageSize != file.size()) {
                throw new IOException(path + ": the header's page count is not current");
            }
            if (freelist != 0 || autoVacuumRoot != 0 || encoding != 1) {
                throw new IOException(path + ": only a UTF-8 database without auto-vacuum and free pages can be filled directly");
            }
            return new SqliteFileWriter(path, file, pageSize, pageSize - reserved, schemaFormat >= 4, pages);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** Page size in bytes. */
    int pageSize() {
        return pageSize;
    }

    /**
     * A builder filling the empty table whose root page is {@code rootPage}, and the index of its
     * primary key whose root page is {@code indexRootPage} (0: the table has none).
     */
    TableBuilder table(int rootPage, int indexRootPage) {
        return new TableBuilder(rootPage, indexRootPage);
    }

    // ------------------------------------------------------------------ records

    /** The serial type of integer {@code v} in this file. */
    int integerType(long v) {
        return integerType(v, constantTypes);
    }

    /**
     * The serial type of integer {@code v}: the smallest that holds it; 8 and 9 for 0 and 1 when
     * {@code constantTypes} (schema format 4).
     */
    static int integerType(long v, boolean constantTypes) {
        if (constantTypes && (v == 0 || v == 1)) {
            return 8 + (int) v;
        }
        if (v >= -128 && v <= 127) {
            return 1;
        }
        if (v >= -32_768 && v <= 32_767) {
            return 2;
        }
        if (v >= -8_388_608 && v <= 8_388_607) {
            return 3;
        }
        if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            return 4;
        }
        if (v >= -140_737_488_355_328L && v <= 140_737_488_355_327L) {
            return 5;
        }
        return 6;
    }

    /** The body length in bytes of a value of serial type {@code type}. */
    static int bodyLength(long type) {
        if (type >= 12) {
            return (int) ((type - 12) >> 1);
        }
        return switch ((int) type) {
            case 1 -> 1;
            case 2 -> 2;
            case 3 -> 3;
            case 4 -> 4;
            case 5 -> 6;
            case 6, 7 -> 8;
            default -> 0;
        };
    }

    /** Writes {@code v} big-endian in {@code length} bytes at {@code at}. */
    static void putInteger(byte[] b, int at, long v, int length) {
        for (int i = length - 1; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>= 8;
        }
    }

    /** The bytes SQLite's varint of {@code v} takes (1-9). */
    static int varintLength(long v) {
        if (v < 0 || v >= 1L << 56) {
            return 9;
        }
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    /** Writes SQLite's varint of {@code v} at {@code at}; returns the bytes written. */
    static int putVarint(byte[] b, int at, long v) {
        int n = varintLength(v);
        if (n == 9) {
            b[at + 8] = (byte) v;
            v >>>= 8;
            for (int i = 7; i >= 0; i--) {
                b[at + i] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            return 9;
        }
        for (int i = n - 1; i >= 0; i--) {
            b[at + i] = (byte) ((v & 0x7F) | (i == n - 1 ? 0 : 0x80));
            v >>>= 7;
        }
        return n;
    }

    // ------------------------------------------------------------------ pages

    private byte[] newPage() {
        return new byte[pageSize];
    }

    /**
     * The most entries a level builder holds pending: one page's worth plus the two kept for the
     * next page. Every cell takes at least 6 bytes with its pointer (an index leaf cell: 2-byte
     * pointer, 1-byte length, 3-byte record header), so a page holds fewer than usable / 6.
     */
    private int pendingCapacity() {
        return usable / 6 + 3;
    }

    /** Allocates the next page number; its bytes must be given to {@link #write} before the next allocation's. */
    private int allocate() {
        pageCount = following(pageCount);
        return pageCount;
    }

    /** The page allocated after page {@code number}: the next one, but never the lock-byte page. */
    private int following(int number) {
        return number + 1 == lockBytePage ? number + 2 : number + 1;
    }

    /** Writes page {@code number}: appended pages through the buffer (they come in order), others in place. */
    private void write(int number, byte[] page) throws IOException {
        int next = bufferFirst + buffer.position() / pageSize;
        if (next == lockBytePage && number > next) {
            // the skipped lock-byte page is part of the file: zeros, as SQLite leaves it
            if (!buffer.hasRemaining()) {
                flush();
            }
            buffer.put(new byte[pageSize]);
            next++;
        }
        if (number == next) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            buffer.put(page, 0, pageSize);
            return;
        }
        if (number > next) {
            throw new IllegalStateException("page " + number + " written before page " + next);
        }
        if (number >= bufferFirst) {
            int at = (number - bufferFirst) * pageSize;
            System.arraycopy(page, 0, buffer.array(), at, pageSize);
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(page, 0, pageSize);
        long position = (long) (number - 1) * pageSize;
        while (b.hasRemaining()) {
            position += file.write(b, position);
        }
    }

    private void flush() throws IOException {
        buffer.flip();
        long position = (long) (bufferFirst - 1) * pageSize;
        int pages = buffer.remaining() / pageSize;
        while (buffer.hasRemaining()) {
            position += file.write(buffer, position);
        }
        buffer.clear();
        bufferFirst += pages;
    }

    /**
     * Writes the rest of a payload too long for its cell to a chain of overflow pages (4-byte next
     * page number, then usable size - 4 bytes of payload).
     *
     * @return the first overflow page's number
     */
    private int writeOverflow(byte[] payload, int from, int to) throws IOException {
        int chunk = usable - 4;
        int count = (to - from + chunk - 1) / chunk;
        int first = following(pageCount);
        byte[] page = newPage();
        for (int i = 0; i < count; i++) {
            int number = allocate();
            int start = from + i * chunk;
            int length = Math.min(chunk, to - start);
            Arrays.fill(page, (byte) 0);
            putInteger(page, 0, i == count - 1 ? 0 : following(number), 4);
            System.arraycopy(payload, start, page, 4, length);
            write(number, page);
        }
        return first;
    }

    /** The payload bytes a table leaf cell keeps on its page, of a payload of {@code p} bytes. */
    private int localPayload(int p, int maxLocal) {
        if (p <= maxLocal) {
            return p;
        }
        int min = (usable - 12) * 32 / 255 - 23;
        int k = min + (p - min) % (usable - 4);
        return k <= maxLocal ? k : min;
    }

    /** Writes a page header at 0: type, no freeblock, {@code cells}, content start, no fragments. */
    private void header(byte[] page, int type, int cells, int contentStart) {
        page[0] = (byte) type;
        page[1] = 0;
        page[2] = 0;
        putInteger(page, 3, cells, 2);
        putInteger(page, 5, contentStart == 65_536 ? 0 : contentStart, 2);
        page[7] = 0;
    }

    /**
     * Bulk-loads one table (and its primary key's index): rows in rowid order, each a record;
     * then {@link #finish}.
     */
    final class TableBuilder {
        private final int rootPage;
        private final int maxLocal = usable - 35;
        /** The leaf being filled. */
        private byte[] leaf = newPage();
        private int leafCells;
        private int leafTop = usable;
        private long leafMaxRowid;
        private boolean leafEmitted;
        private final TableLevel interior = new TableLevel();
        private final IndexBuilder index;
        private long rowid;

        private TableBuilder(int rootPage, int indexRootPage) {
            this.rootPage = rootPage;
            this.index = indexRootPage == 0 ? null : new IndexBuilder(indexRootPage);
        }

        /** Whether integers 0 and 1 take serial types 8 and 9 in this file's records. */
        boolean constantTypes() {
            return constantTypes;
        }

        /** The number of rows added. */
        long rows() {
            return rowid;
        }

        /**
         * Adds the next row: its record ({@code record[0..length)}), with the next rowid; and,
         * for a table with a primary key, its key (ascending, distinct).
         */
        void add(byte[] record, int length, long key) throws IOException {
            long id = ++rowid;
            int local = localPayload(length, maxLocal);
            int cellSize = varintLength(length) + varintLength(id) + local + (local < length ? 4 : 0);
            int size = Math.max(4, cellSize);
            if (8 + 2 * (leafCells + 1) + (usable - leafTop) + size > usable) {
                emitLeaf(false);
            }
            int overflow = local < length ? writeOverflow(record, local, length) : 0;
            leafTop -= size;
            int at = leafTop;
            at += putVarint(leaf, at, length);
            at += putVarint(leaf, at, id);
            System.arraycopy(record, 0, leaf, at, local);
            at += local;
            if (overflow != 0) {
                putInteger(leaf, at, overflow, 4);
            }
            putInteger(leaf, 8 + 2 * leafCells, leafTop, 2);
            leafCells++;
            leafMaxRowid = id;
            if (index != null) {
                index.add(key, id);
            }
        }

        private void emitLeaf(boolean last) throws IOException {
            header(leaf, 0x0D, leafCells, leafTop);
            Arrays.fill(leaf, 8 + 2 * leafCells, leafTop, (byte) 0);
            Arrays.fill(leaf, usable, pageSize, (byte) 0);
            if (last && !leafEmitted) {
                write(rootPage, leaf);
                return;
            }
            int number = allocate();
            write(number, leaf);
            leafEmitted = true;
            interior.add(number, leafMaxRowid);
            leafCells = 0;
            leafTop = usable;
        }

        /** Writes the table's (and index's) remaining pages, the top ones over the root pages. */
        void finish() throws IOException {
            emitLeaf(true);
            if (leafEmitted) {
                interior.finish(rootPage);
            }
            if (index != null) {
                index.finish();
            }
        }
    }

    /**
     * One level of interior table pages (0x05) above the leaves: children with the largest rowid
     * under each. A page holds its children but the last as cells (child page, key) and the last
     * as its right-most pointer; full pages are passed to the level above.
     */
    private final class TableLevel {
        private final int[] children = new int[pendingCapacity()];
        private final long[] keys = new long[pendingCapacity()];
        private int count;
        /** Bytes the pending children take as cells (pointer and cell each). */
        private int bytes;
        private boolean emitted;
        private TableLevel parent;

        void add(int child, long key) throws IOException {
            int cell = 2 + 4 + varintLength(key);
            // the page this level would end with: every pending child as a cell, the new one as
            // right-most pointer; when that does not fit, pass a page up
            if (count >= 4 && 12 + bytes > usable) {
                // keep two children for the next page, so that the last page of the level is never a lone pointer
                emit(count - 2);
            }
            children[count] = child;
            keys[count] = key;
            count++;
            bytes += cell;
        }

        /** Emits a page of the first {@code n} children (the n-th as right-most pointer), keeping the rest pending. */
        private void emit(int n) throws IOException {
            int number = allocate();
            write(number, page(n));
            emitted = true;
            if (parent == null) {
                parent = new TableLevel();
            }
            parent.add(number, keys[n - 1]);
            int rest = count - n;
            System.arraycopy(children, n, children, 0, rest);
            System.arraycopy(keys, n, keys, 0, rest);
            count = rest;
            bytes = 0;
            for (int i = 0; i < count; i++) {
                bytes += 2 + 4 + varintLength(keys[i]);
            }
        }

        private byte[] page(int n) {
            byte[] page = newPage();
            int top = usable;
            for (int i = 0; i < n - 1; i++) {
                top -= 4 + varintLength(keys[i]);
                putInteger(page, top, children[i], 4);
                putVarint(page, top + 4, keys[i]);
                putInteger(page, 12 + 2 * i, top, 2);
            }
            header(page, 0x05, n - 1, top);
            putInteger(page, 8, children[n - 1], 4);
            return page;
        }

        /** Writes the last page of this level and those above it; the topmost over {@code rootPage}. */
        void finish(int rootPage) throws IOException {
            if (!emitted) {
                write(rootPage, page(count));
                return;
            }
            emit(count);
            parent.finish(rootPage);
        }
    }

    /**
     * Bulk-loads the index of a table's integer primary key: entries (key, rowid) in key order.
     * Index b-trees keep each entry once: a full leaf passes the entry after it up as the
     * separator between it and the next leaf, and a full interior page passes up its last cell's
     * entry with its right-most child.
     */
    private final class IndexBuilder {
        private final int rootPage;
        private final long[] keys = new long[pendingCapacity()];
        private final long[] rowids = new long[pendingCapacity()];
        private int count;
        private int bytes;
        private boolean emitted;
        private IndexLevel parent;
        private final byte[] record = new byte[32];

        IndexBuilder(int rootPage) {
            this.rootPage = rootPage;
        }

        void add(long key, long rowid) throws IOException {
            int cell = 2 + cellLength(key, rowid);
            if (count >= 2 && 8 + bytes + cell > usable) {
                // this leaf: all pending entries but the last; the last becomes the separator
                int number = allocate();
                write(number, leafPage(count - 1));
                emitted = true;
                if (parent == null) {
                    parent = new IndexLevel();
                }
                parent.add(number, keys[count - 1], rowids[count - 1]);
                count = 0;
                bytes = 0;
            }
            keys[count] = key;
            rowids[count] = rowid;
            count++;
            bytes += cell;
        }

        private byte[] leafPage(int n) {
            byte[] page = newPage();
            int top = usable;
            for (int i = 0; i < n; i++) {
                int length = entry(keys[i], rowids[i]);
                top -= varintLength(length) + length;
                int at = top + putVarint(page, top, length);
                System.arraycopy(record, 0, page, at, length);
                putInteger(page, 8 + 2 * i, top, 2);
            }
            header(page, 0x0A, n, top);
            return page;
        }

        /** Encodes the entry's record (key, rowid) into {@link #record}; returns its length. */
        int entry(long key, long rowid) {
            int kt = integerType(key);
            int rt = integerType(rowid);
            int kl = bodyLength(kt);
            int rl = bodyLength(rt);
            record[0] = 3;
            record[1] = (byte) kt;
            record[2] = (byte) rt;
            putInteger(record, 3, key, kl);
            putInteger(record, 3 + kl, rowid, rl);
            return 3 + kl + rl;
        }

        int cellLength(long key, long rowid) {
            int length = 3 + bodyLength(integerType(key)) + bodyLength(integerType(rowid));
            return varintLength(length) + length;
        }

        void finish() throws IOException {
            if (!emitted) {
                write(rootPage, leafPage(count));
                return;
            }
            int number = allocate();
            write(number, leafPage(count));
            parent.finish(number, rootPage);
        }

        /** Interior index pages (0x02): cells (left child, entry), and a right-most child. */
        private final class IndexLevel {
            private final int[] children = new int[pendingCapacity()];
            private final long[] keys = new long[pendingCapacity()];
            private final long[] rowids = new long[pendingCapacity()];
            private int count;
            private int bytes;
            private boolean emitted;
            private IndexLevel parent;

            void add(int child, long key, long rowid) throws IOException {
                int cell = 2 + 4 + cellLength(key, rowid);
                if (count >= 4 && 12 + bytes + cell > usable) {
                    // cells 0..count-3, right-most child count-2; its entry goes up; two cells stay
                    int n = count - 2;
                    int number = allocate();
                    write(number, page(n - 1, children[n - 1]));
                    emitted = true;
                    if (parent == null) {
                        parent = new IndexLevel();
                    }
                    parent.add(number, keys[n - 1], rowids[n - 1]);
                    int rest = count - n;
                    System.arraycopy(children, n, children, 0, rest);
                    System.arraycopy(keys, n, keys, 0, rest);
                    System.arraycopy(rowids, n, rowids, 0, rest);
                    count = rest;
                    bytes = 0;
                    for (int i = 0; i < count; i++) {
                        bytes += 2 + 4 + cellLength(keys[i], rowids[i]);
                    }
                }
                children[count] = child;
                keys[count] = key;
                rowids[count] = rowid;
                count++;
                bytes += cell;
            }

            /** A page of the first {@code cells} pending cells and right-most child {@code right}. */
            private byte[] page(int cells, int right) {
                byte[] page = newPage();
                int top = usable;
                for (int i = 0; i < cells; i++) {
                    int length = entry(keys[i], rowids[i]);
                    top -= 4 + varintLength(length) + length;
                    putInteger(page, top, children[i], 4);
                    int at = top + 4 + putVarint(page, top + 4, length);
                    System.arraycopy(record, 0, page, at, length);
                    putInteger(page, 12 + 2 * i, top, 2);
                }
                header(page, 0x02, cells, top);
                putInteger(page, 8, right, 4);
                return page;
            }

            void finish(int lastChild, int rootPage) throws IOException {
                if (!emitted) {
                    write(rootPage, page(count, lastChild));
                    return;
                }
                int number = allocate();
                write(number, page(count, lastChild));
                parent.finish(number, rootPage);
            }
        }
    }

    /**
     * Writes the buffered pages and the header: page count, and a new change counter (which also
     * marks the page count current).
     */
    void finish() throws IOException {
        flush();
        ByteBuffer header = ByteBuffer.allocate(100);
        while (header.hasRemaining() && file.read(header, header.position()) > 0) {
            // read the header again
        }
        int counter = header.getInt(24) + 1;
        header.putInt(24, counter);
        header.putInt(28, pageCount);
        header.putInt(92, counter);
        header.position(0);
        long position = 0;
        while (header.hasRemaining()) {
            position += file.write(header, position);
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    @Override
    public String toString() {
        return "SqliteFileWriter[" + path + "]";
    }
}
