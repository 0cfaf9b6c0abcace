package dev.fdl.site;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.TableSummary;
import dev.fdl.history.SnapshotOwners;
import dev.fdl.repo.VersionInfo;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a version page shows of each table's data ({@link TableSummary}, read without the DuckLake
 * extension when the page is rendered): the first {@value #ROWS} rows, as {@code fdl query "SELECT
 * * FROM t"} returns them, and per column the null count, an approximate distinct count, the
 * minimum and the maximum over the table's rows at the version, combined from per-data-file
 * statistics kept in the local cache (DuckLake's own per-file statistics where the catalog has
 * them), so versions sharing data files read each file once.
 */
final class TablePreview {
    /** Rows shown per table. */
    static final int ROWS = 20;
    /** Text longer than this many characters is cut, its full length said. */
    static final int CUT = 80;

    private TablePreview() {}

    /**
     * Reads every table of the newest snapshot of {@code catalog}, keyed {@code schema.table},
     * with the row counts {@code since} that snapshot when not null ({@link TableSummary#read}).
     *
     * @param pool     where the DuckDB connection reading it comes from
     * @param dataPath where the catalog's data files are (a local folder; for a remote repository the mirror {@code fetcher} fills)
     * @param fetcher  null when every data file is in {@code dataPath}
     * @param store    the data files' statistics kept between runs
     * @throws FdlException when the catalog or a data file cannot be read (the page then shows no preview)
     */
    static TableSummary.Summary read(DuckDbPool pool, Path catalog, String dataPath, TableSummary.Fetcher fetcher,
                                     TableSummary.Store store, Long since) {
        return TableSummary.read(pool, catalog, dataPath, fetcher, store, ROWS, since);
    }

    /** The tables of {@code s} by {@code schema.table}. */
    static Map<String, TableSummary.Table> byName(TableSummary.Summary s) {
        Map<String, TableSummary.Table> out = new LinkedHashMap<>();
        for (TableSummary.Table t : s.tables()) out.put(t.name(), t);
        return out;
    }

    /** The cell naming the version that last added or changed a row: a link to its page, or {@code expired}. */
    static String blameCell(SnapshotOwners.Owner owner) {
        if (owner.expired()) return "<td class=\"blame\"><span class=\"expired\">expired</span></td>";
        VersionInfo v = owner.version();
        return "<td class=\"blame\"><a class=\"id\" href=\"" + v.id() + ".html\" title=\"" + Html.esc("seq " + v.seq() + ", "
                + v.createdAt() + ", " + v.author().name() + ": " + v.message()) + "\">" + v.id().substring(0, 13) + "</a></td>";
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
    static String html(TableSummary.Table t, String table) {
        return html(t, table, List.of());
    }

    /**
     * {@link #html(TableSummary.Table, String)} with, when {@code owners} has one per first row, a
     * first column naming the version that last added or changed each row (docs/history.md), a link
     * to its page (version pages are siblings), or {@code expired}.
     */
    static String html(TableSummary.Table t, String table, List<SnapshotOwners.Owner> owners) {
        boolean blame = !owners.isEmpty() && owners.size() == t.rows().size();
        StringBuilder b = new StringBuilder(2048);
        b.append("<h4>First rows</h4>\n");
        if (t.rows().isEmpty()) b.append("<p class=\"muted\">No rows.</p>\n");
        else {
            b.append("<div class=\"scroll\"><table class=\"preview\" data-table=\"").append(Html.esc(table)).append("\"><tr>");
            if (blame) b.append("<th class=\"blame\" title=\"the version that last added or changed the row\">version</th>");
            for (String c : t.columns()) b.append("<th>").append(Html.esc(c)).append("</th>");
            b.append("</tr>\n");
            for (int i = 0; i < t.rows().size(); i++) {
                List<String> r = t.rows().get(i);
                b.append("<tr>");
                if (blame) b.append(blameCell(owners.get(i)));
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
            for (TableSummary.ColumnStats s : t.stats()) {
                b.append("<tr data-column=\"").append(Html.esc(s.column())).append("\" data-nulls=\"").append(s.nulls())
                        .append("\" data-distinct=\"").append(s.distinct()).append("\"><td>").append(Html.esc(s.column()))
                        .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", s.nulls()))
                        .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", s.distinct()))
                        .append("</td><td class=\"min\">").append(cell(s.min())).append("</td><td class=\"max\">").append(cell(s.max()))
                        .append("</td></tr>\n");
            }
            b.append("</table></div>\n<p class=\"muted\">Over the version's ").append(String.format(Locale.ROOT, "%,d", t.rowCount()))
                    .append(" rows; the distinct count is approximate (HyperLogLog: DuckDB's <code>approx_count_distinct</code> for a table of one data file, "
                    + "else a sketch combined from each data file's).</p>\n");
        }
        return b.toString();
    }
}
