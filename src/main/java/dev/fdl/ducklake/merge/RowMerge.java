package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The three-way merge of one table changed on both sides, in DuckDB SQL over the rows the
 * built-in reader shows (docs/SPEC.md section 7, "Merge"). Columns are matched by name:
 * a column on both sides stays (a type changed on one side only takes that side's type, changed
 * differently on both is a {@code column} conflict), a column added on one side is added, a column
 * of the base that one side dropped is dropped. Rows:
 * <ul>
 * <li>with a key: per key, a row added, changed or removed on one side is taken; the same change on
 * both is taken once; per column, a value changed on one side only is taken, so changes to
 * different columns of one row merge; different values for one column, or a row changed on one
 * side and removed on the other, are a {@code rows} conflict;</li>
 * <li>without a key, rows are multisets over the merged columns, merged per distinct row as diff3
 * merges lines ({@link #count}): with its counts {@code b, o, t} in base, ours and theirs, the same
 * count on both sides is taken once, a count changed on one side only is taken, and a count both
 * sides changed differently becomes {@code max(0, o + t - b)}: such rows are listed
 * ({@link #countClashes}), a warning, or with {@code strict} a conflict of kind {@code count}.</li>
 * </ul>
 * A conflict settled for a side ({@link MergeOptions#resolution}) takes that side's value, row,
 * removal or count.
 */
final class RowMerge {
    /** A column of the merged table and the sides that have it (by name). */
    record Col(String name, String type, boolean inB, boolean inO, boolean inT) {}

    private static final String B = "__fdl_mb", O = "__fdl_mo", T = "__fdl_mt", J = "__fdl_mj";

    private final Connection duck;
    private final String table;
    private final List<Col> cols = new ArrayList<>();
    private final List<MergeResult.TableConflict> conflicts = new ArrayList<>();
    private List<String> key;
    private boolean strict;
    private MergeResult.TableConflict clashes;

    private RowMerge(Connection duck, String table) {
        this.duck = duck;
        this.table = table;
    }

    /** The conflicts found (empty: {@link #write} may be called). */
    List<MergeResult.TableConflict> conflicts() {
        return conflicts;
    }

    /**
     * Without a key: the distinct rows whose count both sides changed differently (kind
     * {@code count}: each row as a JSON object, its counts in base, ours and theirs), or null when
     * there are none or they are conflicts ({@link #conflicts}).
     */
    MergeResult.TableConflict countClashes() {
        return clashes;
    }

    /** The key used (empty: whole rows). */
    List<String> key() {
        return key;
    }

    /**
     * Plans the merge of one table: loads the three sides' rows into DuckDB and finds the conflicts
     * not settled by {@code resolution}.
     */
    static RowMerge plan(Connection duck, String table, SideRows base, SideRows ours, SideRows theirs, List<String> key,
                         Settle settle) throws SQLException {
        MergeOptions.MergeSide resolution = settle.side();
        RowMerge m = new RowMerge(duck, table);
        m.strict = settle.strict();
        m.columns(base.entry(), ours.entry(), theirs.entry(), resolution);
        load(duck, B, base);
        load(duck, O, ours);
        load(duck, T, theirs);
        for (String k : key) {
            boolean everywhere = m.cols.stream().anyMatch(c -> Identifiers.same(c.name(), k) && c.inB() && c.inO() && c.inT());
            if (!everywhere) {
                m.conflicts.add(new MergeResult.TableConflict(table, "key", 1, List.of(new MergeResult.KeyConflict(k,
                        "the key column " + k + " is not a column of the table on every side", null, null))));
                return m;
            }
        }
        m.key = List.copyOf(key);
        if (!m.conflicts.isEmpty()) return m;
        if (!key.isEmpty()) m.keyed(resolution);
        else m.clashes(resolution);
        return m;
    }

    /**
     * How the table's conflicts are settled: {@code side} wins them (null: they are reported);
     * {@code strict}: a keyless row whose count both sides changed differently is a conflict.
     */
    record Settle(MergeOptions.MergeSide side, boolean strict) {}

    /**
     * One side of the table: its entry (columns) and the SELECT of the rows to merge, columns named
     * {@code c<column id>} ({@link TableViewSql#idColumn}); more columns may follow and are ignored.
     */
    record SideRows(SnapshotView.TableEntry entry, String rows) {
        /** Every row of the table as the built-in reader shows it. */
        static SideRows whole(SnapshotView view, SnapshotView.TableEntry entry) {
            return new SideRows(entry, new TableViewSql(view, entry).selectWithRowIds());
        }
    }

    private static void load(Connection duck, String name, SideRows side) throws SQLException {
        List<String> select = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : side.entry().columns())
            select.add("v." + SqlQuote.ident(TableViewSql.idColumn(c.id())) + " AS " + SqlQuote.ident(c.name()));
        select.add("true AS __fdl_p");
        try (Statement st = duck.createStatement()) {
            // a view: the join below reads each side's files once, nothing is materialised
            st.execute("CREATE OR REPLACE TEMP VIEW " + name + " AS SELECT " + String.join(", ", select) + " FROM ("
                    + side.rows() + ") AS v");
        }
    }

    private static SnapshotView.ColumnEntry find(SnapshotView.TableEntry t, String name) {
        for (SnapshotView.ColumnEntry c : t.columns()) if (Identifiers.same(c.name(), name)) return c;
        return null;
    }

    /** The merged columns: ours' order, then theirs' additions. */
    private void columns(SnapshotView.TableEntry b, SnapshotView.TableEntry o, SnapshotView.TableEntry t, MergeOptions.MergeSide resolution) {
        List<MergeResult.KeyConflict> columnConflicts = new ArrayList<>();
        for (SnapshotView.ColumnEntry oc : o.columns()) {
            SnapshotView.ColumnEntry bc = find(b, oc.name()), tc = find(t, oc.name());
            if (tc == null) {
                if (bc == null) cols.add(new Col(oc.name(), oc.duckType(), false, true, false)); // added by ours
                continue; // dropped by theirs
            }
            String type = oc.duckType();
            if (!oc.duckType().equals(tc.duckType())) {
                if (bc != null && bc.duckType().equals(oc.duckType())) type = tc.duckType();
                else if (bc != null && bc.duckType().equals(tc.duckType())) type = oc.duckType();
                else if (resolution == MergeOptions.MergeSide.THEIRS) type = tc.duckType();
                else if (resolution == null)
                    columnConflicts.add(new MergeResult.KeyConflict(oc.name(), bc == null ? null : bc.duckType(), oc.duckType(), tc.duckType()));
            }
            cols.add(new Col(oc.name(), type, bc != null, true, true));
        }
        for (SnapshotView.ColumnEntry tc : t.columns()) {
            if (find(o, tc.name()) == null && find(b, tc.name()) == null) cols.add(new Col(tc.name(), tc.duckType(), false, false, true));
        }
        if (!columnConflicts.isEmpty())
            conflicts.add(new MergeResult.TableConflict(table, "column", columnConflicts.size(), columnConflicts));
    }

    private String q(Col c) {
        return SqlQuote.ident(c.name());
    }

    private String side(String prefix, Col c) {
        return SqlQuote.ident(prefix + cols.indexOf(c));
    }

    /**
     * Joins the three sides on the key into {@code __fdl_mj}: presence flags {@code pb, po, pt},
     * per merged column {@code b<i>, o<i>, t<i>} (NULL where the side lacks the column), whether
     * ours and theirs changed the row over the columns they share with the base, and {@code conf}:
     * the row conflicts.
     */
    private void keyed(MergeOptions.MergeSide resolution) throws SQLException {
        List<String> keyCols = key.stream().map(k -> cols.stream().filter(c -> Identifiers.same(c.name(), k)).findFirst().orElseThrow()).map(this::q).toList();
        List<String> select = new ArrayList<>();
        for (String k : keyCols) select.add("coalesce(o." + k + ", t." + k + ", b." + k + ") AS " + k);
        select.add("b.__fdl_p IS NOT NULL AS pb");
        select.add("o.__fdl_p IS NOT NULL AS po");
        select.add("t.__fdl_p IS NOT NULL AS pt");
        List<String> oChanged = new ArrayList<>(List.of("false")), tChanged = new ArrayList<>(List.of("false"));
        List<String> cellConflicts = new ArrayList<>(List.of("false"));
        for (Col c : cols) {
            select.add((c.inB() ? "b." + q(c) : "NULL") + "::" + c.type() + " AS " + side("b", c));
            select.add((c.inO() ? "o." + q(c) : "NULL") + "::" + c.type() + " AS " + side("o", c));
            select.add((c.inT() ? "t." + q(c) : "NULL") + "::" + c.type() + " AS " + side("t", c));
            if (c.inB() && c.inO()) oChanged.add(side("o", c) + " IS DISTINCT FROM " + side("b", c));
            if (c.inB() && c.inT()) tChanged.add(side("t", c) + " IS DISTINCT FROM " + side("b", c));
            if (c.inO() && c.inT()) cellConflicts.add(cellConflict(c));
        }
        String on1 = String.join(" AND ", keyCols.stream().map(k -> "b." + k + " = o." + k).toList());
        String on2 = String.join(" AND ", keyCols.stream().map(k -> "coalesce(b." + k + ", o." + k + ") = t." + k).toList());
        try (Statement st = duck.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + J);
            st.execute("CREATE TEMP TABLE " + J + " AS SELECT *, (po AND pt AND (" + String.join(" OR ", cellConflicts) + ")) "
                    + "OR (pb AND NOT po AND pt AND tchanged) OR (pb AND po AND NOT pt AND ochanged) AS conf FROM (SELECT *, "
                    + String.join(" OR ", oChanged) + " AS ochanged, " + String.join(" OR ", tChanged) + " AS tchanged FROM (SELECT "
                    + String.join(", ", select) + " FROM " + B + " AS b FULL JOIN " + O + " AS o ON " + on1 + " FULL JOIN " + T
                    + " AS t ON " + on2 + "))");
        }
        if (resolution != null) return;
        long count;
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + J + " WHERE conf")) {
            rs.next();
            count = rs.getLong(1);
        }
        if (count == 0) return;
        List<MergeResult.KeyConflict> keys = new ArrayList<>();
        String keyText = String.join(" || ', ' || ", keyCols.stream().map(k -> "CAST(" + k + " AS VARCHAR)").toList());
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + keyText + ", " + rowText("b", "pb") + ", " + rowText("o", "po") + ", "
                     + rowText("t", "pt") + " FROM " + J + " WHERE conf ORDER BY ALL")) {
            while (rs.next()) keys.add(new MergeResult.KeyConflict(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
        }
        conflicts.add(new MergeResult.TableConflict(table, "rows", count, keys));
    }

    /** Ours and theirs both changed the value (or both added the row) and differ. */
    private String cellConflict(Col c) {
        String o = side("o", c), t = side("t", c), b = side("b", c);
        return "(NOT (pb AND " + o + " IS NOT DISTINCT FROM " + b + ") AND NOT (pb AND " + t + " IS NOT DISTINCT FROM " + b + ") AND "
                + o + " IS DISTINCT FROM " + t + ")";
    }

    /** One side's row as a JSON object ({@code {"a":1,"b":"x"}}), NULL where the side has no row. */
    private String rowText(String prefix, String present) {
        List<String> fields = new ArrayList<>();
        for (Col c : cols) {
            boolean has = prefix.equals("b") ? c.inB() : prefix.equals("o") ? c.inO() : c.inT();
            if (has) fields.add(SqlQuote.ident(c.name()) + " := " + side(prefix, c));
        }
        return "CASE WHEN " + present + " THEN CAST(to_json(struct_pack(" + String.join(", ", fields) + ")) AS VARCHAR) END";
    }

    /**
     * Writes the merged rows to {@code file} (Parquet, the merged columns by name, in order).
     *
     * @return the number of rows written
     */
    long write(Path file, MergeOptions.MergeSide resolution) throws SQLException {
        String query = merged(resolution);
        try (Statement st = duck.createStatement()) {
            st.execute("COPY (" + query + ") TO " + SqlQuote.literal(file.toAbsolutePath().toString()) + " (FORMAT parquet)");
            return st.getUpdateCount();
        }
    }

    /** The SELECT of the merged rows, the merged columns by name in order ({@link #columns()}); valid until the next plan. */
    String merged(MergeOptions.MergeSide resolution) {
        return key.isEmpty() ? multiset(resolution) : keyedRows(resolution);
    }

    /** The merged columns, in order. */
    List<Col> columns() {
        return cols;
    }

    private String keyedRows(MergeOptions.MergeSide resolution) {
        boolean oursWins = resolution != MergeOptions.MergeSide.THEIRS;
        List<String> select = new ArrayList<>();
        for (Col c : cols) {
            String o = side("o", c), t = side("t", c), b = side("b", c);
            String value;
            if (c.inO() && c.inT()) {
                value = "CASE WHEN po AND pt THEN (CASE WHEN " + cellConflict(c) + " THEN " + (oursWins ? o : t) + " WHEN pb AND " + o
                        + " IS NOT DISTINCT FROM " + b + " THEN " + t + " ELSE " + o + " END) WHEN po THEN " + o + " ELSE " + t + " END";
            } else value = c.inO() ? o : t;
            select.add(value + " AS " + q(c));
        }
        String keep = "CASE WHEN po AND pt THEN true WHEN po THEN NOT pb OR (ochanged AND " + oursWins + ") WHEN pt THEN NOT pb OR (tchanged AND "
                + !oursWins + ") ELSE false END";
        return "SELECT " + String.join(", ", select) + " FROM " + J + " WHERE " + keep;
    }

    /** Without a key: every distinct row {@link #count} times. */
    private String multiset(MergeOptions.MergeSide resolution) {
        String list = String.join(", ", cols.stream().map(this::q).toList());
        return "SELECT " + list + " FROM (SELECT " + list + ", unnest(range(" + count(resolution) + ")) FROM (" + counted() + "))";
    }

    /** Every distinct row of the merged columns with its counts {@code nb, no, nt} in base, ours and theirs. */
    private String counted() {
        String list = String.join(", ", cols.stream().map(this::q).toList());
        String u = String.join(" UNION ALL ", List.of(project(B, "b", 1, 0, 0), project(O, "o", 0, 1, 0), project(T, "t", 0, 0, 1)));
        return "SELECT " + list + ", CAST(sum(nb_b) AS BIGINT) AS nb, CAST(sum(nb_o) AS BIGINT) AS no, CAST(sum(nb_t) AS BIGINT) AS nt FROM ("
                + u + ") GROUP BY ALL";
    }

    /**
     * A distinct row's merged count, as diff3 merges a line: {@code o = t}: {@code o}; {@code o = b}:
     * {@code t}; {@code t = b}: {@code o}; else {@code max(0, o + t - b)}, or the settling side's
     * count when the clash is a settled conflict (strict).
     */
    private String count(MergeOptions.MergeSide resolution) {
        String clash = strict && resolution != null ? (resolution == MergeOptions.MergeSide.THEIRS ? "nt" : "no") : "greatest(0, no + nt - nb)";
        return "CASE WHEN no = nt THEN no WHEN no = nb THEN nt WHEN nt = nb THEN no ELSE " + clash + " END";
    }

    /** Lists the rows whose count both sides changed differently: a conflict under strict unless settled, else a warning. */
    private void clashes(MergeOptions.MergeSide resolution) throws SQLException {
        List<String> fields = new ArrayList<>();
        for (Col c : cols) fields.add(q(c) + " := " + q(c));
        List<MergeResult.KeyConflict> rows = new ArrayList<>();
        String json = fields.isEmpty() ? "'{}'" : "CAST(to_json(struct_pack(" + String.join(", ", fields) + ")) AS VARCHAR)";
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + json + " AS r, nb, no, nt FROM (" + counted() + ") WHERE no <> nt AND no <> nb AND nt <> nb "
                     + "ORDER BY r")) {
            while (rs.next()) rows.add(new MergeResult.KeyConflict(rs.getString(1), Long.toString(rs.getLong(2)),
                    Long.toString(rs.getLong(3)), Long.toString(rs.getLong(4))));
        }
        if (rows.isEmpty()) return;
        MergeResult.TableConflict found = new MergeResult.TableConflict(table, "count", rows.size(), rows);
        if (strict && resolution == null) conflicts.add(found);
        else if (!strict) clashes = found;
    }

    private String project(String table, String prefix, int b, int o, int t) {
        List<String> select = new ArrayList<>();
        for (Col c : cols) {
            boolean has = prefix.equals("b") ? c.inB() : prefix.equals("o") ? c.inO() : c.inT();
            select.add((has ? q(c) : "NULL") + "::" + c.type() + " AS " + q(c));
        }
        return "SELECT " + String.join(", ", select) + ", " + b + " AS nb_b, " + o + " AS nb_o, " + t + " AS nb_t FROM " + table;
    }
}
