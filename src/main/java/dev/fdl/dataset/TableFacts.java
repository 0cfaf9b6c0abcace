package dev.fdl.dataset;

import java.util.List;

/**
 * What the catalog says about one table at its newest snapshot, as dataset.json needs it.
 *
 * @param resourceName {@code table} for schema main, else {@code schema.table} (SPEC.md section 3)
 * @param rows         the row count a reader sees at that snapshot
 * @param columns      top-level columns in column order
 */
public record TableFacts(String resourceName, long rows, List<Column> columns) {
    /** A column: its name and exact DuckLake type ({@code INTEGER}, {@code VARCHAR[]}, …). */
    public record Column(String name, String ducklakeType) {}

    public TableFacts {
        columns = List.copyOf(columns);
    }

    /** The resource name of a table: bare for schema {@code main}. */
    public static String resourceName(String schema, String table) {
        return "main".equals(schema) ? table : schema + "." + table;
    }
}
