package dev.fdl.catalog;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hands the rows of SQLite tables whose columns are all BIGINT or VARCHAR (every fixed DuckLake
 * table) to DuckDB as JSON lines, the fast half of SQLite → DuckDB conversion. A second thread
 * with its own read-only SQLite connection renders each row as one JSON array ({@code
 * json_array}, in C: exact for integers and text, {@code null} for NULL), table after table;
 * DuckDB loads the lines with one vectorized {@code INSERT … SELECT} per table. No value
 * crosses JDBC on its own: one call per row on the SQLite side, none on the DuckDB side.
 *
 * <p>Where the platform has named pipes ({@code mkfifo}), each table streams through one pipe
 * beside the target, so the two threads overlap and nothing is stored; elsewhere (or with
 * system property {@code fdl.catalog.handover=files}) rows go through temporary files of
 * {@link #CHUNK_ROWS} lines, at most three per table on disk at once. Either way a table whose
 * row count differs from what SQLite rendered is a failure, never a silently shorter table.
 */
final class JsonLinesHandover implements AutoCloseable {
    /** Rows per temporary file in file mode: DuckDB loads one while SQLite renders the next. */
    static final int CHUNK_ROWS = 131_072;

    /** A finished piece of a table: a file of {@code rows} lines, or a pipe's total; or a failure. */
    private record Piece(Path file, long rows, Exception failure, boolean end) {
        static Piece end(long rows) {
            return new Piece(null, rows, null, true);
        }
    }

    private final Path source;
    private final Path temp;
    private final Map<String, List<CopyColumn>> tables;
    private final Map<String, BlockingQueue<Piece>> pieces = new LinkedHashMap<>();
    private final Map<String, Path> pipes = new LinkedHashMap<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fdl-sqlite-reader");
        t.setDaemon(true);
        return t;
    });

    /**
     * Starts rendering {@code tables} (in their map order) from the SQLite catalog {@code source};
     * temporary pipes or files are made beside {@code temp}.
     */
    JsonLinesHandover(Path source, Path temp, Map<String, List<CopyColumn>> tables, boolean pipesAllowed) {
        this.source = source;
        this.temp = temp;
        this.tables = tables;
        int i = 0;
        for (String table : tables.keySet()) {
            // a look-ahead of two files bounds the temporary disk use in file mode
            pieces.put(table, new ArrayBlockingQueue<>(3));
            pipes.put(table, temp.resolveSibling(temp.getFileName() + ".rows." + i++ + ".pipe"));
        }
        if (!pipesAllowed || !makePipes()) {
            pipes.clear();
        }
        writer.execute(this::render);
    }

    /** True if this handover streams through named pipes (false: temporary files). */
    boolean usesPipes() {
        return !pipes.isEmpty();
    }

    /** Whether the tables' types let them go through this handover. */
    static boolean fits(List<CopyColumn> columns) {
        return columns.stream().allMatch(c -> c.sqliteType().equals("BIGINT") || c.sqliteType().equals("VARCHAR"));
    }

    /** Whether pipes may be tried: not when system property {@code fdl.catalog.handover} is {@code files}. */
    static boolean pipesAllowedByDefault() {
        return !"files".equals(System.getProperty("fdl.catalog.handover"));
    }

    private boolean makePipes() {
        if (pipes.isEmpty()) {
            return false;
        }
        List<String> command = new ArrayList<>(List.of("mkfifo", "-m", "600"));
        pipes.values().forEach(p -> command.add(p.toString()));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() == 0 && pipes.values().stream().allMatch(f -> Files.exists(f) && !Files.isRegularFile(f))) {
                return true;
            }
        } catch (IOException e) {
            // no mkfifo here (e.g. Windows): temporary files instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pipes.values().forEach(JsonLinesHandover::deleteQuietly);
        return false;
    }

    // ------------------------------------------------------------------ writing side (own thread)

    private void render() {
        String current = null;
        Path file = null;
        boolean opened = false;
        try (Connection lite = Sql.sqlite(source, true)) {
            int sequence = 0;
            for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
                current = e.getKey();
                BlockingQueue<Piece> queue = pieces.get(current);
                StringBuilder select = new StringBuilder("SELECT json_array(");
                List<CopyColumn> cols = e.getValue();
                for (int i = 0; i < cols.size(); i++) {
                    select.append(i > 0 ? ", " : "").append(SqlQuote.ident(cols.get(i).name()));
                }
                select.append(") FROM ").append(SqlQuote.ident(current));
                opened = false;
                try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery(select.toString())) {
                    long rows = 0;
                    if (usesPipes()) {
                        file = pipes.get(current);
                        if (cancelled.get()) {
                            return;
                        }
                        // WRITE without CREATE: a pipe removed by close() is not recreated as a file
                        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.WRITE), 1 << 16)) {
                            opened = true;
                            while (r.next()) {
                                // the bytes SQLite holds (UTF-8): no decoding to a Java String and back
                                out.write(r.getBytes(1));
                                out.write('\n');
                                rows++;
                            }
                        }
                        file = null;
                    } else {
                        OutputStream out = null;
                        long inFile = 0;
                        try {
                            while (r.next()) {
                                if (out == null) {
                                    file = temp.resolveSibling(temp.getFileName() + ".rows." + sequence++ + ".jsonl");
                                    out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                                }
                                out.write(r.getBytes(1));
                                out.write('\n');
                                rows++;
                                if (++inFile == CHUNK_ROWS) {
                                    out.close();
                                    out = null;
                                    queue.put(new Piece(file, inFile, null, false));
                                    file = null;
                                    inFile = 0;
                                }
                            }
                            if (out != null) {
                                out.close();
                                out = null;
                                queue.put(new Piece(file, inFile, null, false));
                                file = null;
                            }
                        } finally {
                            if (out != null) {
                                out.close();
                            }
                        }
                    }
                    queue.put(Piece.end(rows));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!usesPipes()) {
                deleteQuietly(file);
            }
        } catch (SQLException | IOException | RuntimeException e) {
            Exception failure = e instanceof IOException
                    ? new SQLException("cannot hand rows of table " + current + " to DuckDB through " + file + ": " + e.getMessage(), e) : e;
            if (!usesPipes()) {
                deleteQuietly(file);
            }
            // the loader waits on one of these queues: it meets the failure before anything else
            for (BlockingQueue<Piece> queue : pieces.values()) {
                List<Piece> dropped = new ArrayList<>();
                queue.drainTo(dropped);
                if (!usesPipes()) {
                    dropped.forEach(c -> deleteQuietly(c.file()));
                }
                queue.offer(new Piece(null, 0, failure, true));
            }
            if (usesPipes() && current != null && !opened && !cancelled.get()) {
                // the loader may already be waiting to open this table's pipe: open and close it
                // so it sees an empty table, then meets the failure
                try (OutputStream ignored = Files.newOutputStream(pipes.get(current), StandardOpenOption.WRITE)) {
                    // nothing to write
                } catch (IOException ignored) {
                    // close() removed it
                }
            }
        }
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
        List<CopyColumn> columns = tables.get(table);
        BlockingQueue<Piece> queue = pieces.get(table);
        if (usesPipes()) {
            long loaded = insert(duck, table, columns, pipes.get(table));
            Piece end = take(queue, table);
            rethrow(end);
            if (end.rows() != loaded) {
                throw new SQLException("table " + table + ": SQLite rendered " + end.rows() + " rows but DuckDB loaded " + loaded);
            }
            return loaded;
        }
        long rows = 0;
        while (true) {
            Piece piece = take(queue, table);
            rethrow(piece);
            if (piece.end()) {
                if (piece.rows() != rows) {
                    throw new SQLException("table " + table + ": SQLite rendered " + piece.rows() + " rows but DuckDB loaded " + rows);
                }
                return rows;
            }
            try {
                long loaded = insert(duck, table, columns, piece.file());
                if (loaded != piece.rows()) {
                    throw new SQLException("table " + table + ": " + piece.file() + " holds " + piece.rows() + " rows but DuckDB loaded " + loaded);
                }
            } finally {
                deleteQuietly(piece.file());
            }
            rows += piece.rows();
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

    private static void rethrow(Piece piece) throws SQLException {
        if (piece.failure() instanceof SQLException e) {
            throw e;
        } else if (piece.failure() instanceof RuntimeException e) {
            throw e;
        }
    }

    /**
     * One vectorized {@code INSERT … SELECT CAST(…)} over {@code json_extract_string} of the
     * lines of {@code file}. One column per line: JSON escapes every control character, so no tab
     * splits a line.
     */
    private static long insert(Connection duck, String table, List<CopyColumn> columns, Path file) throws SQLException {
        StringBuilder paths = new StringBuilder("[");
        StringBuilder casts = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            CopyColumn c = columns.get(i);
            paths.append(i > 0 ? ", " : "").append("'$[").append(i).append("]'");
            String field = "v[" + (i + 1) + "]";
            String stored = c.sqliteType().equals("VARCHAR") ? field : "CAST(" + field + " AS " + c.sqliteType() + ")";
            casts.append(i > 0 ? ", " : "");
            casts.append(c.duckType().equals(c.sqliteType()) ? stored : "CAST(" + stored + " AS " + c.duckType() + ")");
        }
        paths.append(']');
        try (Statement s = duck.createStatement()) {
            return s.executeLargeUpdate("INSERT INTO cat.main." + SqlQuote.ident(table) + " SELECT " + casts
                    + " FROM (SELECT json_extract_string(line, " + paths + ") AS v FROM read_csv("
                    + SqlQuote.literal(file.toAbsolutePath().toString()) + ", columns = {'line': 'VARCHAR'},"
                    + " header = false, delim = '\\t', quote = '', escape = '', auto_detect = false, new_line = '\\n'))");
        }
    }

    /**
     * Stops the writing thread and removes every temporary pipe and file. A writer waiting to
     * open a pipe nobody will read is released: opening a pipe for reading and writing never
     * blocks, and one removed before the writer opens it cannot be opened (the writer never
     * creates it).
     */
    @Override
    public void close() {
        cancelled.set(true);
        for (Path pipe : pipes.values()) {
            try (FileChannel holder = FileChannel.open(pipe, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                deleteQuietly(pipe);
            } catch (IOException e) {
                deleteQuietly(pipe);
            }
        }
        writer.shutdownNow();
        try {
            writer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!usesPipes()) {
            for (BlockingQueue<Piece> queue : pieces.values()) {
                for (Piece piece : queue) {
                    deleteQuietly(piece.file());
                }
            }
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
