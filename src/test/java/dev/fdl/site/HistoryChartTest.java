package dev.fdl.site;

import dev.fdl.repo.ParentStat;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryChartTest {
    private static HistoryChart.Point point(String id, String date, long rows, long added, long removed, String... tags) {
        return new HistoryChart.Point(id, date, List.of(new ParentStat.TableStat("main.t", rows, added, removed, false)), List.of(tags));
    }

    private static List<String> xLabels(String svg) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<text class=\"x-label\"[^>]*>([^<]*)</text>").matcher(svg);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void versionsOfOneDayGetDistinctAxisLabels() {
        String html = HistoryChart.render(List.of(point("019a0000000000000001", "2026-12-03", 3, 3, 0),
                point("019a0000000000000002", "2026-12-03", 4, 1, 0), point("019a0000000000000003", "2026-12-03", 2, 0, 2)));
        String rowsChart = html.substring(html.indexOf("id=\"chart-rows\""), html.indexOf("id=\"chart-changes\""));
        List<String> labels = xLabels(rowsChart);
        assertThat(labels).doesNotHaveDuplicates().contains("all on 2026-12-03");
        assertThat(labels).hasSize(3);
    }

    @Test
    void versionsOfDifferentDaysAreLabelledWithTheirDates() {
        String html = HistoryChart.render(List.of(point("019a0000000000000001", "2026-12-01", 3, 3, 0),
                point("019a0000000000000002", "2026-12-03", 4, 1, 0)));
        assertThat(xLabels(html.substring(0, html.indexOf("id=\"chart-changes\"")))).containsExactly("2026-12-01", "2026-12-03");
    }

    @Test
    void noRemovedCountReadsMinusZero() {
        String html = HistoryChart.render(List.of(point("019a0000000000000001", "2026-12-01", 3, 3, 0),
                point("019a0000000000000002", "2026-12-03", 1, 0, 2)));
        assertThat(html).doesNotContainPattern("[^0-9]-0").contains("3 added, 0 removed").contains("1 row now");
    }

    @Test
    void aTagOnTheLastVersionIsLabelledInsideTheChart() {
        String tag = "release-2026-12-with-a-long-name";
        String html = HistoryChart.render(List.of(point("019a0000000000000001", "2026-12-01", 3, 3, 0),
                point("019a0000000000000002", "2026-12-03", 4, 1, 0, tag)));
        Matcher m = Pattern.compile("<text x=\"(\\d+)\" y=\"\\d+\" text-anchor=\"(start|end)\" fill=\"#7a5400\">" + tag + "</text>").matcher(html);
        assertThat(m.find()).isTrue();
        long x = Long.parseLong(m.group(1));
        // the label's extent at 6.5 units a character (an upper estimate for an 11px font) stays within the 760-wide view box
        long left = m.group(2).equals("start") ? x : x - Math.round(tag.length() * 6.5);
        long right = m.group(2).equals("start") ? x + Math.round(tag.length() * 6.5) : x;
        assertThat(left).isGreaterThanOrEqualTo(0);
        assertThat(right).isLessThanOrEqualTo(760);
    }
}
