package dev.fdl.ducklake.load;

import dev.fdl.ducklake.engine.Identifiers;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.util.Json;
import dev.fdl.util.SqlQuote;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import dev.fdl.ducklake.convert.DuckDbTableLoad;
import dev.fdl.ducklake.engine.CsvOptions;
import dev.fdl.ducklake.engine.DuckDbErrors;

/**
 * A CSV file as {@code fdl import} reads it: DuckDB's sniffer detects the dialect and column types
 * over the <em>whole</em> file ({@code sample_size = -1}), and the file is then read with that
 * dialect spelled out ({@code auto_detect = false}), so the read cannot guess differently.
 *
 * <p>Why the whole file: DuckDB samples 20,480 rows by default. A quote that first appears after
 * the sample (a {@code "late, quoted"} field at line 25,000) is then either a parse error or, when
 * the field holds no delimiter, silently kept as part of the value. Sniffing everything costs about
 * one more read of the file and never imports wrongly.
 *
 * <p>A ragged file (a row with more or fewer fields than the header) defeats the sniffer: it
 * reads as one text column, not at all, or with lines skipped so that a wider row becomes the
 * header. Then the header is split on each usual delimiter and
 * the file read strictly with it, and DuckDB's own complaint names the first bad line, which the
 * refusal quotes.
 */
public final class CsvSource {
    /** The delimiters DuckDB's sniffer tries (its documented candidates). */
    private static final String[] DELIMITERS = {",", ";", "\t", "|"};
    private static final Pattern BAD_LINE = Pattern.compile(
            "CSV Error on Line: (\\d+)\\s*\\n\\s*Original Line: ([^\\n]*)\\n\\s*Expected Number of Columns: (\\d+) Found: (\\d+)");

    private final Path source;
    private final Map<String, String> columns;
    private final String options;
    private final boolean sampled;

    private CsvSource(Path source, Map<String, String> columns, String options, boolean sampled) {
        this.source = source;
        this.columns = columns;
        this.options = options;
        this.sampled = sampled;
    }

    /** The file's columns and DuckDB types, in file order, as the whole-file sniff found them. */
    Map<String, String> columns() {
        return columns;
    }

    /**
     * The relation that reads the file with the detected dialect; {@code types} replace the
     * detected type of the columns they name (the reader itself uses them, so {@code 01234} read
     * as VARCHAR stays text).
     */
    String relation(Map<String, String> types) {
        StringBuilder cols = new StringBuilder("{");
        for (Map.Entry<String, String> c : columns.entrySet()) {
            String type = c.getValue();
            for (Map.Entry<String, String> t : types.entrySet()) if (Identifiers.same(t.getKey(), c.getKey())) type = t.getValue();
            if (cols.length() > 1) cols.append(", ");
            cols.append(SqlQuote.literal(c.getKey())).append(": ").append(SqlQuote.literal(type));
        }
        if (sampled) return guardedRelation();
        return "read_csv(" + SqlQuote.literal(source.toAbsolutePath().toString()) + ", auto_detect = false" + options
                + ", columns = " + cols.append('}') + ")";
    }

    /**
     * The types a sample's sniff may give for the fast path, with the check that a value read as
     * text casts to the type without loss; DuckDB's cast alone rounds {@code 2.5} to a BIGINT 3,
     * drops a timestamp's time for a DATE and reads {@code yes} as a BOOLEAN, where the whole-file
     * sniff would have chosen another type. VARCHAR and DOUBLE hold every value the whole-file sniff
     * could give them. A sample giving another type is sniffed whole at once.
     *
     * <p>The BIGINT check passes only a value written as DuckDB writes the integer it casts to
     * ({@code 42}, {@code -7}): one parse and one rendering per value, where comparing with a cast
     * to DOUBLE parsed it twice more; a value written otherwise ({@code +5}, {@code 007},
     * {@code 1e3}) fails the read, and the whole-file sniff decides its type, so the check may be
     * stricter than the sniffer, never laxer. A DATE column whose sample gave ISO's date format is
     * not checked here but read as DATE with that format, which refuses anything else (a time
     * after the date included; {@link #DATE_READ_WITH_FORMAT}).
     */
    private static final Map<String, String> GUARDS = Map.of(
            "BIGINT", "CAST(TRY_CAST(%1$s AS BIGINT) AS VARCHAR) = %1$s",
            "DATE", "strpos(%1$s, ':') = 0 AND TRY_CAST(%1$s AS DATE) IS NOT NULL",
            "BOOLEAN", "lower(%1$s) IN ('true', 'false')");

