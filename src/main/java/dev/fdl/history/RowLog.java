package dev.fdl.history;

import dev.fdl.FdlException;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code fdl log <ref> --table T --key col=value} (or {@code --where}): the versions in which the
 * rows chosen were added, changed or removed, with their values there (docs/history.md). A version
 * is compared with its first parent; expired versions are left out, and a version whose first
 * parent is expired or missing shows the rows it holds as {@link Change#OLDEST}.
 *
 * <p>Along first parents ({@link HistoryWalk.Parents#FIRST}) the versions are walked from the start
 * back, and only the catalogs of versions where the row can have changed are opened. A version's
 * catalog keeps the snapshots it added and the data files it shows, each with the snapshot that
 * added it (SPEC.md section 3). When a key chooses one row, and the table's recorded key
 * ({@link RowKey}, kept unique by every import: docs/data.md "The recorded key") is among the key's
 * columns, that row is in the same data file, unchanged, back to the version that added the file
 * (or recorded the key, or changed the table's columns, if later): no other row can have had its key meanwhile, and DuckLake never
 * changes a row in place; nor can the table's columns or name have changed after its last schema
 * version began ({@code ducklake_schema_versions}). The walk goes on from that version's first parent. Otherwise (no row,
 * several, {@code --where}, an inlined row) the next older version is opened. A version whose
 * table's data files, delete files, inlined rows and columns equal the version compared with
 * shows the same rows, unread.
 *
 * <p>Along every parent ({@link HistoryWalk.Parents#ALL}) every version's catalog is opened, parents
 * first; of a version, only the data files where the rows chosen can have changed over its first
 * parent are read: its new ones, and of a data file whose delete files changed under a parent's row
 * only the new delete files, for that row's position (a changed or moved row is in a new data file,
 * a removed one is deleted from its file); the parent's other rows are taken unread.
 */
public final class RowLog {
    /** What a version did to the rows chosen. */
    public enum Change { ADDED, CHANGED, REMOVED, OLDEST }

    /**
     * One version that changed the rows chosen: its columns, the rows before (its first parent's) and
     * after, each row a map of column name to value as text (null for NULL), and as JSON objects.
     */
    public record Entry(VersionInfo version, Change change, List<Map<String, String>> before, List<Map<String, String>> after,
                        List<String> beforeJson, List<String> afterJson) {
        /**
         * The rows before that are not among the rows after (compared whole, as a multiset, as a diff
         * of the two versions' rows would): what the version removed or changed away. For one row
         * before and one after, that row when it changed.
         */
        public List<Map<String, String>> onlyBefore() {
            return difference(before, beforeJson, afterJson);
        }

        /** The rows after that are not among the rows before (see {@link #onlyBefore}): what the version added or changed to. */
        public List<Map<String, String>> onlyAfter() {
            return difference(after, afterJson, beforeJson);
        }

        private static List<Map<String, String>> difference(List<Map<String, String>> rows, List<String> json, List<String> other) {
            Map<String, Integer> left = new HashMap<>();
            for (String j : other) left.merge(j, 1, Integer::sum);
            List<Map<String, String>> out = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                if (left.getOrDefault(json.get(i), 0) > 0) left.merge(json.get(i), -1, Integer::sum);
                else out.add(rows.get(i));
            }
            return out;
        }
    }

    /**
     * One row log.
     *
     * @param key   column → value (as SQL text, cast to the column's type by DuckDB), all must match; or empty
     * @param where null, or a read-only SQL expression choosing the rows (with or instead of {@code key})
     */
    public record Request(VersionInfo start, String table, Map<String, String> key, String where, HistoryWalk.Parents parents) {}

    /**
     * What a version shows of the rows chosen, ordered by their JSON text; {@code signature} is the
     * table's metadata, equal when the rows are. {@code files} is each row's data file (location
     * relative to the data path; null for an inlined row) and {@code positions} its 0-based position
     * there, {@code deletes} every visible data file's delete files ("" for none), {@code shape} the
     * columns and inlined rows' part of the signature. {@code since}: the snapshot from which on,
     * up to this version, the rows are known unchanged without reading (the class comment's rule), or -1.
     */
    private record State(String signature, List<Map<String, String>> rows, List<String> json, List<String> files,
                         List<Long> positions, Map<String, String> deletes, String shape, long since) {
        static final State ABSENT = new State("absent", List.of(), List.of(), List.of(), List.of(), Map.of(), "absent", -1);

        State since(long snapshot) {
            return new State(signature, rows, json, files, positions, deletes, shape, snapshot);
        }
    }

    /** The alias a version's catalog is attached as while it is read. */
    private static final String ALIAS = "__fdl_row_log";

    private final Repository repo;
    private final CatalogSource catalogs;
    private final DuckDbPool pool;
    private final Function<Path, String> dataPath;
    /** Versions whose rows were read (the others showed the rows of the version compared with). */
    private int read;

    /**
     * @param catalogs where versions' catalogs come from (only those the class comment names are asked for)
     * @param dataPath where a version's data files are read, given its catalog (the data folder, or a local mirror)
     */
    public RowLog(Repository repo, CatalogSource catalogs, DuckDbPool pool, Function<Path, String> dataPath) {
        this.repo = repo;
        this.catalogs = catalogs;
        this.pool = pool;
        this.dataPath = dataPath;
    }

    /**
     * The versions that changed the rows chosen, newest first.
     *
     * @throws FdlException usage error for a key column or {@code --where} the table does not take, or
     *                      neither key nor where given; not found when no version walked has the table
     */
    public List<Entry> run(Request request) {
        if (request.key().isEmpty() && request.where() == null)
            throw FdlException.usage("fdl log --table needs the row: --key col=value or --where SQL");
        List<Repository.LogEntry> walk = repo.log(request.start().id(), null, -1, request.parents());
        List<VersionInfo> live = new ArrayList<>();
        for (Repository.LogEntry e : walk) if (e.expired() == null) live.add(e.version());
        List<Entry> out = new ArrayList<>();
        boolean anyTable;
        try (Connection duck = pool.connection()) { // one connection: each version's catalog attached in turn
            anyTable = request.parents() == HistoryWalk.Parents.FIRST ? firstParents(duck, request, live, out) : allParents(duck, request, live, out);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read table " + request.table() + ": " + DuckDbErrors.firstLine(e), e);
        }
        if (!anyTable) throw FdlException.notFound("table " + TableName.parse(request.table()) + " is in no version from " + request.start().id());
        return out;
    }

    /** Every version walked, parents first, each compared with its first parent's rows; {@code out} newest first. */
    private boolean allParents(Connection duck, Request request, List<VersionInfo> live, List<Entry> out) {
        List<VersionInfo> sorted = new ArrayList<>(live);
        sorted.sort(Comparator.comparingLong(VersionInfo::seq).thenComparing(VersionInfo::id)); // parents first
        Map<String, State> states = new HashMap<>();
        boolean anyTable = false;
        for (VersionInfo v : sorted) {
            State parent = v.parents().isEmpty() ? State.ABSENT : states.get(v.parents().get(0));
            State mine = state(duck, v, request, parent, true);
            states.put(v.id(), mine);
            anyTable |= !mine.signature().equals("absent");
            Entry e = entry(v, parent, mine);
            if (e != null) out.add(e);
        }
        java.util.Collections.reverse(out);
        return anyTable;
    }

    /**
     * The versions along first parents from the start back to the oldest retained one, newest first
     * into {@code out}, opening the catalogs of those the class comment says.
     */
    private boolean firstParents(Connection duck, Request request, List<VersionInfo> live, List<Entry> out) {
        Map<String, VersionInfo> byId = new HashMap<>();
        live.forEach(v -> byId.put(v.id(), v));
        List<VersionInfo> line = new ArrayList<>(); // newest first
        for (VersionInfo v = request.start(); v != null; v = v.parents().isEmpty() ? null : byId.get(v.parents().get(0))) line.add(v);
        State mine = state(duck, line.get(0), request, null, false);
        boolean anyTable = !mine.signature().equals("absent");
        int i = 0;
        while (true) {
            int j = i; // line[i..j] all show the rows of `mine`
            if (mine.since() >= 0)
                while (j + 1 < line.size() && line.get(j).ducklake().firstSnapshot() > mine.since()) j++;
            VersionInfo oldest = line.get(j);
            if (j + 1 == line.size()) {
                State parent = oldest.parents().isEmpty() ? State.ABSENT : null; // null: expired or missing
                Entry e = entry(oldest, parent, mine);
                if (e != null) out.add(e);
                return anyTable;
            }
            State parent = state(duck, line.get(j + 1), request, mine, false);
            anyTable |= !parent.signature().equals("absent");
            Entry e = entry(oldest, parent, mine);
            if (e != null) out.add(e);
            mine = parent;
            i = j + 1;
        }
    }

    /** What version {@code v} did to the rows ({@code parent} null: its first parent is expired or missing), or null for nothing. */
    private static Entry entry(VersionInfo v, State parent, State mine) {
        Change change = parent == null ? (mine.rows().isEmpty() ? null : Change.OLDEST)
                : mine.json().equals(parent.json()) ? null
                : parent.rows().isEmpty() ? Change.ADDED : mine.rows().isEmpty() ? Change.REMOVED : Change.CHANGED;
        return change == null ? null : new Entry(v, change, parent == null ? List.of() : parent.rows(), mine.rows(),
                parent == null ? List.of() : parent.json(), mine.json());
    }

    /** Versions whose rows {@link #run} read. */
    public int versionsRead() {
        return read;
    }

    /**
     * {@code v}'s rows chosen: those of {@code known} (a neighbour's state, or null) when the table's
     * metadata is the same, else read; with {@code forward} ({@code known} is {@code v}'s first
     * parent's) only the data files where they can have changed, else all.
     */
    private State state(Connection duck, VersionInfo v, Request request, State known, boolean forward) {
        Path catalog = catalogs.versionCatalog(repo, v);
        try (Detach ignored = new Detach(duck)) {
            Sql.attach(duck, catalog, ALIAS, true);
            SnapshotView relative = SnapshotView.loadRelative(duck, ALIAS, catalog.toString(), null);
            SnapshotView.TableEntry t = find(relative, request.table());
            if (t == null) return State.ABSENT;
            String shape = shape(duck, relative.snapshot(), t);
            String signature = files(t) + shape;
            if (known != null && signature.equals(known.signature())) return known;
            read++;
            SnapshotView view = SnapshotView.loadTable(duck, ALIAS, catalog.toString(), dataPath.apply(catalog), null, t.id());
            SnapshotView.TableEntry abs = find(view, request.table());
            Map<String, String> deletes = deletesOf(t);
            Map<Long, String> locations = new HashMap<>();
            t.dataFiles().forEach(f -> locations.put(f.id(), f.location()));
            State fresh = new State(signature, List.of(), List.of(), List.of(), List.of(), deletes, shape, -1);
            State rows = !forward || known == null || !shape.equals(known.shape()) || t.inlinedDeleteTable() != null
                    ? rows(duck, view, abs, request, fresh, locations, null)
                    : rows(duck, view, abs, request, fresh, locations, kept(duck, known, deletes, absoluteDeletes(abs, locations)));
            return rows.since(since(duck, relative, t, request, rows));
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read table " + request.table() + " in version " + v.id() + ": "
                    + DuckDbErrors.firstLine(e), e);
        }
    }

    /**
     * The snapshot from which on the one row chosen is known unchanged (the class comment's rule):
     * the latest of its data file's first snapshot, the recorded key's and the table's last change of
     * columns or name ({@link ColumnTypes#lastSchemaChange}); -1 when the rule does not hold.
     */
    private static long since(Connection duck, SnapshotView relative, SnapshotView.TableEntry t, Request request, State rows)
            throws SQLException {
        if (request.where() != null || rows.rows().size() != 1 || rows.files().get(0) == null) return -1;
        Optional<RowKey.Recorded> key = RowKey.recorded(duck, relative.catalogTable("ducklake_tag"), t.id(), relative.snapshot());
        if (key.isEmpty() || key.get().columns().isEmpty()) return -1;
        for (String k : key.get().columns())
            if (request.key().keySet().stream().noneMatch(c -> Identifiers.same(c, k))) return -1;
        Long schema = ColumnTypes.lastSchemaChange(duck, SqlQuote.ident(ALIAS) + ".main.", t.id(), relative.snapshot());
        String file = rows.files().get(0);
        long begin = t.dataFiles().stream().filter(f -> f.location().equals(file)).mapToLong(SnapshotView.DataFileEntry::beginSnapshot)
                .findFirst().orElse(-1);
        return begin < 0 || schema == null ? -1 : Math.max(begin, Math.max(key.get().since(), schema));
    }

    /** Detaches the version's catalog when its reading ends, so that the next version's takes its alias. */
    private record Detach(Connection duck) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            try (Statement st = duck.createStatement()) {
                st.execute("DETACH DATABASE IF EXISTS " + SqlQuote.ident(ALIAS));
            }
        }
    }

    private static SnapshotView.TableEntry find(SnapshotView view, String name) {
        TableName wanted = TableName.parse(name);
        for (SnapshotView.TableEntry t : view.tables())
            if (Identifiers.same(t.schema(), wanted.schema()) && Identifiers.same(t.name(), wanted.name())) return t;
        return null;
    }

    /** The table's data files and delete files by location: with {@link #shape}, the metadata that decides its rows. */
    private static String files(SnapshotView.TableEntry t) {
        StringBuilder sb = new StringBuilder();
        t.dataFiles().stream().map(SnapshotView.DataFileEntry::location).sorted().forEach(f -> sb.append('\n').append(f));
        t.deleteFiles().stream().map(SnapshotView.DeleteFileEntry::location).sorted().forEach(f -> sb.append("\n-").append(f));
        return sb.toString();
    }

    /** Every visible data file's location → its delete files' locations, sorted, one a line ("" for none). */
    private static Map<String, String> deletesOf(SnapshotView.TableEntry t) {
        Map<Long, java.util.TreeSet<String>> byFile = new HashMap<>();
        t.deleteFiles().forEach(d -> byFile.computeIfAbsent(d.dataFileId(), k -> new java.util.TreeSet<>()).add(d.location()));
        Map<String, String> out = new HashMap<>();
        t.dataFiles().forEach(f -> out.put(f.location(), String.join("\n", byFile.getOrDefault(f.id(), new java.util.TreeSet<>()))));
        return out;
    }

    /** Every visible data file's location relative to the data path ({@code locations} by id) → its delete files where they are read. */
    private static Map<String, List<String>> absoluteDeletes(SnapshotView.TableEntry abs, Map<Long, String> locations) {
        Map<String, List<String>> out = new HashMap<>();
        abs.deleteFiles().forEach(d -> out.computeIfAbsent(locations.get(d.dataFileId()), k -> new ArrayList<>()).add(d.location()));
        return out;
    }

    /**
     * The table's columns, and its inlined rows and inlined deletes visible at {@code snapshot} of the
     * catalog attached as {@link #ALIAS} (counted and hashed in the catalog): when equal in two
     * versions, rows of data files present in both with the same delete file are the same rows.
     */
    private static String shape(Connection duck, long snapshot, SnapshotView.TableEntry t) throws SQLException {
        StringBuilder sb = new StringBuilder("\n");
        t.columns().forEach(c -> sb.append(c.id()).append(' ').append(c.name()).append(' ').append(c.duckType()).append(';'));
        List<String> inlined = new ArrayList<>();
        String in = SqlQuote.ident(ALIAS) + ".main.";
        for (SnapshotView.InlinedTable i : t.inlined()) {
            String begin = SqlQuote.ident(i.system().begin()), end = SqlQuote.ident(i.system().end());
            inlined.add("SELECT count(*), sum(hash(" + SqlQuote.ident(i.system().rowId()) + ", " + begin + ")) FROM " + in
                    + SqlQuote.ident(i.tableName()) + " WHERE " + begin + " <= " + snapshot + " AND (" + end + " IS NULL OR " + end + " > " + snapshot + ")");
        }
        if (t.inlinedDeleteTable() != null)
            inlined.add("SELECT count(*), sum(hash(file_id, row_id, begin_snapshot)) FROM " + in + SqlQuote.ident(t.inlinedDeleteTable())
                    + " WHERE begin_snapshot <= " + snapshot);
        try (Statement st = duck.createStatement()) {
            for (String q : inlined) {
                try (ResultSet rs = st.executeQuery(q)) {
                    rs.next();
                    sb.append("\ninlined ").append(rs.getLong(1)).append(' ').append(rs.getString(2));
                }
            }
        }
        return sb.toString();
    }

    /**
     * What a version can take unread from its first parent whose columns and inlined rows are the
     * same: the parent's rows of data files it still shows, less those its delete files delete. The
     * data files to read are the version's new ones (a changed or moved row is in a new data file, a
     * removed one is deleted from its file), and one whose delete files are gone.
     */
    private record Kept(State parent, List<Integer> rows, Set<String> read) {}

    /** @param absDeletes each visible data file's delete files where they are read (by relative location, as {@code deletes}) */
    private static Kept kept(Connection duck, State parent, Map<String, String> deletes, Map<String, List<String>> absDeletes) throws SQLException {
        Set<String> read = new java.util.HashSet<>();
        for (String f : deletes.keySet()) if (!parent.deletes().containsKey(f)) read.add(f);
        List<Integer> rows = new ArrayList<>();
        Map<String, List<Integer>> recheck = new HashMap<>(); // data file → the parent's rows there, its delete files changed
        for (int i = 0; i < parent.rows().size(); i++) {
            String f = parent.files().get(i);
            if (f == null || !deletes.containsKey(f)) continue; // inlined rows are read again; a file no longer shown lost its rows
            if (deletes.get(f).equals(parent.deletes().get(f))) rows.add(i);
            else if (deletes.get(f).isEmpty()) read.add(f);
            else recheck.computeIfAbsent(f, k -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<String, List<Integer>> e : recheck.entrySet()) {
            Set<Long> gone = deleted(duck, absDeletes.get(e.getKey()), e.getValue().stream().map(parent.positions()::get).toList());
            for (int i : e.getValue()) if (!gone.contains(parent.positions().get(i))) rows.add(i);
        }
        return new Kept(parent, rows, read);
    }

    /** Which of {@code positions} the Parquet positional delete files {@code deleteFiles} (column {@code pos}) delete. */
    private static Set<Long> deleted(Connection duck, List<String> deleteFiles, List<Long> positions) throws SQLException {
        StringBuilder files = new StringBuilder();
        for (String d : deleteFiles) files.append(files.isEmpty() ? "" : ", ").append(SqlQuote.literal(d));
        StringBuilder in = new StringBuilder();
        for (long p : new java.util.TreeSet<>(positions)) in.append(in.isEmpty() ? "" : ", ").append(p);
        Set<Long> out = new java.util.HashSet<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT pos FROM read_parquet([" + files + "]) WHERE pos IN (" + in + ")")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    /**
     * The rows {@code request} chooses in table {@code t}, ordered by their JSON text: with
     * {@code kept} null every row is read; else the parent's kept rows and those of the data files
     * {@code kept} names and of the inlined rows.
     *
     * @param locations data file id → location relative to the data path
     */
    private static State rows(Connection duck, SnapshotView view, SnapshotView.TableEntry t, Request request, State fresh,
                              Map<Long, String> locations, Kept kept) throws SQLException {
        List<String> names = t.columns().stream().map(SnapshotView.ColumnEntry::name).toList();
        List<String> match = new ArrayList<>();
        for (Map.Entry<String, String> k : request.key().entrySet()) {
            String column = names.stream().filter(n -> Identifiers.same(n, k.getKey())).findFirst().orElse(k.getKey());
            match.add(SqlQuote.ident(column) + " = " + SqlQuote.literal(k.getValue()));
        }
        if (request.where() != null) match.add("(" + request.where() + "\n)");
        SnapshotView.TableEntry part = kept == null ? t : only(t, locations, kept.read());
        String chosen = RowFilter.apply(duck, Blame.named(part, new TableViewSql(view, part).selectWithRowIds()), String.join(" AND ", match));
        StringBuilder select = new StringBuilder("SELECT to_json({");
        for (int i = 0; i < names.size(); i++)
            select.append(i == 0 ? "" : ", ").append(SqlQuote.literal(names.get(i))).append(": r.").append(SqlQuote.ident(names.get(i)));
        select.append("}), r.").append(TableViewSql.FILE_ID).append(", r.").append(TableViewSql.POS);
        for (String n : names) select.append(", CAST(r.").append(SqlQuote.ident(n)).append(" AS VARCHAR)");
        java.util.TreeMap<String, List<Object[]>> sorted = new java.util.TreeMap<>(); // json → (row, file, position), duplicates kept
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(select + " FROM (" + chosen + ") AS r")) {
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) row.put(names.get(i), rs.getString(i + 4));
                long file = rs.getLong(2);
                String location = rs.wasNull() ? null : locations.get(file);
                sorted.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new Object[]{row, location, rs.getLong(3)});
            }
        }
        if (kept != null)
            for (int i : kept.rows())
                sorted.computeIfAbsent(kept.parent().json().get(i), k -> new ArrayList<>()).add(new Object[]{kept.parent().rows().get(i),
                        kept.parent().files().get(i), kept.parent().positions().get(i)});
        List<Map<String, String>> rows = new ArrayList<>();
        List<String> json = new ArrayList<>();
        List<String> files = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        sorted.forEach((j, list) -> list.forEach(o -> {
            json.add(j);
            @SuppressWarnings("unchecked") Map<String, String> row = (Map<String, String>) o[0];
            rows.add(row);
            files.add((String) o[1]);
            positions.add((Long) o[2]);
        }));
        return new State(fresh.signature(), rows, json, files, positions, fresh.deletes(), fresh.shape(), -1);
    }

    /** {@code t} with only the data files at {@code read} (relative locations; by id through {@code locations}), their delete files and the inlined rows. */
    private static SnapshotView.TableEntry only(SnapshotView.TableEntry t, Map<Long, String> locations, java.util.Set<String> read) {
        List<SnapshotView.DataFileEntry> files = t.dataFiles().stream().filter(f -> read.contains(locations.get(f.id()))).toList();
        java.util.Set<Long> ids = new java.util.HashSet<>();
        files.forEach(f -> ids.add(f.id()));
        List<SnapshotView.DeleteFileEntry> deletes = t.deleteFiles().stream().filter(d -> ids.contains(d.dataFileId())).toList();
        return new SnapshotView.TableEntry(t.id(), t.schema(), t.name(), t.columns(), files, deletes, t.inlined(), t.inlinedDeleteTable());
    }

    /**
     * {@code col=value} pairs as a key map.
     *
     * @throws FdlException usage error for a pair without {@code =} or a column named twice
     */
    public static Map<String, String> parseKey(List<String> pairs) {
        Map<String, String> key = new LinkedHashMap<>();
        for (String p : pairs) {
            int eq = p.indexOf('=');
            if (eq <= 0) throw FdlException.usage("--key takes col=value (e.g. --key id=42); got '" + p + "'");
            String col = p.substring(0, eq).trim();
            if (key.keySet().stream().anyMatch(c -> Identifiers.same(c, col)))
                throw FdlException.usage("--key names column " + col + " twice");
            key.put(col, p.substring(eq + 1));
        }
        return key;
    }
}
