package dev.fdl.ducklake;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The whole result of a query, for printing: column names, their DuckDB types ({@code VARCHAR},
 * {@code INTEGER}, {@code STRUCT(a INTEGER)}, …) and the rows. A value is null for SQL NULL, a
 * {@link Boolean} or {@link Number} for booleans and numbers (so JSON output keeps them), and
 * otherwise DuckDB's text rendering of the value (dates, timestamps, lists, structs).
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
