package dev.fdl.util;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Strict JSON reading for repository files (SPEC.md section 3): a file that does not parse, or
 * lacks a required key, or has it with the wrong type, is an error naming file and key. Unknown
 * keys are kept so that read-modify-write preserves them.
 */
public final class Json {
    /** The shared mapper: UTF-8, pretty output, exact decimals. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** Parses bytes as a JSON object, or throws naming {@code file}. */
    public static ObjectNode parseObject(byte[] bytes, String file) {
        JsonNode n;
        try {
            n = MAPPER.readTree(new String(bytes, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw FdlException.corrupt(file, "not valid JSON (" + syntaxError(e) + ")");
        } catch (IOException e) {
            throw FdlException.corrupt(file, e.getMessage());
        }
        if (n == null || !n.isObject()) throw FdlException.corrupt(file, "expected a JSON object");
        return (ObjectNode) n;
    }

    /**
     * Parses a file the user wrote (dataset.json in a working copy): like {@link #parseObject} but
     * worded as bad input, not as a corrupt repository.
     */
    public static ObjectNode parseUserObject(byte[] bytes, String file) {
        JsonNode n;
        try {
            n = MAPPER.readTree(new String(bytes, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new FdlException("cannot read " + file + ": not valid JSON (" + syntaxError(e) + "); fix it and try again");
        }
        if (n == null || !n.isObject()) throw new FdlException("cannot read " + file + ": expected a JSON object");
        return (ObjectNode) n;
    }

    /** The parser's complaint and where, without Jackson's echo of the input. */
    static String syntaxError(JsonProcessingException e) {
        String msg = e.getOriginalMessage();
        int cut = msg.indexOf(" (for ");
        if (cut < 0) cut = msg.indexOf("\n");
        if (cut > 0) msg = msg.substring(0, cut);
        var loc = e.getLocation();
        return loc == null ? msg : msg + " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    /** UTF-8 bytes of a pretty-printed JSON node, with a final newline. */
    public static byte[] bytes(JsonNode node) {
        try {
            return (MAPPER.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A required string value at {@code key}. */
    public static String string(ObjectNode o, String key, String file) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) throw FdlException.corrupt(file, "missing key '" + key + "'");
        if (!v.isTextual()) throw FdlException.corrupt(file, "key '" + key + "' must be a string, found " + v.getNodeType().name().toLowerCase());
        return v.asText();
    }

    /** An optional string value at {@code key} (absent or null gives null). */
    public static String optString(ObjectNode o, String key, String file) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw FdlException.corrupt(file, "key '" + key + "' must be a string, found " + v.getNodeType().name().toLowerCase());
        return v.asText();
    }

    /** A required integral number at {@code key}. */
    public static long integer(ObjectNode o, String key, String file) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) throw FdlException.corrupt(file, "missing key '" + key + "'");
        if (!v.isIntegralNumber() || !v.canConvertToLong())
            throw FdlException.corrupt(file, "key '" + key + "' must be an integer, found " + v);
        return v.asLong();
    }

    /** A required object at {@code key}. */
    public static ObjectNode object(ObjectNode o, String key, String file) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) throw FdlException.corrupt(file, "missing key '" + key + "'");
        if (!v.isObject()) throw FdlException.corrupt(file, "key '" + key + "' must be an object");
        return (ObjectNode) v;
    }

    /** Keys of {@code o} not in {@code known}, with their values, in file order. */
    public static Map<String, JsonNode> extras(ObjectNode o, java.util.Set<String> known) {
        Map<String, JsonNode> extra = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!known.contains(e.getKey())) extra.put(e.getKey(), e.getValue().deepCopy());
        }
        return extra;
    }
}
