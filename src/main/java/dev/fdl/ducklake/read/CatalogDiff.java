package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.format.RowKey;

/**
 * {@code fdl diff}: what changed between two DuckLake catalogs (two versions, or a version and the
 * working copy), each at its newest snapshot: tables added and dropped, schema changes (columns
 * matched by DuckLake column id, so a rename is told from a drop plus an add), and per table the
 * rows added, removed and, with a key, changed (old → new values of the changed columns).
 *
 * <p><b>Reads only what differs.</b> Two versions of a lineage name the same data files: a data file
 * named by both with the same deletes (delete files and inlined deletes) shows the same rows in
 * both and is never opened. What remains is, per side: the data files only that side names (its
 * rows), the rows of a shared data file that only the other side deletes (selected by position),
 * and the inlined rows. The multiset difference of these parts is the difference of the tables,
 * since the rows left out are the same on both sides. Rows are compared on the columns both
 * sides have (by column id); schema changes are reported separately.
 *
 * <p>Output streams through a {@link Sink}; no result is held whole in memory (DuckDB streams the
 * rows to JDBC one chunk at a time).
 */
public final class CatalogDiff {
    private static final String A = "__fdl_diff_a";
    private static final String B = "__fdl_diff_b";

    /** One side of a diff: a DuckDB-file catalog, read at its newest snapshot, with its data files at {@code dataPath} (null: the catalog's own). */
    public record DiffSide(String label, Path catalog, String dataPath) {
        public DiffSide {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(catalog, "catalog");
        }
    }

    /** One changed column of a changed row: values as text and as JSON. */
    public record ValueChange(String column, String oldText, String newText, String oldJson, String newJson) {}

    /**
     * Per table row counts, and whether its schema changed (the table added or dropped, a column
     * added, dropped, renamed or retyped).
     */
    public record TableStat(String table, long added, long removed, long changed, boolean schemaChanged) {
        /** True when the table differs at all: rows or schema. Unchanged tables are not listed (as git diff --stat lists changed files only). */
        public boolean differs() {
            return schemaChanged || added + removed + changed > 0;
        }
    }

    /** Totals over all tables; {@code tablesChanged} counts tables both sides have whose rows or schema differ. */
    public record Summary(int tablesAdded, int tablesDropped, int tablesChanged, long added, long removed, long changed) {
        /** Whether the two sides differ at all: a table added or dropped, or one whose schema or rows differ. */
        public boolean differs() {
            return tablesAdded + tablesDropped + tablesChanged > 0;
        }
    }

    /** Receives the diff as it is computed, table by table. */
    public interface Sink {
        /** A table only one side has: {@code change} is {@code added} or {@code dropped}. */
        default void table(String table, String change) {}

        /** A schema change: {@code added} ({@code name TYPE}), {@code dropped} ({@code name}), {@code renamed} ({@code old -> new}), {@code retyped} ({@code name OLD -> NEW}). */
        default void column(String table, String change, String detail) {}

        /** The columns rows of {@code table} are shown with, before its first row. */
        default void columns(String table, List<String> columns) {}

        /** A row only one side has: {@code sign} '+' (added) or '-' (removed); values as text and as a JSON object. */
        default void row(String table, char sign, List<String> values, String json) {}

        /** A row whose key both sides have with other values: its key, the changed columns, and every value of the new row. */
        default void changed(String table, List<String> key, String keyJson, List<ValueChange> changes, List<String> newValues) {}

        /** The counts of one table, after its rows. */
        default void stat(TableStat stat) {}

        /**
         * With {@link Request#changes()}: the table's change feed as one SELECT, to run on {@code duck}
         * during this call: column {@code change_type} ({@code delete}, {@code insert},
         * {@code update_preimage}, {@code update_postimage}) then the compared {@code columns} under their
         * names on the new side, ordered by the key (a preimage before its postimage), else by every column.
         */
        default void changes(String table, List<String> columns, String select, Connection duck) throws SQLException {}
    }

