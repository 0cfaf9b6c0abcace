package dev.fdl.history;

import dev.fdl.FdlException;
import dev.fdl.ducklake.TableName;
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
import java.util.function.Function;

/**
 * {@code fdl log <ref> --table T --key col=value} (or {@code --where}): the versions in which the
 * rows chosen were added, changed or removed, with their values there (docs/history.md). A version
 * is compared with its first parent. A version whose table's data files, delete files, inlined rows
 * and columns equal its parent's shows its parent's rows, unread; of another, only the data files
 * where the rows chosen can have changed are read (its new ones, and those whose delete file
 * changed under a parent's row), the parent's other rows are taken unread. Versions are followed along
 * first parents, or every parent ({@link HistoryWalk.Parents#ALL}); expired versions are left out,
 * and a version whose first parent is expired or missing shows the rows it holds as
 * {@link Change#OLDEST}.
 */
public final class RowLog {
    /** What a version did to the rows chosen. */
    public enum Change { ADDED, CHANGED, REMOVED, OLDEST }

    /**
     * One version that changed the rows chosen: its columns, the rows before (its first parent's) and
     * after, each row a map of column name to value as text (null for NULL), and as JSON objects.
     */
    public record Entry(VersionInfo version, Change change, List<Map<String, String>> before, List<Map<String, String>> after,
                        List<String> beforeJson, List<String> afterJson) {}

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
     * relative to the data path; null for an inlined row), {@code deletes} every visible data file's
     * delete file ("" for none), {@code shape} the columns and inlined rows' part of the signature.
     */
    private record State(String signature, List<Map<String, String>> rows, List<String> json, List<String> files,
                         Map<String, String> deletes, String shape) {
        static final State ABSENT = new State("absent", List.of(), List.of(), List.of(), Map.of(), "absent");
    }

    private final Repository repo;
    private final CatalogSource catalogs;
    private final DuckDbPool pool;
    private final Function<Path, String> dataPath;
    /** Versions whose rows were read (the others showed their first parent's). */
    private int read;

    /** @param dataPath where a version's data files are read, given its catalog (the data folder, or a local mirror) */
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
        live.sort(Comparator.comparingLong(VersionInfo::seq).thenComparing(VersionInfo::id)); // parents first
        Map<String, State> states = new HashMap<>();
        List<Entry> out = new ArrayList<>();
        boolean anyTable = false;
        try (Connection duck = pool.connection()) { // one connection: each version's catalog attached in turn
            for (VersionInfo v : live) {
                State parent = v.parents().isEmpty() ? State.ABSENT : states.get(v.parents().get(0));
                State mine = state(duck, v, request, parent);
                states.put(v.id(), mine);
                anyTable |= !mine.signature().equals("absent");
                Change change = parent == null ? (mine.rows().isEmpty() ? null : Change.OLDEST)
                        : mine.json().equals(parent.json()) ? null
                        : parent.rows().isEmpty() ? Change.ADDED : mine.rows().isEmpty() ? Change.REMOVED : Change.CHANGED;
                if (change != null) out.add(new Entry(v, change, parent == null ? List.of() : parent.rows(), mine.rows(),
                        parent == null ? List.of() : parent.json(), mine.json()));
            }
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read table " + request.table() + ": " + DuckDbErrors.firstLine(e), e);
        }
        if (!anyTable) throw FdlException.notFound("table " + TableName.parse(request.table()) + " is in no version from " + request.start().id());
        java.util.Collections.reverse(out);
        return out;
    }

    /** Versions whose rows {@link #run} read. */
    public int versionsRead() {
        return read;
    }

    /** {@code v}'s rows chosen: its first parent's when the table's metadata is the same, else read. */
    private State state(Connection duck, VersionInfo v, Request request, State parent) {
        Path catalog = catalogs.versionCatalog(repo, v);
        try (Detach ignored = new Detach(duck)) {
            Sql.attach(duck, catalog, "__fdl_row_log", true);
            SnapshotView relative = SnapshotView.loadRelative(duck, "__fdl_row_log", catalog.toString(), null);
            SnapshotView.TableEntry t = find(relative, request.table());
            if (t == null) return State.ABSENT;
            String shape = shape(duck, t);
            String signature = files(t) + shape;
            if (parent != null && signature.equals(parent.signature())) return parent;
            read++;
            SnapshotView view = SnapshotView.loadTable(duck, "__fdl_row_log", catalog.toString(), dataPath.apply(catalog), null, t.id());
            SnapshotView.TableEntry abs = find(view, request.table());
            Map<String, String> deletes = deletesOf(t);
            Map<Long, String> locations = new HashMap<>();
            t.dataFiles().forEach(f -> locations.put(f.id(), f.location()));
            State fresh = new State(signature, List.of(), List.of(), List.of(), deletes, shape);
            if (parent == null || !shape.equals(parent.shape()) || t.inlinedDeleteTable() != null)
                return rows(duck, view, abs, request, fresh, locations, null);
            return rows(duck, view, abs, request, fresh, locations, kept(parent, deletes));
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read table " + request.table() + " in version " + v.id() + ": "
                    + DuckDbErrors.firstLine(e), e);
        }
    }

    /** Detaches the version's catalog when its reading ends, so that the next version's takes its alias. */
    private record Detach(Connection duck) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            try (Statement st = duck.createStatement()) {
                st.execute("DETACH DATABASE IF EXISTS \"__fdl_row_log\"");
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

    /** Every visible data file's location → its delete file's location ("" for none). */
    private static Map<String, String> deletesOf(SnapshotView.TableEntry t) {
        Map<Long, String> byFile = new HashMap<>();
        t.deleteFiles().forEach(d -> byFile.put(d.dataFileId(), d.location()));
        Map<String, String> out = new HashMap<>();
        t.dataFiles().forEach(f -> out.put(f.location(), byFile.getOrDefault(f.id(), "")));
        return out;
    }

    /**
     * The table's columns, and its visible inlined rows and inlined deletes (counted and hashed in
     * the catalog): when equal in two versions, rows of data files present in both with the same
     * delete file are the same rows.
     */
    private static String shape(Connection duck, SnapshotView.TableEntry t) throws SQLException {
        StringBuilder sb = new StringBuilder("\n");
        t.columns().forEach(c -> sb.append(c.id()).append(' ').append(c.name()).append(' ').append(c.duckType()).append(';'));
        List<String> inlined = new ArrayList<>();
        for (SnapshotView.InlinedTable i : t.inlined())
            inlined.add("SELECT count(*), sum(hash(" + SqlQuote.ident(i.system().rowId()) + ", " + SqlQuote.ident(i.system().begin())
                    + ", " + SqlQuote.ident(i.system().end()) + ")) FROM \"__fdl_row_log\".main." + SqlQuote.ident(i.tableName()));
        if (t.inlinedDeleteTable() != null)
            inlined.add("SELECT count(*), sum(hash(file_id, row_id, begin_snapshot)) FROM \"__fdl_row_log\".main." + SqlQuote.ident(t.inlinedDeleteTable()));
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
     * same: the parent's rows of data files it still shows with the same delete file. The data files
     * to read are the version's new ones and those whose delete file changed under a parent's row
     * (a changed or moved row is in a new data file, a removed one is deleted from its file).
     */
    private record Kept(State parent, List<Integer> rows, java.util.Set<String> read) {}

    private static Kept kept(State parent, Map<String, String> deletes) {
        java.util.Set<String> read = new java.util.HashSet<>();
        for (String f : deletes.keySet()) if (!parent.deletes().containsKey(f)) read.add(f);
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < parent.rows().size(); i++) {
            String f = parent.files().get(i);
            if (f == null || !deletes.containsKey(f)) continue; // inlined rows are read again; a file no longer shown lost its rows
            if (deletes.get(f).equals(parent.deletes().get(f))) rows.add(i);
            else read.add(f);
        }
        return new Kept(parent, rows, read);
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
        select.append("}), r.").append(TableViewSql.FILE_ID);
        for (String n : names) select.append(", CAST(r.").append(SqlQuote.ident(n)).append(" AS VARCHAR)");
        java.util.TreeMap<String, List<Object[]>> sorted = new java.util.TreeMap<>(); // json → (row, file), duplicates kept
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(select + " FROM (" + chosen + ") AS r")) {
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) row.put(names.get(i), rs.getString(i + 3));
                long file = rs.getLong(2);
                sorted.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new Object[]{row, rs.wasNull() ? null : locations.get(file)});
            }
        }
        if (kept != null)
            for (int i : kept.rows())
                sorted.computeIfAbsent(kept.parent().json().get(i), k -> new ArrayList<>()).add(new Object[]{kept.parent().rows().get(i),
                        kept.parent().files().get(i)});
        List<Map<String, String>> rows = new ArrayList<>();
        List<String> json = new ArrayList<>();
        List<String> files = new ArrayList<>();
        sorted.forEach((j, list) -> list.forEach(o -> {
            json.add(j);
            @SuppressWarnings("unchecked") Map<String, String> row = (Map<String, String>) o[0];
            rows.add(row);
            files.add((String) o[1]);
        }));
        return new State(fresh.signature(), rows, json, files, fresh.deletes(), fresh.shape());
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
