package dev.fdl.ducklake.load.sync;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.FdlException;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.MemoryBudget;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.QueryProgressWatch;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.load.ImportFormat;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.ducklake.load.PhaseTracker;
import dev.fdl.ducklake.load.RowDelta;
import dev.fdl.ducklake.load.RecordedKeyCheck;
import dev.fdl.ducklake.load.SourceReading;
import dev.fdl.ducklake.load.ParquetRowGroups;
import dev.fdl.ducklake.load.SourceFiles;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.working.WorkingCatalog;

/**
 * {@code fdl import <file> --table T --mode sync [--key cols]}: afterwards the table holds exactly
 * the file's rows, and only the difference is written, as the DuckLake extension writes a
 * {@code DELETE} plus {@code INSERT} in one transaction: rows new or changed go into one new
 * Parquet data file, rows gone or changed are deleted from their data files with positional
 * delete files (inlined rows by ending them), in one snapshot ({@link RowDelta}). Schema
 * changes are applied as DuckLake {@code ALTER TABLE}s where DuckLake allows them ({@link SyncPlan}, {@link SyncAlter}).
 *
 * <p>The difference is computed by DuckDB core, streaming: the table's visible rows as the built-in
 * reader shows them ({@link TableViewSql#selectWithRowIds()}: each row with its data file and
 * position) joined with the file's rows as read (neither copied into a temporary table): with a
 * key, on the key (a changed row is a key whose other values differ); without, on the whole row,
 * duplicates counted. Only the rows that differ are kept (docs/data.md, "The difference").
 *
 * <p>Order of effects as for {@link Importer}: files are written locally, uploaded, and only then
 * the working catalog changes, in one SQLite transaction; on any error it is unchanged and the
 * uploaded files are removed again (or by gc).
 */
public final class Syncer {
    private static final String FILE = TableViewSql.FILE_ID;
    private static final String POS = TableViewSql.POS;
    private static final String INLINED = TableViewSql.INLINED;

    private final DuckDbPool pool;

    /** A syncer borrowing its DuckDB instances from {@code pool}. */
    public Syncer(DuckDbPool pool) {
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
    }

    /**
     * Syncs {@code request.table()} of the working catalog to the rows of {@code request.source()}
     * ({@code request.mode()} is not read: this is {@link ImportMode#SYNC}).
     * {@link ImportRequest#cacheDir()} is where data files of a remote repository are mirrored to be
     * read (DuckDB core reads local files only); unused for a local repository.
     * {@link ImportRequest#keys()} are the row identity columns: empty, the whole row (a key recorded
     * by an earlier sync ends); null, the key an earlier {@code sync --key} recorded for the table,
     * else the whole row (docs/data.md "The recorded key"); {@link ImportRequest#dropKey()} is as
     * empty keys.
     *
     * @throws FdlException usage error for a bad table, key or override; failure naming the file for
     *                      unreadable or empty input, NULL or duplicate keys (naming the first), or a
     *                      type change DuckLake cannot apply; conflict when the working catalog changed
     *                      meanwhile. The catalog is then unchanged.
     */
    public SyncResult sync(ImportRequest request) {
        try {
            return syncFile(request);
        } catch (FdlException e) {
            if (!ParquetRowGroups.outOfMemory(e)) throw e;
            throw ParquetRowGroups.explain(pool, List.of(request.source()), ImportFormat.of(request.source(), request.format()),
                    ParquetRowGroups.SYNC_NEED, e);
        }
    }

