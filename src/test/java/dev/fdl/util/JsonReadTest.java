package dev.fdl.util;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link JsonRead#tree} builds the very tree {@code Json.MAPPER.readTree} builds, so files read either way write back the same. */
class JsonReadTest {
    private static final String[] SAME = {
            "{}", "[]", "{\"a\": 1}", "{\"a\": [1, 2, {\"b\": null}], \"c\": {\"d\": [[]]}}",
            "{\"int\": 2147483647, \"long\": 2147483648, \"big\": 123456789012345678901234567890, \"neg\": -9223372036854775808}",
            "{\"t\": true, \"f\": false, \"n\": null, \"s\": \"caf\\u00e9 \\\"q\\\" \\n \u00fc\u00f1\u00ee \ud83d\ude00\"}",
            "{\"dup\": 1, \"dup\": 2}", "  {\"spaces\" :\n [ 1 ,2 ] }\n", "\"text\"", "42", "null",
    };

    @Test
    void treesAndTheirBytesEqualTheMappers() throws Exception {
        for (String s : SAME) {
            JsonNode mine = JsonRead.tree(s.getBytes(StandardCharsets.UTF_8));
            JsonNode theirs = Json.MAPPER.readTree(s);
            assertThat(mine).as(s).isEqualTo(theirs);
            assertThat(Json.MAPPER.writeValueAsString(mine)).as(s).isEqualTo(Json.MAPPER.writeValueAsString(theirs));
            assertThat(mine.getNodeType()).isEqualTo(theirs.getNodeType());
        }
        // node classes too (int vs long vs big integer, exact decimals)
        JsonNode n = JsonRead.tree(SAME[4].getBytes(StandardCharsets.UTF_8));
        JsonNode m = Json.MAPPER.readTree(SAME[4]);
        n.fieldNames().forEachRemaining(f -> assertThat(n.get(f).getClass()).as(f).isEqualTo(m.get(f).getClass()));
    }

    @Test
    void decimalsAreKeptAsWrittenWhereTheMapperWouldNormalizeThem() throws Exception {
        String s = "{\"f\": 1.50, \"g\": 100.0, \"e\": 1e3, \"tiny\": 4.9E-324, \"pi\": 3.141592653589793238462643383279}";
        JsonNode mine = JsonRead.tree(s.getBytes(StandardCharsets.UTF_8));
        assertThat(mine).isEqualTo(Json.MAPPER.readTree(s)); // equal values
        // written back as the file had them (the mapper's tree writes 1.5 and 1E+2)
        assertThat(Json.MAPPER.writeValueAsString(mine)).contains("\"f\" : 1.50", "\"g\" : 100.0", "\"pi\" : 3.141592653589793238462643383279");
    }

    @Test
    void emptyInputIsNoValueAndBrokenInputIsRefused() {
        assertThat(catchTree("")).isNull();
        assertThat(catchTree("  \n")).isNull();
        for (String bad : new String[]{"{\"a\": 1} x", "{\"a\": 1}{}", "{\"a\": }", "{\"a\": [1, 2}", "{\"a\": 1", "[1, 2", "tru"}) {
            assertThatThrownBy(() -> JsonRead.tree(bad.getBytes(StandardCharsets.UTF_8))).as(bad).isInstanceOf(JsonProcessingException.class);
        }
    }

    @Test
    void deepNestingDoesNotOverflowTheStack() throws Exception {
        String deep = "[".repeat(900) + "]".repeat(900);
        assertThat(JsonRead.tree(deep.getBytes(StandardCharsets.UTF_8)).isArray()).isTrue();
    }

    private static JsonNode catchTree(String s) {
        try {
            return JsonRead.tree(s.getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
