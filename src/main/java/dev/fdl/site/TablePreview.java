package dev.fdl.site;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.util.SqlQuote;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a version page shows of each table's data, read by fdl's built-in reader
 * ({@link BuiltInReader}: DuckDB core, no extension) when the page is rendered: the first
 * {@value #ROWS} rows, as {@code fdl query "SELECT * FROM t"} returns them, and per column the
 * null count, an approximate distinct count (DuckDB's {@code approx_count_distinct}, HyperLogLog),
 * the minimum and the maximum over the table's rows at the version. A version page is rendered
 * once (its inputs do not change), so each version's tables are read once.
 */
final class TablePreview {
    /** Rows shown per table. */
    static final int ROWS = 20;
    /** Text longer than this many characters is cut, its full length said. */
    static final int CUT = 80;

    /** One column's statistics; min and max as DuckDB's text of the value, null when the column holds no value. */
    record ColumnStats(String column, String type, long nulls, long distinct, String min, String max) {}

    /** A table's first rows (each value as {@code fdl query} prints it; null for NULL) and its columns' statistics (null: could not be computed). */
    record Table(List<String> columns, List<List<String>> rows, long rowCount, List<ColumnStats> stats) {}

    private TablePreview() {}

    /**
     * Reads every table of the newest snapshot of {@code catalog}, keyed {@code schema.table}.
     *
     * @param pool     where the DuckDB instance reading it comes from
     * @param dataPath where the catalog's data files are (a local folder)
     * @throws FdlException when the catalog or a data file cannot be read (the page then shows no preview)
     */
    static Map<String, Table> read(DuckDbPool pool, Path catalog, String dataPath) {
        Map<String, Table> out = new LinkedHashMap<>();
        try (BuiltInReader reader = BuiltInReader.open(pool, catalog, dataPath, null)) {
            for (String t : reader.tables()) {
                int dot = t.indexOf('.');
                String relation = SqlQuote.qualified(t.substring(0, dot), t.substring(dot + 1));
                QueryResult first = reader.query("SELECT * FROM " + relation + " LIMIT " + ROWS);
                List<List<String>> rows = new ArrayList<>();
                for (List<Object> r : first.rows()) {
                    List<String> row = new ArrayList<>(r.size());
                    for (Object v : r) row.add(text(v));
                    rows.add(row);
                }
                List<ColumnStats> stats = new ArrayList<>();
                long count = statistics(reader, relation, first, stats);
                out.put(t, new Table(first.columns(), rows, count, stats.size() == first.columns().size() ? stats : null));
            }
        }
        return out;
    }

    /**
     * Fills {@code out} with each column's statistics in one scan of the table; leaves it empty
     * when DuckDB cannot aggregate a column's type. Returns the table's row count (-1: unknown).
     */
    private static long statistics(BuiltInReader reader, String relation, QueryResult shape, List<ColumnStats> out) {
        StringBuilder sql = new StringBuilder("SELECT count(*)");
        for (String c : shape.columns()) {
            String col = SqlQuote.ident(c);
            sql.append(", count(*) - count(").append(col).append("), approx_count_distinct(").append(col).append("), CAST(min(").append(col)
                    .append(") AS VARCHAR), CAST(max(").append(col).append(") AS VARCHAR)");
        }
        QueryResult r;
        try {
            r = reader.query(sql.append(" FROM ").append(relation).toString());
        } catch (FdlException e) {
            return -1; // a type DuckDB cannot aggregate: no statistics, the preview stays
        }
        List<Object> row = r.rows().get(0);
        for (int i = 0; i < shape.columns().size(); i++) {
            int at = 1 + 4 * i;
            out.add(new ColumnStats(shape.columns().get(i), shape.types().get(i), number(row.get(at)), number(row.get(at + 1)),
                    (String) row.get(at + 2), (String) row.get(at + 3)));
        }
        return number(row.get(0));
    }

    private static long number(Object v) {
        return v == null ? 0 : ((Number) v).longValue();
    }

    /** A value as {@code fdl query} prints it (a DECIMAL in plain notation); null for NULL. */
    static String text(Object v) {
        if (v == null) return null;
        if (v instanceof BigDecimal d) return d.toPlainString();
        return v.toString();
    }

    /** A cell's HTML: escaped, NULL marked, text over {@value #CUT} characters cut with its full length said. */
    static String cell(String v) {
        if (v == null) return "<span class=\"null\">NULL</span>";
        int length = v.codePointCount(0, v.length());
        if (length <= CUT) return Html.esc(v);
        return Html.esc(v.substring(0, v.offsetByCodePoints(0, CUT))) + "<span class=\"cut\">&hellip; ("
                + String.format(Locale.ROOT, "%,d", length) + " characters)</span>";
    }

    /** The preview and statistics of one table as HTML ({@code table.preview}, {@code table.stats}). */
    static String html(Table t, String table) {
        StringBuilder b = new StringBuilder(2048);
        b.append("<h4>First rows</h4>\n");
        if (t.rows().isEmpty()) b.append("<p class=\"muted\">No rows.</p>\n");
        else {
            b.append("<div class=\"scroll\"><table class=\"preview\" data-table=\"").append(Html.esc(table)).append("\"><tr>");
            for (String c : t.columns()) b.append("<th>").append(Html.esc(c)).append("</th>");
            b.append("</tr>\n");
            for (List<String> r : t.rows()) {
                b.append("<tr>");
                for (String v : r) b.append("<td>").append(cell(v)).append("</td>");
                b.append("</tr>\n");
            }
            b.append("</table></div>\n");
            if (t.rowCount() > t.rows().size())
                b.append("<p class=\"muted\">The first ").append(t.rows().size()).append(" of ")
                        .append(String.format(Locale.ROOT, "%,d", t.rowCount())).append(" rows.</p>\n");
        }
        if (t.stats() != null) {
            b.append("<h4>Column statistics</h4>\n<div class=\"scroll\"><table class=\"stats\" data-table=\"").append(Html.esc(table))
                    .append("\"><tr><th>column</th><th class=\"num\">nulls</th><th class=\"num\">distinct (approx.)</th><th>min</th><th>max</th></tr>\n");
            for (ColumnStats s : t.stats()) {
                b.append("<tr data-column=\"").append(Html.esc(s.column())).append("\" data-nulls=\"").append(s.nulls())
                        .append("\" data-distinct=\"").append(s.distinct()).append("\"><td>").append(Html.esc(s.column()))
                        .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", s.nulls()))
                        .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", s.distinct()))
                        .append("</td><td class=\"min\">").append(cell(s.min())).append("</td><td class=\"max\">").append(cell(s.max()))
                        .append("</td></tr>\n");
            }
            b.append("</table></div>\n<p class=\"muted\">Over the version's ").append(String.format(Locale.ROOT, "%,d", t.rowCount()))
                    .append(" rows; the distinct count is approximate (HyperLogLog, DuckDB's <code>approx_count_distinct</code>).</p>\n");
        }
        return b.toString();
    }
}
