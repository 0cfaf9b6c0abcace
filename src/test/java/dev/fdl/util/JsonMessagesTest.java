package dev.fdl.util;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 17: a JSON file that does not parse is reported in words, naming the file, without the parser's internals. */
class JsonMessagesTest {
    private static String message(String text) {
        try {
            JsonRead.parseObject(text.getBytes(StandardCharsets.UTF_8), "fdl.json");
        } catch (FdlException e) {
            return e.getMessage();
        }
        throw new AssertionError("parsed: " + text);
    }

    @Test
    void truncatedFileSaysItIsCutShortWithoutJacksonInternals() {
        for (String cut : new String[]{"{\"fdl\": \"0.1\"", "{\"fdl\": \"0.1\", \"id\": \"ab", "{\"fdl\": [1, 2", "{\"fdl\":"}) {
            String m = message(cut);
            assertThat(m).as(cut).contains("fdl.json").contains("cut short").contains("restore it")
                    .doesNotContain("StreamReadFeature").doesNotContain("Source").doesNotContain("REDACTED")
                    .doesNotContain("marker").doesNotContain("jackson");
        }
    }

    @Test
    void otherSyntaxErrorsNameLineAndColumnOnly() {
        String m = message("{\"fdl\": \"0.1\",\n \"id\": tru}");
        assertThat(m).contains("fdl.json").contains("line 2").contains("'tru'").doesNotContain("Source").doesNotContain("code ");
        assertThat(message("{a: 1}")).contains("double-quote").doesNotContain("(code");
    }

    @Test
    void emptyAndNonObjectFilesAreNamed() {
        assertThat(message("")).contains("fdl.json").contains("empty");
        assertThat(message("[1]")).contains("expected a JSON object, found an array");
        assertThatThrownBy(() -> JsonRead.parseUserObject("{\"name\": ".getBytes(StandardCharsets.UTF_8), "dataset.json"))
                .hasMessageContaining("dataset.json").hasMessageContaining("cut short").hasMessageContaining("fix it")
                .hasMessageNotContaining("StreamReadFeature");
    }
}
