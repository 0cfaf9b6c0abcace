package dev.fdl.site;

import dev.fdl.repo.ParentStat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dataset page's history at a glance: two inline SVG charts drawn by fdl (no script, no font
 * or image from anywhere, readable with JavaScript off), over a branch's first-parent history,
 * oldest version left: the rows of each table, and the rows added (up) and removed (down) per
 * version, tags marked with a dashed line and their names. The numbers are those of
 * {@code fdl log --stat} ({@link ParentStat}), kept in data attributes:
 * <ul>
 *   <li>{@code circle.point}: {@code data-version}, {@code data-table}, {@code data-rows} (the
 *       table's rows at that version), {@code data-added}, {@code data-removed} (0 and 0 when the
 *       version did not change the table; {@code data-removed=""} when unknown: the parent expired);</li>
 *   <li>{@code g.bar}: {@code data-version}, {@code data-added}, {@code data-removed}: the sums
 *       over the version's tables ({@code ""} when a table's removed rows are unknown);</li>
 *   <li>{@code g.tag}: {@code data-tag}, {@code data-version}.</li>
 * </ul>
 * A version whose change is unknown (expired: its catalog is gone) has no point and no bar.
 */
final class HistoryChart {
    private HistoryChart() {}

    /**
     * One version of the history.
     *
     * @param id      the version id
     * @param date    its creation date, as shown ({@code 2026-12-03})
     * @param changed what it changed over its first parent, as {@code fdl log --stat}; null: unknown
     * @param tags    the tags at it
     */
    record Point(String id, String date, List<ParentStat.TableStat> changed, List<String> tags) {}

    private static final int W = 760, H = 200, LEFT = 64, RIGHT = 16, TOP = 22, BOTTOM = 26;
    private static final String[] COLORS = {"#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7ea4", "#57606a"};

