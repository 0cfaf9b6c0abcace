package dev.fdl.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows of a table as the Iceberg Java reader ({@code iceberg-data}) reads them from the metadata
 * fdl wrote, and as {@code fdl query --json} shows them, each row as one canonical text (numbers
 * by value, timestamps as ISO instants or local times, binaries in hex, nested values recursively),
 * sorted: two reads agree when their sorted lists are equal (every row, as a multiset).
 */
final class IcebergRows {
    private IcebergRows() {}

    /** The Iceberg table whose metadata file is {@code metadata}. */
    static Table table(Path metadata) {
        return new BaseTable(new StaticTableOperations(metadata.toUri().toString(), new LocalFileIO()), metadata.toString());
    }

    /** Every row the Iceberg reader reads, canonical and sorted. */
    static List<String> iceberg(Path metadata) throws Exception {
        Table t = table(metadata);
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(t).build()) {
            for (Record r : records) rows.add(canon(r, t.schema().asStruct()));
        }
        rows.sort(null);
        return rows;
    }

    /** Every row the Iceberg reader reads at the snapshot {@code ref} (a branch or tag of {@code t}) names, canonical and sorted. */
    static List<String> icebergAt(Table t, String ref) throws Exception {
        assertThat(t.refs()).as("refs of " + t.name()).containsKey(ref);
        long id = t.refs().get(ref).snapshotId();
        Types.StructType struct = t.schemas().get(t.snapshot(id).schemaId()).asStruct();
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(t).useSnapshot(id).build()) {
            for (Record r : records) rows.add(canon(r, struct));
        }
        rows.sort(null);
        return rows;
    }

    /** Every row {@code fdl query --json <ref> "SELECT * FROM <table>"} prints, canonical and sorted. */
    static List<String> fdl(Path cwd, String repo, String ref, String table) throws Exception {
        Cli.Result r = Cli.ok(cwd, "query", "--repo", repo, "--json", ref, "SELECT * FROM " + table);
        return fdlJson(r.out());
    }

    /** Every row of {@code fdl query --json}'s output {@code json}, canonical and sorted. */
    static List<String> fdlJson(String json) throws Exception {
        JsonNode array = Json.MAPPER.readTree(json);
        List<String> rows = new ArrayList<>();
        for (JsonNode row : array) rows.add(canon(row));
        rows.sort(null);
        return rows;
    }

    /** Asserts both readers see the same rows (count and every row). */
    static void assertSame(Path metadata, Path cwd, String repo, String ref, String table) throws Exception {
        List<String> expected = fdl(cwd, repo, ref, table);
        List<String> actual = iceberg(metadata);
        assertThat(actual).as("rows of " + table + " at " + ref + " read through Iceberg").hasSize(expected.size());
        assertThat(actual).as("rows of " + table + " at " + ref + " read through Iceberg").isEqualTo(expected);
    }

    private static String canon(Record r, Types.StructType struct) {
        StringBuilder sb = new StringBuilder("{");
        for (Types.NestedField f : struct.fields()) {
            if (sb.length() > 1) sb.append(',');
            sb.append(f.name()).append('=').append(canonValue(r.getField(f.name())));
        }
        return sb.append('}').toString();
    }

    /** A struct value read by another reader (Spark): its fields by name, in the schema's order. */
    record Struct(Map<String, Object> fields) {}

    /** One value as canonical text: what {@code fdl query --json} shows for it, read back the same way ({@link #fdl}). */
    static String canonValue(Object v) {
        if (v == null) return "null";
        if (v instanceof Record rec) return canon(rec, rec.struct());
        if (v instanceof Struct st) {
            StringBuilder sb = new StringBuilder("{");
            st.fields().forEach((k, x) -> sb.append(sb.length() > 1 ? "," : "").append(k).append('=').append(canonValue(x)));
            return sb.append('}').toString();
        }
        if (v instanceof Double d && !Double.isFinite(d)) return nonFinite(d);
        if (v instanceof Float f && !Float.isFinite(f)) return nonFinite(f);
        if (v instanceof Number n) return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
        if (v instanceof ByteBuffer b) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            StringBuilder sb = new StringBuilder(); // DuckDB's text of a BLOB: printable ASCII as is, other bytes \xHH
            for (byte x : bytes) {
                int c = x & 0xff;
                if (c >= 32 && c < 127 && c != '\\') sb.append((char) c);
                else sb.append("\\x").append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
            }
            return sb.toString();
        }
        if (v instanceof OffsetDateTime t) return duckDbText(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()) + "+00";
        if (v instanceof LocalDateTime t) return duckDbText(t);
        if (v instanceof java.time.LocalTime t) return duckDbText(t);
        if (v instanceof List<?> l) {
            List<String> items = new ArrayList<>();
            for (Object o : l) items.add(canonValue(o));
            return items.toString();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, String> sorted = new TreeMap<>();
            m.forEach((k, x) -> sorted.put(canonValue(k), canonValue(x)));
            return sorted.toString();
        }
        return v.toString();
    }

    /** DuckDB's text of NaN and the infinities, as {@code fdl query --json} shows them. */
    private static String nonFinite(double d) {
        return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
    }

    /** DuckDB's text of a timestamp: {@code 2024-01-01 10:00:00}, fractions of a second only when there are any. */
    private static String duckDbText(LocalDateTime t) {
        return t.toLocalDate() + " " + duckDbText(t.toLocalTime());
    }

    private static String duckDbText(java.time.LocalTime t) {
        String text = String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        if (t.getNano() == 0) return text;
        String micros = String.format("%06d", t.getNano() / 1000).replaceAll("0+$", "");
        return text + "." + micros;
    }

    private static String canon(JsonNode row) {
        StringBuilder sb = new StringBuilder("{");
        Iterator<Map.Entry<String, JsonNode>> it = row.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (sb.length() > 1) sb.append(',');
            sb.append(e.getKey()).append('=').append(canonJson(e.getValue()));
        }
        return sb.append('}').toString();
    }

    private static String canonJson(JsonNode v) {
        if (v == null || v.isNull()) return "null";
        if (v.isNumber()) return new BigDecimal(v.asText()).stripTrailingZeros().toPlainString();
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(x -> items.add(canonJson(x)));
            return items.toString();
        }
        if (v.isObject()) {
            StringBuilder sb = new StringBuilder("{");
            v.fields().forEachRemaining(e -> sb.append(sb.length() > 1 ? "," : "").append(e.getKey()).append('=').append(canonJson(e.getValue())));
            return sb.append('}').toString();
        }
        return v.asText();
    }
}
