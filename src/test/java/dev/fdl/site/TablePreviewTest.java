package dev.fdl.site;

import dev.fdl.ducklake.read.TableSummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 31: the preview's cells are escaped, NULL is marked, and long text is cut with its full length said. */
class TablePreviewTest {
    @Test
    void cellsAreEscapedAndLongTextIsCutSayingItsLength() {
        assertThat(TablePreview.cell("<script>alert('x')</script> & co")).isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co");
        assertThat(TablePreview.cell(null)).isEqualTo("<span class=\"null\">NULL</span>");
        assertThat(TablePreview.cell("")).isEmpty();
        String exact = "a".repeat(TablePreview.CUT);
        assertThat(TablePreview.cell(exact)).isEqualTo(exact);
        // 1,200 characters, some outside the BMP (counted as one each, never split)
        String longText = "😀".repeat(100) + "<".repeat(1100);
        assertThat(TablePreview.cell(longText))
                .isEqualTo("😀".repeat(TablePreview.CUT) + "<span class=\"cut\">&hellip; (1,200 characters)</span>");
    }

    @Test
    void theHtmlSaysHowManyRowsItShowsAndThatDistinctCountsAreApproximate() {
        TableSummary.Table t = new TableSummary.Table("main.t", List.of("id", "name"), List.of("BIGINT", "VARCHAR"), List.of(List.of("1", "<a>")), 1_000,
                List.of(new TableSummary.ColumnStats("id", "BIGINT", 0, 998, "1", "1000"),
                        new TableSummary.ColumnStats("name", "VARCHAR", 3, 990, null, null)));
        String html = TablePreview.html(t, "main.t");
        assertThat(html).contains("<td>&lt;a&gt;</td>").contains("The first 1 of 1,000 rows.")
                .contains("data-column=\"id\" data-nulls=\"0\" data-distinct=\"998\"").contains("distinct count is approximate")
                .contains("<td class=\"min\"><span class=\"null\">NULL</span></td>");
    }
}
