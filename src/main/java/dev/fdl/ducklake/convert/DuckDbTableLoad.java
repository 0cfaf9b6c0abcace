package dev.fdl.ducklake.convert;

import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.util.AtomicFile;
import dev.fdl.util.SqlQuote;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import dev.fdl.ducklake.engine.CsvOptions;

/**
 * Loads one table of a SQLite catalog into a DuckDB catalog, the SQLite → DuckDB half of
 * conversion (commit). SQLite renders every row as one JSON array ({@code json_array}, in C:
 * its cheapest rendering of a row, one JDBC call per row instead of one per value); without its
 * brackets that is a CSV line (quote {@code "}, null string {@code null}) unless it holds a JSON
 * escape, and such a line is re-encoded by Jackson. A second thread writes the lines into
 * temporary CSV files of {@link #CHUNK_ROWS} rows beside the target while DuckDB loads the
 * previous one with a typed {@code read_csv} inside {@code INSERT … SELECT CAST(…)} (vectorized;
 * CAST gives UUID, TIMESTAMPTZ, BOOLEAN and the inlined types their DuckDB values). BLOB columns
 * travel as hex, DOUBLE columns as 17 significant digits (exact).
 *
 * <p>A value SQLite holds in a storage class its column cannot take (SQLite types values, not
 * columns: the REAL 1.5 in a BIGINT column, which DuckDB would cast to 2) fails the table, named
 * by {@link StorageClassCheck}: a BIGINT field must be digits or {@code null}, and any other
 * field SQLite could not render as its type is rendered {@code {}}, which no plain value is.
 */
public final class DuckDbTableLoad {
    /**
     * Lines per temporary file: DuckDB loads one while SQLite renders the next. One DuckDB row
     * group (its default {@code row_group_size}, 122,880 rows): each INSERT then adds whole row
     * groups; a row group and a part per file made the COMMIT cost several times the CPU and
     * the file larger, and two row groups per file were no better (docs/catalog.md "Benchmark").
     */
    static final int CHUNK_ROWS = 122_880;

    /**
     * Bytes after which a temporary file is handed over before it holds {@link #CHUNK_ROWS}
     * lines, so tables of long values use little disk at a time.
     */
    static final long CHUNK_BYTES = 64L << 20;

    /** read_csv's default {@code max_line_size}; a file with a longer line is read with a larger one. */
    public static final int DEFAULT_MAX_LINE = 2_000_000;

    /**
     * The most columns one {@code json_array} call is given (sqlite-jdbc's SQLite refuses 127
     * arguments): wider rows are rendered as several arrays joined.
     */
    static final int MAX_ARGS = 100;

    private static final JsonFactory JSON = new JsonFactory();

    private DuckDbTableLoad() {}

    /** A finished temporary file of {@code rows} lines, the longest {@code longest} bytes; or the end; or a failure. */
    private record Piece(Path file, long rows, int longest, Exception failure, boolean end) {}

