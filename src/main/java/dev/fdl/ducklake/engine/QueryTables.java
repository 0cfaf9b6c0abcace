package dev.fdl.ducklake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The tables a read-only query names, so that a reader of a remote repository fetches only their
 * data files. DuckDB's own parser decides ({@code json_serialize_sql}, as {@link ReadOnlySql}):
 * every base table the statement names, anywhere (joins, subqueries, CTEs); a name that is also
 * one of its CTEs is read only when a table has it (the parse does not say which one a reference
 * means). When that cannot be known the answer is "every table" (null): a table function
 * ({@code query_table}, {@code read_parquet}), {@code SHOW}/{@code DESCRIBE}/{@code SUMMARIZE}, a
 * name with a database part, or a statement the parser does not serialize.
 */
public final class QueryTables {
    private QueryTables() {}

    /** Marks a name the statement also defines as a CTE: read when a table has that name, else ignored. */
    public static final String OPTIONAL = "?";

    /**
     * The tables {@code sql} names, as lower-case {@code schema.table} ({@code main} for a name
     * without a schema, which is where the reader puts unqualified names), a name the statement
     * also defines as a CTE marked {@link #OPTIONAL} ({@code ?main.x}); null when it may read
     * others, or cannot be told.
     */
    public static Set<String> named(Connection duck, String sql) {
        try (PreparedStatement ps = duck.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
            ps.setString(1, ReadOnlySql.body(sql));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                JsonNode tree = Json.MAPPER.readTree(rs.getString(1));
                if (tree.path("error").asBoolean(true)) return null;
                Set<String> ctes = new HashSet<>();
                collectCtes(tree, ctes);
                Set<String> tables = new HashSet<>();
                return collect(tree, ctes, tables) ? tables : null;
            }
        } catch (SQLException | IOException | RuntimeException e) {
            return null; // fetching every table is always right, only slower
        }
    }

    /** DuckDB compares identifiers ignoring ASCII case. */
    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static void collectCtes(JsonNode node, Set<String> ctes) {
        if (node.isObject()) {
            JsonNode map = node.path("cte_map").path("map");
            for (JsonNode entry : map) ctes.add(fold(entry.path("key").asText()));
        }
        for (JsonNode child : node) collectCtes(child, ctes);
    }

    /** Adds the base tables under {@code node} to {@code tables}; false when the query may read tables it does not name. */
    private static boolean collect(JsonNode node, Set<String> ctes, Set<String> tables) {
        if (node.isObject()) {
            String type = node.path("type").asText("");
            if (type.equals("TABLE_FUNCTION") || type.equals("SHOW_REF")) return false;
            if (type.equals("BASE_TABLE")) {
                if (!node.path("catalog_name").asText("").isEmpty()) return false;
                String schema = node.path("schema_name").asText("");
                String table = fold(node.path("table_name").asText(""));
                // a CTE's name may still be a table elsewhere in the statement (WITH t AS (FROM t) …)
                if (schema.isEmpty() && ctes.contains(table)) tables.add(OPTIONAL + "main." + table);
                else tables.add((schema.isEmpty() ? "main" : fold(schema)) + "." + table);
            }
        }
        for (JsonNode child : node) {
            if (!collect(child, ctes, tables)) return false;
        }
        return true;
    }
}