    /**
     * read_csv's option for ISO dates: a column read as DATE with it takes {@code YYYY-MM-DD} alone
     * (strptime), and a read meeting another value fails, as a checked column's read does.
     */
    private static final String DATE_READ_WITH_FORMAT = ", dateformat = " + SqlQuote.literal("%Y-%m-%d");

    /** The check {@link #guardedRelation} applies to a column of {@code type}, or null for a column read as its type. */
    private String guard(String type) {
        if (type.equals("DATE") && options.contains(DATE_READ_WITH_FORMAT)) return null;
        return GUARDS.get(type);
    }

    /** True when every type the sample gave is VARCHAR, DOUBLE or one {@link #GUARDS} checks, with no date format but ISO's. */
    private boolean guardable() {
        // ISO dates are what CAST(… AS DATE) reads; the sniffer names their format too
        if (options.replace(DATE_READ_WITH_FORMAT, "").contains("dateformat") || options.contains("timestampformat")) return false;
        for (String type : columns.values()) {
            if (!type.equals("VARCHAR") && !type.equals("DOUBLE") && !GUARDS.containsKey(type)) return false;
        }
        return true;
    }

    /**
     * The sampled file read strictly: columns of a checked type read as text and cast in a
     * projection that raises an error (which makes the caller sniff the whole file) at the first
     * value the cast would change.
     */
    private String guardedRelation() {
        StringBuilder cols = new StringBuilder("{");
        List<String> select = new java.util.ArrayList<>();
        for (Map.Entry<String, String> c : columns.entrySet()) {
            String guard = guard(c.getValue());
            if (cols.length() > 1) cols.append(", ");
            cols.append(SqlQuote.literal(c.getKey())).append(": ").append(SqlQuote.literal(guard == null ? c.getValue() : "VARCHAR"));
            String q = SqlQuote.ident(c.getKey());
            select.add(guard == null ? q : "CASE WHEN " + q + " IS NULL THEN NULL WHEN " + String.format(guard, q) + " THEN TRY_CAST(" + q
                    + " AS " + c.getValue() + ") ELSE error('a value outside the sniffed sample''s type') END AS " + q);
        }
        return "(SELECT " + String.join(", ", select) + " FROM read_csv(" + SqlQuote.literal(source.toAbsolutePath().toString())
                + ", auto_detect = false" + options + ", columns = " + cols.append('}') + "))";
    }

    /**
     * The longest CSV line fdl reads, in bytes (64 MiB). DuckDB's reader refuses lines over its
     * {@code max_line_size} (2,000,000 bytes by default) and sizes its buffers by it (fdl gives it
     * twice as much), so a file with a longer line is read with a limit raised to fit, up to this
     * bound, beyond which memory would grow with whatever the file holds (e.g. a binary file).
     */
    static final long LINE_LIMIT = 64L << 20;

    /**
     * read_csv's size options for DuckDB's default line size, spelled out: a buffer of two lines
     * (4 MB) instead of DuckDB's default 32 MB per reading thread, which alone would not fit a
     * small memory budget ({@code --memory 64MB}: two threads' buffers are the whole of it).
     */
    private static final String DEFAULT_LINE_SIZE = CsvOptions.lineSizeOptions(DuckDbTableLoad.DEFAULT_MAX_LINE);