    private SyncResult syncFile(ImportRequest given) {
        PhaseTracker phases = new PhaseTracker(given.progress(), READING_FILE);
        ImportRequest request = given.withProgress(phases);
        Path source = request.source();
        List<String> keys = request.dropKey() ? List.of() : request.keys();
        TableName name = TableName.parse(request.table());
        ImportFormat format = ImportFormat.of(source, request.format());
        SourceFiles.requireFile(source);
        if (!Files.isRegularFile(request.catalog())) {
            throw FdlException.notFound("working catalog " + request.catalog() + " does not exist");
        }
        Importer.checkSource(source);
        SourceReading reading = SourceReading.of(request, format);
        Path tmp = null;
        List<String> uploaded = new ArrayList<>();
        boolean committed = false;
        List<String> newTableKey;
        Importer.SourceColumns newTableSource = null;
        try {
            tmp = Files.createTempDirectory("fdl-sync-");
            try (WorkingCatalog catalog = WorkingCatalog.open(request.catalog());
                 Connection duck = pool.connection()) {
                prepare(duck, tmp);
                WorkingCatalog.State state = catalog.state(name);
                String location = request.store().location(request.dataDir());
                Importer.checkDataFolder(location, state.dataPath());
                request.progress().update(READING, 0, -1, "");
                // a CSV file is sniffed from its sample, as import does; the whole file is sniffed when the sample's types are not
                // the table's, or when a read with them fails (SampleFailed), so types and refusals are the whole-file sniff's
                Importer.SourceColumns src = Importer.SourceColumns.describeFast(duck, source, reading);
                if (src.sampled() && state.table() != null && !tableTypes(src, state, source)) {
                    src = Importer.SourceColumns.describeAgain(duck, source, reading, src);
                }
                if (state.table() == null) {
                    newTableKey = keysOfNewTable(src, source, keys == null ? List.of() : keys);
                    newTableSource = src;
                } else {
                    List<String> recorded = keys == null ? recordedKey(catalog, state, src, source, name) : List.of();
                    List<String> keyNames = keys == null ? recorded : keys;
                    SyncResult r;
                    try {
                        r = syncExisting(new Run(pool, request, catalog, state, duck, location, tmp, uploaded), name, src,
                                keyNames, !recorded.isEmpty()).withWarnings(src.warnings());
                    } catch (SQLException e) {
                        throw failed(source, e, phases.phase(), keyNames.isEmpty());
                    }
                    committed = true;
                    return r;
                }
            }
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + DuckDbErrors.duckError(e, phases.phase()), e);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + e.getMessage(), e);
        } finally {
            Importer.deleteTree(tmp);
            if (!committed) Importer.deleteUploaded(request.store(), uploaded);
        }
        // A table that does not exist yet is created from the file, as --mode create does; its key is checked on the data
        // files written, before anything is committed, so the file is read once
        ImportRequest create = request.withMode(ImportMode.CREATE).withFormat(format).withCacheDir(null);
        ImportResult r = newTableKey.isEmpty() ? new Importer(pool).importRecordingKey(create, newTableKey)
                : new Importer(pool).importRecordingKey(create, newTableKey, new NewTable(newTableSource, request, name, newTableKey)::check);
        return new SyncResult(r.table(), r.snapshot(), r.rows(), r.rows(), 0, 0, r.dataFileKey(), r.fileSizeBytes(), 0, 0, 0,
                List.of(), true, newTableKey, false, r.columns(), r.warnings());
    }

    /** The phases a sync reports to {@link ImportRequest#progress()}, before {@link RowDelta}'s writing and uploading. */
    public static final String READING = "reading the table", COMPARING = "comparing";
    /** The phase before the table is read: the file's columns sniffed and checked. */
    private static final String READING_FILE = "reading the file";

    /** UTC, and a scratch folder to spill to unless the pool's budget names one. */
    private void prepare(Connection duck, Path tmp) throws SQLException {
        try (Statement st = duck.createStatement()) {
            st.execute(Sql.SET_UTC);
            // a budgeted pool spills where the run's budget says; else into this sync's scratch folder
            if (pool.budget() == null) st.execute("SET temp_directory = " + SqlQuote.literal(tmp.resolve("spill").toString()));
        }
    }

    /** The key an earlier {@code sync --key} recorded for the table (empty: none); refused when the file lacks one of its columns. */
    private static List<String> recordedKey(WorkingCatalog catalog, WorkingCatalog.State state, Importer.SourceColumns src, Path source,
                                            TableName name) throws SQLException {
        List<String> recorded = RowKey.current(catalog.connection(), state.table().id());
        for (String k : recorded) {
            if (src.types().keySet().stream().noneMatch(c -> Identifiers.same(c, k)))
                throw FdlException.usage("cannot sync " + source + " into " + name + ": the key recorded by an earlier "
                        + "sync --key (" + String.join(", ", recorded) + ") names column '" + k + "', which the file "
                        + "does not have (it has: " + String.join(", ", src.types().keySet()) + "); name the key with "
                        + "--key, or compare whole rows and end the recorded key with --no-key");
        }
        return recorded;
    }

    /**
     * One sync of an existing table under way: the DuckDB pool, its request, the open working catalog and its state,
     * the DuckDB connection, the data folder's location, the scratch folder and the keys uploaded so
     * far (removed again when the sync fails).
     */
    private record Run(DuckDbPool pool, ImportRequest request, WorkingCatalog catalog, WorkingCatalog.State state, Connection duck, String location,
                       Path tmp, List<String> uploaded) {}

    private static SyncResult syncExisting(Run run, TableName name, Importer.SourceColumns src, List<String> keyNames,
                                           boolean keyRecorded) throws SQLException, IOException {
        WorkingCatalog catalog = run.catalog();
        WorkingCatalog.State state = run.state();
        Connection duck = run.duck();
        Path source = run.request().source();
        RecordedKeyCheck.Visible current = RecordedKeyCheck.visibleRows(run.pool(), duck, run.request(), state, run.request().cacheDir(), run.tmp());
        SnapshotView.TableEntry entry = current.entry();
        Map<Long, String> written = new HashMap<>();
        SnapshotView original = current.readBase() == null ? current.view()
                : SnapshotView.loadTable(duck, RecordedKeyCheck.ALIAS, run.request().catalog().toString(), null, state.snapshot(), entry.id());
        for (SnapshotView.TableEntry t : original.tables()) {
            if (t.id() == entry.id()) t.dataFiles().forEach(f -> written.put(f.id(), f.location()));
        }
        String view = current.selectWithRowIds();
        refuseNoRows(duck, src, source);
        if (keyNames.isEmpty()) refuseKeylessBeyondBudget(run.pool().budget(), source, name);
        SyncPlan plan;
        Counts counts;
        try {
            plan = SyncPlan.make(name, state, src, source, keyNames);
            counts = compare(duck, run, new Compare(plan, src, view, source, name, keyRecorded));
        } catch (SampleFailed e) {
            // the strict read of a CSV file sniffed from its sample failed: sniff the whole file and read again
            src = Importer.SourceColumns.describeAgain(duck, source, SourceReading.of(run.request(), ImportFormat.of(source,
                    run.request().format())), src);
            plan = SyncPlan.make(name, state, src, source, keyNames);
            counts = compare(duck, run, new Compare(plan, src, view, source, name, keyRecorded));
        }
        long rows = counts.rows();
        if (rows == 0) throw new FdlException("cannot import " + source + ": it holds no data rows; nothing was imported");
        long added = counts.added(), changed = counts.changed(), removed = counts.removed();
        // a file equal to the table still records a key it names (or ends one with --no-key): that is a snapshot
        boolean keyChanges = !RowKey.current(catalog.connection(), state.table().id()).equals(keyNames(plan));
        if (added + changed + removed == 0 && !plan.altersTable() && !keyChanges) {
            return new SyncResult(name, null, rows, 0, 0, 0, null, 0, 0, 0, 0, List.of(), false, keyNames(plan), keyRecorded,
                    ImportResult.of(plan.columns())).withWarnings(src.warnings());
        }
        String folder = run.request().dataDir() + ImportPlan.tableFolderKey(state, name, run.location());
        RowDelta.Change change = new RowDelta.Change(added + changed > 0 ? insertedRows(plan) : null, plan.columns(),
                "SELECT " + FILE + ", " + POS + " FROM __fdl_diff", entry, written, inlinedDeletes(duck, entry), keyNames(plan));
        RowDelta.Written files = RowDelta.write(duck, new RowDelta.Target(run.request().store(), folder, run.tmp(), run.request().progress(),
                run.request().targetFileSize(), run.request().digests()), change, run.uploaded());
        long snapshot = RowDelta.commit(duck, new RowDelta.At(catalog, state, name, "import", run.request().author(), run.request().message()),
                change, files, plan.altersTable() ? SyncAlter.of(plan, state.table().id()) : null);
        return new SyncResult(name, snapshot, rows, added, removed, changed, files.insertKeys().isEmpty() ? null : files.insertKeys().get(0),
                files.insertBytes(), files.deletes().size(), files.deleteBytes(), files.ended().size(), plan.changes(), false,
                keyNames(plan), keyRecorded, ImportResult.of(plan.columns())).withWarnings(src.warnings());
    }

    /** {@link #difference}, shown as the phase {@link #COMPARING} in bytes of the file read (DuckDB's share of the work done). */
    private static Counts compare(Connection duck, Run run, Compare cmp) throws SQLException, IOException {
        long size = Files.size(cmp.source());
        DataProgress progress = run.request().progress();
        progress.update(COMPARING, 0, size, "bytes");
        Counts counts;
        try (Statement st = duck.createStatement()) {
            counts = QueryProgressWatch.watchShare(st, progress, COMPARING, size, "bytes", () -> difference(duck, cmp));
        }
        progress.update(COMPARING, size, size, "bytes");
        return counts;
    }

    /**
     * Refuses a file without data rows (a CSV file of its header alone) before its columns are
     * compared with the table's: a header-only file's columns read as text, which is not what is wrong.
     */
    private static void refuseNoRows(Connection duck, Importer.SourceColumns src, Path source) throws SQLException {
        try (Statement st = duck.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT 1 FROM " + src.relation() + " LIMIT 1")) {
            if (!rs.next()) throw new FdlException("cannot import " + source + ": it holds no data rows (only a header, or nothing at all); "
                    + "nothing was imported");
        } catch (SQLException e) {
            if (!src.sampled()) throw e; // a sampled read that fails is read again whole, below
        }
    }

    private static List<String> keyNames(SyncPlan plan) {
        return plan.keys().stream().map(ImportPlan.Column::name).toList();
    }

    /**
     * The file's rows as the sync reads them: its columns cast to the table's types after the sync
     * and named by column id ({@link TableViewSql#idColumn}), and {@code __fdl_row}, the 0-based
     * data row in file order (a streaming {@code row_number() OVER ()}, which keeps the scan's order).
     */
    private static String sourceRows(Importer.SourceColumns src, List<ImportPlan.Column> columns) {
        List<String> select = new ArrayList<>();
        for (ImportPlan.Column c : columns) {
            select.add("CAST(src." + SqlQuote.ident(src.column(c.sourceName())) + " AS " + c.duckType() + ") AS "
                    + SqlQuote.ident(TableViewSql.idColumn(c.id())));
        }
        select.add("row_number() OVER () - 1 AS __fdl_row");
        return "SELECT " + String.join(", ", select) + " FROM " + src.relation() + " AS src";
    }

    /**
     * The first pass over the file: its data rows counted and, with a key, a NULL or repeated key
     * refused naming the first such row in file order (one hash aggregate over the key columns
     * alone). Returns the number of data rows.
     *
     * @param keys the key columns, their {@link ImportPlan.Column#sourceName()} the file's (empty: no key)
     * @throws FdlException failure naming the file when it cannot be read, the first NULL or repeated key
     */
    private static long checkSource(Connection duck, Importer.SourceColumns src, List<ImportPlan.Column> keys, Path source, TableName name,
                                    boolean keyRecorded) throws SQLException {
        String sql = keys.isEmpty() ? "SELECT count(*) FROM " + src.relation() + " AS src" : keyQuery(sourceRows(src, keys), keys);
        try {
            return refuseKeys(duck, sql, keys, source, name, keyRecorded);
        } catch (SQLException e) {
            if (src.sampled()) throw new SampleFailed(e);
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + DuckDbErrors.duckError(e), e);
        }
    }

    /**
     * One hash aggregate over the key columns of {@code rows} (a query of the key columns named by
     * column id and {@code __fdl_row}, the 0-based data row): the rows, the first data row with a
     * NULL key, the first data row of the key repeated whose first row comes first, and that key in words.
     */
    private static String keyQuery(String rows, List<ImportPlan.Column> keys) {
        List<String> cols = keys.stream().map(c -> SqlQuote.ident(TableViewSql.idColumn(c.id()))).toList();
        String list = String.join(", ", cols);
        String anyNull = String.join(" OR ", cols.stream().map(c -> c + " IS NULL").toList());
        String text = String.join(" || ', ' || ", keys.stream().map(k -> SqlQuote.literal(k.name() + " = ") + " || CAST("
                + SqlQuote.ident(TableViewSql.idColumn(k.id())) + " AS VARCHAR)").toList());
        return "SELECT sum(n), min(first) FILTER (WHERE " + anyNull + "), min(first) FILTER (WHERE n > 1), arg_min(" + text
                + ", first) FILTER (WHERE n > 1) FROM (SELECT " + list + ", count(*) AS n, min(__fdl_row) AS first FROM ("
                + rows + ") GROUP BY " + list + ")";
    }

    /** Runs {@code sql} ({@link #keyQuery}, or a count without {@code keys}); the rows counted, or the refusal of its first NULL or repeated key. */
    private static long refuseKeys(Connection duck, String sql, List<ImportPlan.Column> keys, Path source, TableName name,
                                   boolean keyRecorded) throws SQLException {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            long rows = rs.getLong(1);
            if (keys.isEmpty() || rows == 0) return rows;
            String recorded = keyRecorded ? " It is the key an earlier sync --key recorded: name another with --key, or compare whole "
                    + "rows and end it with --no-key." : "";
            long firstNull = rs.getLong(2);
            if (!rs.wasNull()) {
                throw new FdlException("cannot sync " + source + " into " + name + ": data row " + (firstNull + 1)
                        + " has a NULL key (" + keyNames(keys) + "); every row needs a key." + recorded + " Nothing was imported");
            }
            long firstRepeated = rs.getLong(3);
            if (!rs.wasNull()) {
                throw new FdlException("cannot sync " + source + " into " + name + ": key " + rs.getString(4)
                        + " (data row " + (firstRepeated + 1) + ") appears more than once; the key (" + keyNames(keys)
                        + ") must be unique." + recorded + " Nothing was imported");
            }
            return rows;
        }
    }

    /**
     * True when every file column the table has reads, as sniffed, with the table column's type:
     * a sample's sniff that gives a column another type is not trusted (the whole file may give
     * the table's, as a late DOUBLE in a DOUBLE column would), so the file is sniffed whole first.
     */
    private static boolean tableTypes(Importer.SourceColumns src, WorkingCatalog.State state, Path source) {
        for (ColumnTypes.Column c : state.columns()) {
            for (Map.Entry<String, String> f : src.types().entrySet()) {
                if (Identifiers.same(f.getKey(), c.name()) && !ImportPlan.lakeType(f.getKey(), f.getValue(), source).equalsIgnoreCase(c.lakeType())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A read of a CSV file sniffed from its sample alone failed: the whole file is to be sniffed ({@link Importer.SourceColumns#describeFast}). */
    private static final class SampleFailed extends RuntimeException {
        SampleFailed(SQLException cause) {
            super(cause);
        }
    }

    /**
     * The key of a table about to be created, as the file names its columns (empty without a key);
     * the key is checked on the data files written ({@link #checkWritten}).
     *
     * @throws FdlException usage error when a key column is not one of the file's
     */
    private static List<String> keysOfNewTable(Importer.SourceColumns src, Path source, List<String> keyNames) {
        List<String> keys = new ArrayList<>();
        for (String k : keyNames) {
            keys.add(src.types().keySet().stream().filter(c -> Identifiers.same(c, k.trim())).findFirst()
                    .orElseThrow(() -> FdlException.usage("--key names column '" + k.trim() + "', which " + source
                            + " does not have (it has: " + String.join(", ", src.types().keySet()) + ")")));
        }
        return keys;
    }

    /**
     * A table about to be created from {@code request}'s file with the key {@code key} (the file's
     * column names), whose columns were first sniffed as {@code src}: its key is checked on the
     * data files the import wrote ({@link #check}), so the file is read once.
     */
    private record NewTable(Importer.SourceColumns src, ImportRequest request, TableName name, List<String> key) {
        /**
         * The refusals of {@link #checkSource} over the key columns of the data files {@code written}:
         * when a key is NULL or repeated the file is read again (only then) to name the first such data
         * row, as DuckDB may write a large file's rows to its data files in another order.
         *
         * @throws FdlException failure naming the file and the first NULL or repeated key
         */
        void check(Connection duck, ImportPlan plan, List<Path> written) throws SQLException {
            List<ImportPlan.Column> keys = new ArrayList<>();
            for (String k : key) {
                keys.add(plan.columns().stream().filter(c -> Identifiers.same(c.name(), k)).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no written column " + k)));
            }
            List<String> select = new ArrayList<>();
            for (ImportPlan.Column k : keys) select.add(SqlQuote.ident(k.name()) + " AS " + SqlQuote.ident(TableViewSql.idColumn(k.id())));
            String rows = "SELECT " + String.join(", ", select) + ", 0 AS __fdl_row FROM read_parquet(["
                    + String.join(", ", written.stream().map(w -> SqlQuote.literal(w.toAbsolutePath().toString())).toList()) + "])";
            try {
                refuseKeys(duck, keyQuery(rows, keys), keys, request.source(), name, false);
            } catch (FdlException refused) {
                refuseFromFile(duck);
                throw refused; // not refused on a second read: the file changed meanwhile
            }
        }

        /** {@link #checkSource} over the file, the whole file sniffed first when the read with a sample's types fails. */
        private void refuseFromFile(Connection duck) throws SQLException {
            try {
                checkSource(duck, src, columns(src), request.source(), name, false);
            } catch (SampleFailed e) {
                Importer.SourceColumns whole = Importer.SourceColumns.describeAgain(duck, request.source(),
                        SourceReading.of(request, ImportFormat.of(request.source(), request.format())), src);
                checkSource(duck, whole, columns(whole), request.source(), name, false);
            }
        }

        /** The key's columns as {@code read} names and types them, numbered from 1 for {@link #sourceRows}. */
        private List<ImportPlan.Column> columns(Importer.SourceColumns read) {
            List<ImportPlan.Column> keys = new ArrayList<>();
            long id = 1;
            for (String k : key) {
                String column = read.column(k);
                keys.add(new ImportPlan.Column(id++, column, column, read.types().get(column), null));
            }
            return keys;
        }
    }

    private static String keyNames(List<ImportPlan.Column> keys) {
        return String.join(", ", keys.stream().map(ImportPlan.Column::name).toList());
    }

    private static List<String> columnIdents(SyncPlan plan) {
        return plan.columns().stream().map(c -> SqlQuote.ident(TableViewSql.idColumn(c.id()))).toList();
    }

    private static List<String> keyIdents(SyncPlan plan) {
        return plan.keys().stream().map(c -> SqlQuote.ident(TableViewSql.idColumn(c.id()))).toList();
    }

    /**
     * What the one pass over the file and the table found: rows new, changed and gone, and the file's data rows.
     */
    record Counts(long added, long changed, long removed, long rows) {}

    /**
     * The difference in one pass over the file and one over the table's visible rows ({@code view}),
     * neither copied: a FULL OUTER JOIN of the two on the row identity keeps only the rows that
     * differ, as {@code __fdl_diff}: the file's values and {@code __fdl_row} (NULL for a row gone)
     * and the table row's identity {@code __fdl_file, __fdl_pos, __fdl_inlined} (NULL for a row
     * new). A row with both is changed: its old copy is deleted, the file's written.
     *
     * <p>With a key, rows pair on the key and a pair differs when another column does ({@code IS
     * DISTINCT FROM}, so NULLs compare equal). The same pass checks the key: the equal pairs are
     * counted (they are grouped into one row, {@code __fdl_same}, deleted afterwards) and the file's
     * rows too (its largest {@code __fdl_row}); a file key repeated among the keys the table holds
     * makes more pairs than the table has rows paired, a repeated new key shows among the new rows,
     * a NULL key is a new row. Such a file is refused by {@link #checkSource} (which names the first
     * offending row) before anything is written. A table may hold a key more than once (loaded by
     * replace, or before the key was named): then more pairs than file rows paired show it, and the
     * join runs again with only the first copy (by data file, then position; inlined rows first)
     * pairing and the others deleted, which needs the copies numbered (a window over the table's
     * rows). Without a key, rows pair on every column ({@code IS NOT DISTINCT FROM}) and equal rows
     * pair off one by one (copies numbered on both sides), so duplicates count.
     */
    private static Counts difference(Connection duck, Compare cmp) throws SQLException {
        Counts counts = join(duck, cmp, false);
        if (counts == null) counts = join(duck, cmp, true);
        return counts;
    }

    /** The file, the table's visible rows and the plan a sync compares; for refusals its name and whether the key was recorded. */
    record Compare(SyncPlan plan, Importer.SourceColumns src, String view, Path source, TableName name, boolean keyRecorded) {}

    /**
     * One join of {@link #difference}, into {@code __fdl_diff}; with {@code numbered} a table's
     * repeated keys pair only their first copy. Returns null when the table holds a paired key more
     * than once and the copies were not {@code numbered}: the join is to run again numbered.
     */
    private static Counts join(Connection duck, Compare cmp, boolean numbered) throws SQLException {
        SyncPlan plan = cmp.plan();
        List<String> all = columnIdents(plan);
        List<String> keys = keyIdents(plan);
        List<String> cur = new ArrayList<>();
        for (SyncPlan.Target t : plan.targets()) {
            String col = SqlQuote.ident(TableViewSql.idColumn(t.column().id()));
            cur.add((t.old() == null ? "NULL" : "v." + col) + "::" + t.column().duckType() + " AS " + col);
        }
        cur.add("v." + FILE);
        cur.add("v." + POS);
        cur.add("v." + INLINED);
        String on, differs, curCopies, srcCopies;
        if (!keys.isEmpty()) {
            on = String.join(" AND ", keys.stream().map(k -> "s." + k + " = c." + k).toList());
            List<String> others = new ArrayList<>(all);
            others.removeAll(keys);
            differs = others.isEmpty() ? "false"
                    : String.join(" OR ", others.stream().map(o -> "s." + o + " IS DISTINCT FROM c." + o).toList());
            srcCopies = "1";
            curCopies = numbered ? "row_number() OVER (PARTITION BY " + String.join(", ", keys.stream().map(k -> "v." + k).toList())
                    + " ORDER BY v." + FILE + " NULLS FIRST, v." + POS + ")" : "1";
        } else {
            on = String.join(" AND ", all.stream().map(k -> "s." + k + " IS NOT DISTINCT FROM c." + k).toList());
            differs = "false";
            srcCopies = "row_number() OVER (PARTITION BY " + String.join(", ", all) + ")";
            curCopies = "row_number() OVER (PARTITION BY " + String.join(", ", all.stream().map(k -> "v." + k).toList()) + ")";
        }
        List<String> inner = new ArrayList<>(), outer = new ArrayList<>();
        for (String c : all) {
            inner.add("s." + c);
            outer.add("first(" + c + ") AS " + c);
        }
        for (String c : List.of("__fdl_row", FILE, POS, INLINED)) outer.add("first(" + c + ") AS " + c);
        String keep = "s.__fdl_row IS NULL OR c." + POS + " IS NULL OR " + differs;
        String sql = "CREATE TEMP TABLE __fdl_diff AS SELECT " + String.join(", ", outer) + ", count(*) AS __fdl_pairs, max(__fdl_row) AS "
                + "__fdl_last, __fdl_g IS NULL AS __fdl_same FROM (SELECT " + String.join(", ", inner) + ", s.__fdl_row, c." + FILE + ", c."
                + POS + ", c." + INLINED + ", CASE WHEN " + keep + " THEN row(s.__fdl_row, c." + FILE + ", c." + POS + ", c." + INLINED
                + ") END AS __fdl_g FROM (SELECT *, " + srcCopies + " AS __fdl_n FROM (" + sourceRows(cmp.src(), plan.columns())
                + ")) AS s FULL OUTER JOIN (SELECT " + String.join(", ", cur) + ", " + curCopies + " AS __fdl_n FROM (" + cmp.view()
                + ") AS v) AS c ON " + on + " AND s.__fdl_n = c.__fdl_n) GROUP BY __fdl_g";
        try (Statement st = duck.createStatement()) {
            st.execute("DROP TABLE IF EXISTS __fdl_diff");
            st.execute(sql);
        } catch (SQLException e) {
            throw joinFailed(cmp, e);
        }
        long added, changed, removed, equal, rows;
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE NOT __fdl_same AND " + POS + " IS NULL), "
                     + "count(*) FILTER (WHERE NOT __fdl_same AND __fdl_row IS NOT NULL AND " + POS + " IS NOT NULL), "
                     + "count(*) FILTER (WHERE NOT __fdl_same AND __fdl_row IS NULL), coalesce(sum(__fdl_pairs) FILTER (WHERE __fdl_same), 0), "
                     + "coalesce(max(__fdl_last) + 1, 0) FROM __fdl_diff")) {
            rs.next();
            added = rs.getLong(1);
            changed = rs.getLong(2);
            removed = rs.getLong(3);
            equal = rs.getLong(4);
            rows = rs.getLong(5);
        }
        if (!keys.isEmpty() && rows > 0) {
            long pairs = equal + changed;
            if (!numbered && pairs > rows - added) return null; // a file row paired with more than one copy of its key
            if (pairs > tableRows(duck, cmp.view()) - removed || newKeyNullOrRepeated(duck, keys)) {
                checkSource(duck, cmp.src(), plan.keys(), cmp.source(), cmp.name(), cmp.keyRecorded());
                throw new IllegalStateException("the key check of " + cmp.source() + " found no repeated or NULL key that the sync's join showed");
            }
        }
        try (Statement st = duck.createStatement()) {
            st.execute("DELETE FROM __fdl_diff WHERE __fdl_same");
        }
        return new Counts(added, changed, removed, rows);
    }

    /**
     * The join's failure: a read of a sampled CSV file to be sniffed whole ({@link SampleFailed}),
     * unless DuckDB ran out of memory, which another sniff would not mend (thrown on as it is).
     */
    private static SQLException joinFailed(Compare cmp, SQLException e) {
        if (cmp.src().sampled() && DuckDbErrors.outOfMemory(e.getMessage()) == null) throw new SampleFailed(e);
        return e;
    }

    /**
     * A sync's failure in DuckDB while {@code phase}: out of memory in fdl's words (the phase, the
     * {@code --memory} DuckDB's request needs) and, for a keyless sync, that a key takes less
     * (docs/data.md, "Memory": whole rows numbered on both sides); any other error as DuckDB said it.
     */
    private static FdlException failed(Path source, SQLException e, String phase, boolean keyless) {
        boolean memory = DuckDbErrors.outOfMemory(e.getMessage()) != null;
        String hint = memory && keyless ? ". A sync without a key compares whole rows and numbers repeated rows on both sides, which "
                + "takes more memory than a keyed sync: name the key with --key col" : "";
        return new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + DuckDbErrors.duckError(e, phase) + hint, e);
    }

    /**
     * DuckDB's budget a sync without a key needs, per byte of an uncompressed CSV file (docs/data.md,
     * "Sync under --memory 64MB": its FULL OUTER JOIN on every column holds more than DuckDB spills).
     */
    static final double KEYLESS_NEED_PER_CSV_BYTE = 2.2;

    /**
     * Refuses, before anything is read into DuckDB, a sync without a key of an uncompressed CSV
     * file whose estimated need ({@link #KEYLESS_NEED_PER_CSV_BYTE} times its size) is over
     * {@code budget}: it would run out of memory at some point of a long run. Other formats, and
     * no budget, are not estimated.
     *
     * @throws FdlException failure naming the file, the budget, --key and a --memory that suffices
     */
    private static void refuseKeylessBeyondBudget(MemoryBudget budget, Path source, TableName name) throws IOException {
        String file = source.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (budget == null || !(file.endsWith(".csv") || file.endsWith(".tsv") || file.endsWith(".txt"))) return;
        long bytes = Files.size(source), need = (long) (bytes * KEYLESS_NEED_PER_CSV_BYTE);
        if (need <= budget.bytes()) return;
        long sixteen = 16L << 20, enough = (need + sixteen - 1) / sixteen * sixteen;
        throw new FdlException("cannot sync " + source + " into " + name + " without a key under a memory budget of "
                + (budget.bytes() >> 20) + " MiB: a sync without a key compares whole rows and numbers repeated rows on both sides, "
                + "which needs about " + KEYLESS_NEED_PER_CSV_BYTE + " times the file's " + (bytes >> 20) + " MiB. Name the key with --key col "
                + "(a keyed sync pairs rows on the key alone), or give --memory " + (enough >> 20) + "MiB or more. Nothing was imported");
    }

    /** The table's visible rows, counted. */
    private static long tableRows(Connection duck, String view) throws SQLException {
        return single(duck, "SELECT count(*) FROM (" + view + ")");
    }

    /** Whether a new row of {@code __fdl_diff} has a NULL key, or a key another new row has. */
    private static boolean newKeyNullOrRepeated(Connection duck, List<String> keys) throws SQLException {
        String list = String.join(", ", keys);
        String anyNull = String.join(" OR ", keys.stream().map(k -> k + " IS NULL").toList());
        return single(duck, "SELECT (SELECT count(*) FROM __fdl_diff WHERE NOT __fdl_same AND __fdl_row IS NOT NULL AND (" + anyNull
                + ")) + (SELECT count(*) FROM (SELECT " + list + " FROM __fdl_diff WHERE NOT __fdl_same AND __fdl_row IS NOT NULL AND "
                + POS + " IS NULL GROUP BY " + list + " HAVING count(*) > 1))") > 0;
    }

    /** The new rows, in file order, columns named as the table's (for {@link RowDelta}). */
    private static String insertedRows(SyncPlan plan) {
        List<String> select = new ArrayList<>();
        for (ImportPlan.Column c : plan.columns()) {
            select.add(SqlQuote.ident(TableViewSql.idColumn(c.id())) + " AS " + SqlQuote.ident(c.name()));
        }
        return "SELECT " + String.join(", ", select) + " FROM __fdl_diff WHERE __fdl_row IS NOT NULL ORDER BY __fdl_row";
    }

    /** Inlined rows to end: inlined-data table name → row ids. */
    private static Map<String, List<Long>> inlinedDeletes(Connection duck, SnapshotView.TableEntry entry) throws SQLException {
        Map<String, List<Long>> result = new LinkedHashMap<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + INLINED + ", " + POS + " FROM __fdl_diff WHERE " + INLINED
                     + " IS NOT NULL ORDER BY 1, 2")) {
            while (rs.next()) {
                String table = entry.inlined().get(rs.getInt(1)).tableName();
                result.computeIfAbsent(table, k -> new ArrayList<>()).add(rs.getLong(2));
            }
        }
        return result;
    }

    private static long single(Connection duck, String sql) throws SQLException {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
