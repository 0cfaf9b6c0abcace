package dev.fdl.util;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Strict JSON reading for repository files (SPEC.md section 3): a file that does not parse, or
 * lacks a required key, or has it with the wrong type, is an error naming file and key. Unknown
 * keys are kept so that read-modify-write preserves them. Trees are built from Jackson's
 * streaming parser, as {@code Json.MAPPER.readTree} builds them (same node types: floats as
 * exact decimals, trailing content refused), without creating an {@code ObjectMapper}.
 */
public final class JsonRead {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonRead() {}

    /**
     * Parses one JSON value; null when the input holds none (empty or blank).
     *
     * @throws JsonProcessingException on a syntax error or content after the value
     */
    public static JsonNode tree(byte[] bytes) throws JsonProcessingException {
        try (JsonParser p = FACTORY.createParser(bytes)) {
            JsonToken t = p.nextToken();
            if (t == null) return null;
            JsonNode root = value(p, t);
            JsonToken after = p.nextToken();
            if (after != null)
                throw new JsonParseException(p, "Trailing token (of type " + after + ") found after value");
            return root;
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException(e); // reading a byte array
        }
    }

    /** The value starting at {@code t}; containers are filled without recursion (deep input cannot overflow the stack). */
    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) return scalar(p, t);
        Deque<JsonNode> open = new ArrayDeque<>();
        JsonNode root = t == JsonToken.START_OBJECT ? NODES.objectNode() : NODES.arrayNode();
        open.push(root);
        String field = null;
        while (!open.isEmpty()) {
            JsonToken n = p.nextToken();
            if (n == null) throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "Unexpected end-of-input");
            if (n == JsonToken.END_OBJECT || n == JsonToken.END_ARRAY) {
                open.pop();
                continue;
            }
            if (n == JsonToken.FIELD_NAME) {
                field = p.currentName();
                continue;
            }
            JsonNode child = n == JsonToken.START_OBJECT ? NODES.objectNode() : n == JsonToken.START_ARRAY ? NODES.arrayNode() : scalar(p, n);
            JsonNode parent = open.peek();
            if (parent instanceof ObjectNode o) o.replace(field, child);
            else ((ArrayNode) parent).add(child);
            if (child.isContainerNode()) open.push(child);
        }
        return root;
    }

    private static JsonNode scalar(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_STRING -> NODES.textNode(p.getText());
            case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                case INT -> NODES.numberNode(p.getIntValue());
                case LONG -> NODES.numberNode(p.getLongValue());
                default -> NODES.numberNode(p.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDecimalValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> throw new JsonParseException(p, "Unexpected token (" + t + ")");
        };
    }

    /**
     * Parses bytes as a JSON object, or throws naming {@code file}, what is wrong in words (no
     * parser internals) and what to do.
     */
    public static ObjectNode parseObject(byte[] bytes, String file) {
        JsonNode n;
        try {
            n = tree(bytes);
        } catch (JsonProcessingException e) {
            throw FdlException.corrupt(file, "not valid JSON: " + syntaxError(e) + "; " + RESTORE);
        }
        if (n == null || n.isMissingNode()) throw FdlException.corrupt(file, "the file is empty; " + RESTORE);
        if (!n.isObject()) throw FdlException.corrupt(file, "expected a JSON object, found " + kind(n) + "; " + RESTORE);
        return (ObjectNode) n;
    }

    private static final String RESTORE = "the file was damaged or cut short: restore it from a copy "
            + "(fdl verify lists every problem of a repository)";

    /**
     * Parses a file the user wrote (dataset.json in a working copy): like {@link #parseObject} but
     * worded as bad input, not as a corrupt repository.
     */
    public static ObjectNode parseUserObject(byte[] bytes, String file) {
        JsonNode n;
        try {
            n = tree(bytes);
        } catch (JsonProcessingException e) {
            throw new FdlException("cannot read " + file + ": not valid JSON: " + syntaxError(e) + "; fix it and try again");
        }
        if (n == null || n.isMissingNode()) throw new FdlException("cannot read " + file + ": the file is empty; write a JSON object or delete the file");
        if (!n.isObject()) throw new FdlException("cannot read " + file + ": expected a JSON object, found " + kind(n) + "; fix it and try again");
        return (ObjectNode) n;
    }

    /**
     * What is wrong and where, in words: without Jackson's echo of the input, its source
     * descriptions ({@code [Source: …]}) or feature names, which mean nothing to a user.
     */
    static String syntaxError(JsonProcessingException e) {
        String msg;
        if (e instanceof com.fasterxml.jackson.core.io.JsonEOFException) {
            msg = "it ends before the JSON is complete (the file looks cut short)";
        } else {
            msg = e.getOriginalMessage() == null ? "unreadable" : e.getOriginalMessage();
            for (String cut : new String[]{" (for ", "\n", " (start marker", " at [Source", " [Source"}) {
                int i = msg.indexOf(cut);
                if (i > 0) msg = msg.substring(0, i);
            }
            msg = msg.replaceAll(" \\(code \\d+\\)", "")
                    .replace("(JSON String, Number, Array, Object or token 'null', 'true' or 'false')", "a JSON value");
        }
        var loc = e.getLocation();
        return loc == null || loc.getLineNr() < 1 ? msg : msg + " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String kind(JsonNode n) {
        return n.isArray() ? "an array" : n.isTextual() ? "a string" : n.isNumber() ? "a number" : n.isBoolean() ? "true/false" : "null";
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

    /** A required RFC 3339 time (any offset, read as an instant) at {@code key}. */
    public static java.time.Instant time(ObjectNode o, String key, String file) {
        String at = string(o, key, file);
        try {
            return java.time.OffsetDateTime.parse(at).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            throw FdlException.corrupt(file, "key '" + key + "' is not an RFC 3339 time: \"" + at + "\"");
        }
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