    /**
     * Refuses key columns (given with {@code --key}) that no compared table has on both sides:
     * a key is used only by tables that have all its columns, so a misspelt key would silently
     * compare whole rows.
     */
    private static void refuseUnknownKey(List<String> keys, List<String> names, Map<String, SnapshotView.TableEntry> ta,
                                         Map<String, SnapshotView.TableEntry> tb) {
        StringBuilder seen = new StringBuilder();
        for (String name : names) {
            SnapshotView.TableEntry x = ta.get(name), y = tb.get(name);
            if (x == null || y == null) continue;
            if (hasAll(x, keys) && hasAll(y, keys)) return;
            seen.append(seen.length() == 0 ? "" : "; ").append(name).append(": ")
                    .append(String.join(", ", y.columns().stream().map(SnapshotView.ColumnEntry::name).toList()));
        }
        if (seen.length() == 0) return; // no table on both sides: nothing is compared by key
        throw FdlException.usage("no table compared has the key column(s) " + String.join(", ", keys) + " on both sides ("
                + seen + "); name existing columns with --key, or leave it out");
    }

    private static boolean hasAll(SnapshotView.TableEntry t, List<String> keys) {
        for (String k : keys) {
            if (t.columns().stream().noneMatch(c -> Identifiers.same(c.name(), k))) return false;
        }
        return true;
    }

    private final DuckDbPool pool;

    /** Compares catalogs on DuckDB instances of {@code pool}. */
    public CatalogDiff(DuckDbPool pool) {
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
    }

    /**
     * One {@code fdl diff}: {@code a} (old) against {@code b} (new).
     *
     * @param onlyTable null, or {@code [schema.]table}: only that table
     * @param keys      key columns (empty: rows are compared whole); used for every table that has them all;
     *                  null: per table the key {@code import --mode sync --key} recorded on the new side
     *                  ({@link dev.fdl.ducklake.format.RowKey}), else whole rows
     * @param rows      false: counts only ({@code --stat}), no row is sent to the sink
     * @param changes   true: no counts and no rows, each table's change feed goes to {@link Sink#changes} instead
     */
    public record Request(DiffSide a, DiffSide b, String onlyTable, List<String> keys, boolean rows, boolean changes) {
        /** A diff of rows or counts, without the change feed. */
        public Request(DiffSide a, DiffSide b, String onlyTable, List<String> keys, boolean rows) {
            this(a, b, onlyTable, keys, rows, false);
        }
    }

