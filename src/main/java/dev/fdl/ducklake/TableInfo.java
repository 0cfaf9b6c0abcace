package dev.fdl.ducklake;

import java.util.List;
import java.util.Objects;

/**
 * A DuckLake table visible at a snapshot.
 *
 * @param tableId DuckLake table id
 * @param schema schema name (e.g. {@code main})
 * @param name table name at that snapshot
 * @param columns top-level columns in column order
 */
public record TableInfo(long tableId, String schema, String name, List<ColumnInfo> columns) {
    public TableInfo {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
    }

    /** {@code schema.name}, the key fixtures' expected.json uses. */
    public String qualifiedName() {
        return schema + "." + name;
    }
}