    /**
     * Copies every row of SQLite table {@code table} (read on {@code lite}, which no other
     * thread uses meanwhile) into {@code cat.main.<table>} of {@code duck} (already created).
     * Temporary files are made beside {@code temp} and removed on every path.
     *
     * @return the number of rows loaded, equal to the number SQLite rendered
     * @throws SQLException if rendering or loading fails, a value does not fit its column, or
     *     the counts differ
     */
    static long load(Connection lite, Connection duck, Path temp, String table, List<DuckLakeSchema.ColumnDef> columns) throws SQLException {
        BlockingQueue<Piece> pieces = new ArrayBlockingQueue<>(2);
        ExecutorService renderer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fdl-sqlite-reader");
            t.setDaemon(true);
            return t;
        });
        long loaded = 0;
        Piece piece = null;
        try {
            renderer.execute(() -> render(lite, temp, table, columns, pieces));
            while (true) {
                piece = pieces.take();
                if (piece.failure() != null) {
                    throw piece.failure() instanceof SQLException e ? e : new SQLException(piece.failure().getMessage(), piece.failure());
                }
                if (piece.end()) {
                    if (piece.rows() != loaded) {
                        throw new SQLException("table " + table + ": SQLite rendered " + piece.rows() + " rows but DuckDB loaded " + loaded);
                    }
                    return loaded;
                }
                long rows = insert(duck, table, columns, piece.file(), piece.longest());
                delete(piece.file());
                if (rows != piece.rows()) {
                    throw new SQLException("table " + table + ": " + piece.rows() + " rows were rendered into " + piece.file()
                            + " but DuckDB loaded " + rows);
                }
                loaded += rows;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while copying table " + table, e);
        } finally {
            if (piece != null && piece.file() != null) {
                delete(piece.file());
            }
            renderer.shutdownNow();
            // the renderer uses the SQLite connection and writes files: it must be done before the
            // caller goes on (or closes it), also when this thread was interrupted
            awaitEnd(renderer);
            List<Piece> left = new java.util.ArrayList<>();
            pieces.drainTo(left);
            left.forEach(p -> delete(p.file()));
        }
    }

    /** The rendering half, on its own thread: files of lines into {@code pieces}, then the end, or the failure. */
    private static void render(Connection lite, Path temp, String table, List<DuckLakeSchema.ColumnDef> columns, BlockingQueue<Piece> pieces) {
        boolean[] bigint = new boolean[columns.size()];
        for (int i = 0; i < bigint.length; i++) {
            bigint[i] = columns.get(i).sqliteType().equals("BIGINT");
        }
        Path file = null;
        OutputStream out = null;
        long total = 0;
        long inFile = 0;
        long bytes = 0;
        int longest = 0;
        try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery(jsonSelect(table, columns))) {
            while (r.next()) {
                byte[] json = r.getBytes(1);
                if (out == null) {
                    file = temp.resolveSibling(temp.getFileName() + "." + table + "." + total + ".csv");
                    out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                }
                int length = writeLine(out, json, scan(json, bigint));
                longest = Math.max(longest, length);
                bytes += length;
                inFile++;
                total++;
                if (inFile == CHUNK_ROWS || bytes >= CHUNK_BYTES) {
                    out.close();
                    out = null;
                    pieces.put(new Piece(file, inFile, longest, null, false));
                    file = null;
                    inFile = 0;
                    bytes = 0;
                    longest = 0;
                }
            }
            if (out != null) {
                out.close();
                out = null;
                pieces.put(new Piece(file, inFile, longest, null, false));
                file = null;
            }
            pieces.put(new Piece(null, total, 0, null, true));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException | IOException | RuntimeException e) {
            SQLException failure = e instanceof SQLException se ? se
                    : new SQLException("cannot hand rows of table " + table + " to DuckDB: " + e.getMessage(), e);
            SQLException mismatch = StorageClassCheck.firstMismatch(lite, table, columns);
            List<Piece> dropped = new java.util.ArrayList<>();
            pieces.drainTo(dropped); // (they never reach the loader)
            dropped.forEach(p -> delete(p.file()));
            pieces.offer(new Piece(null, 0, 0, mismatch != null ? mismatch : failure, true));
        } finally {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // removed below
                }
            }
            delete(file);
        }
    }

    /**
     * {@code SELECT json_array(<columns>) FROM <table>}: SQLite's rendering of a row. BIGINT
     * columns go as they are ({@link #scan} checks them); a BLOB column as its hex; a DOUBLE
     * column as 17 significant digits; a VARCHAR column as it is. Anything SQLite holds that the
     * column cannot take (a BLOB in a VARCHAR column, which json_array would read as JSONB and
     * lose; TEXT in a DOUBLE column) is rendered {@code {}}, which {@link #scan} refuses.
     */
    static String jsonSelect(String table, List<DuckLakeSchema.ColumnDef> columns) {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int from = 0; from < columns.size() || from == 0; from += MAX_ARGS) {
            int to = Math.min(columns.size(), from + MAX_ARGS);
            boolean first = from == 0;
            boolean last = to == columns.size();
            // several arrays joined as one: [a, b] and [c] become [a, b,c]
            String open = first ? "" : " || ',' || ltrim(";
            select.append(open).append(last ? "" : "rtrim(").append("json_array(");
            for (int i = from; i < to; i++) {
                select.append(i > from ? ", " : "").append(rendering(columns.get(i)));
            }
            select.append(')').append(last ? "" : ", ']')").append(first ? "" : ", '[')");
        }
        return select.append(" FROM ").append(SqlQuote.ident(table)).toString();
    }

    private static String rendering(DuckLakeSchema.ColumnDef c) {
        String x = SqlQuote.ident(c.name());
        return switch (c.sqliteType()) {
            case "BIGINT" -> x;
            // hex(NULL) is '': NULL stays null, an empty BLOB becomes ""
            case "BLOB" -> "CASE WHEN " + x + " IS NULL THEN NULL ELSE hex(" + x + ") END";
            case "DOUBLE" -> "CASE WHEN typeof(" + x + ") IN ('real', 'integer') THEN printf('%!.17g', " + x + ") WHEN " + x
                    + " IS NULL THEN NULL ELSE json_object() END";
            default -> "CASE WHEN typeof(" + x + ") = 'blob' THEN json_object() ELSE " + x + " END";
        };
    }

    /**
     * Scans one SQLite {@code json_array} rendering: whether it holds a backslash (a JSON escape),
     * that every field of a BIGINT column is an integer or {@code null} (json_array renders a REAL
     * with a point or an exponent and TEXT in quotes), and that no other field is {@code {}}.
     *
     * @param bigint for each column, whether it is BIGINT in SQLite
     * @return true if the rendering holds a backslash
     * @throws IOException naming the column (1-based) of the first field that does not fit
     */
    static boolean scan(byte[] jsonArray, boolean[] bigint) throws IOException {
        boolean escaped = false;
        boolean inString = false;
        int field = 0;
        int start = 1;
        int end = jsonArray.length - 1;
        for (int i = 1; i <= end; i++) {
            byte b = jsonArray[i];
            if (inString && i < end) {
                if (b < 0) {
                    i += utf8Sequence(jsonArray, i, end, field) - 1;
                } else if (b == '\\') {
                    escaped = true;
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"' && i < end) {
                inString = true;
            } else if (b == ',' || i == end) {
                if (field >= bigint.length || (bigint[field] ? !isIntegerOrNull(jsonArray, start, i)
                        : start < i && jsonArray[start] == '{')) {
                    throw new IOException("column " + (field + 1) + " holds a value of a storage class its declared type cannot take");
                }
                field++;
                start = i + 1;
            }
        }
        if (field != bigint.length) {
            throw new IOException("SQLite rendered " + field + " fields for " + bigint.length + " columns");
        }
        return escaped;
    }

    /**
     * The length of the UTF-8 sequence starting with the non-ASCII byte at {@code at}: SQLite
     * passes text's bytes through as they are stored, and DuckDB's VARCHAR must be valid UTF-8
     * (https://www.rfc-editor.org/rfc/rfc3629#section-4: no overlong forms, no surrogates, at
     * most U+10FFFF).
     *
     * @throws IOException naming the column (1-based) if the bytes are not valid UTF-8
     */
    private static int utf8Sequence(byte[] a, int at, int end, int field) throws IOException {
        int b = a[at] & 0xff;
        int length = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
        boolean valid = length > 0 && at + length <= end;
        for (int k = 1; valid && k < length; k++) {
            valid = (a[at + k] & 0xC0) == 0x80;
        }
        if (valid && length > 2) {
            int second = a[at + 1] & 0xff;
            valid = !(b == 0xE0 && second < 0xA0) && !(b == 0xED && second >= 0xA0)
                    && !(b == 0xF0 && second < 0x90) && !(b == 0xF4 && second >= 0x90);
        }
        if (!valid) {
            throw new IOException("column " + (field + 1) + " holds text that is not valid UTF-8 (hex "
                    + java.util.HexFormat.of().formatHex(a, at, Math.min(end, at + 4)) + "); fix that value in the SQLite catalog");
        }
        return length;
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
     * re-encoded field by field (strings unescaped, quotes doubled).
     *
     * @param escaped whether the rendering holds a backslash ({@link #scan})
     * @return the line's length in bytes, without its newline
     */
    static int writeLine(OutputStream out, byte[] jsonArray, boolean escaped) throws IOException {
        if (!escaped) {
            out.write(jsonArray, 1, jsonArray.length - 2);
            out.write('\n');
            return jsonArray.length - 2;
        }
        byte[] line = reencode(jsonArray);
        out.write(line);
        out.write('\n');
        return line.length;
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
                line.append(first ? "" : ",");
                first = false;
                if (t == JsonToken.VALUE_STRING) {
                    line.append('"').append(p.getText().replace("\"", "\"\"")).append('"');
                } else {
                    line.append(p.getText()); // null and numbers as written
                }
            }
        }
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One typed {@code read_csv} of {@code file} inside {@code INSERT … SELECT CAST(…)}; a file
     * whose longest line exceeds read_csv's default line limit is read with a larger one (which
     * costs DuckDB buffers of several times that size, so only then).
     */
    private static long insert(Connection duck, String table, List<DuckLakeSchema.ColumnDef> columns, Path file, int longest) throws SQLException {
        StringBuilder spec = new StringBuilder("{");
        StringBuilder casts = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            DuckLakeSchema.ColumnDef c = columns.get(i);
            String stored = c.sqliteType().equals("BIGINT") ? "BIGINT" : "VARCHAR";
            spec.append(i > 0 ? ", " : "").append("'c").append(i).append("': '").append(stored).append('\'');
            casts.append(i > 0 ? ", " : "");
            String value = c.sqliteType().equals("BLOB") ? "from_hex(c" + i + ")" : "c" + i;
            casts.append(c.duckType().equals(stored) ? value : "CAST(" + value + " AS " + c.duckType() + ")");
        }
        spec.append('}');
        String lineSize = "";
        if (longest + 2 > DEFAULT_MAX_LINE) {
            long size = longest + 1024L;
            lineSize = CsvOptions.lineSizeOptions(size);
        }
        try (Statement s = duck.createStatement()) {
            return s.executeLargeUpdate("INSERT INTO cat.main." + SqlQuote.ident(table) + " SELECT " + casts + " FROM read_csv("
                    + SqlQuote.literal(file.toAbsolutePath().toString()) + ", columns = " + spec
                    + ", header = false, delim = ',', quote = '\"', escape = '\"', nullstr = 'null',"
                    + " allow_quoted_nulls = false, auto_detect = false, new_line = '\\n'" + lineSize + ")");
        }
    }

    private static void delete(Path file) {
        if (file != null) {
            AtomicFile.deleteQuietly(file);
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
}
