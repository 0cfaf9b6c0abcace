package dev.fdl.cli;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.NestedValue;
import dev.fdl.ducklake.read.QueryResult;


import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a {@link QueryResult} for {@code fdl query}: an aligned table for people, CSV
 * (RFC 4180) or JSON (an array of objects) for scripts. NULL prints as {@code NULL} in the
 * table, as an empty field in CSV and as {@code null} in JSON.
 */
public final class ResultPrinter {
    private ResultPrinter() {}

    /** An aligned table: header, a rule, the rows (numbers right-aligned), then the row count. */
    public static void table(PrintWriter out, QueryResult result) {
        int n = result.columns().size();
        List<String[]> cells = new ArrayList<>();
        int[] width = new int[n];
        for (int i = 0; i < n; i++) width[i] = displayWidth(result.columns().get(i));
        for (List<Object> row : result.rows()) {
            String[] r = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = row.get(i);
                r[i] = v == null ? "NULL" : oneLine(text(v));
                width[i] = Math.max(width[i], displayWidth(r[i]));
            }
            cells.add(r);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(" | ");
            sb.append(pad(result.columns().get(i), width[i], isNumeric(result.types().get(i))));
        }
        out.println(sb.toString().stripTrailing());
        sb.setLength(0);
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append("-+-");
            sb.append("-".repeat(width[i]));
        }
        out.println(sb);
        for (String[] r : cells) {
            sb.setLength(0);
            for (int i = 0; i < n; i++) {
                if (i > 0) sb.append(" | ");
                sb.append(pad(r[i], width[i], isNumeric(result.types().get(i))));
            }
            out.println(sb.toString().stripTrailing());
        }
        int rows = result.rows().size();
        out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
        out.flush();
    }

    /**
     * CSV with a header line and {@code \n} line ends (RFC 4180 allows it; Unix pipelines expect
     * it); fields with a comma, quote, CR or LF are quoted, quotes doubled.
     */
    public static void csv(PrintWriter out, QueryResult result) {
        csv(out, result, "\n");
    }

    /** {@link #csv(PrintWriter, QueryResult)} with the given line end ({@code "\r\n"} for RFC 4180's CRLF). */
    public static void csv(PrintWriter out, QueryResult result, String lineEnd) {
        out.print(csvLine(new ArrayList<>(result.columns()), lineEnd));
        for (List<Object> row : result.rows()) out.print(csvLine(row, lineEnd));
        out.flush();
    }

    /**
     * A JSON array with one object per row, keys the column names; booleans and numbers stay JSON
     * numbers, nested values ({@link NestedValue}) JSON arrays and objects.
     */
    public static void json(PrintWriter out, QueryResult result) {
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartArray();
            for (List<Object> row : result.rows()) {
                g.writeStartObject();
                for (int i = 0; i < row.size(); i++) {
                    g.writeFieldName(result.columns().get(i));
                    Object v = row.get(i);
                    if (v == null) g.writeNull();
                    else if (v instanceof Boolean b) g.writeBoolean(b);
                    else if (v instanceof BigDecimal d) g.writeNumber(d);
                    else if (v instanceof BigInteger b) g.writeNumber(b);
                    else if (v instanceof Double d) g.writeNumber(d);
                    else if (v instanceof Float f) g.writeNumber(f);
                    else if (v instanceof Number num) g.writeNumber(num.longValue());
                    else if (v instanceof NestedValue nested) g.writeRawValue(jsonValue(nested.json()));
                    else g.writeString(v.toString());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
        out.flush();
    }

    /** A reader of JSON with NaN and infinities, made on first use: a table or CSV printed without such values never builds it. */
    private static final class NonNumeric {
        static final ObjectMapper MAPPER = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    }

    /** DuckDB's to_json text with NaN and infinities (not JSON) as the strings DuckDB prints for them. */
    static String jsonValue(String duckJson) throws IOException {
        if (!duckJson.contains("NaN") && !duckJson.contains("Infinity")) return duckJson;
        JsonNode tree = NonNumeric.MAPPER.readTree(duckJson);
        return NonNumeric.MAPPER.writeValueAsString(finite(tree));
    }

    private static JsonNode finite(JsonNode node) {
        if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
            return TextNode.valueOf(BuiltInReader.nonFinite(node.doubleValue()));
        }
        if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) a.set(i, finite(a.get(i)));
        } else if (node instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) o.set(name, finite(o.get(name)));
        }
        return node;
    }

    private static String csvLine(List<Object> values, String lineEnd) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) sb.append(',');
            Object v = values.get(i);
            if (v == null) continue;
            String s = text(v);
            if (s.isEmpty() || s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                // An empty string is quoted so that it stays apart from NULL (an empty field).
                sb.append('"').append(s.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(s);
            }
        }
        return sb.append(lineEnd).toString();
    }

    private static String text(Object v) {
        if (v instanceof BigDecimal d) return d.toPlainString();
        if (v instanceof Double d && Double.isFinite(d)) return floatText(shortest(d), d < 0 || (d == 0 && 1 / d < 0));
        if (v instanceof Float f && Float.isFinite(f)) return floatText(shortest(f), f < 0 || (f == 0 && 1 / f < 0));
        return v.toString();
    }

    /**
     * A DOUBLE or FLOAT as DuckDB's CLI and its cast to VARCHAR print it: the shortest decimal that
     * reads back as the same value, in plain digits with at least one decimal ({@code 50036265.71},
     * {@code 3.0}) while its decimal exponent is from -4 to 15, else in scientific notation with a
     * signed two-digit exponent ({@code 1e+16}, {@code 1e-05}); the rule of Python's {@code repr}
     * that DuckDB follows.
     *
     * @param digits the value's absolute shortest decimal
     * @param negative whether a minus sign leads
     */
    static String floatText(BigDecimal digits, boolean negative) {
        BigDecimal abs = digits.abs().stripTrailingZeros();
        String sign = negative ? "-" : "";
        if (abs.signum() == 0) return sign + "0.0";
        String unscaled = abs.unscaledValue().toString();
        int exponent = unscaled.length() - 1 - abs.scale();
        if (exponent >= -4 && exponent < 16) {
            String plain = abs.toPlainString();
            return sign + (plain.indexOf('.') < 0 ? plain + ".0" : plain);
        }
        String mantissa = unscaled.length() == 1 ? unscaled : unscaled.charAt(0) + "." + unscaled.substring(1);
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
    }

    /**
     * The shortest decimal that reads back as {@code d}, the nearest of its length. Java 17's
     * toString may give a digit more ({@code 4.9E-324} for {@code 5e-324}): its text is shortened
     * while the nearest decimal of one digit less still reads back (when any shorter one does, the
     * nearest of one digit less does too: it is at least as near).
     */
    private static BigDecimal shortest(double d) {
        BigDecimal best = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        BigDecimal exact = new BigDecimal(d);
        for (int p = best.precision() - 1; p >= 1; p--) {
            BigDecimal r = nearest(exact, p);
            if (r == null || r.doubleValue() != d) break;
            best = r;
        }
        return best;
    }

    /**
     * The decimal of {@code p} significant digits nearest {@code exact}; null when two are equally
     * near (DuckDB then prints the longer, exact text: a FLOAT 470026.625, not 470026.62).
     */
    private static BigDecimal nearest(BigDecimal exact, int p) {
        BigDecimal up = exact.round(new java.math.MathContext(p, java.math.RoundingMode.HALF_UP));
        return up.compareTo(exact.round(new java.math.MathContext(p, java.math.RoundingMode.HALF_DOWN))) == 0 ? up : null;
    }

    /**
     * As {@link #shortest(double)} for a FLOAT: the first length, up to 9 digits, whose nearest
     * decimal reads back. DuckDB prints some large integral FLOATs with all their digits
     * ({@code 940068032.0} where this gives {@code 940068030.0}, the same FLOAT).
     */
    private static BigDecimal shortest(float f) {
        BigDecimal exact = new BigDecimal(f);
        for (int p = 1; p <= 9; p++) {
            BigDecimal r = nearest(exact, p);
            if (r != null && r.floatValue() == f) return r;
        }
        return new BigDecimal(Float.toString(f));
    }

    private static String oneLine(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
    }

    private static boolean isNumeric(String type) {
        String t = type.toUpperCase(java.util.Locale.ROOT);
        return t.matches("(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT))|FLOAT|DOUBLE|DECIMAL.*");
    }

    /**
     * Terminal columns {@code s} takes: 2 for East Asian wide and fullwidth characters (CJK,
     * Hangul, fullwidth forms, most emoji), 0 for combining marks and format characters, else 1;
     * the ranges of Markus Kuhn's wcwidth, which terminals follow.
     */
    static int displayWidth(String s) {
        int width = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT) continue;
            width += isWide(cp) ? 2 : 1;
        }
        return width;
    }

    private static boolean isWide(int cp) {
        return cp >= 0x1100 && (cp <= 0x115F || cp == 0x2329 || cp == 0x232A
                || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) || (cp >= 0xAC00 && cp <= 0xD7A3)
                || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE10 && cp <= 0xFE19) || (cp >= 0xFE30 && cp <= 0xFE6F)
                || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6)
                || (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF)
                || (cp >= 0x20000 && cp <= 0x2FFFD) || (cp >= 0x30000 && cp <= 0x3FFFD));
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - displayWidth(s)));
        return right ? fill + s : s + fill;
    }
}
