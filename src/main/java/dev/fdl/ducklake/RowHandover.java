package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands the rows of SQLite tables whose columns are all BIGINT or VARCHAR (every fixed DuckLake
 * table) to DuckDB as CSV, the fast half of SQLite → DuckDB conversion. No value crosses JDBC on
 * its own: SQLite renders each row as one JSON array ({@code json_array}, in C: the cheapest row
 * rendering SQLite has; exact for integers and text, {@code null} for NULL), and that array
 * without its brackets is already a CSV line (quote {@code "}, null string {@code null}) unless
 * it holds a JSON escape; the rare line with a backslash is re-encoded by Jackson (strings
 * unescaped, quotes doubled). A value SQLite holds in a storage class its column cannot take
 * (the REAL 1.5 in a BIGINT column, which DuckDB would cast to 2) is caught while the line is
 * scanned ({@link #scan}) and named ({@link StorageClassCheck}). DuckDB loads each table with one typed {@code read_csv} inside
 * {@code INSERT … SELECT CAST(…)}: vectorized, and cheaper than parsing JSON.
 *
 * <p>Where it can, the handover does not ask SQLite to render at all: {@link SqlitePages} reads
 * the table b-trees straight from the file and writes the same lines byte for byte, while this
 * handover holds a read transaction on the source (so no writer changes the file) until {@link
 * #close}. A row it cannot render exactly (a REAL in a text column, a column added with a
 * default, a line that may be too long) is rendered by SQLite on its own; a file or table it
 * cannot read (UTF-16, WAL mode, WITHOUT ROWID, a damaged page met before any row was handed
 * over) is rendered by SQLite entirely, as is everything with system property {@code
 * fdl.catalog.sqliteReader=jdbc}. A damaged page met after rows were handed over fails the table.
 *
 * <p>Where the platform has named pipes ({@code mkfifo}), rows stream through pipes beside the
 * target, nothing is stored, and a large table is rendered by several threads over parts of its
 * rowid range, read by DuckDB together; elsewhere (or with system property {@code
 * fdl.catalog.handover=files}) one thread writes temporary files of {@link #CHUNK_ROWS} lines, at
 * most three per table on disk at once. Either way a table whose row count differs from what
 * SQLite rendered is a failure, never a silently shorter table.
 */
final class RowHandover implements AutoCloseable {
    /** Lines per temporary file in file mode: DuckDB loads one while SQLite renders the next. */
    static final int CHUNK_ROWS = 131_072;

    /** Tables with at least this many rowids are rendered in {@link #SPLIT_PARTS} parts when streaming through pipes. */
    static final long SPLIT_ROWS = 65_536;

    /**
     * Rowid ranges a large table is split into when streaming through pipes, each rendered by its
     * own thread into its own pipe, read by DuckDB together: twice the cores, 2 to 8 (DuckDB
     * parses one pipe per thread; measured on 2 cores, 10,000 snapshots: 4 parts 5-7 % faster
     * than 2, 2 parts 25 % faster than 1).
     */
    static final int SPLIT_PARTS = Math.max(2, Math.min(8, 2 * Runtime.getRuntime().availableProcessors()));

    /**
     * The longest CSV line handed to DuckDB, in bytes: under read_csv's default max_line_size
     * (2 MB; raising it makes DuckDB reserve 16 times as much per file). A longer row (a long
     * inlined text, say) goes into an overflow file instead and is inserted on its own.
     */
    static final int MAX_LINE_BYTES = 1 << 20;

    private static final JsonFactory JSON = new JsonFactory();

    /** A finished temporary file of {@code rows} lines (file mode); or a failure; or a part's end. */
    private record Piece(Path file, long rows, Exception failure, boolean end) {
        static Piece end(long rows) {
            return new Piece(null, rows, null, true);
        }
    }

    /** One rowid range of a table, rendered by one task into one pipe or a series of files. */
    private static final class Part {
        final String table;
        final long fromRowid;
        final long toRowid;
        final Path pipe;
        final BlockingQueue<Piece> pieces = new ArrayBlockingQueue<>(3);
        final CompletableFuture<Long> rendered = new CompletableFuture<>();
        /** Rows too long for a CSV line, as JSON lines (written by the renderer, read after {@link #rendered}). */
        Path overflow;
        long overflowRows;

        Part(String table, long fromRowid, long toRowid, Path pipe) {
            this.table = table;
            this.fromRowid = fromRowid;
            this.toRowid = toRowid;
            this.pipe = pipe;
        }
    }

    private final Path source;
    private final Path temp;
    private final Map<String, List<CopyColumn>> tables;
    private final Map<String, List<Part>> parts = new LinkedHashMap<>();
    /** Per table, the name its rowid goes by in queries ({@link #rowidAlias}). */
    private final Map<String, String> rowids = new java.util.concurrent.ConcurrentHashMap<>();
    /** Per table, for each column, whether SQLite declares it BIGINT ({@link #scan}). */
    private final Map<String, boolean[]> bigint = new LinkedHashMap<>();
    private final boolean pipes;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicInteger fileSequence = new AtomicInteger();
    private final ExecutorService writers;
    /** Whether the source's text encoding is UTF-8 (else SQLite's renderings are taken as Java strings). */
    private boolean utf8;
    /** Holds a read transaction on {@link #source} while its pages are read directly; null if none are. */
    private final Connection snapshot;
    /** The source's pages, read directly; null: SQLite renders every table ({@link #rawReaderAllowed}). */
    private final SqlitePages pages;
    /** Per table read directly, where its rows are in the file; a table not here is rendered by SQLite. */
    private final Map<String, SqlitePages.Layout> layouts;

    /**
     * Starts rendering {@code tables} (in their map order) from the SQLite catalog {@code source};
     * temporary pipes or files are made beside {@code temp}.
     *
     * @param pipesAllowed false to use temporary files even where named pipes exist
     * @throws SQLException if the tables' rowid ranges cannot be read
     */
    RowHandover(Path source, Path temp, Map<String, List<CopyColumn>> tables, boolean pipesAllowed) throws SQLException {
        this.source = source;
        this.temp = temp;
        this.tables = tables;
        List<Path> pipePaths = new ArrayList<>();
        for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
            boolean[] mask = new boolean[e.getValue().size()];
            for (int i = 0; i < mask.length; i++) {
                mask[i] = e.getValue().get(i).sqliteType().equals("BIGINT");
            }
            bigint.put(e.getKey(), mask);
        }
        Connection lite = Sql.sqlite(source, true);
        SqlitePages reader = null;
        Map<String, SqlitePages.Layout> found = Map.of();
        boolean keep = false;
        try {
            if (rawReaderAllowed()) {
                // one read transaction from here until close(): the rowid ranges and the pages read
                // directly are of the same database state, and no writer changes the file meanwhile
                lite.setAutoCommit(false);
                found = SqlitePages.layouts(lite, tables); // (reads sqlite_schema: takes the SHARED lock)
                if (!found.isEmpty()) {
                    try {
                        reader = SqlitePages.open(source);
                        keep = true;
                    } catch (IOException e) {
                        found = Map.of(); // UTF-16, WAL, odd header: SQLite renders every table
                    }
                }
            }
            try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery("PRAGMA encoding")) {
                utf8 = !r.next() || r.getString(1).equals("UTF-8");
            }
            int i = 0;
            for (String table : tables.keySet()) {
                String alias = rowidAlias(tables.get(table));
                if (alias == null) {
                    continue; // every name of the rowid is a column's: the caller copies it another way
                }
                long[] range;
                try {
                    range = rowidRange(lite, table, alias);
                } catch (SQLException e) {
                    continue; // no rowid (a WITHOUT ROWID table): the caller copies it another way
                }
                rowids.put(table, alias);
                List<Part> list = new ArrayList<>();
                if (range != null) {
                    long gap = range[1] - range[0]; // negative only when it overflows: a huge range
                    boolean split = pipesAllowed && (gap < 0 || gap + 1 >= SPLIT_ROWS);
                    for (long[] r : split ? split(range[0], range[1], SPLIT_PARTS) : new long[][] {range}) {
                        Path pipe = temp.resolveSibling(temp.getFileName() + ".rows." + i++ + ".pipe");
                        pipePaths.add(pipe);
                        list.add(new Part(table, r[0], r[1], pipe));
                    }
                }
                parts.put(table, list);
            }
        } catch (SQLException | RuntimeException e) {
            keep = false;
            throw e;
        } finally {
            if (!keep) {
                closeQuietly(reader);
                lite.close();
            }
        }
        this.snapshot = keep ? lite : null;
        this.pages = keep ? reader : null;
        this.layouts = keep ? found : Map.of();
        this.pipes = pipesAllowed && makePipes(pipePaths);
        if (!pipes) {
            // one part per table: one thread writes files in table order
            for (Map.Entry<String, List<Part>> e : parts.entrySet()) {
                List<Part> list = e.getValue();
                if (list.size() > 1) {
                    e.setValue(List.of(new Part(e.getKey(), list.get(0).fromRowid, list.get(list.size() - 1).toRowid, null)));
                }
            }
        }
        writers = Executors.newFixedThreadPool(pipes ? SPLIT_PARTS : 1, r -> {
            Thread t = new Thread(r, "fdl-sqlite-reader");
            t.setDaemon(true);
            return t;
        });
        // tasks start in table order, so every part of the table DuckDB reads is being rendered:
        // no table has more parts than there are threads
        for (List<Part> list : parts.values()) {
            for (Part part : list) {
                writers.execute(() -> render(part));
            }
        }
    }

    /** Whether this handover renders {@code table}; if not, the caller copies it another way. */
    boolean handles(String table) {
        return parts.containsKey(table);
    }

    /**
     * The most columns a table going through a handover may have: SQLite's rendering of a row is
     * one {@code json_array} call, and SQLite functions take at most 127 arguments.
     */
    static final int MAX_COLUMNS = 127;

    /**
     * Whether a table with these columns can go through a handover: all BIGINT or VARCHAR in
     * SQLite, and at most {@link #MAX_COLUMNS}.
     */
    static boolean fits(List<CopyColumn> columns) {
        return columns.size() <= MAX_COLUMNS
                && columns.stream().allMatch(c -> c.sqliteType().equals("BIGINT") || c.sqliteType().equals("VARCHAR"));
    }

    /** Whether pipes may be tried: not when system property {@code fdl.catalog.handover} is {@code files}. */
    static boolean pipesAllowedByDefault() {
        return !"files".equals(System.getProperty("fdl.catalog.handover"));
    }

    /**
     * Whether table pages may be read directly from the SQLite file ({@link SqlitePages}): not
     * when system property {@code fdl.catalog.sqliteReader} is {@code jdbc} (then SQLite renders
     * every row, the reference path).
     */
    static boolean rawReaderAllowed() {
        return !"jdbc".equals(System.getProperty("fdl.catalog.sqliteReader"));
    }

    /** True if rows stream through named pipes (false: temporary files). */
    boolean usesPipes() {
        return pipes;
    }

    /**
     * A name of the table's rowid that no column shadows ({@code rowid}, {@code _rowid_} or
     * {@code oid}: SQLite lets a column take each of them), or null if columns take all three.
     */
    static String rowidAlias(List<CopyColumn> columns) {
        for (String alias : List.of("rowid", "_rowid_", "oid")) {
            if (columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(alias))) {
                return alias;
            }
        }
        return null;
    }

    /** The smallest and largest rowid of {@code table}, or null if it is empty (both read from the b-tree's ends). */
    private static long[] rowidRange(Connection lite, String table, String alias) throws SQLException {
        // (a table without rowid fails here)
        try (Statement s = lite.createStatement();
             // one aggregate per query: SQLite reads min() and max() of the rowid from the b-tree's
             // ends only when a SELECT has a single one (both in one SELECT scan the whole table)
             ResultSet r = s.executeQuery("SELECT (SELECT min(" + alias + ") FROM " + SqlQuote.ident(table) + "), (SELECT max("
                     + alias + ") FROM " + SqlQuote.ident(table) + ")")) {
            r.next();
            long min = r.getLong(1);
            return r.wasNull() ? null : new long[] {min, r.getLong(2)};
        }
    }

    /**
     * {@code [from, to]} cut into {@code parts} consecutive, non-empty ranges of (nearly) equal
     * length (fewer when the range holds fewer values); {@code from <= to}.
     */
    static long[][] split(long from, long to, int parts) {
        // the span of two extreme rowids does not fit a long
        BigInteger span = BigInteger.valueOf(to).subtract(BigInteger.valueOf(from)).add(BigInteger.ONE);
        parts = span.min(BigInteger.valueOf(parts)).intValueExact();
        long[][] ranges = new long[parts][];
        long start = from;
        for (int i = 0; i < parts; i++) {
            long end = i == parts - 1 ? to
                    : BigInteger.valueOf(from).add(span.multiply(BigInteger.valueOf(i + 1)).divide(BigInteger.valueOf(parts))).longValueExact() - 1;
            ranges[i] = new long[] {start, end};
            start = end + 1;
        }
        return ranges;
    }

    private static boolean makePipes(List<Path> paths) {
        if (paths.isEmpty()) {
            return false;
        }
        List<String> command = new ArrayList<>(List.of("mkfifo", "-m", "600"));
        paths.forEach(p -> command.add(p.toString()));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() == 0 && paths.stream().allMatch(f -> Files.exists(f) && !Files.isRegularFile(f))) {
                return true;
            }
        } catch (IOException e) {
            // no mkfifo here (e.g. Windows): temporary files instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        paths.forEach(RowHandover::deleteQuietly);
        return false;
    }

    // ------------------------------------------------------------------ writing side (own threads)

    private void render(Part part) {
        Output output = new Output(part);
        try {
            if (pipes) {
                if (cancelled.get()) {
                    throw new SQLException("cancelled");
                }
                output.openPipe();
            }
            SqlitePages.Layout layout = layouts.get(part.table);
            boolean rendered = false;
            if (layout != null) {
                try (RowLookup lookup = new RowLookup(part.table)) {
                    pages.scan(layout, part.fromRowid, part.toRowid, new SqlitePages.RowSink() {
                        @Override
                        public void line(byte[] line, int length) throws IOException, InterruptedException {
                            output.line(line, length);
                        }

                        @Override
                        public void fallback(long rowid) throws IOException, SQLException, InterruptedException {
                            output.json(lookup.jsonArray(rowid)); // exactly what SQLite's rendering makes of it
                        }
                    });
                    rendered = true;
                } catch (SqlitePages.Corrupt e) {
                    if (output.rows > 0) {
                        throw new SQLException("cannot read SQLite file " + source + " directly: table " + part.table + ", " + e.getMessage()
                                + "; " + output.rows + " rows were already handed over (is the file damaged? PRAGMA integrity_check tells)", e);
                    }
                    // nothing handed over yet: SQLite renders the part instead
                }
            }
            if (!rendered) {
                renderWithSqlite(part, output);
            }
            long rows = output.finish();
            if (!pipes) {
                closeOverflow(part); // complete before the loader reads it
                part.pieces.put(Piece.end(rows));
            }
            closeOverflow(part);
            part.rendered.complete(rows);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            output.abandon();
            try {
                closeOverflow(part);
            } catch (IOException ignored) {
                // removed by close()
            }
            part.rendered.completeExceptionally(e);
        } catch (SQLException | IOException | RuntimeException e) {
            output.abandon();
            try {
                closeOverflow(part);
            } catch (IOException ignored) {
                // removed by close()
            }
            Exception failure = e instanceof IOException
                    ? new SQLException("cannot hand rows of table " + part.table + " to DuckDB: " + e.getMessage(), e) : e;
            if ((e instanceof SQLException || e instanceof WrongStorageClass) && !cancelled.get()) {
                failure = describe(part.table, e instanceof SQLException se ? se
                        : new SQLException("table " + part.table + ": " + e.getMessage(), e));
            }
            part.rendered.completeExceptionally(failure);
            if (pipes) {
                if (!output.opened && !cancelled.get()) {
                    // DuckDB may be waiting to open this pipe: open and close it so it sees the end,
                    // then the loader meets the failure
                    try (OutputStream ignored = Files.newOutputStream(part.pipe, StandardOpenOption.WRITE)) {
                        // nothing to write
                    } catch (IOException ignored) {
                        // close() removed it
                    }
                }
            } else {
                // the loader waits on this queue: it meets the failure before anything else
                List<Piece> dropped = new ArrayList<>();
                part.pieces.drainTo(dropped);
                dropped.forEach(c -> deleteQuietly(c.file()));
                part.pieces.offer(new Piece(null, 0, failure, true));
            }
        }
    }

    /** {@code SELECT json_array(<columns>) FROM <table>}: SQLite's rendering of a row ({@link #jsonSelect(String, List)}). */
    private String jsonSelect(String table) {
        return jsonSelect(table, tables.get(table));
    }

    /**
     * {@code SELECT json_array(<columns>) FROM <table>}: SQLite's rendering of a row. A BLOB in a
     * column that is not BIGINT is rendered as {@code {}}, which {@link #scan} refuses: json_array
     * itself would read the BLOB as JSONB (X'00' is its null) and lose it.
     */
    static String jsonSelect(String table, List<CopyColumn> cols) {
        StringBuilder select = new StringBuilder("SELECT json_array(");
        for (int i = 0; i < cols.size(); i++) {
            String ident = SqlQuote.ident(cols.get(i).name());
            select.append(i > 0 ? ", " : "");
            if (cols.get(i).sqliteType().equals("BIGINT")) {
                select.append(ident);
            } else {
                select.append("CASE WHEN typeof(").append(ident).append(") = 'blob' THEN json_object() ELSE ").append(ident).append(" END");
            }
        }
        return select.append(") FROM ").append(SqlQuote.ident(table)).toString();
    }

    /** The part rendered by SQLite ({@code json_array} through JDBC): the reference path, and the fallback. */
    private void renderWithSqlite(Part part, Output output) throws SQLException, IOException, InterruptedException {
        String rowid = rowids.get(part.table);
        String sql = jsonSelect(part.table) + " WHERE " + rowid + " BETWEEN ? AND ? ORDER BY " + rowid;
        if (snapshot != null) {
            // the read transaction's own connection, shared by the renderers one row at a time: a new
            // connection would wait behind a writer holding PENDING (waiting for this handover to end)
            // and fail after the busy timeout
            PreparedStatement ps;
            synchronized (snapshot) {
                ps = snapshot.prepareStatement(sql);
            }
            try {
                ResultSet r;
                synchronized (snapshot) {
                    ps.setLong(1, part.fromRowid);
                    ps.setLong(2, part.toRowid);
                    r = ps.executeQuery();
                }
                while (true) {
                    byte[] json;
                    synchronized (snapshot) {
                        if (!r.next()) {
                            break;
                        }
                        json = r.getBytes(1);
                    }
                    output.json(json); // (a file read directly is UTF-8)
                }
            } finally {
                synchronized (snapshot) {
                    ps.close(); // (closes the result set)
                }
            }
            return;
        }
        try (Connection lite = Sql.sqlite(source, true);
             PreparedStatement ps = lite.prepareStatement(sql)) {
            ps.setLong(1, part.fromRowid);
            ps.setLong(2, part.toRowid);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    // (a UTF-16 database gives its text's bytes in UTF-16)
                    output.json(utf8 ? r.getBytes(1) : r.getString(1).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }

    /**
     * SQLite's rendering of single rows the page reader leaves to it, through the read
     * transaction's own connection ({@link #snapshot}, shared by the renderers one row at a time):
     * a new connection would wait behind a writer holding PENDING (waiting for this handover to
     * end) and fail after the busy timeout. The statement is prepared on first use.
     */
    private final class RowLookup implements AutoCloseable {
        private final String table;
        private PreparedStatement select;

        RowLookup(String table) {
            this.table = table;
        }

        byte[] jsonArray(long rowid) throws SQLException {
            synchronized (snapshot) {
                if (select == null) {
                    select = snapshot.prepareStatement(jsonSelect(table) + " WHERE " + rowids.get(table) + " = ?");
                }
                select.setLong(1, rowid);
                try (ResultSet r = select.executeQuery()) {
                    if (!r.next()) {
                        throw new SQLException("table " + table + ": the row with rowid " + rowid + " read from the file's pages is not in the database");
                    }
                    return r.getBytes(1);
                }
            }
        }

        @Override
        public void close() throws SQLException {
            if (select != null) {
                synchronized (snapshot) {
                    select.close();
                }
            }
        }
    }

    /**
     * Where a part's lines go: its pipe, or temporary files of {@link #CHUNK_ROWS} lines queued
     * for the loader; counts the rows handed over (lines plus rows sent to the overflow file).
     */
    private final class Output {
        private final Part part;
        private final boolean[] integers;
        private OutputStream out;
        private Path file;
        private long inFile;
        long rows;
        boolean opened;

        Output(Part part) {
            this.part = part;
            this.integers = bigint.get(part.table);
        }

        void openPipe() throws IOException {
            // WRITE without CREATE: a pipe removed by close() is not recreated as a file
            out = new BufferedOutputStream(Files.newOutputStream(part.pipe, StandardOpenOption.WRITE), 1 << 16);
            opened = true;
        }

        /** A row as SQLite renders it ({@code json_array}): checked, then a line or an overflow row. */
        void json(byte[] jsonArray) throws IOException, InterruptedException {
            if (write(part, integers, stream(), jsonArray)) {
                inFile++;
            }
            rows++;
            rotate();
        }

        /** A row already rendered as a CSV line ({@link SqlitePages}). */
        void line(byte[] line, int length) throws IOException, InterruptedException {
            OutputStream o = stream();
            o.write(line, 0, length);
            o.write('\n');
            inFile++;
            rows++;
            rotate();
        }

        private OutputStream stream() throws IOException {
            if (out == null) {
                file = temp.resolveSibling(temp.getFileName() + ".rows." + fileSequence.getAndIncrement() + ".csv");
                out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            }
            return out;
        }

        private void rotate() throws IOException, InterruptedException {
            if (!pipes && inFile == CHUNK_ROWS) {
                queue();
            }
        }

        private void queue() throws IOException, InterruptedException {
            out.close();
            out = null;
            part.pieces.put(new Piece(file, inFile, null, false));
            file = null;
            inFile = 0;
        }

        /** Closes the pipe, or queues the last file; returns the rows handed over. */
        long finish() throws IOException, InterruptedException {
            if (pipes) {
                out.close();
                out = null;
            } else if (out != null) {
                queue();
            }
            return rows;
        }

        /** After a failure: closes the pipe (so DuckDB sees its end) or removes the unfinished file. */
        void abandon() {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // a pipe nobody reads any more
                }
                out = null;
            }
            deleteQuietly(file);
            file = null;
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // nothing left to read from it
            }
        }
    }

    /** The failure to report when SQLite could not render a table: the value that does not fit its column, if one does not. */
    private SQLException describe(String table, SQLException failure) {
        if (snapshot != null) {
            synchronized (snapshot) { // (see RowLookup: a new connection may wait behind a writer)
                SQLException mismatch = StorageClassCheck.firstMismatch(snapshot, table, tables.get(table));
                return mismatch != null ? mismatch : failure;
            }
        }
        try (Connection lite = Sql.sqlite(source, true)) {
            SQLException mismatch = StorageClassCheck.firstMismatch(lite, table, tables.get(table));
            return mismatch != null ? mismatch : failure;
        } catch (SQLException e) {
            return failure;
        }
    }

    /** Open overflow streams, one per part at most (only the part's renderer uses its own). */
    private final Map<Part, OutputStream> overflowStreams = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Writes one row: as a CSV line to {@code out}, or (too long) as its JSON array to the part's
     * overflow file, after checking its BIGINT fields ({@code integers}, see {@link #scan}).
     *
     * @return true if it went to {@code out}
     */
    private boolean write(Part part, boolean[] integers, OutputStream out, byte[] jsonArray) throws IOException {
        boolean escaped = scan(jsonArray, integers);
        if (writeLine(out, jsonArray, escaped)) {
            return true;
        }
        OutputStream o = overflowStreams.get(part);
        if (o == null) {
            part.overflow = temp.resolveSibling(temp.getFileName() + ".rows." + fileSequence.getAndIncrement() + ".overflow.jsonl");
            o = new BufferedOutputStream(Files.newOutputStream(part.overflow), 1 << 16);
            overflowStreams.put(part, o);
        }
        o.write(jsonArray);
        o.write('\n');
        part.overflowRows++;
        return false;
    }

    private void closeOverflow(Part part) throws IOException {
        OutputStream o = overflowStreams.remove(part);
        if (o != null) {
            o.close();
        }
    }

    /**
     * A column holds a value of a storage class its declared type cannot take (SQLite types
     * values, not columns): a non-integer in a BIGINT column, a BLOB in a VARCHAR column.
     */
    static final class WrongStorageClass extends IOException {
        WrongStorageClass(int column) {
            super("column " + (column + 1) + " holds a value of a storage class its declared type cannot take");
        }
    }

    /**
     * Scans one SQLite {@code json_array} rendering: whether it holds a backslash (a JSON escape),
     * and that every field of a BIGINT column is an integer or {@code null}. SQLite types values,
     * not columns: the REAL 1.5 or the TEXT '0x10' in a BIGINT column would reach DuckDB as text
     * it casts (to 2, to 16) instead of failing; json_array renders a REAL with a point or an
     * exponent and a TEXT in quotes, so a field of anything but digits (after an optional minus)
     * or {@code null} is refused here, at no cost to SQLite's rendering. A field of another column
     * that starts with {@code {} is a BLOB ({@link #jsonSelect(String, List)}), refused too.
     *
     * @param bigint for each column, whether it is BIGINT in SQLite
     * @return true if the rendering holds a backslash
     * @throws WrongStorageClass naming the column (1-based) of the first such field
     */
    static boolean scan(byte[] jsonArray, boolean[] bigint) throws WrongStorageClass {
        boolean escaped = false;
        boolean inString = false;
        int field = 0;
        int start = 1;
        int end = jsonArray.length - 1;
        for (int i = 1; i <= end; i++) {
            byte b = jsonArray[i];
            if (inString && i < end) {
                if (b == '\\') {
                    escaped = true;
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"' && i < end) {
                inString = true;
            } else if (b == ',' || i == end) {
                if (field < bigint.length && (bigint[field] ? !isIntegerOrNull(jsonArray, start, i)
                        : start < i && jsonArray[start] == '{')) {
                    throw new WrongStorageClass(field);
                }
                field++;
                start = i + 1;
            }
        }
        return escaped;
    }

    private static boolean isIntegerOrNull(byte[] a, int from, int to) {
        if (to - from == 4 && a[from] == 'n' && a[from + 1] == 'u' && a[from + 2] == 'l' && a[from + 3] == 'l') {
            return true;
        }
        int i = from < to && a[from] == '-' ? from + 1 : from;
        if (i >= to) {
            return false;
        }
        for (; i < to; i++) {
            if (a[i] < '0' || a[i] > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes one SQLite {@code json_array} rendering as one CSV line: without its brackets when it
     * holds no backslash (then its strings need no unescaping and hold no {@code "}), else
     * re-encoded field by field.
     *
     * @param escaped whether the rendering holds a backslash ({@link #scan})
     * @return false (nothing written) if the line would be longer than {@link #MAX_LINE_BYTES}
     */
    static boolean writeLine(OutputStream out, byte[] jsonArray, boolean escaped) throws IOException {
        int n = jsonArray.length;
        if (n - 2 > MAX_LINE_BYTES) {
            return false;
        }
        boolean plain = !escaped;
        if (plain) {
            out.write(jsonArray, 1, n - 2);
        } else {
            byte[] line = reencode(jsonArray);
            if (line.length > MAX_LINE_BYTES) {
                return false;
            }
            out.write(line);
        }
        out.write('\n');
        return true;
    }

    private static byte[] reencode(byte[] jsonArray) throws IOException {
        StringBuilder line = new StringBuilder(jsonArray.length + 16);
        try (JsonParser p = JSON.createParser(jsonArray)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new IOException("SQLite rendered a row that is not a JSON array");
            }
            boolean first = true;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t == null || t.isStructStart()) {
                    throw new IOException("SQLite rendered a row that is not a flat JSON array");
                }
                if (!first) {
                    line.append(',');
                }
                first = false;
                if (t == JsonToken.VALUE_STRING) {
                    line.append('"').append(p.getText().replace("\"", "\"\"")).append('"');
                } else {
                    line.append(p.getText()); // null, numbers, true/false as written
                }
            }
        }
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ loading side (caller's thread)

    /**
     * Loads all rows of {@code table} into {@code cat.main.<table>} (already created) of the
     * DuckDB connection {@code duck}, as they are rendered.
     *
     * @return the number of rows loaded, equal to the number SQLite rendered
     * @throws SQLException if rendering or loading failed, or the counts differ
     */
    long load(Connection duck, String table) throws SQLException {
        List<Part> list = parts.get(table);
        if (list.isEmpty()) {
            return 0;
        }
        List<CopyColumn> columns = tables.get(table);
        if (pipes) {
            long loaded = insert(duck, table, columns, list.stream().map(p -> p.pipe).toList());
            long rendered = 0;
            for (Part part : list) {
                rendered += rendered(part);
                loaded += insertOverflow(duck, table, columns, part);
            }
            if (rendered != loaded) {
                throw new SQLException("table " + table + ": SQLite rendered " + rendered + " rows but DuckDB loaded " + loaded);
            }
            return loaded;
        }
        Part part = list.get(0);
        long rows = 0;
        while (true) {
            Piece piece = take(part.pieces, table);
            if (piece.failure() != null) {
                rethrow(piece.failure());
            }
            if (piece.end()) {
                rows += insertOverflow(duck, table, columns, part);
                if (piece.rows() != rows) {
                    throw new SQLException("table " + table + ": SQLite rendered " + piece.rows() + " rows but DuckDB loaded " + rows);
                }
                return rows;
            }
            try {
                long loaded = insert(duck, table, columns, List.of(piece.file()));
                if (loaded != piece.rows()) {
                    throw new SQLException("table " + table + ": " + piece.file() + " holds " + piece.rows() + " rows but DuckDB loaded " + loaded);
                }
            } finally {
                deleteQuietly(piece.file());
            }
            rows += piece.rows();
        }
    }

    private static long rendered(Part part) throws SQLException {
        try {
            return part.rendered.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while copying table " + part.table, e);
        } catch (ExecutionException e) {
            rethrow(e.getCause());
            return 0;
        }
    }

    private static Piece take(BlockingQueue<Piece> queue, String table) throws SQLException {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while copying table " + table, e);
        }
    }

    private static void rethrow(Throwable failure) throws SQLException {
        if (failure instanceof SQLException e) {
            throw e;
        } else if (failure instanceof RuntimeException e) {
            throw e;
        }
        throw new SQLException(failure.getMessage(), failure);
    }

    /**
     * Inserts the rows of a part's overflow file one by one, each value bound as text and cast
     * as in {@link #insert}; then removes the file.
     *
     * @return the number of rows inserted
     */
    private static long insertOverflow(Connection duck, String table, List<CopyColumn> columns, Part part) throws SQLException {
        if (part.overflow == null) {
            return 0;
        }
        StringBuilder sql = new StringBuilder("INSERT INTO cat.main.").append(SqlQuote.ident(table)).append(" VALUES (");
        for (int i = 0; i < columns.size(); i++) {
            CopyColumn c = columns.get(i);
            String stored = "CAST(? AS " + c.sqliteType() + ")";
            sql.append(i > 0 ? ", " : "").append(c.duckType().equals(c.sqliteType()) ? stored : "CAST(" + stored + " AS " + c.duckType() + ")");
        }
        sql.append(')');
        long rows = 0;
        try (PreparedStatement ps = duck.prepareStatement(sql.toString());
             java.io.BufferedReader in = Files.newBufferedReader(part.overflow, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                try (JsonParser p = JSON.createParser(line)) {
                    p.nextToken();
                    int i = 0;
                    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                        ps.setString(++i, t == JsonToken.VALUE_NULL ? null : p.getText());
                    }
                }
                ps.executeUpdate();
                rows++;
            }
        } catch (IOException e) {
            throw new SQLException("cannot read " + part.overflow + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(part.overflow);
        }
        return rows;
    }

    /** One typed {@code read_csv} of {@code files} inside {@code INSERT … SELECT CAST(…)}. */
    private static long insert(Connection duck, String table, List<CopyColumn> columns, List<Path> files) throws SQLException {
        StringBuilder spec = new StringBuilder("{");
        StringBuilder casts = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            CopyColumn c = columns.get(i);
            spec.append(i > 0 ? ", " : "").append("'c").append(i).append("': '").append(c.sqliteType()).append('\'');
            casts.append(i > 0 ? ", " : "");
            casts.append(c.duckType().equals(c.sqliteType()) ? "c" + i : "CAST(c" + i + " AS " + c.duckType() + ")");
        }
        spec.append('}');
        StringBuilder list = new StringBuilder("[");
        for (Path f : files) {
            list.append(list.length() > 1 ? ", " : "").append(SqlQuote.literal(f.toAbsolutePath().toString()));
        }
        list.append(']');
        try (Statement s = duck.createStatement()) {
            return s.executeLargeUpdate("INSERT INTO cat.main." + SqlQuote.ident(table) + " SELECT " + casts + " FROM read_csv(" + list
                    + ", columns = " + spec + ", header = false, delim = ',', quote = '\"', escape = '\"', nullstr = 'null',"
                    + " allow_quoted_nulls = false, auto_detect = false, new_line = '\\n')");
        }
    }

    /**
     * Stops the writing threads and removes every temporary pipe and file. A writer waiting to
     * open a pipe nobody will read is released: opening a pipe for reading and writing never
     * blocks, and one removed before the writer opens it cannot be opened (writers never create
     * it).
     */
    @Override
    public void close() {
        cancelled.set(true);
        if (pipes) {
            for (List<Part> list : parts.values()) {
                for (Part part : list) {
                    try (FileChannel holder = FileChannel.open(part.pipe, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                        deleteQuietly(part.pipe);
                    } catch (IOException e) {
                        deleteQuietly(part.pipe);
                    }
                }
            }
        }
        writers.shutdownNow();
        // wait even when this thread is interrupted (the usual reason to close early): a writer
        // still running could create a temporary file after the clean-up below
        awaitEnd(writers);
        closeQuietly(pages);
        closeQuietly(snapshot); // ends the read transaction
        for (List<Part> list : parts.values()) {
            for (Part part : list) {
                for (Piece piece : part.pieces) {
                    deleteQuietly(piece.file());
                }
                deleteQuietly(part.overflow);
            }
        }
    }

    /**
     * Waits up to a minute for {@code threads} (already shut down) to end, even if the calling
     * thread is interrupted meanwhile; its interrupt status is kept.
     */
    static void awaitEnd(ExecutorService threads) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                threads.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a stray temporary file beside the target is harmless
        }
    }
}
