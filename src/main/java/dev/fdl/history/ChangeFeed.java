package dev.fdl.history;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.read.CatalogDiff;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code fdl diff <a> <b> --changes}: the change feed between two versions, one record per row
 * change with {@code change_type} {@code insert}, {@code delete}, {@code update_preimage} or
 * {@code update_postimage} (DuckLake's {@code table_changes} and Delta's change data feed name them
 * so), keyed by the table's recorded key where it has one (a changed row is one update pair), else
 * inserts and deletes by multiset difference (docs/history.md). Deleting the {@code delete} and
 * {@code update_preimage} records from version a's rows and adding the {@code insert} and
 * {@code update_postimage} records gives version b's rows, over the columns both versions have.
 * The rows come from {@link CatalogDiff}, the one home of "rows differing between two versions";
 * the files are written by DuckDB's {@code COPY}.
 */
public final class ChangeFeed {
    /** How records are written: CSV with a header, one JSON object per line, or Parquet. */
    public enum Format {
        CSV, JSON, PARQUET;

        /** The file name extension and DuckDB's COPY format name. */
        String extension() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @throws FdlException usage error naming the accepted formats
         */
        public static Format parse(String text) {
            for (Format f : values()) if (f.extension().equalsIgnoreCase(text)) return f;
            throw FdlException.usage("unknown --format '" + text + "': give csv, json or parquet");
        }
    }

    /**
     * One change feed.
     *
     * @param table  null: every table; else {@code [schema.]table}
     * @param keys   null: per table its recorded key; empty: whole rows
     * @param output null: the caller's stream (CSV and JSON only); else a file, or with several tables
     *               and CSV or Parquet a folder receiving {@code <schema>.<table>.<format>} per table
     */
    public record Request(CatalogDiff.DiffSide a, CatalogDiff.DiffSide b, String table, List<String> keys, Format format, Path output) {}

    /** What was written: tables with at least one record, and records in all. */
    public record FeedResult(int tables, long records) {}

    private final DuckDbPool pool;

    /** A feed computed on DuckDB instances of {@code pool}. */
    public ChangeFeed(DuckDbPool pool) {
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
    }

    /**
     * Writes the feed of {@code request} to its output, or to {@code stdout} when it names none.
     *
     * @throws FdlException usage error for Parquet without {@code --output}, CSV or Parquet of every
     *                      table into one file, or a table with a column named {@code change_type};
     *                      otherwise as {@link CatalogDiff#run} fails
     */
    public FeedResult write(Request request, java.io.Writer stdout) {
        Format format = request.format();
        boolean perTable = request.table() == null && format != Format.JSON;
        if (request.output() == null && format == Format.PARQUET)
            throw FdlException.usage("--format parquet writes a file: name it with --output");
        if (perTable && (request.output() == null || (Files.exists(request.output()) && !Files.isDirectory(request.output()))))
            throw FdlException.usage("--format " + format.extension() + " writes one table per file: name the table with --table, "
                    + "or a folder with --output to get one file per table");
        Path tmp;
        try {
            tmp = Files.createTempDirectory("fdl-changes-");
            if (perTable) Files.createDirectories(request.output());
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot write the change feed: " + e.getMessage(), e);
        }
        FeedWriter writer = new FeedWriter(request, tmp, perTable, stdout);
        try {
            new CatalogDiff(pool).run(new CatalogDiff.Request(request.a(), request.b(), request.table(), request.keys(), false, true), writer);
            writer.finish();
            return new FeedResult(writer.tables, writer.records);
        } finally {
            try (Stream<Path> files = Files.walk(tmp)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a temporary folder left behind
            }
        }
    }

    /** The row count DuckDB reports for a COPY. */
    static long copied(Statement st, String copy) throws SQLException {
        if (st.execute(copy)) {
            try (ResultSet rs = st.getResultSet()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
        return Math.max(0, st.getUpdateCount());
    }

    /** Receives each table's feed from the diff and copies it out with DuckDB. */
    private static final class FeedWriter implements CatalogDiff.Sink {
        private final Request request;
        private final Path tmp;
        private final boolean perTable;
        private final java.io.Writer stdout;
        private final List<Path> parts = new ArrayList<>();
        int tables;
        long records;

        FeedWriter(Request request, Path tmp, boolean perTable, java.io.Writer stdout) {
            this.request = request;
            this.tmp = tmp;
            this.perTable = perTable;
            this.stdout = stdout;
        }

        @Override
        public void changes(String table, List<String> columns, String select, Connection duck) throws SQLException {
            Format format = request.format();
            if (format != Format.JSON && columns.stream().anyMatch(c -> Identifiers.same(c, "change_type")))
                throw FdlException.usage("table " + table + " has a column named change_type, which the change feed adds: "
                        + "use --format json, which keeps each row's columns under \"row\"");
            String query = select;
            if (format == Format.JSON) {
                List<String> fields = new ArrayList<>();
                for (String c : columns) fields.add(SqlQuote.literal(c) + ": r." + SqlQuote.ident(c));
                query = "SELECT " + SqlQuote.literal(table) + " AS \"table\", r.change_type, {" + String.join(", ", fields)
                        + "} AS \"row\" FROM (" + select + ") AS r";
            }
            Path target = perTable ? request.output().resolve(table + "." + format.extension())
                    : request.output() != null && format == Format.PARQUET ? request.output()
                    : tmp.resolve("part-" + parts.size() + "." + format.extension());
            String options = switch (format) {
                case CSV -> "FORMAT csv, HEADER true";
                case JSON -> "FORMAT json";
                case PARQUET -> "FORMAT parquet";
            };
            long n;
            try (Statement st = duck.createStatement()) {
                n = copied(st, "COPY (" + query + ") TO " + SqlQuote.literal(target.toString()) + " (" + options + ")");
            }
            if (n == 0 && (perTable || format != Format.PARQUET)) {
                deleteQuietly(target);
                return;
            }
            tables++;
            records += n;
            if (!perTable && !(request.output() != null && format == Format.PARQUET)) parts.add(target);
        }

        /** Concatenates the parts (CSV: one table's, JSON: every table's lines) into the output or {@code stdout}. */
        void finish() {
            if (perTable || (request.output() != null && request.format() == Format.PARQUET)) return;
            try {
                if (request.output() != null) {
                    try (OutputStream out = Files.newOutputStream(request.output())) {
                        for (Path p : parts) Files.copy(p, out);
                    }
                } else {
                    for (Path p : parts) {
                        try (java.io.Reader r = Files.newBufferedReader(p)) {
                            r.transferTo(stdout);
                        }
                    }
                    stdout.flush();
                }
            } catch (IOException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "cannot write the change feed to " + (request.output() == null ? "stdout" : request.output()) + ": " + e.getMessage(), e);
            }
        }

        private static void deleteQuietly(Path p) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // an empty part left in the temporary folder
            }
        }
    }
}
