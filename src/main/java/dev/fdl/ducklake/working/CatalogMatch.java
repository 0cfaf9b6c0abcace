package dev.fdl.ducklake.working;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.catalog.WholeRows;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.format.Visibility;

/**
 * Makes a working catalog match another catalog ({@code fdl restore}; a merge taking one side's
 * tables, and recording its result): one new DuckLake snapshot at which the working catalog's
 * schemas, tables, views, columns, comments, data and delete files, inlined rows and inlined deletes are those another catalog (the old version's,
 * converted to SQLite) shows at its newest snapshot. No data file is copied or written: the new
 * snapshot names the old files, so an fdl commit afterwards publishes the old content as a new
 * version, and every earlier snapshot of the working catalog reads as before (time travel).
 *
 * <p>The rule, applied to each versioned catalog table (DUCKLAKE.md, "Snapshots and visibility"):
 * a row the old catalog shows that the working catalog also shows unchanged stays as it is; every
 * other row the working catalog shows gets {@code end_snapshot} = the new snapshot; every other
 * row the old catalog shows is inserted with {@code begin_snapshot} = the new snapshot. Ids are
 * kept where they mean the same thing, so unchanged tables stay the same tables: a schema, table
 * or view keeps its id unless the working catalog used that id for another object (another uuid:
 * a version from a diverged branch), when it gets a new one from {@code next_catalog_id}; a data
 * or delete file the working catalog does not show with the same id, path and deletes gets a new
 * id from {@code next_file_id} (a file's row cannot be visible again once ended, and its inlined
 * deletes have no end). Column ids are per table and kept, so Parquet field ids still match.
 * Statistics of restored tables are the old catalog's, except {@code next_row_id}, which never goes
 * back (row ids must not repeat).
 *
 * <p>Partitioned or sorted tables and macros are refused (naming the table), never restored half:
 * fdl's importer writes none of them. Data files read through a name mapping ({@code mapping_id},
 * from {@code fdl add-files} of files without field ids) come with their mapping. Both catalogs must be of the same
 * DuckLake format. Everything happens in one SQLite transaction: on any error the working catalog
 * is unchanged.
 */
public final class CatalogMatch {
    /**
     * The new snapshot.
     *
     * @param snapshot the new snapshot's id
     * @param changes  its {@code changes_made} entries (empty: the working catalog already showed that state)
     */
    public record MatchResult(long snapshot, List<String> changes) {
        public MatchResult {
            changes = List.copyOf(changes);
        }
    }

    private static final String V = "restore_source";
    private static final List<String> REFUSED = List.of("ducklake_partition_info", "ducklake_sort_info", "ducklake_macro");

    private final NewSnapshot snapshot;
    private final long s;       // the new snapshot
    private long vs;      // the source's newest snapshot
    private boolean ddl;
    private final Set<Long> newSchema = new HashSet<>(); // tables whose inlined rows moved to the new schema version
    private final Map<Long, Set<String>> tableChanges = new LinkedHashMap<>();
    private final List<String> changes = new ArrayList<>();
    private final Map<Long, Long> catalogIds = new HashMap<>();
    /** The table uuids restored, or null: every table, schema and view (the whole catalog). */
    private final Set<String> scope;
    /** Scoped: ids of the restored tables in the source, and in the working catalog (before and at the new snapshot). */
    private final Set<Long> scopedSource = new HashSet<>();
    private final Set<Long> scopedWorking = new HashSet<>();

    /** Whether a snapshot that changes nothing is written rather than refused. */
    private final boolean allowEmpty;
    private final CatalogTables cat;

    private CatalogMatch(NewSnapshot snapshot, Request request) throws SQLException {
        this.allowEmpty = request.allowEmpty();
        this.snapshot = snapshot;
        this.cat = new CatalogTables(snapshot.catalog().connection(), V, request.working().toString(), request.source().toString());
        this.s = snapshot.id();
        this.scope = request.tableUuids();
    }

