package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.util.Json;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one check ({@code docs/checks.md}): a constraint of dataset.json, an SQL check of its
 * {@code fdl:checks}, a change guard or a hook.
 *
 * @param name        what was checked, as the user names it ({@code cities.population: minimum 0},
 *                    {@code check 'no-empty-names'}, {@code guard: shrink of cities}, {@code hook .fdl/hooks/pre-commit})
 * @param table       the table (resource name), or null for a hook
 * @param field       the field(s), or null
 * @param status      passed, warned or failed
 * @param count       offending rows (for a guard or a hook: 0 when it passed, else 1)
 * @param columns     the columns of {@code rows}
 * @param rows        the first {@link #SHOWN} offending rows, each value as {@code fdl query} reads it
 * @param incremental true when only the rows added since the parent version were checked
 * @param detail      what a guard or hook says (null for a constraint)
 */
public record CheckResult(String name, String table, String field, Status status, long count, List<String> columns,
                          List<List<Object>> rows, boolean incremental, String detail) {
    /** How many offending rows a result carries. */
    public static final int SHOWN = 10;

    /** A check's verdict. */
    public enum Status {
        PASSED, WARNED, FAILED;

        /** {@code passed}, {@code warned}, {@code failed}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public CheckResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        columns = List.copyOf(columns);
        rows = rows.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
    }

    /** A guard's or hook's verdict: no rows, {@code detail} says why. */
    static CheckResult verdict(String name, String table, Status status, String detail) {
        return new CheckResult(name, table, null, status, status == Status.PASSED ? 0 : 1, List.of(), List.of(), false, detail);
    }

    /**
     * The result in words, for people: {@code failed  cities.population: minimum 0  (3 rows, added rows only)}
     * and, indented below, what a guard or hook says and the first offending rows as {@code column=value, …}.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder(String.format("%-7s %s", status.word(), name));
        if (!rows.isEmpty() || count > 0 && detail == null)
            sb.append("  (").append(String.format(java.util.Locale.ROOT, "%,d", count)).append(count == 1 ? " row" : " rows");
        else if (incremental) sb.append("  (");
        if (incremental) sb.append(!rows.isEmpty() || count > 0 && detail == null ? ", " : "").append("added rows only");
        if (!rows.isEmpty() || count > 0 && detail == null || incremental) sb.append(')');
        if (detail != null) sb.append("\n        ").append(detail);
        for (List<Object> row : rows) {
            List<String> cells = new java.util.ArrayList<>();
            for (int i = 0; i < row.size(); i++) cells.add(columns.get(i) + "=" + row.get(i));
            sb.append("\n        ").append(String.join(", ", cells));
        }
        if (count > rows.size() && !rows.isEmpty()) sb.append("\n        … and ").append(String.format(java.util.Locale.ROOT, "%,d", count - rows.size())).append(" more");
        return sb.toString();
    }

    /** The JSON form ({@code fdl check --json}): rows only when there are some. */
    public ObjectNode toJson() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("check", name);
        if (table != null) o.put("table", table);
        if (field != null) o.put("field", field);
        o.put("status", status.word());
        o.put("count", count);
        if (incremental) o.put("incremental", true);
        if (detail != null) o.put("detail", detail);
        if (!rows.isEmpty()) {
            ArrayNode cols = o.putArray("columns");
            columns.forEach(cols::add);
            ArrayNode rs = o.putArray("rows");
            for (List<Object> row : rows) {
                ArrayNode r = rs.addArray();
                for (Object v : row) {
                    if (v == null) r.addNull();
                    else if (v instanceof Boolean b) r.add(b);
                    else if (v instanceof Long l) r.add(l);
                    else if (v instanceof Integer i) r.add(i);
                    else if (v instanceof Double d) r.add(d);
                    else if (v instanceof java.math.BigDecimal d) r.add(d);
                    else r.add(String.valueOf(v));
                }
            }
        }
        return o;
    }
}
