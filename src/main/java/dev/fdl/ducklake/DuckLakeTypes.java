package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mapping between DuckLake's type names ({@code ducklake_column.column_type}: {@code int32},
 * {@code varchar}, {@code decimal(18,3)}, {@code list} …, DuckLake 1.0 specification "Data Types")
 * and DuckDB's type names ({@code INTEGER}, {@code VARCHAR}, {@code DECIMAL(18,3)}, {@code INTEGER[]}).
 * Nested types are trees: a {@code list}, {@code struct} or {@code map} column's children are the
 * column rows whose {@code parent_column} is its id.
 */
final class DuckLakeTypes {
    private DuckLakeTypes() {}

    private static final Map<String, String> LAKE_TO_DUCK = Map.ofEntries(
            Map.entry("boolean", "BOOLEAN"),
            Map.entry("int8", "TINYINT"), Map.entry("int16", "SMALLINT"),
            Map.entry("int32", "INTEGER"), Map.entry("int64", "BIGINT"), Map.entry("int128", "HUGEINT"),
            Map.entry("uint8", "UTINYINT"), Map.entry("uint16", "USMALLINT"),
            Map.entry("uint32", "UINTEGER"), Map.entry("uint64", "UBIGINT"), Map.entry("uint128", "UHUGEINT"),
            Map.entry("float32", "FLOAT"), Map.entry("float64", "DOUBLE"),
            Map.entry("varchar", "VARCHAR"), Map.entry("blob", "BLOB"), Map.entry("uuid", "UUID"),
            Map.entry("json", "JSON"),
            Map.entry("date", "DATE"), Map.entry("time", "TIME"), Map.entry("timetz", "TIME WITH TIME ZONE"),
            Map.entry("timestamp", "TIMESTAMP"), Map.entry("timestamptz", "TIMESTAMP WITH TIME ZONE"),
            Map.entry("timestamp_s", "TIMESTAMP_S"), Map.entry("timestamp_ms", "TIMESTAMP_MS"),
            Map.entry("timestamp_ns", "TIMESTAMP_NS"), Map.entry("interval", "INTERVAL"));

    /** The inverse of {@link #LAKE_TO_DUCK}: one table, read both ways. */
    private static final Map<String, String> DUCK_TO_LAKE = LAKE_TO_DUCK.entrySet().stream()
            .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getValue, Map.Entry::getKey));

    private static final Pattern DECIMAL = Pattern.compile("(?i)decimal\\((\\d+),\\s*(\\d+)\\)");

    /** A column of the type tree: its name, DuckLake type name and children (empty for primitives). */
    record Node(String name, String lakeType, List<Node> children) {
        Node {
            children = List.copyOf(children);
        }
    }

    /**
     * The DuckDB type of a DuckLake column tree, e.g. {@code list(element int32)} → {@code INTEGER[]}.
     *
     * @throws FdlException for a type the built-in reader cannot read (variant, geometry, unknown)
     */
    static String toDuckDb(Node column, String where) {
        String lake = column.lakeType().toLowerCase(Locale.ROOT);
        String simple = LAKE_TO_DUCK.get(lake);
        if (simple != null) return simple;
        Matcher dec = DECIMAL.matcher(lake);
        if (dec.matches()) return "DECIMAL(" + dec.group(1) + "," + dec.group(2) + ")";
        switch (lake) {
            case "list" -> {
                requireChildren(column, 1, where);
                return toDuckDb(column.children().get(0), where) + "[]";
            }
            case "struct" -> {
                if (column.children().isEmpty()) throw unsupported(column, where);
                StringBuilder sb = new StringBuilder("STRUCT(");
                for (int i = 0; i < column.children().size(); i++) {
                    Node child = column.children().get(i);
                    if (i > 0) sb.append(", ");
                    sb.append(SqlQuote.ident(child.name())).append(' ').append(toDuckDb(child, where));
                }
                return sb.append(')').toString();
            }
            case "map" -> {
                requireChildren(column, 2, where);
                return "MAP(" + toDuckDb(column.children().get(0), where) + ", "
                        + toDuckDb(column.children().get(1), where) + ")";
            }
            default -> throw unsupported(column, where);
        }
    }

    /** The DuckLake name of a flat DuckDB type ({@code INTEGER} → {@code int32}), or empty for nested/unknown ones. */
    static Optional<String> flatToDuckLake(String duckType) {
        String t = duckType.trim().toUpperCase(Locale.ROOT);
        if (t.equals("TIMESTAMPTZ")) t = "TIMESTAMP WITH TIME ZONE";
        if (t.equals("TIMETZ")) t = "TIME WITH TIME ZONE";
        String lake = DUCK_TO_LAKE.get(t);
        if (lake != null) return Optional.of(lake);
        Matcher dec = DECIMAL.matcher(t);
        if (dec.matches()) return Optional.of("decimal(" + dec.group(1) + "," + dec.group(2) + ")");
        return Optional.empty();
    }

    private static void requireChildren(Node column, int n, String where) {
        if (column.children().size() != n) {
            throw new FdlException("catalog column " + where + "." + column.name() + " of type "
                    + column.lakeType() + " has " + column.children().size() + " child columns, expected " + n
                    + "; the catalog looks corrupt");
        }
    }

    private static FdlException unsupported(Node column, String where) {
        return new FdlException("column " + where + "." + column.name() + " has DuckLake type '"
                + column.lakeType() + "', which fdl's built-in reader cannot read; attach the catalog with "
                + "DuckDB's DuckLake extension instead");
    }
}