    /**
     * Compares {@code request.a()} (old) with {@code request.b()} (new), sending rows to {@code sink}.
     *
     * @throws FdlException not found for a missing catalog or table; failure for a catalog the
     *                      built-in reader refuses
     */
    public Summary run(Request request, Sink sink) {
        DiffSide a = request.a(), b = request.b();
        String onlyTable = request.onlyTable();
        List<String> keys = request.keys();
        boolean rows = request.rows();
        for (DiffSide s : List.of(a, b)) {
            if (!Files.isRegularFile(s.catalog())) throw FdlException.notFound("catalog file " + s.catalog() + " does not exist");
        }
        Properties props = new Properties();
        props.setProperty("jdbc_stream_results", "true");
        try (Connection duck = pool.connection(props)) {
            try (Statement st = duck.createStatement()) {
                st.execute(Sql.SET_UTC);
            }
            Sql.attach(duck, a.catalog(), A, true);
            Sql.attach(duck, b.catalog(), B, true);
            SnapshotView ca = SnapshotView.load(duck, A, a.label(), a.dataPath(), null);
            SnapshotView cb = SnapshotView.load(duck, B, b.label(), b.dataPath(), null);
            Map<String, SnapshotView.TableEntry> ta = byName(ca);
            Map<String, SnapshotView.TableEntry> tb = byName(cb);
            List<String> names = new ArrayList<>(ta.keySet());
            for (String n : tb.keySet()) if (!names.contains(n)) names.add(n);
            if (onlyTable != null) {
                String wanted = TableName.parse(onlyTable).toString();
                if (!names.contains(wanted)) {
                    throw FdlException.notFound("table " + wanted + " is in neither " + a.label() + " nor " + b.label());
                }
                names = List.of(wanted);
            }
            if (keys != null && !keys.isEmpty()) refuseUnknownKey(keys, names, ta, tb);
            int added = 0, dropped = 0, changedTables = 0;
            long rowsAdded = 0, rowsRemoved = 0, rowsChanged = 0;
            for (String name : names) {
                SnapshotView.TableEntry x = ta.get(name), y = tb.get(name);
                if (x == null) added++;
                else if (y == null) dropped++;
                List<String> tableKeys = keys != null ? keys : recordedKey(duck, ca, x, cb, y);
                TableDiff diff = new TableDiff(duck, name, new TableSide(ca, x), new TableSide(cb, y), tableKeys, rows, sink);
                diff.sides(a.label(), b.label(), keys == null);
                diff.changes = request.changes();
                TableStat stat = diff.run();
                if (x != null && y != null && stat.differs()) changedTables++;
                rowsAdded += stat.added();
                rowsRemoved += stat.removed();
                rowsChanged += stat.changed();
            }
            return new Summary(added, dropped, changedTables, rowsAdded, rowsRemoved, rowsChanged);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot compare " + a.label() + " with " + b.label() + ": "
                    + DuckDbErrors.firstLine(e), e);
        }
    }

    /**
     * The {@link dev.fdl.ducklake.format.RowKey} recorded for the table on the new side (the old side's only for a dropped
     * table); empty when it has none. Only the new side's: a sync without {@code --key} ended the
     * key there, and the file it loaded need not hold it unique.
     */
    private static List<String> recordedKey(Connection duck, SnapshotView ca, SnapshotView.TableEntry a,
                                            SnapshotView cb, SnapshotView.TableEntry b) throws SQLException {
        if (b != null) return RowKey.read(duck, cb.catalogTable("ducklake_tag"), b.id(), cb.snapshot());
        return RowKey.read(duck, ca.catalogTable("ducklake_tag"), a.id(), ca.snapshot());
    }

    private static Map<String, SnapshotView.TableEntry> byName(SnapshotView c) {
        Map<String, SnapshotView.TableEntry> m = new LinkedHashMap<>();
        for (SnapshotView.TableEntry t : c.tables()) m.put(t.schema() + "." + t.name(), t);
        return m;
    }

    /** One side of a table's diff: the catalog as of its snapshot, and the table in it (null: not there). */
    private record TableSide(SnapshotView view, SnapshotView.TableEntry table) {}

    /** The diff of one table; either side may be null (the table is added or dropped). */
    private static final class TableDiff {
        private final Connection duck;
        private final String name;
        private final SnapshotView ca, cb;
        private final SnapshotView.TableEntry a, b;
        private final List<String> keyNames;
        private final boolean rows;
        private final Sink sink;
        /** Compared columns: the column on each side (null when that side lacks the table). */
        private final List<SnapshotView.ColumnEntry[]> common = new ArrayList<>();

        TableDiff(Connection duck, String name, TableSide oldSide, TableSide newSide, List<String> keyNames, boolean rows, Sink sink) {
            this.duck = duck;
            this.name = name;
            this.ca = oldSide.view();
            this.cb = newSide.view();
            this.a = oldSide.table();
            this.b = newSide.table();
            this.keyNames = keyNames;
            this.rows = rows;
            this.sink = sink;
        }

        private String labelA = "the old version", labelB = "the new version";
        private boolean schemaChanged;
        private final List<String[]> schemaChanges = new ArrayList<>();
        private boolean keyRecorded;
        /** True: the change feed goes to the sink instead of counts and rows. */
        boolean changes;

        /** Names the sides in messages; {@code keyRecorded}: the key is the one sync recorded, not one given with --key. */
        void sides(String labelA, String labelB, boolean keyRecorded) {
            this.labelA = labelA;
            this.labelB = labelB;
            this.keyRecorded = keyRecorded;
        }

        /**
         * A key pairs each row of one side with at most one of the other: a key value held by
         * several rows (or a NULL, which pairs with nothing) would make the counts of a join wrong,
         * so it is refused, naming table, side and value, as sync refuses such a key.
         */
        private void refuseNonUniqueKey(String temp, String label, List<Integer> keys, List<String> labels) throws SQLException {
            String keyCols = String.join(", ", keys.stream().map(CatalogDiff.TableDiff::col).toList());
            String keyNames = String.join(", ", keys.stream().map(labels::get).toList());
            String which = keyRecorded ? "the key recorded by import --mode sync (" + keyNames + ")" : "the key " + keyNames;
            String what = keyRecorded ? "; name another with --key, or compare whole rows with --no-key"
                    : "; name a unique key with --key, or compare whole rows with --no-key";
            try (Statement st = duck.createStatement()) {
                String anyNull = String.join(" OR ", keys.stream().map(i -> col(i) + " IS NULL").toList());
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + temp + " WHERE " + anyNull)) {
                    rs.next();
                    if (rs.getLong(1) > 0)
                        throw new FdlException(which + " is NULL in " + rs.getLong(1) + " row(s) of table " + name + " in " + label + what);
                }
                String value = keys.size() == 1 ? "CAST(" + col(keys.get(0)) + " AS VARCHAR)"
                        : "CAST(row(" + keyCols + ") AS VARCHAR)";
                try (ResultSet rs = st.executeQuery("SELECT " + value + ", count(*) FROM " + temp + " GROUP BY " + keyCols
                        + " HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1")) {
                    if (rs.next())
                        throw new FdlException(which + " is not unique in table " + name + " in " + label + ": " + rs.getString(1)
                                + " is held by " + rs.getLong(2) + " rows" + what);
                }
            }
        }

        TableStat run() throws SQLException {
            matchColumns();
            List<String> labels = new ArrayList<>();
            for (SnapshotView.ColumnEntry[] c : common) labels.add((c[1] != null ? c[1] : c[0]).name());
            List<Integer> keys = new ArrayList<>();
            for (String k : keyNames) {
                int i = indexOf(labels, k);
                if (i < 0) {
                    keys.clear();
                    break;
                }
                keys.add(i);
            }
            String partA = part(ca, a, cb, b, 0);
            String partB = part(cb, b, ca, a, 1);
            try (Statement st = duck.createStatement()) {
                st.execute("CREATE OR REPLACE TEMP TABLE __fdl_pa AS " + partA);
                st.execute("CREATE OR REPLACE TEMP TABLE __fdl_pb AS " + partB);
            }
            List<String> cols = new ArrayList<>();
            for (int i = 0; i < common.size(); i++) cols.add(col(i));
            String list = String.join(", ", cols);
            TableStat stat;
            if (!keys.isEmpty()) {
                if (a != null) refuseNonUniqueKey("__fdl_pa", labelA, keys, labels);
                if (b != null) refuseNonUniqueKey("__fdl_pb", labelB, keys, labels);
            }
            emitSchemaChanges();
            if (changes) {
                if (!common.isEmpty()) sink.changes(name, labels, feed(keys, list), duck);
                stat = new TableStat(name, 0, 0, 0, schemaChanged);
            } else if (common.isEmpty()) {
                // no column on both sides: no row of one side can equal one of the other, so every
                // row is removed and every row added; rows are not listed (they share no columns)
                stat = new TableStat(name, count("SELECT 1 FROM __fdl_pb"), count("SELECT 1 FROM __fdl_pa"), 0, schemaChanged);
            } else if (keys.isEmpty()) {
                String plus = "SELECT " + list + " FROM __fdl_pb EXCEPT ALL SELECT " + list + " FROM __fdl_pa";
                String minus = "SELECT " + list + " FROM __fdl_pa EXCEPT ALL SELECT " + list + " FROM __fdl_pb";
                // counted first: a side with no rows is not listed (the listing query of a wide table
                // costs DuckDB seconds to plan even when it returns nothing)
                stat = new TableStat(name, count(plus), count(minus), 0, schemaChanged);
                if (rows) {
                    sink.columns(name, labels);
                    if (stat.removed() > 0) emitRows(minus, '-', labels, keys);
                    if (stat.added() > 0) emitRows(plus, '+', labels, keys);
                }
            } else {
                String on = String.join(" AND ", keys.stream().map(i -> "x." + col(i) + " = y." + col(i)).toList());
                List<Integer> others = new ArrayList<>();
                for (int i = 0; i < common.size(); i++) if (!keys.contains(i)) others.add(i);
                String differs = others.isEmpty() ? "false"
                        : String.join(" OR ", others.stream().map(i -> "x." + col(i) + " IS DISTINCT FROM y." + col(i)).toList());
                String plus = "SELECT y.* FROM __fdl_pb y ANTI JOIN __fdl_pa x ON " + on;
                String minus = "SELECT x.* FROM __fdl_pa x ANTI JOIN __fdl_pb y ON " + on;
                String changed = "FROM __fdl_pa x JOIN __fdl_pb y ON " + on + " WHERE " + differs;
                stat = new TableStat(name, count(plus), count(minus), count("SELECT 1 " + changed), schemaChanged);
                if (rows) {
                    sink.columns(name, labels);
                    if (stat.removed() > 0) emitRows(minus, '-', labels, keys);
                    if (stat.added() > 0) emitRows(plus, '+', labels, keys);
                    if (stat.changed() > 0) emitChanged(changed, keys, others, labels);
                }
            }
            sink.stat(stat);
            return stat;
        }

        /**
         * The change feed over the two sides' differing rows: by key, a key on one side only is a
         * delete or an insert and a key on both with other values an update pair; without a key the
         * multiset difference (EXCEPT ALL) each way. Rows left out of the parts are equal on both sides.
         */
        private String feed(List<Integer> keys, String list) {
            String body;
            if (keys.isEmpty()) {
                body = "SELECT 'delete' AS change_type, 0 AS __fdl_rank, * FROM (SELECT " + list + " FROM __fdl_pa EXCEPT ALL SELECT "
                        + list + " FROM __fdl_pb)\nUNION ALL SELECT 'insert', 3, * FROM (SELECT " + list + " FROM __fdl_pb EXCEPT ALL SELECT "
                        + list + " FROM __fdl_pa)";
            } else {
                String on = String.join(" AND ", keys.stream().map(i -> "x." + col(i) + " = y." + col(i)).toList());
                List<String> differs = new ArrayList<>();
                for (int i = 0; i < common.size(); i++) if (!keys.contains(i)) differs.add("x." + col(i) + " IS DISTINCT FROM y." + col(i));
                String changed = "FROM __fdl_pa x JOIN __fdl_pb y ON " + on + " WHERE " + (differs.isEmpty() ? "false" : String.join(" OR ", differs));
                body = "SELECT 'delete' AS change_type, 0 AS __fdl_rank, x.* FROM __fdl_pa x ANTI JOIN __fdl_pb y ON " + on
                        + "\nUNION ALL SELECT 'update_preimage', 1, x.* " + changed
                        + "\nUNION ALL SELECT 'update_postimage', 2, y.* " + changed
                        + "\nUNION ALL SELECT 'insert', 3, y.* FROM __fdl_pb y ANTI JOIN __fdl_pa x ON " + on;
            }
            List<String> named = new ArrayList<>();
            List<String> order = new ArrayList<>();
            for (int k : keys) order.add("f." + col(k));
            order.add("f.__fdl_rank");
            for (int i = 0; i < common.size(); i++) {
                SnapshotView.ColumnEntry c = common.get(i)[1] != null ? common.get(i)[1] : common.get(i)[0];
                named.add("f." + col(i) + " AS " + SqlQuote.ident(c.name()));
                if (!keys.contains(i)) order.add("f." + col(i));
            }
            return "SELECT f.change_type, " + String.join(", ", named) + " FROM (" + body + ") AS f ORDER BY " + String.join(", ", order);
        }

        /** {@code ORDER BY} the key columns of {@code alias}, then all its {@code columns} compared columns. */
        private static String orderBy(String alias, List<Integer> keys, int columns) {
            List<String> order = new ArrayList<>();
            for (int k : keys) order.add(alias + "." + col(k));
            for (int i = 0; i < columns; i++) if (!keys.contains(i)) order.add(alias + "." + col(i));
            return order.isEmpty() ? "" : " ORDER BY " + String.join(", ", order);
        }

        private static int indexOf(List<String> labels, String name) {
            for (int i = 0; i < labels.size(); i++) if (Identifiers.same(labels.get(i), name.trim())) return i;
            return -1;
        }

        /** The select list of a side's rows when no column is compared: only their number is used. */
        private static final String NOTHING_COMPARED = "true AS k_row";

        private static String col(int i) {
            return "k" + i;
        }

        /**
         * Records a schema change of this table, sent to the sink with the table's other output once
         * its key is known to be usable: a diff refused for a table prints nothing of it.
         */
        private void column(String change, String detail) {
            schemaChanged = true;
            schemaChanges.add(new String[]{change, detail});
        }

        /** Sends the table's added or dropped state and its schema changes to the sink. */
        private void emitSchemaChanges() {
            if (a == null) sink.table(name, "added");
            else if (b == null) sink.table(name, "dropped");
            for (String[] c : schemaChanges) sink.column(name, c[0], c[1]);
        }

        /** Pairs columns by id when both sides hold the same table (same table id), else by name; reports schema changes. */
        private void matchColumns() {
            if (a == null || b == null) {
                schemaChanged = true; // the table itself was added or dropped
                for (SnapshotView.ColumnEntry c : (a != null ? a : b).columns()) {
                    common.add(a != null ? new SnapshotView.ColumnEntry[]{c, null} : new SnapshotView.ColumnEntry[]{null, c});
                }
                return;
            }
            // b's column -> a's column it is compared with (a rename is a rename, ColumnPairing)
            Map<SnapshotView.ColumnEntry, SnapshotView.ColumnEntry> oldOf = ColumnPairing.pair(a.columns(), b.columns(), a.id() == b.id(),
                    SnapshotView.ColumnEntry::id, SnapshotView.ColumnEntry::name);
            Set<SnapshotView.ColumnEntry> pairedA = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            pairedA.addAll(oldOf.values());
            for (SnapshotView.ColumnEntry c : a.columns()) if (!pairedA.contains(c)) column("dropped", c.name());
            for (SnapshotView.ColumnEntry c : b.columns()) {
                SnapshotView.ColumnEntry old = oldOf.get(c);
                if (old == null) {
                    column("added", c.name() + " " + c.duckType());
                    continue;
                }
                if (!old.name().equals(c.name())) column("renamed", old.name() + " -> " + c.name());
                if (!old.duckType().equalsIgnoreCase(c.duckType())) {
                    column("retyped", c.name() + " " + old.duckType() + " -> " + c.duckType());
                }
                common.add(new SnapshotView.ColumnEntry[]{old, c}); // compared columns in b's order
            }
        }

        /**
         * The rows of {@code mine} that can differ from {@code other}: rows of data files only
         * {@code mine} names, rows of shared data files that only {@code other} deletes, and
         * inlined rows; columns {@code k0…} as compared. Shared files with the same deletes are left out.
         */
        private String part(SnapshotView cMine, SnapshotView.TableEntry mine, SnapshotView cOther,
                            SnapshotView.TableEntry other, int side) throws SQLException {
            if (mine == null) return emptyPart(side);
            List<String> select = new ArrayList<>();
            for (int i = 0; i < common.size(); i++) {
                SnapshotView.ColumnEntry c = common.get(i)[side];
                SnapshotView.ColumnEntry[] pair = common.get(i);
                boolean sameType = pair[0] == null || pair[1] == null || pair[0].duckType().equalsIgnoreCase(pair[1].duckType());
                String expr = "v." + SqlQuote.ident(TableViewSql.idColumn(c.id()));
                select.add((sameType ? expr : "CAST(" + expr + " AS VARCHAR)") + " AS " + col(i));
            }
            if (select.isEmpty()) select.add(NOTHING_COMPARED);
            Map<String, SnapshotView.DataFileEntry> otherFiles = new HashMap<>();
            if (other != null) for (SnapshotView.DataFileEntry f : other.dataFiles()) otherFiles.put(f.location(), f);
            List<SnapshotView.DataFileEntry> own = new ArrayList<>();
            List<String> parts = new ArrayList<>();
            String prefix = "SELECT " + String.join(", ", select) + " FROM (";
            for (SnapshotView.DataFileEntry f : mine.dataFiles()) {
                SnapshotView.DataFileEntry shared = otherFiles.get(f.location());
                if (shared == null) {
                    own.add(f);
                    continue;
                }
                if (deletes(cMine, mine, f).equals(deletes(cOther, other, shared))) continue; // same rows on both sides: never opened
                String otherDeletes = new TableViewSql(cOther, restrict(other, List.of(shared), false)).deletes();
                if (otherDeletes == null) continue; // the other side sees every row this side sees, and more
                // one data file, at index 0 of the list read: a deleted row's key is its position
                parts.add(prefix + new TableViewSql(cMine, restrict(mine, List.of(f), false)).selectWithRowIds()
                        + ") AS v SEMI JOIN (" + otherDeletes + ") AS d ON v." + TableViewSql.POS + " = d.k");
            }
            if (!own.isEmpty() || !mine.inlined().isEmpty()) {
                parts.add(prefix + new TableViewSql(cMine, restrict(mine, own, true)).selectWithRowIds() + ") AS v");
            }
            return parts.isEmpty() ? emptyPart(side) : String.join("\nUNION ALL\n", parts);
        }

        private String emptyPart(int side) {
            List<String> select = new ArrayList<>();
            for (int i = 0; i < common.size(); i++) {
                SnapshotView.ColumnEntry[] pair = common.get(i);
                boolean sameType = pair[0] == null || pair[1] == null || pair[0].duckType().equalsIgnoreCase(pair[1].duckType());
                SnapshotView.ColumnEntry c = pair[side] != null ? pair[side] : pair[1 - side];
                select.add("CAST(NULL AS " + (sameType ? c.duckType() : "VARCHAR") + ") AS " + col(i));
            }
            if (select.isEmpty()) select.add(NOTHING_COMPARED);
            return "SELECT " + String.join(", ", select) + " WHERE false";
        }

        /** {@code t} with only {@code files} (and their delete files), and its inlined rows or none. */
        private static SnapshotView.TableEntry restrict(SnapshotView.TableEntry t, List<SnapshotView.DataFileEntry> files,
                                                          boolean inlined) {
            List<Long> ids = files.stream().map(SnapshotView.DataFileEntry::id).toList();
            return new SnapshotView.TableEntry(t.id(), t.schema(), t.name(), t.columns(), files,
                    t.deleteFiles().stream().filter(d -> ids.contains(d.dataFileId())).toList(),
                    inlined ? t.inlined() : List.of(), t.inlinedDeleteTable());
        }

        /** What deletes rows of data file {@code f} at the catalog's snapshot: its delete files and inlined deletes. */
        private String deletes(SnapshotView c, SnapshotView.TableEntry t, SnapshotView.DataFileEntry f) throws SQLException {
            StringBuilder sb = new StringBuilder();
            for (SnapshotView.DeleteFileEntry d : t.deleteFiles()) if (d.dataFileId() == f.id()) sb.append(d.location()).append('\n');
            if (t.inlinedDeleteTable() != null) {
                try (Statement st = duck.createStatement();
                     ResultSet rs = st.executeQuery("SELECT count(*), coalesce(sum(hash(row_id)), 0) FROM "
                             + c.catalogTable(t.inlinedDeleteTable()) + " WHERE file_id = " + f.id() + " AND begin_snapshot <= " + c.snapshot())) {
                    rs.next();
                    if (rs.getLong(1) > 0) sb.append("inlined ").append(rs.getLong(1)).append(' ').append(rs.getString(2));
                }
            }
            return sb.toString();
        }

        private long count(String sql) throws SQLException {
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + sql + ")")) {
                rs.next();
                return rs.getLong(1);
            }
        }

        /**
         * Sends the rows of {@code sql} to the sink, ordered by the key columns, then by every
         * column: a join's output order changes with DuckDB's threads, and the same diff must print
         * the same lines every time.
         */
        private void emitRows(String sql, char sign, List<String> labels, List<Integer> keys) throws SQLException {
            StringBuilder json = new StringBuilder("to_json({");
            for (int i = 0; i < labels.size(); i++) {
                if (i > 0) json.append(", ");
                json.append(SqlQuote.literal(labels.get(i))).append(": r.").append(col(i));
            }
            json.append("})");
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < labels.size(); i++) text.append(", CAST(r.").append(col(i)).append(" AS VARCHAR)");
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT " + json + text + " FROM (" + sql + ") AS r" + orderBy("r", keys, labels.size()))) {
                while (rs.next()) {
                    List<String> values = new ArrayList<>(labels.size());
                    for (int i = 0; i < labels.size(); i++) values.add(rs.getString(i + 2));
                    sink.row(name, sign, values, rs.getString(1));
                }
            }
        }

        private void emitChanged(String from, List<Integer> keys, List<Integer> others, List<String> labels) throws SQLException {
            StringBuilder select = new StringBuilder("SELECT to_json({");
            for (int j = 0; j < keys.size(); j++) {
                if (j > 0) select.append(", ");
                select.append(SqlQuote.literal(labels.get(keys.get(j)))).append(": y.").append(col(keys.get(j)));
            }
            select.append("})");
            for (int i : keys) select.append(", CAST(y.").append(col(i)).append(" AS VARCHAR)");
            for (int i = 0; i < labels.size(); i++) select.append(", CAST(y.").append(col(i)).append(" AS VARCHAR)");
            for (int i : others) {
                select.append(", x.").append(col(i)).append(" IS DISTINCT FROM y.").append(col(i))
                        .append(", CAST(x.").append(col(i)).append(" AS VARCHAR), CAST(y.").append(col(i)).append(" AS VARCHAR)")
                        .append(", to_json(x.").append(col(i)).append("), to_json(y.").append(col(i)).append(')');
            }
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(select + " " + from + orderBy("y", keys, labels.size()))) {
                while (rs.next()) {
                    List<String> key = new ArrayList<>();
                    int p = 2;
                    for (int ignored : keys) key.add(rs.getString(p++));
                    List<String> values = new ArrayList<>(labels.size());
                    for (int i = 0; i < labels.size(); i++) values.add(rs.getString(p++));
                    List<ValueChange> changes = new ArrayList<>();
                    for (int i : others) {
                        boolean differs = rs.getBoolean(p);
                        if (differs) {
                            changes.add(new ValueChange(labels.get(i), rs.getString(p + 1), rs.getString(p + 2), rs.getString(p + 3),
                                    rs.getString(p + 4)));
                        }
                        p += 5;
                    }
                    sink.changed(name, key, rs.getString(1), changes, values);
                }
            }
        }
    }
}
