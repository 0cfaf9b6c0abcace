package dev.fdl.check;

import dev.fdl.dataset.TableFacts;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.SnapshotView;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which files the checks of one run need at hand, and the data path they are at: the data and
 * delete files of every table a check reads whole, and of a table whose every row constraint is
 * checked on added rows only (docs/checks.md, "Incremental checking") and that no key
 * constraint or SQL check reads, only the data files the version added and their delete files
 * ({@link dev.fdl.ducklake.read.TableViewSql#selectAddedSince}'s). A remote repository's
 * files are fetched into the mirror accordingly ({@link Checks.DataPath}).
 *
 * @param dataPath the local data path the reader opens the catalog with
 * @param viewed   the tables the reader makes views of ({@link BuiltInReader#open}'s {@code named}; null: every table)
 */
record ReadPlan(String dataPath, Set<String> viewed) {
    /**
     * Fetches what the checks of {@code rules} read and says where it is.
     *
     * @param named      the tables the checks read ({@link Checks#tablesRead}; null: every table)
     * @param since      the first snapshot the version adds; 0 when every row is checked
     * @param parentHeld the row constraints that held at the parent ({@link RowRule#key})
     */
    static ReadPlan of(DuckDbPool pool, Checks.Target target, Rules rules, Set<String> named, long since, Set<String> parentHeld) {
        if (named == null || since <= 0 || rules.rows().isEmpty()) return new ReadPlan(target.data().forTables(named), named);
        String path = target.data().forTables(Set.of()); // where the files will be; nothing fetched yet
        Set<String> addedOnly = new HashSet<>();
        List<String> locations = new ArrayList<>();
        try (BuiltInReader catalog = BuiltInReader.open(pool, target.catalog(), path, null, Set.of())) {
            Map<String, SnapshotView.TableEntry> byResource = new HashMap<>();
            for (SnapshotView.TableEntry t : catalog.tableEntries()) byResource.put(TableFacts.resourceName(t.schema(), t.name()), t);
            Set<String> sqlRead = Checks.sqlTablesRead(pool, rules); // not null: named is not
            for (SnapshotView.TableEntry t : addedOnlyTables(rules, byResource, since, parentHeld)) {
                String name = Checks.qualified(TableFacts.resourceName(t.schema(), t.name()));
                if (sqlRead.contains(name)) continue;
                addedOnly.add(name);
                Set<Long> added = new HashSet<>();
                for (SnapshotView.DataFileEntry f : t.dataFiles()) {
                    if (f.beginSnapshot() < since) continue;
                    added.add(f.id());
                    locations.add(f.location());
                }
                for (SnapshotView.DeleteFileEntry d : t.deleteFiles()) if (added.contains(d.dataFileId())) locations.add(d.location());
            }
        }
        Set<String> whole = new LinkedHashSet<>(named);
        whole.removeAll(addedOnly);
        String dataPath = target.data().forTables(whole);
        if (!dataPath.equals(path)) return new ReadPlan(target.data().forTables(named), named); // not where the files were named
        target.data().fetch(locations);
        return new ReadPlan(dataPath, whole);
    }

    /**
     * The tables of {@code rules}' row constraints that are each checked on added rows only, and
     * that no key constraint or SQL check reads; none when a rule names a table or column the
     * catalog lacks (the checks then say so, reading whole tables).
     */
    private static List<SnapshotView.TableEntry> addedOnlyTables(Rules rules, Map<String, SnapshotView.TableEntry> byResource, long since,
                                                                 Set<String> parentHeld) {
        Map<String, Boolean> onlyAdded = new HashMap<>();
        for (RowRule r : rules.rows()) {
            SnapshotView.TableEntry t = byResource.get(r.table());
            SnapshotView.ColumnEntry c = t == null ? null : t.columns().stream().filter(x -> x.name().equals(r.field())).findFirst().orElse(null);
            if (c == null) return List.of();
            onlyAdded.merge(r.table(), CatalogChecks.checkedOnAdded(r.key(c.id(), c.duckType()), since, parentHeld), Boolean::logicalAnd);
        }
        for (KeyRule k : rules.keys()) {
            onlyAdded.remove(k.table());
            if (k.refTable() != null) onlyAdded.remove(k.refTable());
        }
        List<SnapshotView.TableEntry> out = new ArrayList<>();
        for (var e : onlyAdded.entrySet()) if (e.getValue()) out.add(byResource.get(e.getKey()));
        return out;
    }
}