    /** The charts' HTML (two {@code <figure>}s), oldest version first in {@code points}; empty when no version's change is known. */
    static String render(List<Point> points) {
        if (points.stream().allMatch(p -> p.changed() == null)) return "";
        int n = points.size();
        // rows per table at each version, carried over from the version before when unchanged
        Map<String, Integer> colour = new LinkedHashMap<>();
        List<Map<String, Long>> rowsAt = new ArrayList<>();
        Map<String, Long> current = new LinkedHashMap<>();
        long maxRows = 0, maxChange = 0;
        for (Point p : points) {
            if (p.changed() != null) {
                long added = 0, removed = 0;
                for (ParentStat.TableStat t : p.changed()) {
                    colour.putIfAbsent(t.table(), colour.size());
                    if (t.dropped()) current.remove(t.table());
                    else current.put(t.table(), t.rows());
                    added += t.added();
                    removed += t.removed() == null ? 0 : t.removed();
                }
                maxChange = Math.max(maxChange, Math.max(added, removed));
                for (long r : current.values()) maxRows = Math.max(maxRows, r);
                rowsAt.add(new LinkedHashMap<>(current));
            } else {
                rowsAt.add(null);
            }
        }
        StringBuilder b = new StringBuilder(4096 + n * 200 * Math.max(1, colour.size()));
        b.append("<h2>History</h2>\n");
        // rows per table
        b.append("<figure class=\"chart\" id=\"chart-rows\"><figcaption>Rows per table across the ").append(n)
                .append(n == 1 ? " version" : " versions").append(" of the branch, oldest left</figcaption>\n");
        svgOpen(b, "rows per table across versions");
        axis(b, maxRows, false);
        tags(b, points);
        for (Map.Entry<String, Integer> t : colour.entrySet()) {
            String c = COLORS[t.getValue() % COLORS.length];
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < n; i++) {
                Map<String, Long> rows = rowsAt.get(i);
                if (rows == null || !rows.containsKey(t.getKey())) continue;
                line.append(line.length() == 0 ? "" : " ").append(x(i, n)).append(',').append(y(rows.get(t.getKey()), maxRows));
            }
            if (line.length() > 0)
                b.append("<polyline fill=\"none\" stroke=\"").append(c).append("\" stroke-width=\"1.5\" points=\"").append(line).append("\"/>\n");
        }
        for (int i = 0; i < n; i++) {
            Point p = points.get(i);
            Map<String, Long> rows = rowsAt.get(i);
            if (rows == null) continue;
            for (Map.Entry<String, Long> r : rows.entrySet()) {
                ParentStat.TableStat s = find(p.changed(), r.getKey());
                long added = s == null ? 0 : s.added();
                String removed = s == null ? "0" : s.removed() == null ? "" : Long.toString(s.removed());
                b.append("<circle class=\"point\" r=\"2.5\" cx=\"").append(x(i, n)).append("\" cy=\"").append(y(r.getValue(), maxRows))
                        .append("\" fill=\"").append(COLORS[colour.get(r.getKey()) % COLORS.length])
                        .append("\" data-version=\"").append(p.id()).append("\" data-table=\"").append(Html.esc(r.getKey()))
                        .append("\" data-rows=\"").append(r.getValue()).append("\" data-added=\"").append(added)
                        .append("\" data-removed=\"").append(removed).append("\"><title>").append(Html.esc(r.getKey())).append(" at ")
                        .append(p.id(), 0, 13).append(" (").append(p.date()).append("): ").append(rows(r.getValue()))
                        .append(s == null ? "" : ", " + change(added, s.removed() == null, s.removed() == null ? 0 : s.removed()))
                        .append("</title></circle>\n");
            }
        }
        dates(b, points);
        b.append("</svg>\n<p class=\"legend\">");
        for (Map.Entry<String, Integer> t : colour.entrySet())
            b.append("<span class=\"key\"><span class=\"swatch\" style=\"background:").append(COLORS[t.getValue() % COLORS.length])
                    .append("\"></span>").append(Html.esc(t.getKey())).append(" (").append(current.containsKey(t.getKey())
                            ? rows(current.get(t.getKey())) + " now" : "dropped").append(")</span> ");
        b.append("</p></figure>\n");
        changesChart(b, points, maxChange);
        return b.toString();
    }

    /** The second chart: rows added (up) and removed (down) per version, as {@code fdl log --stat} counts them. */
    private static void changesChart(StringBuilder b, List<Point> points, long maxChange) {
        int n = points.size();
        b.append("<figure class=\"chart\" id=\"chart-changes\"><figcaption>Rows added (up) and removed (down) per version, "
                + "as <code>fdl log --stat</code> counts them</figcaption>\n");
        svgOpen(b, "rows added and removed per version");
        axis(b, maxChange, true);
        tags(b, points);
        double slot = (double) (W - LEFT - RIGHT) / Math.max(1, n);
        long barWidth = Math.max(1, Math.min(24, Math.round(slot * 0.6)));
        int zero = TOP + (H - TOP - BOTTOM) / 2;
        for (int i = 0; i < n; i++) {
            Point p = points.get(i);
            if (p.changed() == null) continue;
            long added = 0, removed = 0;
            boolean unknown = false;
            for (ParentStat.TableStat t : p.changed()) {
                added += t.added();
                if (t.removed() == null) unknown = true;
                else removed += t.removed();
            }
            long up = maxChange == 0 ? 0 : Math.round((double) added / maxChange * (zero - TOP));
            long down = maxChange == 0 ? 0 : Math.round((double) removed / maxChange * (zero - TOP));
            // inside the plot: the first and last bars are not centred on their version's line
            long left = Math.max(LEFT, Math.min(W - RIGHT - barWidth, x(i, n) - barWidth / 2));
            b.append("<g class=\"bar\" data-version=\"").append(p.id()).append("\" data-added=\"").append(added).append("\" data-removed=\"")
                    .append(unknown ? "" : Long.toString(removed)).append("\"><title>").append(p.id(), 0, 13).append(" (").append(p.date())
                    .append("): ").append(change(added, unknown, removed)).append("</title>");
            b.append("<rect class=\"added\" fill=\"#1a7f37\" x=\"").append(left).append("\" y=\"").append(zero - up).append("\" width=\"")
                    .append(barWidth).append("\" height=\"").append(up).append("\"/>");
            b.append("<rect class=\"removed\" fill=\"#d1242f\" x=\"").append(left).append("\" y=\"").append(zero).append("\" width=\"")
                    .append(barWidth).append("\" height=\"").append(down).append("\"/></g>\n");
        }
        dates(b, points);
        b.append("</svg></figure>\n");
    }

    private static ParentStat.TableStat find(List<ParentStat.TableStat> changed, String table) {
        for (ParentStat.TableStat t : changed) if (t.table().equals(table)) return t;
        return null;
    }

    private static void svgOpen(StringBuilder b, String label) {
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"").append(label).append("\" viewBox=\"0 0 ")
                .append(W).append(' ').append(H).append("\" width=\"100%\" style=\"max-width:").append(W)
                .append("px;font:11px system-ui,sans-serif\">\n");
    }

    /** Grid lines and labels: 0 to {@code max} (rows), or {@code -max} to {@code max} around a middle zero line (changes). */
    private static void axis(StringBuilder b, long max, boolean signed) {
        int bottom = H - BOTTOM;
        long[] values = signed ? new long[] {max, 0, -max} : new long[] {max, max / 2, 0};
        for (int k = 0; k < values.length; k++) {
            long yy = TOP + Math.round((double) k * (bottom - TOP) / (values.length - 1));
            b.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(W - RIGHT).append("\" y1=\"").append(yy).append("\" y2=\"").append(yy)
                    .append("\" stroke=\"").append(values[k] == 0 ? "#8c959f" : "#eef1f5").append("\"/>")
                    .append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(yy + 4).append("\" text-anchor=\"end\" fill=\"#5b6573\">")
                    .append(signed && values[k] > 0 ? "+" : "").append(num(values[k])).append("</text>\n");
        }
    }

    /**
     * The dashed line and name of each tag; a version's tags share one label. A label that would
     * run past the plot's right edge ends at its line instead of starting there, so every name
     * stays inside the chart's {@link #W} (its width estimated at {@link #CHAR_WIDTH} per character).
     */
    private static void tags(StringBuilder b, List<Point> points) {
        for (int i = 0; i < points.size(); i++) {
            List<String> names = points.get(i).tags();
            if (names.isEmpty()) continue;
            long xx = x(i, points.size());
            String label = String.join(", ", names);
            boolean fits = xx + 3 + Math.round(label.length() * CHAR_WIDTH) <= W - 2;
            for (String tag : names) {
                b.append("<g class=\"tag\" data-tag=\"").append(Html.esc(tag)).append("\" data-version=\"").append(points.get(i).id())
                        .append("\"><line x1=\"").append(xx).append("\" x2=\"").append(xx).append("\" y1=\"").append(TOP - 4).append("\" y2=\"")
                        .append(H - BOTTOM).append("\" stroke=\"#9a6700\" stroke-dasharray=\"3,3\"/>");
                if (tag.equals(names.get(0)))
                    b.append("<text x=\"").append(fits ? xx + 3 : xx - 3).append("\" y=\"").append(TOP - 8).append("\" text-anchor=\"")
                            .append(fits ? "start" : "end").append("\" fill=\"#7a5400\">").append(Html.esc(label)).append("</text>");
                b.append("</g>\n");
            }
        }
    }

    /** The width of one character of the charts' 11px font, in SVG units, as an upper estimate (digits and lower case). */
    private static final double CHAR_WIDTH = 6.5;

    /**
     * The x axis's labels: the first and the last version's dates; when both fall on one day, the
     * versions' places along the branch ({@code version 1}, {@code version n}) at the ends and that
     * day once in the middle, so no two labels read the same.
     */
    private static void dates(StringBuilder b, List<Point> points) {
        int n = points.size();
        String first = points.get(0).date(), last = points.get(n - 1).date();
        boolean oneDay = n > 1 && first.equals(last);
        label(b, x(0, n), n == 1 ? "middle" : "start", oneDay ? "version 1" : first);
        if (n > 1) label(b, x(n - 1, n), "end", oneDay ? "version " + n : last);
        if (oneDay) label(b, LEFT + (W - LEFT - RIGHT) / 2, "middle", "all on " + first);
    }

    private static void label(StringBuilder b, long x, String anchor, String text) {
        b.append("<text class=\"x-label\" x=\"").append(x).append("\" y=\"").append(H - 8).append("\" text-anchor=\"").append(anchor)
                .append("\" fill=\"#5b6573\">").append(Html.esc(text)).append("</text>\n");
    }

    /** A table's rows, counted in words: {@code 1 row}, {@code 1,234 rows}. */
    private static String rows(long v) {
        return dev.fdl.util.Plural.grouped(v, "row");
    }

    /** A version's change in words, {@code 5 added, 0 removed} ({@code removed unknown} when its parent expired). */
    private static String change(long added, boolean removedUnknown, long removed) {
        return num(added) + " added, " + (removedUnknown ? "removed unknown" : num(removed) + " removed");
    }

    private static long x(int i, int n) {
        int w = W - LEFT - RIGHT;
        return n == 1 ? LEFT + w / 2 : LEFT + Math.round((double) i * w / (n - 1));
    }

    private static long y(long rows, long max) {
        int h = H - TOP - BOTTOM;
        return H - BOTTOM - (max == 0 ? 0 : Math.round((double) rows / max * h));
    }

    private static String num(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }
}
