package dev.fdl.ducklake;

import java.util.Objects;

/**
 * A top-level column of a DuckLake table at a snapshot.
 *
 * @param columnId DuckLake column id (the Parquet field id)
 * @param name column name at that snapshot
 * @param type DuckDB type text as DuckDB shows it, e.g. {@code INTEGER[]},
 *     {@code STRUCT(a INTEGER, b VARCHAR)}, {@code TIMESTAMP WITH TIME ZONE}
 * @param nullsAllowed whether the column accepts NULL
 */
public record ColumnInfo(long columnId, String name, String type, boolean nullsAllowed) {
    public ColumnInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