    /**
     * What to match: {@code working} is given one snapshot at which it shows what {@code source}
     * shows at {@code sourceSnapshot}.
     *
     * @param working        the SQLite working catalog (changed in one transaction)
     * @param source         the other catalog as SQLite (read only), e.g. an old version's
     * @param sourceSnapshot the snapshot of {@code source} to match (a version's newest: its {@code ducklake.snapshot_id})
     * @param tableUuids     the tables (by {@code table_uuid}) and views (by {@code view_uuid}) matched; null: the whole
     *                       catalog. Scoped, each such table or view is made what {@code source} shows (created, changed,
     *                       or dropped when the source does not show it), naming the source's data and delete files under
     *                       ids the working catalog has not used; every other table, schema and view stays as it is. The
     *                       source's schemas must be the working catalog's (same {@code schema_uuid}); a table in another
     *                       schema is refused.
     * @param allowEmpty     a source that shows what the working catalog shows still gets its snapshot (no changes): a
     *                       merge whose result equals ours is recorded all the same; false: refused (always true when scoped)
     * @param author         recorded in {@code ducklake_snapshot_changes}
     * @param message        recorded in {@code ducklake_snapshot_changes}
     */
    public record Request(Path working, Path source, long sourceSnapshot, Set<String> tableUuids, boolean allowEmpty, String author,
                          String message) {
        public Request {
            Objects.requireNonNull(working, "working");
            Objects.requireNonNull(source, "source");
            tableUuids = tableUuids == null ? null : Set.copyOf(tableUuids);
            allowEmpty = allowEmpty || tableUuids != null;
        }

        /** {@code fdl restore}: the whole catalog, refused when nothing differs. */
        public static Request restore(Path working, Path source, long sourceSnapshot, String author, String message) {
            return new Request(working, source, sourceSnapshot, null, false, author, message);
        }

        /** A merge's result: the whole catalog, recorded even when nothing differs. */
        public static Request merge(Path working, Path source, long sourceSnapshot, String author, String message) {
            return new Request(working, source, sourceSnapshot, null, true, author, message);
        }

        /** A merge taking one side's tables and views ({@code tableUuids}): only those, recorded even when nothing differs. */
        public static Request tables(Path working, Path source, long sourceSnapshot, Set<String> tableUuids, String author, String message) {
            return new Request(working, source, sourceSnapshot, Objects.requireNonNull(tableUuids, "tableUuids"), true, author, message);
        }

        /** The snapshot's operation as the snapshot writer records it: {@code restore}, else {@code merge}. */
        String operation() {
            return tableUuids == null && !allowEmpty ? "restore" : "merge";
        }

        /** What a failure message says could not be done. */
        String what() {
            return tableUuids != null ? "cannot take tables into the working catalog " + working
                    : allowEmpty ? "cannot write the merge into " + working : "cannot restore into the working catalog " + working;
        }
    }

