package dev.fdl.cli;
import dev.fdl.ducklake.read.QueryResult;


import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

class ResultPrinterTest {
    private static final QueryResult RESULT = new QueryResult(List.of("name", "pop", "note"),
            List.of("VARCHAR", "INTEGER", "DECIMAL(5,1)"),
            List.of(Arrays.asList("Tokyo", 14000000, new BigDecimal("1.5")),
                    Arrays.asList("Say \"hi\", Lyon", null, null),
                    Arrays.asList("", 7, new BigDecimal("-2.0"))));

    private static String print(BiConsumer<PrintWriter, QueryResult> printer, QueryResult r) {
        StringWriter sw = new StringWriter();
        printer.accept(new PrintWriter(sw), r);
        return sw.toString();
    }

    @Test
    void tableAlignsColumnsRightAlignsNumbersAndShowsNull() {
        assertThat(print(ResultPrinter::table, RESULT).lines().toList()).containsExactly(
                "name           |      pop | note",
                "---------------+----------+-----",
                "Tokyo          | 14000000 |  1.5",
                "Say \"hi\", Lyon |     NULL | NULL",
                "               |        7 | -2.0",
                "(3 rows)");
    }

    @Test
    void tableAlignsWideAndCombiningCharactersByTheColumnsTheyTakeOnATerminal() {
        QueryResult r = new QueryResult(List.of("name", "pop"), List.of("VARCHAR", "INTEGER"),
                List.of(Arrays.asList("東京", 1), Arrays.asList("Zu\u0308rich", 2), Arrays.asList("Lyon", 3)));
        assertThat(print(ResultPrinter::table, r).lines().toList()).containsExactly(
                "name   | pop",
                "-------+----",
                "東京   |   1",
                "Zu\u0308rich |   2",
                "Lyon   |   3",
                "(3 rows)");
        assertThat(ResultPrinter.displayWidth("서울 🦆")).isEqualTo(7);
    }

    @Test
    void csvQuotesWhatNeedsQuotingAndLeavesNullEmpty() {
        assertThat(print(ResultPrinter::csv, RESULT)).isEqualTo(
                "name,pop,note\nTokyo,14000000,1.5\n\"Say \"\"hi\"\", Lyon\",,\n\"\",7,-2.0\n");
    }

    @Test
    void csvWritesCrlfOnlyWhenAsked() {
        assertThat(print((out, r) -> ResultPrinter.csv(out, r, "\r\n"), RESULT)).isEqualTo(
                "name,pop,note\r\nTokyo,14000000,1.5\r\n\"Say \"\"hi\"\", Lyon\",,\r\n\"\",7,-2.0\r\n");
    }

    @Test
    void jsonKeepsNumbersAndNulls() throws Exception {
        JsonNode json = new ObjectMapper().readTree(print(ResultPrinter::json, RESULT));
        assertThat(json.size()).isEqualTo(3);
        assertThat(json.get(0).get("pop").isNumber()).isTrue();
        assertThat(json.get(0).get("note").decimalValue()).isEqualByComparingTo("1.5");
        assertThat(json.get(1).get("pop").isNull()).isTrue();
        assertThat(json.get(1).get("name").asText()).isEqualTo("Say \"hi\", Lyon");
    }
}
