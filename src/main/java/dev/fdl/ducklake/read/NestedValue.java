package dev.fdl.ducklake.read;

/**
 * A nested query value (LIST, ARRAY, STRUCT, MAP, UNION) or a JSON value: DuckDB's text form for
 * tables and CSV ({@link #toString()}), and its JSON form from DuckDB's own {@code to_json} for
 * {@code --json} output (NaN and infinities, which JSON cannot hold, are written as the strings
 * DuckDB prints for them at the top level: {@code nan}, {@code inf}, {@code -inf}).
 *
 * @param text DuckDB's VARCHAR cast of the value, e.g. {@code [1, 2]} or {@code {'a': 1}}
 * @param json DuckDB's {@code to_json} of the value, e.g. {@code [1,2]} or {@code {"a":1}}
 */
public record NestedValue(String text, String json) {
    @Override
    public String toString() {
        return text;
    }
}