    /**
     * read_csv's option reading an empty field and each of {@code nullStrings} as NULL
     * ({@code --null-string}), or nothing for none: DuckDB's {@code nullstr} list replaces its
     * default (the empty field), which stays in it, so "empty is NULL" holds either way.
     */
    static String nullOption(List<String> nullStrings) {
        if (nullStrings.isEmpty()) return "";
        java.util.Set<String> all = new java.util.LinkedHashSet<>();
        all.add("");
        all.addAll(nullStrings);
        return ", nullstr = [" + String.join(", ", all.stream().map(SqlQuote::literal).toList()) + "]";
    }

    /**
     * Sniffs {@code source} over its whole length, fields holding one of {@code nullStrings} read
     * as NULL ({@link #nullOption}); a file with a line longer than DuckDB's default
     * {@code max_line_size} is sniffed and read again with a limit that fits its longest line, up
     * to {@link #LINE_LIMIT}.
     *
     * @throws FdlException naming the file (and for a ragged file the first bad line, quoted) when
     *                      DuckDB cannot read it as CSV with a header, or the line over the limit
     */
    static CsvSource sniff(Connection duck, Path source, List<String> nullStrings) {
        return sniff(duck, source, nullStrings, LINE_LIMIT);
    }

    /** {@link #sniff(Connection, Path, List)} with another line limit in bytes (for tests). */
    static CsvSource sniff(Connection duck, Path source, List<String> nullStrings, long lineLimit) {
        String nulls = nullOption(nullStrings);
        try {
            try {
                return sniff(duck, source, DEFAULT_LINE_SIZE + nulls);
            } catch (SQLException e) {
                if (!MAX_LINE_SIZE.matcher(String.valueOf(e.getMessage())).find()) throw e;
                // raised to fit the longest line (DuckDB counts its break too, two bytes in a CRLF
                // file), doubled again while DuckDB still finds a longer one (a quoted field may
                // span lines), never past the bound
                long[] longest = longestLine(source);
                if (longest != null && longest[1] + 2 > lineLimit) throw lineTooLong(source, e, lineLimit);
                long size = DuckDbTableLoad.DEFAULT_MAX_LINE;
                SQLException last = e;
                while (size < lineLimit) {
                    size = Math.min(lineLimit, Math.max(2 * size, longest == null ? 0 : longest[1] + 2));
                    try {
                        return sniff(duck, source, CsvOptions.lineSizeOptions(size) + nulls);
                    } catch (SQLException again) {
                        if (!MAX_LINE_SIZE.matcher(String.valueOf(again.getMessage())).find()) throw again;
                        last = again;
                    }
                }
                throw lineTooLong(source, last, lineLimit);
            }
        } catch (SQLException e) {
            if (ImportFormat.gzipped(source)) Importer.checkGzip(source); // truncated or empty: say so
            FdlException tooLong = lineTooLong(source, e, lineLimit);
            if (tooLong != null) throw tooLong;
            refuseIfRagged(duck, source);
            if (String.valueOf(e.getMessage()).contains("Invalid unicode")) refuseNotUtf8(source, e);
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read " + source + " as CSV: " + DuckDbErrors.duckError(e), e);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * The first pass of a fast import: DuckDB's sniffer over its default sample (the first 20,480
     * rows) with RFC 4180's quote and escape ({@code "}) pinned, so a quote first used after the
     * sample is still a quote when the file is read. The caller reads the file strictly with the
     * result ({@link #sampled()}) and, when that read fails for any reason (a late value of another
     * type, a late ragged row, a late bad byte, another quote character), sniffs the whole file with
     * {@link #sniff(Connection, Path, List)} and reads again, so every refusal and every type is as the
     * whole-file sniff gives it. Null when the sample cannot be sniffed (the whole-file sniff then
     * says why). Fields holding one of {@code nullStrings} are NULL ({@link #nullOption}).
     */
    static CsvSource sniffSample(Connection duck, Path source, List<String> nullStrings) {
        try {
            CsvSource sampled = sniff(duck, source, DEFAULT_LINE_SIZE + nullOption(nullStrings), SAMPLE);
            return sampled.guardable() ? sampled : null;
        } catch (SQLException | IOException | FdlException e) {
            return null;
        }
    }

    /** The sniffer's options of {@link #sniffSample}: the default sample, RFC 4180's quote and escape. */
    private static final String SAMPLE = ", quote = '\"', escape = '\"'";

    /** True when the dialect and types come from the sample alone ({@link #sniffSample}). */
    boolean sampled() {
        return sampled;
    }

    /**
     * One sniff of the whole file with {@code fixed} (read_csv's size options, then the null option
     * of {@link #nullOption}) added to the sniff and to every read of the result.
     */
    private static CsvSource sniff(Connection duck, Path source, String fixed) throws SQLException, IOException {
        return sniff(duck, source, fixed, ", sample_size = -1");
    }

    private static CsvSource sniff(Connection duck, Path source, String fixed, String sample) throws SQLException, IOException {
        String path = SqlQuote.literal(source.toAbsolutePath().toString());
        String sql = "SELECT Delimiter, Quote, Escape, NewLineDelimiter, Comment, SkipRows, HasHeader, DateFormat, "
                + "TimestampFormat, to_json(Columns) FROM sniff_csv(" + path + ", header = true" + sample + fixed + ")";
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            StringBuilder o = new StringBuilder(fixed);
            o.append(", delim = ").append(SqlQuote.literal(option(rs.getString(1))));
            o.append(", quote = ").append(SqlQuote.literal(option(rs.getString(2))));
            o.append(", escape = ").append(SqlQuote.literal(option(rs.getString(3))));
            String newLine = option(rs.getString(4));
            if (!newLine.isEmpty()) o.append(", new_line = ").append(SqlQuote.literal(newLine));
            o.append(", comment = ").append(SqlQuote.literal(option(rs.getString(5))));
            o.append(", skip = ").append(rs.getLong(6));
            o.append(", header = ").append(rs.getBoolean(7));
            String date = rs.getString(8);
            if (date != null && !date.isEmpty()) o.append(", dateformat = ").append(SqlQuote.literal(date));
            String ts = rs.getString(9);
            if (ts != null && !ts.isEmpty()) o.append(", timestampformat = ").append(SqlQuote.literal(ts));
            Map<String, String> columns = new LinkedHashMap<>();
            for (JsonNode c : Json.MAPPER.readTree(rs.getString(10))) columns.put(c.get("name").asText(), c.get("type").asText());
            // one column, or lines skipped before the header: a ragged row may have fooled the sniffer
            // (a wider last line is taken as the header after skipping the real one)
            if (columns.size() == 1 || rs.getLong(6) > 0) refuseIfRagged(duck, source, fixed);
            if (rs.getBoolean(7)) refuseDuplicateHeader(duck, source, o.toString());
            return new CsvSource(source, columns, o.toString(), !sample.contains("sample_size = -1"));
        }
    }

    /**
     * Refuses a header that names a column twice (names compare as DuckDB's identifiers do,
     * ignoring case): DuckDB's reader would rename the second ({@code id_1}) and the table would get
     * a column nobody named. The header is read by DuckDB itself, with the sniffed dialect, as a row.
     */
    private static void refuseDuplicateHeader(Connection duck, Path source, String dialect) throws SQLException {
        String noHeader = dialect.replace(", header = true", ", header = false");
        String sql = "SELECT * FROM read_csv(" + SqlQuote.literal(source.toAbsolutePath().toString()) + noHeader
                + ", all_varchar = true) LIMIT 1";
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) return;
            Map<String, Integer> seen = new java.util.HashMap<>();
            int n = rs.getMetaData().getColumnCount();
            for (int i = 1; i <= n; i++) {
                String name = rs.getString(i);
                if (name == null) continue;
                Integer first = seen.putIfAbsent(Identifiers.fold(name), i);
                if (first != null) {
                    throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": its header names column '" + name
                            + "' twice (fields " + first + " and " + i + "; names are compared ignoring case); "
                            + "rename one in the header line and import again");
                }
            }
        }
    }

    private static final Pattern NOT_CONVERTED = Pattern.compile("Could not convert string \"(.*)\" to");

    /**
     * Warnings for the columns that the sample typed ({@code sampleTypes}: BIGINT, DATE, …) but that
     * this whole-file sniff reads as text because of a later value: each names the column, the
     * first line (1 = the header) and value the sample's type does not hold, and how to keep the
     * type. Found by one more read of the file with the sample's types for those columns, DuckDB's
     * rejects table recording each value that does not cast; none when no column became text.
     */
    List<String> widenedToText(Connection duck, Map<String, String> sampleTypes) throws SQLException {
        Map<String, String> widened = new LinkedHashMap<>();
        for (Map.Entry<String, String> c : columns.entrySet()) {
            String was = sampleTypes.get(c.getKey());
            if (c.getValue().equals("VARCHAR") && was != null && !was.equals("VARCHAR")) widened.put(c.getKey(), was);
        }
        if (widened.isEmpty()) return List.of();
        String id = java.util.UUID.randomUUID().toString().replace("-", "");
        String table = "fdl_rejects_" + id, scan = "fdl_scans_" + id;
        StringBuilder cols = new StringBuilder("{");
        List<String> counted = new java.util.ArrayList<>();
        for (String c : columns.keySet()) {
            if (cols.length() > 1) cols.append(", ");
            cols.append(SqlQuote.literal(c)).append(": ").append(SqlQuote.literal(widened.getOrDefault(c, "VARCHAR")));
            if (widened.containsKey(c)) counted.add("count(" + SqlQuote.ident(c) + ")");
        }
        String read = "SELECT " + String.join(" + ", counted) + " FROM read_csv(" + SqlQuote.literal(source.toAbsolutePath().toString())
                + ", auto_detect = false" + options + ", columns = " + cols.append('}') + ", store_rejects = true, rejects_table = "
                + SqlQuote.literal(table) + ", rejects_scan = " + SqlQuote.literal(scan) + ")";
        List<String> warnings = new java.util.ArrayList<>();
        try (Statement st = duck.createStatement()) {
            st.executeQuery(read).close();
            for (Map.Entry<String, String> w : widened.entrySet()) {
                try (ResultSet rs = st.executeQuery("SELECT line, error_message, csv_line FROM " + table + " WHERE column_name = "
                        + SqlQuote.literal(w.getKey()) + " ORDER BY line LIMIT 1")) {
                    if (!rs.next()) continue;
                    Matcher m = NOT_CONVERTED.matcher(String.valueOf(rs.getString(2)));
                    String value = m.find() ? m.group(1) : rs.getString(3);
                    String schema = "--schema " + dev.fdl.util.ShellQuote.word(w.getKey() + " " + w.getValue());
                    warnings.add(String.format(java.util.Locale.ROOT, "column '%s' of %s was imported as text (VARCHAR), not %s: line %,d "
                            + "holds '%s', which is not a %s (the first rows held only %s values). To keep %s: when '%s' stands for a "
                            + "missing value, import again adding %s --null-string %s; otherwise correct such values (or make them empty, "
                            + "which is NULL) and import with %s", w.getKey(), source.getFileName(), w.getValue(), rs.getLong(1), value,
                            w.getValue(), w.getValue(), w.getValue(), value, schema, dev.fdl.util.ShellQuote.word(value), schema));
                }
            }
        } finally {
            try (Statement st = duck.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + table);
                st.execute("DROP TABLE IF EXISTS " + scan);
            }
        }
        return warnings;
    }

