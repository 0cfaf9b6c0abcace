package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.ColumnTypes;

import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckLake column trees as an Iceberg schema (docs/iceberg.md, "Types"): every field id is the
 * DuckLake column id, which is the Parquet field id of the column in the data files, so Iceberg
 * readers find the columns by id as DuckLake readers do. Every field is optional (DuckLake's
 * {@code nulls_allowed} is not a promise the files keep). A type Iceberg cannot hold exactly is
 * refused for the table, never written wrong.
 */
public final class IcebergTypes {
    private IcebergTypes() {}

    /** DuckLake types with one Iceberg primitive of the same values (Iceberg spec, "Primitive Types"). */
    private static final Map<String, Type> PRIMITIVES = Map.ofEntries(
            Map.entry("boolean", Types.BooleanType.get()),
            Map.entry("int8", Types.IntegerType.get()), Map.entry("int16", Types.IntegerType.get()),
            Map.entry("int32", Types.IntegerType.get()), Map.entry("int64", Types.LongType.get()),
            Map.entry("uint8", Types.IntegerType.get()), Map.entry("uint16", Types.IntegerType.get()),
            Map.entry("float32", Types.FloatType.get()), Map.entry("float64", Types.DoubleType.get()),
            Map.entry("varchar", Types.StringType.get()), Map.entry("json", Types.StringType.get()),
            Map.entry("blob", Types.BinaryType.get()), Map.entry("uuid", Types.UUIDType.get()),
            Map.entry("date", Types.DateType.get()), Map.entry("time", Types.TimeType.get()),
            Map.entry("timestamp", Types.TimestampType.withoutZone()),
            Map.entry("timestamptz", Types.TimestampType.withZone()));

    /** Why each DuckLake type Iceberg (format 2) cannot hold is refused, for the message. */
    private static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry("uint32", "Iceberg has no unsigned 32-bit integer and its readers read the Parquet INT32 as signed"),
            Map.entry("uint64", "Iceberg has no unsigned 64-bit integer"),
            Map.entry("int128", "Iceberg has no 128-bit integer"), Map.entry("uint128", "Iceberg has no 128-bit integer"),
            Map.entry("timetz", "Iceberg has no time with time zone"),
            Map.entry("time_ns", "Iceberg format 2 times are microseconds"),
            Map.entry("timestamp_s", "Iceberg timestamps are microseconds; the files hold seconds"),
            Map.entry("timestamp_ms", "Iceberg timestamps are microseconds; the files hold milliseconds"),
            Map.entry("timestamp_ns", "Iceberg format 2 timestamps are microseconds (nanoseconds need format 3)"),
            Map.entry("interval", "Iceberg has no interval type"),
            Map.entry("variant", "Iceberg format 2 has no variant type"),
            Map.entry("geometry", "Iceberg format 2 has no geometry type"));

    private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),\\s*(\\d+)\\)");

    /**
     * The Iceberg schema of a table's visible columns ({@code ducklake_column} rows, children
     * included), in column order; a struct's fields, a list's element and a map's key and value
     * keep their own column ids.
     *
     * @param where the table ({@code main.towns}), for messages
     * @throws FdlException (exit 1) naming the table, the column and its DuckLake type when a type
     *     cannot be held by Iceberg, or a column id does not fit Iceberg's 32-bit field ids
     */
    public static Schema schema(List<ColumnTypes.Row> rows, String where) {
        Map<Long, List<ColumnTypes.Row>> children = new HashMap<>();
        for (ColumnTypes.Row r : rows) {
            if (r.parent() != null) children.computeIfAbsent(r.parent(), k -> new ArrayList<>()).add(r);
        }
        List<Types.NestedField> fields = new ArrayList<>();
        for (ColumnTypes.Row r : rows) {
            if (r.parent() == null) fields.add(field(r, children, where, r.name()));
        }
        return new Schema(fields);
    }

    private static Types.NestedField field(ColumnTypes.Row r, Map<Long, List<ColumnTypes.Row>> children, String where, String path) {
        return Types.NestedField.optional(fieldId(r.id(), where, path), r.name(), type(r, children, where, path));
    }

    private static Type type(ColumnTypes.Row r, Map<Long, List<ColumnTypes.Row>> children, String where, String path) {
        String lake = r.type().toLowerCase(Locale.ROOT).trim();
        List<ColumnTypes.Row> kids = children.getOrDefault(r.id(), List.of());
        switch (lake) {
            case "struct" -> {
                if (kids.isEmpty()) throw refuse(where, path, r.type(), "a struct without fields");
                List<Types.NestedField> fields = new ArrayList<>();
                for (ColumnTypes.Row k : kids) fields.add(field(k, children, where, path + "." + k.name()));
                return Types.StructType.of(fields);
            }
            case "list" -> {
                if (kids.size() != 1) throw refuse(where, path, r.type(), kids.size() + " child columns where a list has one");
                ColumnTypes.Row e = kids.get(0);
                return Types.ListType.ofOptional(fieldId(e.id(), where, path), type(e, children, where, path + ".element"));
            }
            case "map" -> {
                if (kids.size() != 2) throw refuse(where, path, r.type(), kids.size() + " child columns where a map has two");
                ColumnTypes.Row k = kids.get(0), v = kids.get(1);
                return Types.MapType.ofOptional(fieldId(k.id(), where, path), fieldId(v.id(), where, path),
                        type(k, children, where, path + ".key"), type(v, children, where, path + ".value"));
            }
            default -> {
                return primitive(lake, r.type(), where, path);
            }
        }
    }

    private static Type primitive(String lake, String written, String where, String path) {
        Type primitive = PRIMITIVES.get(lake);
        if (primitive != null) return primitive;
        Matcher dec = DECIMAL.matcher(lake);
        if (dec.matches()) {
            int precision = Integer.parseInt(dec.group(1));
            if (precision > 38) throw refuse(where, path, written, "Iceberg decimals hold at most 38 digits");
            return Types.DecimalType.of(precision, Integer.parseInt(dec.group(2)));
        }
        String why = REFUSED.get(lake);
        throw refuse(where, path, written, why != null ? why : "fdl does not know it");
    }

    static FdlException refuse(String where, String column, String lakeType, String why) {
        return new FdlException("table " + where + " cannot be described as an Iceberg table: column " + column
                + " has DuckLake type '" + lakeType + "' (" + why + "); no Iceberg metadata was written for it."
                + " Cast the column to a type docs/iceberg.md lists, or read this table with DuckDB's DuckLake extension");
    }

    private static int fieldId(long id, String where, String column) {
        if (id <= 0 || id > Integer.MAX_VALUE - 1000) {
            throw new FdlException("table " + where + ": column " + column + " has DuckLake column id " + id
                    + ", which does not fit an Iceberg field id (1 to 2147482647)");
        }
        return (int) id;
    }
}
