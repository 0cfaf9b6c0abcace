package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.read.SnapshotView;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of a table changed on both sides of a merge, and of its columns, merged as values are
 * (docs/SPEC.md section 7): renamed on one side only (a change of letter case too), that side's
 * name; renamed the same way on both, that name; renamed differently on both, a conflict of kind {@code name} unless settled for
 * a side. Columns are matched by column id (DuckLake keeps a column's id through a rename), only
 * those of the base: a column added on a side has no earlier name.
 *
 * @param table     the merged table name (without schema)
 * @param renameOurs our table's new name, or null when ours keeps its name
 * @param columns   per column id of the base, its merged name, where a side renamed it
 * @param oursColumns the columns ours must rename (column id to merged name)
 * @param conflicts the names renamed differently on both sides (empty: merged)
 */
record Naming(String table, String renameOurs, Map<Long, String> columns, Map<Long, String> oursColumns,
              List<MergeResult.KeyConflict> conflicts) {
    Naming {
        columns = Map.copyOf(columns);
        oursColumns = Map.copyOf(oursColumns);
        conflicts = List.copyOf(conflicts);
    }

    /** True when neither the table nor a column of ours changes name. */
    boolean keepsOurs() {
        return renameOurs == null && oursColumns.isEmpty();
    }

    /** The merged names of a table both sides changed, settled by {@code res} (null: conflicts stand). */
    static Naming of(SnapshotView.TableEntry b, SnapshotView.TableEntry o, SnapshotView.TableEntry t, MergeOptions.MergeSide res) {
        List<MergeResult.KeyConflict> conflicts = new ArrayList<>();
        String table = o.name();
        if (!Identifiers.same(o.schema(), t.schema()) && !Identifiers.same(t.schema(), b.schema()) && res == null) {
            conflicts.add(new MergeResult.KeyConflict("table " + o.name(), b.schema() + "." + b.name(), o.schema() + "." + o.name(),
                    t.schema() + "." + t.name() + " (moved to another schema, which a merge does not carry over)"));
        }
        String merged = merge(b.name(), o.name(), t.name(), res);
        if (merged == null) conflicts.add(new MergeResult.KeyConflict("table " + o.name(), b.name(), o.name(), t.name()));
        else table = merged;
        Map<Long, String> columns = new LinkedHashMap<>(), oursColumns = new LinkedHashMap<>();
        for (SnapshotView.ColumnEntry bc : b.columns()) {
            SnapshotView.ColumnEntry oc = byId(o, bc.id()), tc = byId(t, bc.id());
            if (oc == null || tc == null) continue; // dropped on a side: the column merge decides
            String m = merge(bc.name(), oc.name(), tc.name(), res);
            if (m == null) {
                conflicts.add(new MergeResult.KeyConflict("column " + oc.name(), bc.name(), oc.name(), tc.name()));
                continue;
            }
            if (!m.equals(bc.name()) || !m.equals(oc.name()) || !m.equals(tc.name())) columns.put(bc.id(), m);
            if (!m.equals(oc.name())) oursColumns.put(bc.id(), m);
        }
        return new Naming(table, table.equals(o.name()) ? null : table, columns, oursColumns, conflicts);
    }

    /** {@code e} with the merged names of its columns (by id); the rows read the same. */
    SnapshotView.TableEntry apply(SnapshotView.TableEntry e) {
        if (columns.isEmpty()) return e;
        List<SnapshotView.ColumnEntry> cols = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : e.columns()) {
            String n = columns.get(c.id());
            cols.add(n == null ? c : new SnapshotView.ColumnEntry(c.id(), n, c.duckType(), c.initialDefault()));
        }
        return new SnapshotView.TableEntry(e.id(), e.schema(), e.name(), cols, e.dataFiles(), e.deleteFiles(), e.inlined(),
                e.inlinedDeleteTable());
    }

    /**
     * The merged name, or null for a conflict: one side's rename is taken; the same on both once;
     * different on both: the settled side's. Names compare exactly: a change of letter case is a
     * rename (as {@code fdl diff} shows it and {@code import --mode sync} writes it).
     */
    private static String merge(String base, String ours, String theirs, MergeOptions.MergeSide res) {
        if (ours.equals(theirs)) return ours;
        if (ours.equals(base)) return theirs;
        if (theirs.equals(base)) return ours;
        if (res == null) return null;
        return res == MergeOptions.MergeSide.THEIRS ? theirs : ours;
    }

    private static SnapshotView.ColumnEntry byId(SnapshotView.TableEntry t, long id) {
        for (SnapshotView.ColumnEntry c : t.columns()) if (c.id() == id) return c;
        return null;
    }

    /** The conflict of a table whose names could not be merged. */
    MergeResult.TableConflict conflict(String table) {
        return new MergeResult.TableConflict(table, "name", conflicts.size(), conflicts);
    }
}