    /** sniff_csv spells "none" as {@code (empty)}; read_csv takes an empty string. */
    private static String option(String sniffed) {
        return sniffed == null || sniffed.equals("(empty)") ? "" : sniffed;
    }

    /**
     * DuckDB's complaint about a row with the wrong number of fields, reworded to name the file,
     * the line (as DuckDB counts it: the header is line 1) and to quote it; null for other errors.
     */
    static FdlException badLine(Path source, SQLException e, String delimiter) {
        Matcher m = BAD_LINE.matcher(String.valueOf(e.getMessage()));
        if (!m.find()) return null;
        String line = m.group(2).length() > 200 ? m.group(2).substring(0, 200) + "…" : m.group(2);
        return new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": line " + m.group(1) + " has "
                + m.group(4) + " fields but the header has " + m.group(3)
                + (delimiter == null ? "" : " (delimiter " + describe(delimiter) + ")") + ":\n  " + line
                + "\nfix that line (quote a field that holds the delimiter) and import again; nothing was imported", e);
    }

    private static final Pattern MAX_LINE_SIZE = Pattern.compile("Maximum line size of (\\d+) bytes exceeded");

    /**
     * DuckDB's refusal of a line longer than its {@code max_line_size}, once fdl's own bound
     * {@code limit} (bytes) is reached, reworded: the longest line of the file (counted here:
     * DuckDB's sniffer reports "Line: 1" whichever line it is), its size, the bound, and a way to
     * load the file; null for other errors.
     */
    static FdlException lineTooLong(Path source, SQLException e, long limit) {
        if (!MAX_LINE_SIZE.matcher(String.valueOf(e.getMessage())).find()) return null;
        long[] longest = longestLine(source);
        boolean found = longest != null && longest[1] + 2 > limit;
        String where = found ? String.format("line %,d (%,d bytes)", longest[0], longest[1]) : "a record";
        String path = SqlQuote.literal(source.toAbsolutePath().toString());
        return new FdlException(FdlException.Kind.FAILURE, String.format("cannot import %s: %s is longer than the %,d bytes fdl "
                + "reads in one CSV line (DuckDB's reader takes memory by it); nothing was imported. To load it, convert the file "
                + "to Parquet with DuckDB, raising the limit:%n  COPY (FROM read_csv(%s, max_line_size = %d)) TO 'out.parquet';%n"
                + "then import out.parquet", source, where, limit, path,
                2 * (found ? longest[1] : limit)), e); // headroom: a quoted field may span lines
    }

    /**
     * The longest line of {@code source} (1 = the header) in bytes without its line break, as
     * {line number, bytes}; null when the file cannot be read.
     */
    private static long[] longestLine(Path source) {
        try (InputStream in = new java.io.BufferedInputStream(openText(source), 1 << 16)) {
            long line = 1, length = 0;
            long[] longest = {1, 0};
            for (int b = in.read(); ; b = in.read()) {
                if (b == '\n' || b < 0) {
                    if (length > longest[1]) longest = new long[] {line, length};
                    if (b < 0) return longest;
                    line++;
                    length = 0;
                } else if (b != '\r') {
                    length++;
                }
            }
        } catch (IOException io) {
            return null;
        }
    }

    /**
     * The sniffer found no dialect, or only one column: when the header splits into several fields
     * on a usual delimiter, read the file strictly with it; a row with another number of fields
     * is then refused, naming and quoting the line. Returns quietly when no such row shows up.
     */
    private static void refuseIfRagged(Connection duck, Path source) {
        refuseIfRagged(duck, source, DEFAULT_LINE_SIZE);
    }

    private static void refuseIfRagged(Connection duck, Path source, String lineSize) {
        String header = firstLine(source);
        if (header == null) return;
        for (String d : DELIMITERS) {
            int n = fieldCount(header, d.charAt(0));
            if (n < 2) continue;
            StringBuilder cols = new StringBuilder("{");
            for (int i = 1; i <= n; i++) cols.append(i > 1 ? ", " : "").append("'c").append(i).append("': 'VARCHAR'");
            String sql = "SELECT count(*) FROM read_csv(" + SqlQuote.literal(source.toAbsolutePath().toString())
                    + ", auto_detect = false, header = true" + lineSize + ", delim = " + SqlQuote.literal(d)
                    + ", quote = '\"', escape = '\"', columns = " + cols.append('}') + ")";
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                rs.next();
            } catch (SQLException e) {
                FdlException bad = badLine(source, e, d);
                if (bad != null) throw bad;
            }
        }
    }

    /** Fields of {@code line} split on {@code delimiter}, delimiters inside double quotes not counted. */
    static int fieldCount(String line, char delimiter) {
        int n = 1;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') quoted = !quoted;
            else if (c == delimiter && !quoted) n++;
        }
        return n;
    }

    /**
     * Refuses a file that is not UTF-8, naming the first line holding a byte sequence that is not
     * UTF-8 (found by Java's own decoder; DuckDB's message may name another line and quote the
     * header), and what to do.
     */
    private static void refuseNotUtf8(Path source, SQLException e) {
        String name = source.getFileName().toString();
        if (!ImportFormat.gzipped(source) && startsWithGzipMagic(source))
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": it is gzip-compressed, and its name does "
                    + "not end in .gz (DuckDB takes the compression from the name); rename it to " + name + ".gz, or gunzip it, and "
                    + "import again; nothing was imported", e);
        String where = "";
        try (InputStream in = openText(source)) {
            java.nio.charset.CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(1 << 16);
            java.nio.CharBuffer chars = java.nio.CharBuffer.allocate(1 << 16);
            long line = 1;
            boolean end = false;
            while (where.isEmpty()) {
                int n = end ? -1 : in.read(bytes.array(), bytes.position(), bytes.remaining());
                if (n < 0) end = true;
                else bytes.position(bytes.position() + n);
                bytes.flip();
                int start = bytes.position();
                java.nio.charset.CoderResult r = dec.decode(bytes, chars, end);
                for (int i = start; i < bytes.position(); i++) if (bytes.get(i) == '\n') line++;
                if (r.isError()) {
                    where = ": line " + line + " holds a byte sequence that is not UTF-8 (starting with the byte 0x"
                            + String.format("%02X", bytes.get(bytes.position()) & 0xff) + ")";
                }
                chars.clear();
                bytes.compact();
                if (end && !r.isError()) break;
            }
        } catch (IOException io) {
            // the message below still says what to do
        }
        throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": it is not UTF-8 text" + where
                + "; convert it to UTF-8 (for a Latin-1 file: iconv -f latin1 -t utf-8 < in.csv > out.csv) and import again; "
                + "nothing was imported", e);
    }

    /** True when the file begins with gzip's magic bytes 1f 8b (RFC 1952, section 2.3.1). */
    private static boolean startsWithGzipMagic(Path source) {
        try (InputStream in = Files.newInputStream(source)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        } catch (IOException io) {
            return false;
        }
    }

    /** The file's bytes, decompressed when its name ends in {@code .gz}. */
    private static InputStream openText(Path source) throws IOException {
        InputStream raw = Files.newInputStream(source);
        if (!ImportFormat.gzipped(source)) return raw;
        try {
            return new GZIPInputStream(raw);
        } catch (IOException e) {
            raw.close();
            throw e;
        }
    }

    /** The file's first line (decompressed when gzipped), or null when it cannot be read as text. */
    private static String firstLine(Path source) {
        try (InputStream in = openText(source);
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return r.readLine();
        } catch (IOException e) {
            return null;
        }
    }

    private static String describe(String d) {
        return d.equals("\t") ? "tab" : "'" + d + "'";
    }
}
