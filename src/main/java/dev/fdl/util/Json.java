package dev.fdl.util;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.nio.charset.StandardCharsets;

/**
 * JSON writing: the shared mapper for output and repository files. Reading lives in
 * {@link JsonRead}, which needs no {@code ObjectMapper}: building one is a good part of a
 * command's start-up, and commands that only read (log, status, refs) never need it.
 */
public final class Json {
    /** The shared mapper: UTF-8, pretty output, exact decimals. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** UTF-8 bytes of a pretty-printed JSON node, with a final newline. */
    public static byte[] bytes(JsonNode node) {
        try {
            return (MAPPER.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

}
