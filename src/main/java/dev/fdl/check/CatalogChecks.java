package dev.fdl.check;

import dev.fdl.FdlException;
import dev.fdl.dataset.TableFacts;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.ReadOnlySql;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the constraints and SQL checks of {@link Rules} over a catalog opened by fdl's built-in reader
 * (each table a view). Row constraints that held at the parent version ({@link RowRule#key}) are
 * checked on the rows added since ({@link BuiltInReader#addedRowsSql}), every other one on all
 * rows; the row constraints of a table are counted in one scan. Key constraints and SQL checks
 * always read whole tables.
 */
final class CatalogChecks {
    private final BuiltInReader reader;
    private final Map<String, SnapshotView.TableEntry> tables = new LinkedHashMap<>();
    private final List<String> held = new ArrayList<>();
    private boolean incremental;

    CatalogChecks(BuiltInReader reader) {
        this.reader = reader;
        for (SnapshotView.TableEntry t : reader.tableEntries()) tables.put(TableFacts.resourceName(t.schema(), t.name()), t);
    }

    /** Keys of the row constraints that held in the last {@link #rows} run. */
    List<String> held() {
        return held;
    }

    /** True when the last {@link #rows} run checked some constraint on added rows only. */
    boolean incremental() {
        return incremental;
    }

    /**
     * The row constraints' results, table by table.
     *
     * @param since      the first snapshot the version adds (rows of earlier snapshots held at the parent); 0 for none
     * @param parentHeld the keys the parent version recorded as held; empty forces every row to be checked
     * @throws FdlException exit 1 naming the constraint when it cannot be checked on its column
     */
    List<CheckResult> rows(List<RowRule> rules, long since, Set<String> parentHeld) {
        Map<String, List<RowRule>> byTable = new LinkedHashMap<>();
        for (RowRule r : rules) byTable.computeIfAbsent(r.table(), k -> new ArrayList<>()).add(r);
        List<CheckResult> out = new ArrayList<>();
        for (var e : byTable.entrySet()) {
            SnapshotView.TableEntry t = table(e.getKey(), e.getValue().get(0).name());
            List<RowRule> added = new ArrayList<>(), all = new ArrayList<>();
            Map<RowRule, String> predicates = new LinkedHashMap<>();
            Map<RowRule, String> keys = new LinkedHashMap<>();
            for (RowRule r : e.getValue()) {
                SnapshotView.ColumnEntry c = column(t, r.field(), r.name());
                String p = r.violation(c.duckType());
                String what = r.name() + " (column " + r.field() + " is " + c.duckType() + ")";
                for (String v : r.values(c.duckType())) run("SELECT " + v, what);
                validate(r.field(), c.duckType(), p, what);
                predicates.put(r, p);
                keys.put(r, r.key(c.id(), c.duckType()));
                (checkedOnAdded(keys.get(r), since, parentHeld) ? added : all).add(r);
            }
            if (!added.isEmpty()) incremental = true;
            out.addAll(scan(t, "(" + reader.addedRowsSql(t, since) + ")", added, predicates, keys, true));
            out.addAll(scan(t, view(t), all, predicates, keys, false));
        }
        return out;
    }

    /**
     * Whether a row constraint whose {@link RowRule#key} is {@code key} is checked on the rows added
     * since {@code since} only: it held at the parent (docs/checks.md, "Incremental checking").
     */
    static boolean checkedOnAdded(String key, long since, Set<String> parentHeld) {
        return since > 0 && parentHeld.contains(key);
    }

    /** One scan of {@code source} counting each rule's violations, then the first rows of those that have some. */
    private List<CheckResult> scan(SnapshotView.TableEntry t, String source, List<RowRule> rules, Map<RowRule, String> predicates,
                                   Map<RowRule, String> keys, boolean addedOnly) {
        if (rules.isEmpty()) return List.of();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < rules.size(); i++) sql.append(i > 0 ? ", " : "").append("count(*) FILTER (WHERE ").append(predicates.get(rules.get(i))).append(')');
        sql.append(" FROM ").append(source).append(" AS x");
        List<Object> counts = run(sql.toString(), "the row constraints of " + rules.get(0).table()).rows().get(0);
        List<CheckResult> out = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            RowRule r = rules.get(i);
            long n = ((Number) counts.get(i)).longValue();
            if (n == 0) {
                held.add(keys.get(r));
                out.add(new CheckResult(r.name(), r.table(), r.field(), CheckResult.Status.PASSED, 0, List.of(), List.of(), addedOnly, null));
            } else {
                QueryResult first = run("SELECT * FROM " + source + " AS x WHERE " + predicates.get(r) + " LIMIT " + CheckResult.SHOWN, r.name());
                out.add(new CheckResult(r.name(), r.table(), r.field(), CheckResult.Status.FAILED, n, first.columns(), first.rows(), addedOnly, null));
            }
        }
        return out;
    }

    /** Unique, primary and foreign keys, each over whole tables. */
    List<CheckResult> keys(List<KeyRule> rules) {
        List<CheckResult> out = new ArrayList<>();
        for (KeyRule k : rules) {
            SnapshotView.TableEntry t = table(k.table(), k.name());
            for (String f : k.fields()) column(t, f, k.name());
            String src = view(t);
            List<String> cols = k.fields().stream().map(SqlQuote::ident).toList();
            String offending;
            if (k.kind().equals("foreignKey")) {
                SnapshotView.TableEntry ref = table(k.refTable(), k.name());
                for (String f : k.refFields()) column(ref, f, k.name());
                List<String> on = new ArrayList<>(), notNull = new ArrayList<>();
                for (int i = 0; i < cols.size(); i++) {
                    on.add("s." + cols.get(i) + " = r." + SqlQuote.ident(k.refFields().get(i)));
                    notNull.add("s." + cols.get(i) + " IS NOT NULL");
                }
                offending = "SELECT s.* FROM " + src + " AS s ANTI JOIN (SELECT DISTINCT " + String.join(", ",
                        k.refFields().stream().map(SqlQuote::ident).toList()) + " FROM " + view(ref) + ") AS r ON "
                        + String.join(" AND ", on) + " WHERE " + String.join(" AND ", notNull);
            } else {
                String nulls = k.kind().equals("primaryKey") ? " OR " + String.join(" OR ", cols.stream().map(c -> c + " IS NULL").toList()) : "";
                String notNull = k.kind().equals("unique") ? " AND " + cols.get(0) + " IS NOT NULL" : "";
                offending = "SELECT * EXCLUDE (__fdl_n) FROM (SELECT *, count(*) OVER (PARTITION BY " + String.join(", ", cols)
                        + ") AS __fdl_n FROM " + src + ") AS x WHERE (__fdl_n > 1" + notNull + ")" + nulls;
            }
            out.add(offending(k.name(), k.table(), String.join(",", k.fields()), offending, false));
        }
        return out;
    }

    /** The SQL checks of {@code fdl:checks}: rows are violations; a failing or writing check is an error naming it. */
    List<CheckResult> sql(List<SqlCheck> checks) {
        List<CheckResult> out = new ArrayList<>();
        for (SqlCheck c : checks) {
            String name = "check '" + c.name() + "'";
            try {
                ReadOnlySql.check(reader.connection(), c.sql());
            } catch (FdlException e) {
                throw new FdlException(FdlException.Kind.FAILURE, name + " (" + Rules.CHECKS_KEY + " of dataset.json) is refused: its sql must be "
                        + "one read-only query (SELECT, WITH, FROM) whose rows are the violations: " + e.getMessage()
                        + "; nothing was uploaded");
            }
            String body = c.sql().strip();
            while (body.endsWith(";")) body = body.substring(0, body.length() - 1).strip();
            CheckResult r = offending(name, null, null, body, c.warn());
            out.add(r);
        }
        return out;
    }

    private CheckResult offending(String name, String table, String field, String sql, boolean warn) {
        String what = name + (table == null ? " (" + Rules.CHECKS_KEY + " of dataset.json)" : "");
        long n = ((Number) run("SELECT count(*) FROM (\n" + sql + "\n) AS x", what).rows().get(0).get(0)).longValue();
        if (n == 0) return new CheckResult(name, table, field, CheckResult.Status.PASSED, 0, List.of(), List.of(), false, null);
        QueryResult first = run("SELECT * FROM (\n" + sql + "\n) AS x LIMIT " + CheckResult.SHOWN, what);
        return new CheckResult(name, table, field, warn ? CheckResult.Status.WARNED : CheckResult.Status.FAILED, n, first.columns(),
                first.rows(), false, null);
    }

    /**
     * Runs a constraint's predicate on one row holding NULL in its column, so that a value DuckDB
     * cannot cast to the column's type, a bad pattern or a type without a length fails here, named,
     * whatever the table holds.
     */
    private void validate(String field, String type, String predicate, String what) {
        run("SELECT " + predicate + " FROM (SELECT CAST(NULL AS " + type + ") AS " + SqlQuote.ident(field) + ") AS x", what);
    }

    private QueryResult run(String sql, String what) {
        try {
            return reader.query(sql);
        } catch (FdlException e) {
            String reach = DuckDbErrors.outsideConfinement(e.getMessage());
            if (reach != null)
                throw new FdlException(FdlException.Kind.FAILURE, what + " is refused: it reaches " + reach + ", beyond the version's "
                        + "tables; a check reads only the tables of the version it checks (no other file, URL, extension or setting); "
                        + "fix the check in dataset.json; nothing was uploaded", e);
            throw new FdlException(FdlException.Kind.FAILURE, what + " cannot be checked: " + e.getMessage().replaceFirst("^query failed: ", "")
                    + "; fix the check in dataset.json; nothing was uploaded", e);
        }
    }

    private SnapshotView.TableEntry table(String resource, String what) {
        SnapshotView.TableEntry t = tables.get(resource);
        if (t == null)
            throw new FdlException(FdlException.Kind.FAILURE, what + ": there is no table " + resource + " (tables: "
                    + (tables.isEmpty() ? "none" : String.join(", ", tables.keySet())) + "); fix dataset.json");
        return t;
    }

    private static SnapshotView.ColumnEntry column(SnapshotView.TableEntry t, String field, String what) {
        for (SnapshotView.ColumnEntry c : t.columns()) if (c.name().equals(field)) return c;
        throw new FdlException(FdlException.Kind.FAILURE, what + ": table " + TableFacts.resourceName(t.schema(), t.name())
                + " has no column " + field + "; fix dataset.json");
    }

    private static String view(SnapshotView.TableEntry t) {
        return SqlQuote.qualified(t.schema(), t.name());
    }
}
