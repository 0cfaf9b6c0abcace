package dev.fdl.ducklake.format;

import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import dev.fdl.ducklake.engine.DuckDbPool;

/**
 * The one map between DuckLake's type names ({@code ducklake_column.column_type}: {@code int32},
 * {@code varchar}, {@code decimal(18,3)}, {@code list} …; DuckLake 1.0 specification "Data Types",
 * the extension's {@code ducklake_types.cpp}) and DuckDB's type names as DuckDB prints them
 * ({@code INTEGER}, {@code DECIMAL(18,3)}, {@code INTEGER[]}, {@code STRUCT(a INTEGER, "order" VARCHAR)}).
 * Nested types are trees: a {@code list}, {@code struct} or {@code map} column's children are the
 * column rows whose {@code parent_column} is its id. The inspector, commit's dataset.json, the
 * built-in reader and the importer all use it; what the built-in reader can read exactly is a
 * separate question, answered by {@link #requireReadable}.
 */
public final class DuckLakeTypes {
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
            Map.entry("date", "DATE"), Map.entry("time", "TIME"), Map.entry("time_ns", "TIME_NS"),
            Map.entry("timetz", "TIME WITH TIME ZONE"),
            Map.entry("timestamp", "TIMESTAMP"), Map.entry("timestamptz", "TIMESTAMP WITH TIME ZONE"),
            Map.entry("timestamp_s", "TIMESTAMP_S"), Map.entry("timestamp_ms", "TIMESTAMP_MS"),
            Map.entry("timestamp_ns", "TIMESTAMP_NS"), Map.entry("interval", "INTERVAL"),
            Map.entry("variant", "VARIANT"), Map.entry("geometry", "GEOMETRY"));

    /** The inverse of {@link #LAKE_TO_DUCK}: one table, read both ways. */
    private static final Map<String, String> DUCK_TO_LAKE = LAKE_TO_DUCK.entrySet().stream()
            .collect(Collectors.toUnmodifiableMap(Map.Entry::getValue, Map.Entry::getKey));

    /**
     * DuckLake types fdl's built-in reader does not read: DuckDB core reads them from Parquet
     * differently from the extension or not at all (VARIANT's shredding, GEOMETRY's encoding).
     */
    private static final Set<String> NOT_READABLE = Set.of("variant", "geometry");

    private static final Pattern DECIMAL = Pattern.compile("(?i)decimal\\((\\d+),\\s*(\\d+)\\)");
    private static final Pattern PLAIN_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    /** A column of the type tree: its name, DuckLake type name and children (empty for primitives). */
    public record Node(String name, String lakeType, List<Node> children) {
        public Node {
            children = List.copyOf(children);
        }

        /** A column without children. */
        public static Node leaf(String name, String lakeType) {
            return new Node(name, lakeType, List.of());
        }
    }

    /**
     * The DuckDB type of a DuckLake column tree, e.g. {@code list(element int32)} → {@code INTEGER[]}.
     * A type this map does not know is given as written, upper-cased (a newer DuckLake's type shows
     * by its name rather than failing inspection).
     *
     * @param where the table, for messages ({@code main.towns})
     * @throws FdlException (exit 1) for a nested type with the wrong number of child columns
     */
    public static String toDuckDb(Node column, String where) {
        String lake = column.lakeType().toLowerCase(Locale.ROOT).trim();
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
                StringBuilder sb = new StringBuilder("STRUCT(");
                for (int i = 0; i < column.children().size(); i++) {
                    Node child = column.children().get(i);
                    if (i > 0) sb.append(", ");
                    sb.append(fieldName(child.name())).append(' ').append(toDuckDb(child, where));
                }
                return sb.append(')').toString();
            }
            case "map" -> {
                requireChildren(column, 2, where);
                return "MAP(" + toDuckDb(column.children().get(0), where) + ", "
                        + toDuckDb(column.children().get(1), where) + ")";
            }
            default -> {
                return column.lakeType().toUpperCase(Locale.ROOT);
            }
        }
    }

    /**
     * Refuses a column fdl's built-in reader cannot read exactly: a type it does not know, VARIANT
     * or GEOMETRY, anywhere in the tree.
     *
     * @throws FdlException (exit 1) naming the column and type, and what to use instead
     */
    public static void requireReadable(Node column, String where) {
        String lake = column.lakeType().toLowerCase(Locale.ROOT).trim();
        boolean known = LAKE_TO_DUCK.containsKey(lake) || DECIMAL.matcher(lake).matches()
                || lake.equals("list") || lake.equals("struct") || lake.equals("map");
        if (!known || NOT_READABLE.contains(lake) || (lake.equals("struct") && column.children().isEmpty())) {
            throw new FdlException("column " + where + "." + column.name() + " has DuckLake type '"
                    + column.lakeType() + "', which fdl's built-in reader cannot read; attach the catalog with "
                    + "DuckDB's DuckLake extension instead");
        }
        for (Node child : column.children()) requireReadable(child, where);
    }

    /** The DuckLake name of a flat DuckDB type ({@code INTEGER} → {@code int32}), or empty for nested/unknown ones. */
    public static Optional<String> flatToDuckLake(String duckType) {
        String t = duckType.trim().toUpperCase(Locale.ROOT);
        if (t.equals("TIMESTAMPTZ")) t = "TIMESTAMP WITH TIME ZONE";
        if (t.equals("TIMETZ")) t = "TIME WITH TIME ZONE";
        String lake = DUCK_TO_LAKE.get(t);
        if (lake != null) return Optional.of(lake);
        Matcher dec = DECIMAL.matcher(t);
        if (dec.matches()) return Optional.of("decimal(" + dec.group(1) + "," + dec.group(2) + ")");
        return Optional.empty();
    }

    /**
     * A struct field name as DuckDB prints it in a type: bare when it is a plain identifier and not
     * one of DuckDB's keywords, else double-quoted (DuckDB's {@code KeywordHelper::WriteOptionallyQuoted}).
     * The keywords are asked of the DuckDB in use ({@code duckdb_keywords()}), so they follow upgrades.
     */
    static String fieldName(String name) {
        Set<String> keywords = Keywords.ALL;
        if (keywords != null && PLAIN_NAME.matcher(name).matches() && !keywords.contains(name.toLowerCase(Locale.ROOT))) return name;
        return SqlQuote.ident(name);
    }

    private static void requireChildren(Node column, int n, String where) {
        if (column.children().size() != n) {
            throw new FdlException("catalog column " + where + "." + column.name() + " of type "
                    + column.lakeType() + " has " + column.children().size() + " child columns, expected " + n
                    + "; the catalog looks corrupt");
        }
    }

    /** DuckDB's keywords, read once; null if DuckDB cannot be asked (then every field name is quoted: still valid SQL). */
    private static final class Keywords {
        static final Set<String> ALL = load();

        private static Set<String> load() {
            Set<String> words = new HashSet<>();
            try (Connection c = DuckDbPool.connect();
                 Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT keyword_name FROM duckdb_keywords()")) {
                while (r.next()) words.add(r.getString(1).toLowerCase(Locale.ROOT));
            } catch (SQLException e) {
                return null;
            }
            return Set.copyOf(words);
        }
    }
}