    /**
     * Adds one snapshot to {@code request.working()} whose state equals {@code request.source()}'s at
     * {@code request.sourceSnapshot()} (for the tables in scope).
     *
     * @throws FdlException exit 1 when the catalogs differ in DuckLake format, or either uses a
     *                      feature this does not handle (partitions, sort orders, macros),
     *                      naming it, or when the working catalog already shows
     *                      that state and {@code allowEmpty} is false (nothing to restore); the working catalog is then unchanged
     */
    public static MatchResult run(Request request) {
        try (WorkingCatalog catalog = WorkingCatalog.open(request.working())) {
            // outside the transaction: SQLite attaches no database inside one
            Sql.exec(catalog.connection(), "ATTACH DATABASE " + SqlQuote.literal(request.source().toAbsolutePath().toString()) + " AS " + V);
            return catalog.newSnapshot(catalog.newestSnapshot(), request.operation(), request.author(), request.message())
                    .commit(ns -> new CatalogMatch(ns, request).run(request.sourceSnapshot()));
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, request.what() + ": " + e.getMessage(), e);
        }
    }

    /** Scoped: source schema ids mapped to the working catalog's schema of the same uuid. */
    private Sync sameSchemas() throws SQLException {
        Sync out = new Sync();
        out.idColumn = "schema_id";
        Map<String, Long> working = new HashMap<>();
        for (CatalogRow r : cat.rows("main", "ducklake_schema", at("main"))) working.put(r.text("schema_uuid"), r.num("schema_id"));
        for (CatalogRow r : cat.rows(V, "ducklake_schema", at(V))) {
            Long to = working.get(r.text("schema_uuid"));
            if (to != null) out.ids.put(r.num("schema_id"), to);
        }
        return out;
    }

    /** Scoped: the ids, in {@code db}, of tables whose uuid is in scope, at any snapshot. */
    private Set<Long> scopedTableIds(String db) throws SQLException {
        Set<Long> out = new HashSet<>();
        for (CatalogRow r : cat.rows(db, "ducklake_table", null)) if (scope.contains(r.text("table_uuid"))) out.add(r.num("table_id"));
        return out;
    }

    /** Whether a row of catalog table {@code table} in {@code db} takes part: always unscoped, else only rows of restored tables. */
    private boolean inScope(String db, String table, CatalogRow r) {
        if (scope == null) return true;
        if (table.equals("ducklake_table")) return scope.contains(r.text("table_uuid"));
        if (table.equals("ducklake_view")) return scope.contains(r.text("view_uuid"));
        Set<Long> ids = db.equals(V) ? scopedSource : scopedWorking;
        Long t = table.equals("ducklake_tag") ? r.num("object_id") : r.values.containsKey("table_id") ? r.num("table_id") : null;
        return t != null && ids.contains(t);
    }

    private MatchResult run(long sourceSnapshot) throws SQLException {
        String wFormat = cat.model("main").metadata("version"), vFormat = cat.model(V).metadata("version");
        if (!Objects.equals(wFormat, vFormat))
            throw new FdlException("cannot restore a DuckLake " + vFormat + " catalog into a DuckLake " + wFormat
                    + " working catalog: the formats differ");
        long newest = cat.model(V).snapshotRange()[1];
        CatalogRow v = cat.rows(V, "ducklake_snapshot", "snapshot_id", newest).get(0);
        vs = sourceSnapshot;
        if (!cat.model(V).hasSnapshot(vs))
            throw new FdlException("cannot restore: the version's catalog has no snapshot " + vs + " (newest: " + newest + ")");
        // the source's ids stay taken: its rows keep their ids where they mean the same thing
        snapshot.reserveIdsBelow(v.num("next_catalog_id"), v.num("next_file_id"));
        refuseUnsupported();

        if (scope != null) {
            scopedSource.addAll(scopedTableIds(V));
            scopedWorking.addAll(scopedTableIds("main"));
        }
        Sync schemas = scope != null ? sameSchemas() : sync("ducklake_schema", "schema_id", "schema_uuid", Map.of(), Set.of());
        for (CatalogRow r : schemas.inserted) changes.add("created_schema:" + SqlQuote.ident(r.text("schema_name")));
        for (CatalogRow r : schemas.ended) if (!schemas.ids.containsValue(r.num("schema_id"))) changes.add("dropped_schema:" + r.num("schema_id"));
        Sync tables = sync("ducklake_table", "table_id", "table_uuid", Map.of("schema_id", schemas.ids), Set.of());
        Map<Long, String> schemaNames = new HashMap<>();
        // the schemas visible before the new snapshot or at it (a restored table may be in either)
        for (long at : new long[] {s - 1, s})
            for (CatalogRow r : cat.rows("main", "ducklake_schema", at)) schemaNames.put(r.num("schema_id"), r.text("schema_name"));
        for (CatalogRow r : tables.inserted)
            if (!tables.endedIds().contains(r.num("table_id")))
                changes.add("created_table:" + SqlQuote.qualified(schemaNames.getOrDefault(r.num("schema_id"), "main"), r.text("table_name")));
            else mark(r.num("table_id"), "altered_table");
        for (CatalogRow r : tables.ended) if (!tables.ids.containsValue(r.num("table_id"))) changes.add("dropped_table:" + r.num("table_id"));
        scopedWorking.addAll(tables.ids.values());
        Sync views = sync("ducklake_view", "view_id", "view_uuid", Map.of("schema_id", schemas.ids), Set.of());
        for (CatalogRow r : views.inserted)
            changes.add((views.endedIds().contains(r.num("view_id")) ? "altered_view:" + r.num("view_id")
                    : "created_view:" + SqlQuote.qualified(schemaNames.getOrDefault(r.num("schema_id"), "main"), r.text("view_name"))));
        for (CatalogRow r : views.ended) if (!views.ids.containsValue(r.num("view_id"))) changes.add("dropped_view:" + r.num("view_id"));
        catalogIds.putAll(schemas.ids);
        catalogIds.putAll(tables.ids);
        catalogIds.putAll(views.ids);

        Sync columns = sync("ducklake_column", null, null, Map.of("table_id", tables.ids), Set.of());
        for (CatalogRow r : columns.inserted) mark(r.num("table_id"), "altered_table");
        for (CatalogRow r : columns.ended) if (tables.ids.containsValue(r.num("table_id"))) mark(r.num("table_id"), "altered_table");
        ddl = !schemas.isEmpty() || !tables.isEmpty() || !views.isEmpty() || !columns.isEmpty();
        if (ddl) snapshot.schemaChanged();
        sync("ducklake_tag", null, null, Map.of("object_id", catalogIds), Set.of());
        sync("ducklake_column_tag", null, null, Map.of("table_id", tables.ids), Set.of());

        Sync files = sync("ducklake_data_file", "data_file_id", null, Map.of("table_id", tables.ids, "mapping_id", nameMappings(tables.ids)),
                filesWithOtherDeletes(tables.ids));
        for (CatalogRow r : files.inserted) mark(r.num("table_id"), "inserted_into_table");
        for (CatalogRow r : files.ended) mark(r.num("table_id"), "deleted_from_table");
        for (Map.Entry<Long, Long> e : files.fresh.entrySet()) {
            for (String t : List.of("ducklake_file_column_stats", "ducklake_file_variant_stats", "ducklake_file_partition_value"))
                copyDependent(t, e.getKey(), e.getValue(), tables.ids);
        }
        Sync deletes = sync("ducklake_delete_file", "delete_file_id", null,
                Map.of("table_id", tables.ids, "data_file_id", files.ids), Set.of());
        for (CatalogRow r : deletes.inserted) mark(r.num("table_id"), "deleted_from_table");
        copyInlinedDeletes(files, tables.ids);
        inlinedData(tables.ids);
        tableStats(tables.ids);

        if (ddl) {
            Set<Long> changed = new TreeSet<>();
            for (CatalogRow r : tables.inserted) changed.add(r.num("table_id"));
            for (CatalogRow r : columns.inserted) changed.add(r.num("table_id"));
            changed.addAll(newSchema);
            for (Long t : changed)
                cat.update("INSERT INTO main.ducklake_schema_versions (begin_snapshot, schema_version, table_id) VALUES (?, ?, ?)", s,
                        snapshot.schemaVersion(), t);
        }
        tableChanges.forEach((t, kinds) -> kinds.forEach(k -> changes.add(k + ":" + t)));
        if (changes.isEmpty() && !allowEmpty)
            throw new FdlException("the working catalog already shows exactly these tables; nothing to restore (nothing was changed)");
        changes.forEach(snapshot::change);
        return new MatchResult(s, changes);
    }

    private void mark(long table, String kind) {
        tableChanges.computeIfAbsent(table, k -> new LinkedHashSet<>()).add(kind);
    }

    /**
     * The snapshot whose rows of {@code db} take part: the source's snapshot; the working
     * catalog's new one, which shows every row not ended (the newest snapshot's, and those this
     * match already wrote).
     */
    private long at(String db) {
        return db.equals(V) ? vs : s;
    }

    /** The SQL condition that a row of the source, as {@code alias}, is visible at the source's snapshot. */
    private String sourceVisible(String alias) {
        return Visibility.at(alias, vs);
    }

    private void refuseUnsupported() throws SQLException {
        for (String db : List.of("main", V)) {
            String which = db.equals(V) ? "the version to restore" : "the working catalog";
            for (String t : REFUSED) {
                if (!cat.exists(db, t) || cat.count(db, t, at(db)) == 0) continue;
                throw new FdlException("cannot restore: " + which + " uses " + t.substring("ducklake_".length()).replace('_', ' ')
                        + " (" + t + "), which fdl restore does not handle yet; nothing was changed");
            }
            // DuckLake 1.1 renamed the inlined-data system columns and added nested schemas; restore
            // copies rows by the 1.0 names and would not remap parent_schema_id, so it refuses both
            if (DuckLakeSchema.FORMAT_1_1.equals(cat.model(db).metadata("version"))) {
                if (cat.count(db, "ducklake_inlined_data_tables", null) > 0)
                    throw new FdlException("cannot restore: " + which + " is a DuckLake 1.1 catalog with inlined rows, which fdl restore "
                            + "does not handle yet; nothing was changed");
                if (cat.model(db).schemas(at(db)).stream().anyMatch(r -> r.parentId() != null))
                    throw new FdlException("cannot restore: " + which + " has nested schemas (DuckLake 1.1), which fdl restore "
                            + "does not handle yet; nothing was changed");
            }
            boolean[] partitioned = {false};
            cat.model(db).dataFiles(null, at(db), f -> partitioned[0] |= f.partitionId() != null);
            if (partitioned[0])
                throw new FdlException("cannot restore: " + which + " has partitioned data files, which fdl restore "
                        + "does not handle yet; nothing was changed");
        }
    }

    /** One catalog table brought to the source's state; see the class comment. */
    private final class Sync {
        final Map<Long, Long> ids = new HashMap<>();   // source id -> id in the working catalog (visible at s)
        final Map<Long, Long> fresh = new HashMap<>(); // source id -> new id, for rows inserted under a new id
        final List<CatalogRow> inserted = new ArrayList<>();
        final List<CatalogRow> ended = new ArrayList<>();
        String idColumn;

        boolean isEmpty() {
            return inserted.isEmpty() && ended.isEmpty();
        }

        Set<Long> endedIds() {
            Set<Long> out = new HashSet<>();
            for (CatalogRow r : ended) out.add(r.num(idColumn));
            return out;
        }
    }

    /**
     * @param idColumn  the row's own id (null: none, rows are matched on every column)
     * @param uuidColumn for catalog objects: the id is kept unless the working catalog used it for another uuid;
     *                   null: the id is kept only when the row is unchanged, else a new file id
     * @param maps      columns holding ids of other objects, with their source-to-working mapping
     * @param forceNew  source ids never matched (a data file whose deletes differ)
     */
    private Sync sync(String table, String idColumn, String uuidColumn, Map<String, Map<Long, Long>> maps, Set<Long> forceNew)
            throws SQLException {
        Sync out = new Sync();
        out.idColumn = idColumn;
        if (!cat.exists("main", table) || !cat.exists(V, table)) return out;
        List<String> cols = cat.columns(table);
        Set<Long> keptRowids = new HashSet<>();
        List<CatalogRow> toInsert = new ArrayList<>();
        source:
        for (CatalogRow r : cat.rows(V, table, at(V))) {
            if (!inScope(V, table, r)) continue;
            for (Map.Entry<String, Map<Long, Long>> m : maps.entrySet()) {
                Object ref = r.values.get(m.getKey());
                if (ref == null) continue;
                Long to = m.getValue().get(((Number) ref).longValue());
                if (to == null) continue source; // it belongs to an object the source does not show
                r.values.put(m.getKey(), to);
            }
            Long id = idColumn == null ? null : r.num(idColumn);
            if (id == null || !forceNew.contains(id)) {
                Long rowid = cat.workingRowid(table, s, r.values);
                if (rowid != null) {
                    keptRowids.add(rowid);
                    if (id != null) out.ids.put(id, id);
                    continue;
                }
            }
            if (id != null) {
                long to = uuidColumn != null && !catalogIdTaken(id, r.values.get(uuidColumn)) ? id
                        : uuidColumn != null ? snapshot.newCatalogId() : snapshot.newFileId();
                if (to != id) out.fresh.put(id, to);
                out.ids.put(id, to);
                r.values.put(idColumn, to);
            }
            toInsert.add(r);
        }
        for (CatalogRow w : cat.rows("main", table, at("main"))) {
            if (keptRowids.contains(w.rowid) || !inScope("main", table, w)) continue;
            snapshot.endRows("main." + table, "rowid = ?", w.rowid);
            out.ended.add(w);
        }
        for (CatalogRow r : toInsert) {
            r.values.put("begin_snapshot", s);
            r.values.put("end_snapshot", null);
            cat.insert("main." + table, cols, r.values);
            out.inserted.add(r);
        }
        return out;
    }

    /** True when the working catalog used {@code id} for a schema, table or view with another uuid. */
    private boolean catalogIdTaken(long id, Object uuid) throws SQLException {
        for (String kind : List.of("schema", "table", "view"))
            for (CatalogRow r : cat.rows("main", "ducklake_" + kind, kind + "_id", id))
                if (!Objects.equals(r.values.get(kind + "_uuid"), uuid)) return true;
        return false;
    }

    /**
     * Source data files whose deletes (delete files, inlined deletes) differ from those the working
     * catalog shows for the file of the same id: they must come back under a new id.
     */
    private Set<Long> filesWithOtherDeletes(Map<Long, Long> tableIds) throws SQLException {
        Set<Long> out = new HashSet<>();
        Map<Long, Set<String>> src = deletesOf(V, tableIds.keySet());
        Map<Long, Set<String>> dst = deletesOf("main", new HashSet<>(tableIds.values()));
        for (CatalogRow f : cat.rows(V, "ducklake_data_file", at(V))) {
            long id = f.num("data_file_id");
            if (!src.getOrDefault(id, Set.of()).equals(dst.getOrDefault(id, Set.of()))) out.add(id);
        }
        return out;
    }

    /** Per data file id: the visible delete files (id and path) and inlined deletes (row ids) of {@code db}. */
    private Map<Long, Set<String>> deletesOf(String db, Set<Long> tables) throws SQLException {
        Map<Long, Set<String>> out = new HashMap<>();
        for (CatalogRow d : cat.rows(db, "ducklake_delete_file", at(db)))
            out.computeIfAbsent(d.num("data_file_id"), k -> new HashSet<>()).add("file " + d.num("delete_file_id") + " " + d.values.get("path"));
        for (long t : tables)
            for (WholeRows.InlinedDelete d : cat.inlinedDeletes(db, t, db.equals(V) ? vs : null))
                out.computeIfAbsent(d.fileId(), k -> new HashSet<>()).add("row " + d.rowId());
        return out;
    }

    /** Inlined deletes of the source's data files that came back under a new id, recorded at the new snapshot. */
    private void copyInlinedDeletes(Sync files, Map<Long, Long> tableIds) throws SQLException {
        for (Map.Entry<Long, Long> t : tableIds.entrySet()) {
            String from = "ducklake_inlined_delete_" + t.getKey();
            if (!cat.exists(V, from)) continue;
            String to = "ducklake_inlined_delete_" + t.getValue();
            // the working catalog may hold the table already (its own inlined deletes of that table)
            boolean created = cat.exists("main", to);
            for (WholeRows.InlinedDelete d : cat.inlinedDeletes(V, t.getKey(), vs)) {
                Long file = files.fresh.get(d.fileId());
                if (file == null) continue; // unchanged file: its inlined deletes are already there
                if (!created) created = cat.createLike(from, to);
                cat.update("INSERT INTO main." + SqlQuote.ident(to) + " (file_id, row_id, begin_snapshot) VALUES (?, ?, ?)", file, d.rowId(), s);
            }
        }
    }

    /**
     * Inlined rows: for each source inlined-data table of a restored table, the working catalog's
     * table of the same table id and schema version (created like the source's if missing) ends
     * the rows the source does not show and gets those it lacks; inlined rows of every other
     * inlined-data table end. When the working catalog does not know that schema version of the
     * table (a table from another line of history, or one its history no longer holds), rows
     * written with the table's current columns go to the new snapshot's schema version; rows
     * written under an older schema are refused (naming the table): reading them needs that
     * schema, which the working catalog cannot state.
     */
    private void inlinedData(Map<Long, Long> tableIds) throws SQLException {
        Set<String> targets = new HashSet<>();
        if (cat.exists(V, "ducklake_inlined_data_tables")) {
            for (CatalogRow r : cat.rows(V, "ducklake_inlined_data_tables", null)) {
                Long to = tableIds.get(r.num("table_id"));
                String from = r.text("table_name");
                if (to == null || !cat.exists(V, from)) continue;
                long sv = r.num("schema_version");
                String target = "ducklake_inlined_data_" + to + "_" + sv;
                if (!cat.exists("main", target) && !knowsSchemaVersion(to, sv)) {
                    if (cat.count(V, from, vs) == 0) continue;
                    if (!inlinedColumns(from).equals(currentColumns(r.num("table_id"))))
                        throw new FdlException("cannot restore table " + to + ": some of its inlined rows were written under an older "
                                + "schema (" + from + ") that the working catalog does not know (the version comes from another line "
                                + "of history); nothing was changed");
                    ddl = true; // not new today: such a table is always inserted, which is DDL already
                    sv = snapshot.schemaChanged();
                    target = "ducklake_inlined_data_" + to + "_" + sv;
                    if (targets.contains(target))
                        throw new FdlException("cannot restore table " + to + ": its inlined rows are spread over several schema "
                                + "versions the working catalog does not know; nothing was changed");
                    newSchema.add(to);
                }
                if (!cat.exists("main", target)) cat.createLike(from, target);
                else if (!cat.declaredColumns("main", target).equals(cat.declaredColumns(V, from)))
                    throw new FdlException("cannot restore: inlined rows of table " + to + " at schema version " + r.num("schema_version")
                            + " have other columns in the working catalog (" + target + ") than in the version; nothing was changed");
                if (cat.rows("main", "ducklake_inlined_data_tables", "table_name", target).isEmpty())
                    cat.update("INSERT INTO main.ducklake_inlined_data_tables (table_id, table_name, schema_version) VALUES (?, ?, ?)",
                            to, target, sv);
                targets.add(target);
                List<String> data = new ArrayList<>();
                for (String c : cat.columns(V, from)) if (!c.equals("begin_snapshot") && !c.equals("end_snapshot")) data.add(SqlQuote.ident(c));
                String t = "main." + SqlQuote.ident(target), f = cat.sourceTable(from);
                StringBuilder same = new StringBuilder();
                for (String c : data) same.append(" AND x.").append(c).append(" IS w.").append(c);
                int ended = snapshot.endRows(t + " AS w", "NOT EXISTS (SELECT 1 FROM " + f + " AS x WHERE " + sourceVisible("x") + same + ")");
                int added = cat.updateCount("INSERT INTO " + t + " (" + String.join(", ", data) + ", begin_snapshot, end_snapshot) SELECT "
                        + prefixed("x.", data) + ", " + s + ", NULL FROM " + f + " AS x WHERE "
                        + sourceVisible("x")
                        + " AND NOT EXISTS (SELECT 1 FROM " + t + " AS w WHERE" + Visibility.live("w") + "AND w.begin_snapshot < " + s + same + ")");
                if (ended > 0) mark(to, "inlined_delete");
                if (added > 0) mark(to, "inlined_insert");
            }
        }
        if (!cat.exists("main", "ducklake_inlined_data_tables")) return;
        for (CatalogRow r : cat.rows("main", "ducklake_inlined_data_tables", null)) {
            String name = r.text("table_name");
            if (targets.contains(name) || !cat.exists("main", name)) continue;
            if (scope != null && !scopedWorking.contains(r.num("table_id"))) continue;
            if (snapshot.endRows("main." + SqlQuote.ident(name), "1 = 1") > 0)
                mark(r.num("table_id"), "inlined_delete");
        }
    }

    /** The data columns of a source inlined-data table, in order. */
    private List<String> inlinedColumns(String table) throws SQLException {
        List<String> out = new ArrayList<>(cat.columns(V, table));
        out.removeAll(List.of("row_id", "begin_snapshot", "end_snapshot"));
        return out;
    }

    /** The top-level columns a source table shows at the restored snapshot, in order. */
    private List<String> currentColumns(long table) throws SQLException {
        List<String> out = new ArrayList<>();
        for (ColumnTypes.Row c : cat.model(V).columnRows(table, vs)) if (c.parent() == null) out.add(c.name());
        return out;
    }

    /** Whether the working catalog recorded schema version {@code version} of table {@code table} before the new snapshot. */
    private boolean knowsSchemaVersion(long table, long version) throws SQLException {
        for (CatalogRow r : cat.rows("main", "ducklake_schema_versions", "table_id", table))
            if (r.num("schema_version") == version && r.num("begin_snapshot") < s) return true;
        return false;
    }

    private static String prefixed(String p, List<String> cols) {
        List<String> out = new ArrayList<>();
        for (String c : cols) out.add(p + c);
        return String.join(", ", out);
    }

    /** Restored tables take the source's statistics; next_row_id never goes back. */
    private void tableStats(Map<Long, Long> tableIds) throws SQLException {
        for (Map.Entry<Long, Long> t : tableIds.entrySet()) {
            List<CatalogRow> src = cat.rows(V, "ducklake_table_stats", "table_id", t.getKey());
            if (src.isEmpty()) continue;
            List<CatalogRow> dst = cat.rows("main", "ducklake_table_stats", "table_id", t.getValue());
            long nextRowId = src.get(0).num("next_row_id");
            for (CatalogRow d : dst) nextRowId = Math.max(nextRowId, d.num("next_row_id"));
            cat.update("DELETE FROM main.ducklake_table_stats WHERE table_id = ?", t.getValue());
            CatalogRow r = src.get(0);
            r.values.put("table_id", t.getValue());
            r.values.put("next_row_id", nextRowId);
            cat.insert("main.ducklake_table_stats", cat.columns("ducklake_table_stats"), r.values);
            cat.update("DELETE FROM main.ducklake_table_column_stats WHERE table_id = ?", t.getValue());
            for (CatalogRow c : cat.rows(V, "ducklake_table_column_stats", "table_id", t.getKey())) {
                c.values.put("table_id", t.getValue());
                cat.insert("main.ducklake_table_column_stats", cat.columns("ducklake_table_column_stats"), c.values);
            }
        }
    }

    /** Rows keyed by data_file_id (statistics, partition values) copied for a file that came back under a new id. */
    private void copyDependent(String table, long from, long to, Map<Long, Long> tableIds) throws SQLException {
        if (!cat.exists("main", table) || !cat.exists(V, table)) return;
        for (CatalogRow r : cat.rows(V, table, "data_file_id", from)) {
            r.values.put("data_file_id", to);
            Object t = r.values.get("table_id");
            if (t != null) r.values.put("table_id", tableIds.get(((Number) t).longValue()));
            cat.insert("main." + table, cat.columns(table), r.values);
        }
    }

    /**
     * The name mappings the source's visible data files name, source id to working id: a mapping
     * the working catalog holds alike (same table, type and entries) keeps its id; any other is
     * copied under a new catalog id (mappings are not versioned; DuckLake never changes one).
     */
    private Map<Long, Long> nameMappings(Map<Long, Long> tableIds) throws SQLException {
        Map<Long, Long> out = new HashMap<>();
        if (!cat.exists("main", "ducklake_column_mapping") || !cat.exists(V, "ducklake_column_mapping")) return out;
        for (CatalogRow f : cat.rows(V, "ducklake_data_file", vs)) {
            if (f.values.get("mapping_id") == null) continue;
            long from = f.num("mapping_id");
            if (out.containsKey(from)) continue;
            Long table = tableIds.get(f.num("table_id"));
            if (table == null) continue; // a file of a table not restored
            List<CatalogRow> mapping = cat.rows(V, "ducklake_column_mapping", "mapping_id", from);
            List<CatalogRow> entries = byColumnId(cat.rows(V, "ducklake_name_mapping", "mapping_id", from));
            if (mapping.isEmpty()) throw new FdlException("cannot restore: the version's catalog names column mapping " + from
                    + " but holds no such mapping; nothing was changed");
            mapping.get(0).values.put("table_id", table);
            if (sameMapping(from, mapping.get(0), entries)) {
                out.put(from, from);
                continue;
            }
            long to = snapshot.newCatalogId();
            mapping.get(0).values.put("mapping_id", to);
            cat.insert("main.ducklake_column_mapping", cat.columns("ducklake_column_mapping"), mapping.get(0).values);
            for (CatalogRow e : entries) {
                e.values.put("mapping_id", to);
                cat.insert("main.ducklake_name_mapping", cat.columns("ducklake_name_mapping"), e.values);
            }
            out.put(from, to);
        }
        return out;
    }

    /** Whether the working catalog holds mapping {@code id} as {@code mapping} (table id already mapped) with {@code entries}. */
    private boolean sameMapping(long id, CatalogRow mapping, List<CatalogRow> entries) throws SQLException {
        List<CatalogRow> here = cat.rows("main", "ducklake_column_mapping", "mapping_id", id);
        if (here.size() != 1 || !CatalogRow.alike(here.get(0), mapping)) return false;
        List<CatalogRow> hereEntries = byColumnId(cat.rows("main", "ducklake_name_mapping", "mapping_id", id));
        if (hereEntries.size() != entries.size()) return false;
        for (int i = 0; i < entries.size(); i++) if (!CatalogRow.alike(hereEntries.get(i), entries.get(i))) return false;
        return true;
    }

    /** Name-mapping entries in {@code column_id} order. */
    private static List<CatalogRow> byColumnId(List<CatalogRow> entries) {
        entries.sort(java.util.Comparator.comparing((CatalogRow e) -> e.num("column_id")));
        return entries;
    }
}
