package dev.fdl.ducklake.read;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The whole result of a query, for printing: column names, their DuckDB types ({@code VARCHAR},
 * {@code INTEGER}, {@code STRUCT(a INTEGER)}, …) and the rows. A value is null for SQL NULL, a
 * {@link Boolean} or {@link Number} for booleans and finite numbers (so JSON output keeps them), and
 * otherwise DuckDB's text rendering of the value ({@code CAST(x AS VARCHAR)}: dates, times and
 * timestamps as {@code 2024-03-10 02:30:00}, TIMESTAMPTZ in UTC as {@code 2024-01-01 23:30:00+00},
 * NaN and infinities as {@code nan}, {@code inf}, {@code -inf}, lists, structs), whatever the JVM's
 * time zone and locale ({@link BuiltInReader#execute}).
 */
public record QueryResult(List<String> columns, List<String> types, List<List<Object>> rows) {
    public QueryResult {
        columns = List.copyOf(columns);
        types = List.copyOf(types);
        if (columns.size() != types.size()) {
            throw new IllegalArgumentException(columns.size() + " columns but " + types.size() + " types");
        }
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            Objects.requireNonNull(row, "row");
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("a row has " + row.size() + " values for " + columns.size() + " columns");
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
    }
}
