package dev.fdl.ducklake.merge;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.format.Visibility;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One side of a three-way merge (base, ours or theirs) as DuckDB reads it: the SQLite catalog
 * copied to a DuckDB scratch file ({@link ReadableCatalog#working}, in the merge's scratch folder), attached as
 * {@code alias}, and its tables at the snapshot, each with its {@code table_uuid} (a table's
 * identity across the sides: DuckLake gives every created table a new uuid, so two tables are the
 * same table when they descend from the same table of the base), its recorded key and a
 * fingerprint of its metadata that changes whenever its name, columns, files, inlined rows or key do.
 */
final class CatalogSide {
    /** A table on this side. */
    record Table(String uuid, SnapshotView.TableEntry entry, List<String> key, String fingerprint) {
        String qualified() {
            return entry.schema().equals("main") ? entry.name() : entry.schema() + "." + entry.name();
        }
    }

    final String alias;
    final Path sqlite;
    final ReadableCatalog duckdb;
    final long snapshot;
    final Map<String, Table> byUuid = new LinkedHashMap<>();
    private SnapshotView readable;
    /** Where {@link #readable} reads the data files; set with it. */
    private ReadableCatalog.DataFiles files;

    private CatalogSide(String alias, Path sqlite, ReadableCatalog duckdb, long snapshot) {
        this.alias = alias;
        this.sqlite = sqlite;
        this.duckdb = duckdb;
        this.snapshot = snapshot;
    }

    /** A catalog to open: its SQLite file, the snapshot to read (null: newest) and the alias to attach it as. */
    record Source(String alias, Path sqlite, Long snapshot) {}

    /**
     * Copies the sources' SQLite catalogs to DuckDB in {@code tmp}, each on its own thread (the
     * copies are independent and take most of a small merge's time), attaches them to {@code duck}
     * and reads their tables ({@link #open}); in the order given.
     */
    static List<CatalogSide> openAll(Connection duck, List<Source> sources, Path tmp) throws SQLException {
        java.util.concurrent.ExecutorService copiers = java.util.concurrent.Executors.newFixedThreadPool(sources.size());
        try {
            List<java.util.concurrent.Future<ReadableCatalog>> copies = new ArrayList<>();
            for (Source s : sources)
                copies.add(copiers.submit(() -> ReadableCatalog.working(s.sqlite(), tmp.resolve(s.alias() + ".duckdb"))));
            List<CatalogSide> out = new ArrayList<>();
            for (int i = 0; i < sources.size(); i++) {
                Source s = sources.get(i);
                out.add(open(duck, s.alias(), s.sqlite(), s.snapshot(), done(copies.get(i))));
            }
            return out;
        } finally {
            copiers.shutdownNow();
        }
    }

    private static ReadableCatalog done(java.util.concurrent.Future<ReadableCatalog> copy) {
        try {
            return copy.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FdlException("interrupted while copying a catalog for the merge");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new FdlException("cannot copy a catalog for the merge: " + e.getCause());
        }
    }

    /** Attaches {@code copy}, the DuckDB copy of {@code sqlite}, to {@code duck} as {@code alias} and reads its tables at {@code snapshot} (null: newest). */
    private static CatalogSide open(Connection duck, String alias, Path sqlite, Long snapshot, ReadableCatalog copy) throws SQLException {
        Sql.attach(duck, copy.catalog(), alias, true);
        SnapshotView view = SnapshotView.loadRelative(duck, alias, sqlite.toString(), snapshot);
        long s = snapshot != null ? snapshot : newest(duck, alias);
        CatalogSide side = new CatalogSide(alias, sqlite, copy, s);
        Map<Long, String> uuids = new LinkedHashMap<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT table_id, CAST(table_uuid AS VARCHAR) FROM " + SqlQuote.ident(alias)
                     + ".main.ducklake_table WHERE" + Visibility.at("", s))) {
            while (rs.next()) uuids.put(rs.getLong(1), rs.getString(2));
        }
        for (SnapshotView.TableEntry t : view.tables()) {
            String uuid = uuids.get(t.id());
            if (uuid == null) throw new FdlException("catalog " + sqlite + " shows table " + t.name() + " without a ducklake_table row");
            List<String> key = RowKey.read(duck, SqlQuote.ident(alias) + ".main.ducklake_tag", t.id(), s);
            side.byUuid.put(uuid, new Table(uuid, t, key, side.fingerprint(duck, t, key)));
        }
        return side;
    }

    private static long newest(Connection duck, String alias) throws SQLException {
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT max(snapshot_id) FROM " + SqlQuote.ident(alias) + ".main.ducklake_snapshot")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Everything that makes a table read differently, as text: schema, name, columns (id, name,
     * type, default), data and delete files (relative locations, sorted), inlined rows (count and
     * a hash of the visible ones, per inlined-data table) and the recorded key. Equal fingerprints
     * on two sides descending from one table mean equal contents; unequal ones are treated as a change.
     */
    private String fingerprint(Connection duck, SnapshotView.TableEntry t, List<String> key) throws SQLException {
        StringBuilder sb = new StringBuilder(t.schema()).append('.').append(t.name()).append('|');
        for (SnapshotView.ColumnEntry c : t.columns())
            sb.append(c.id()).append(':').append(c.name()).append(':').append(c.duckType()).append(':').append(c.initialDefault()).append(',');
        List<String> files = new ArrayList<>();
        for (SnapshotView.DataFileEntry f : t.dataFiles()) files.add(f.location());
        Collections.sort(files);
        List<String> deletes = new ArrayList<>();
        for (SnapshotView.DeleteFileEntry d : t.deleteFiles()) deletes.add(d.location());
        Collections.sort(deletes);
        sb.append('|').append(files).append('|').append(deletes).append('|').append(key);
        for (SnapshotView.InlinedTable i : t.inlined()) {
            List<String> cols = new ArrayList<>(i.columnsById().values());
            Collections.sort(cols);
            String table = SqlQuote.ident(alias) + ".main." + SqlQuote.ident(i.tableName());
            String hash = cols.isEmpty() ? "0" : "sum(hash(" + String.join(", ", cols.stream().map(SqlQuote::ident).toList()) + "))";
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*), " + hash + " FROM " + table + " WHERE"
                         + Visibility.at("", i.system().begin(), i.system().end(), Long.toString(snapshot)))) {
                rs.next();
                sb.append("|inlined ").append(i.tableName()).append(' ').append(rs.getLong(1)).append(' ').append(rs.getString(2));
            }
        }
        if (t.inlinedDeleteTable() != null) {
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*), sum(hash(file_id, row_id)) FROM " + SqlQuote.ident(alias) + ".main."
                         + SqlQuote.ident(t.inlinedDeleteTable()) + " WHERE begin_snapshot <= " + snapshot)) {
                rs.next();
                sb.append("|inlined deletes ").append(rs.getLong(1)).append(' ').append(rs.getString(2));
            }
        }
        return sb.toString();
    }

    /**
     * The table as the built-in reader reads it: data files located under the repository's data
     * folder, or, when that is remote, under the mirror in {@code cacheDir}, into which a reader
     * {@link #fetch}es the files it opens before opening them.
     */
    SnapshotView.TableEntry readable(Connection duck, MergeRequest.Writer w, String uuid) throws SQLException {
        if (readable == null) {
            files = dataFiles(w);
            readable = SnapshotView.load(duck, alias, sqlite.toString(), files.readPath(), snapshot);
        }
        long id = byUuid.get(uuid).entry().id();
        return readable.tables().stream().filter(t -> t.id() == id).findFirst()
                .orElseThrow(() -> new IllegalStateException("table " + id + " vanished from " + sqlite));
    }

    /**
     * Per data file id of table {@code uuid}, its location as the catalog resolves it against the
     * repository's data folder (not a local mirror): what positional delete files name.
     */
    Map<Long, String> logicalPaths(Connection duck, MergeRequest.Writer w, String uuid) throws SQLException {
        SnapshotView logical = SnapshotView.load(duck, alias, sqlite.toString(), w.store().location(w.dataDirKey()), snapshot);
        long id = byUuid.get(uuid).entry().id();
        Map<Long, String> out = new LinkedHashMap<>();
        for (SnapshotView.TableEntry t : logical.tables())
            if (t.id() == id) t.dataFiles().forEach(f -> out.put(f.id(), f.location()));
        return out;
    }

    /** Where the merge reads the data files of {@code w}'s repository: the data folder, or the mirror of a remote one. */
    static ReadableCatalog.DataFiles dataFiles(MergeRequest.Writer w) {
        return new ReadableCatalog.DataFiles(w.store(), w.dataDirKey(), w.cacheDir() != null ? w.cacheDir() : w.tmp().resolve("mirror"));
    }

    /**
     * Fetches the files at {@code locations} (as {@link #readable} locates them) into the mirror when
     * the data folder is remote ({@link ReadableCatalog.DataFiles#fetchLocations}): {@link #readable}
     * fetches nothing, so a reader fetches what it opens first, and only that.
     */
    void fetch(java.util.Collection<String> locations) {
        if (files == null) throw new IllegalStateException("side " + alias + " is not read yet");
        files.fetchLocations(locations, "merge side " + alias + " (" + sqlite + ")");
    }

    /** {@link #fetch}es every data and delete file of {@code e}: what a reader of the whole table opens. */
    void fetchWhole(SnapshotView.TableEntry e) {
        List<String> all = new ArrayList<>();
        e.dataFiles().forEach(f -> all.add(f.location()));
        e.deleteFiles().forEach(d -> all.add(d.location()));
        fetch(all);
    }

    /** This side's view, once {@link #readable} loaded it. */
    SnapshotView view() {
        return readable;
    }
}
