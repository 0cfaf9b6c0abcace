package dev.fdl.ducklake.load;

import dev.fdl.ducklake.format.DuckLakeTypes;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;
import dev.fdl.store.ObjectStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.working.FileStats;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.WorkingCatalog;

/**
 * {@code fdl import}: loads a CSV (plain or gzipped), Parquet or JSON file into a table of the
 * working catalog (a SQLite DuckLake catalog) with DuckDB core alone, as one DuckLake transaction
 * recorded exactly as the DuckLake extension records a {@code CREATE TABLE … AS} or an
 * {@code INSERT}: one Parquet data file {@code ducklake-<uuidv7>.parquet} under
 * {@code data_path/schema/table/} whose field ids are the column ids, and the catalog rows of
 * DUCKLAKE.md (snapshot, snapshot changes, schema version on DDL, table, columns, data file with
 * record count, size and footer size, per-file column stats, table stats).
 *
 * <p>Order of effects: the source is read and written to local temporary Parquet files (split at
 * the target file size), each file is uploaded with {@link ObjectStore#put} as soon as DuckDB has
 * finished it ({@link DataFileUploads}), and only then the catalog is changed in one SQLite
 * transaction. Any failure before that commit leaves the catalog unchanged (an uploaded file
 * nothing names is removed again, or by gc). Replacing a table ends the visibility of its
 * previous data files, delete files and inlined rows at the new snapshot; no file is deleted.
 */
public final class Importer {
    private final DuckDbPool pool;
    private final DataFileUploads.Schedule uploads;

    /** An importer borrowing its DuckDB instances from {@code pool}, uploading data files while DuckDB writes them. */
    public Importer(DuckDbPool pool) {
        this(pool, DataFileUploads.Schedule.WHILE_WRITING);
    }

    /** An importer borrowing its DuckDB instances from {@code pool}, uploading data files as {@code uploads} says. */
    public Importer(DuckDbPool pool, DataFileUploads.Schedule uploads) {
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
        this.uploads = java.util.Objects.requireNonNull(uploads, "uploads");
    }

    /**
     * Imports {@code request.source()} into {@code request.table()} of the working catalog (modes
     * create, replace, append; sync is {@code load.sync.Syncer}'s). An append or replace into a
     * table whose row key is recorded ({@link dev.fdl.ducklake.format.RowKey}) is refused (a
     * failure, nothing imported) when it would leave the key NULL or repeated
     * ({@link RecordedKeyCheck}), unless {@link ImportRequest#dropKey()}, which ends the recorded key
     * in the import's snapshot instead.
     *
     * @throws FdlException usage error for a bad table name, mode or override, or {@code dropKey}
     *                      with create; failure naming the file for unreadable, empty or mismatching
     *                      input or a broken recorded key; conflict when the working catalog changed
     *                      during the import. The catalog is then unchanged.
     */
    public ImportResult importFile(ImportRequest request) {
        ImportMode mode = request.mode();
        if (mode == ImportMode.SYNC) throw FdlException.usage("--mode sync is run by the syncer, not the importer");
        if (request.dropKey() && mode != ImportMode.APPEND && mode != ImportMode.REPLACE)
            throw FdlException.usage("--no-key is for --mode append, replace or sync");
        return run(request, request.dropKey() ? List.of() : null, !request.dropKey(), null);
    }

    /**
     * {@link #importFile}, also recording the table's {@link dev.fdl.ducklake.format.RowKey}
     * ({@code rowKey}; null: left as it is) in the same snapshot, without checking the rows against a
     * recorded key: for sync creating a table and for compaction (the same rows again).
     */
    public ImportResult importRecordingKey(ImportRequest request, List<String> rowKey) {
        return run(request, rowKey, false, null);
    }

    /**
     * {@link #importRecordingKey(ImportRequest, List)}, with {@code check} run on the data files
     * once they are written and uploaded and before the working catalog changes: when it throws,
     * the uploaded files are removed again and the catalog is unchanged. The file is so read once
     * for both the check and the data files (sync creating a table with {@code --key}).
     */
    public ImportResult importRecordingKey(ImportRequest request, List<String> rowKey, WrittenCheck check) {
        return run(request, rowKey, false, java.util.Objects.requireNonNull(check, "check"));
    }

    /** A check of the rows an import wrote, before they are committed. */
    @FunctionalInterface
    public interface WrittenCheck {
        /**
         * Refuses the rows of {@code written} by throwing.
         *
         * @param duck    the import's DuckDB connection
         * @param plan    the import's plan: the files' columns have its columns' names
         * @param written the data files, local Parquet, in row order: the source's rows as read, in its order,
         *                the first file's first, split where each file reached the target size
         * @throws FdlException the refusal
         */
        void check(Connection duck, ImportPlan plan, List<Path> written) throws SQLException;
    }

    /** {@link #load}, an out-of-memory failure over Parquet row groups too big for the budget said so ({@link ParquetRowGroups}). */
    private ImportResult run(ImportRequest request, List<String> rowKey, boolean checkKey, WrittenCheck check) {
        try {
            return load(request, rowKey, checkKey, check);
        } catch (FdlException e) {
            if (!ParquetRowGroups.outOfMemory(e)) throw e;
            throw ParquetRowGroups.explain(pool, request.sources().files(), request.sources().format(request.format()),
                    ParquetRowGroups.IMPORT_NEED, e);
        }
    }

    private ImportResult load(ImportRequest given, List<String> rowKey, boolean checkKey, WrittenCheck check) {
        ImportRequest request = given.withProgress(new PhaseTracker(given.progress(), "reading the file"));
        Path source = request.source();
        ImportMode mode = request.mode();
        TableName name = TableName.parse(request.table());
        if (mode == null) throw FdlException.usage("an import mode is required: create, replace or append");
        SourceFiles sources = request.sources();
        ImportFormat format = sources.format(request.format());
        sources.files().forEach(SourceFiles::requireFile);
        if (!Files.isRegularFile(request.catalog())) {
            throw FdlException.notFound("working catalog " + request.catalog() + " does not exist");
        }
        for (Path f : sources.files()) checkSource(f, format);
        SourceReading reading = SourceReading.of(request, format);
        Path tmp = null;
        List<String> uploadedKeys = new ArrayList<>();
        boolean committed = false;
        try (WorkingCatalog catalog = WorkingCatalog.open(request.catalog());
             Connection duck = pool.connection()) {
            try (Statement st = duck.createStatement()) {
                st.execute(Sql.SET_UTC);
            }
            WorkingCatalog.State state = catalog.state(name);
            String location = request.store().location(request.dataDir());
            checkDataFolder(location, state.dataPath());
            SourceColumns src = sources.many() ? ManyFiles.describe(duck, sources, reading)
                    : SourceColumns.describeFast(duck, source, reading);
            ImportPlan plan = ImportPlan.make(name, mode, state, src.types(), source);
            tmp = Files.createTempDirectory("fdl-import-");
            List<DataFileUploads.Uploaded> written;
            try {
                written = upload(duck, src, plan, tmp.resolve("out"), request, request.dataDir() + plan.tableFolderKey(location));
            } catch (SampleFailed e) {
                // the strict read of a sample-sniffed CSV failed: sniff the whole file and read again (CsvSource.sniffSample)
                src = SourceColumns.describeAgain(duck, source, reading, src);
                plan = ImportPlan.make(name, mode, state, src.types(), source);
                written = upload(duck, src, plan, tmp.resolve("again"), request, request.dataDir() + plan.tableFolderKey(location));
            }
            for (DataFileUploads.Uploaded u : written) uploadedKeys.add(u.key());
            if (written.isEmpty()) {
                throw new FdlException("cannot import " + (sources.many() ? source + " and the files beside it" : source)
                        + ": " + (sources.many() ? "they hold" : "it holds") + " no data rows"
                        + (format == ImportFormat.CSV ? " (only a header, or nothing at all)" : "") + "; nothing was imported");
            }
            if (check != null) check.check(duck, plan, written.stream().map(DataFileUploads.Uploaded::file).toList());
            if (checkKey)
                RecordedKeyCheck.check(duck, catalog, state, plan, written.stream().map(DataFileUploads.Uploaded::file).toList(),
                        request, pool);
            ImportResult r = commit(duck, catalog, new WorkingCatalog.ImportCommit(state, plan, stats(duck, written, plan), rowKey), request,
                    uploadedKeys, src.warnings());
            committed = true;
            return r;
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + DuckDbErrors.duckError(e, PhaseTracker.phaseOf(request.progress())), e);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + e.getMessage(), e);
        } finally {
            deleteTree(tmp);
            if (!committed) deleteUploaded(request.store(), uploadedKeys);
        }
    }

    /** The new data files with their statistics (rows, sizes, column values), in the order written. */
    private static List<WorkingCatalog.NewDataFile> stats(Connection duck, List<DataFileUploads.Uploaded> written, ImportPlan plan)
            throws SQLException {
        List<WorkingCatalog.NewDataFile> files = new ArrayList<>();
        for (DataFileUploads.Uploaded u : written) files.add(new WorkingCatalog.NewDataFile(u.fileName(), FileStats.of(duck, u.file(), plan.columns())));
        return files;
    }

    /** Records the import's snapshot; its result. */
    private static ImportResult commit(Connection duck, WorkingCatalog catalog, WorkingCatalog.ImportCommit commit, ImportRequest request,
                                       List<String> uploadedKeys, List<String> warnings) throws SQLException {
        long rows = 0, bytes = 0;
        for (WorkingCatalog.NewDataFile f : commit.files()) {
            rows += f.stats().recordCount();
            bytes += f.stats().fileSizeBytes();
        }
        long snapshot = catalog.commit(commit, request.author(), request.message(), duck);
        return new ImportResult(commit.plan().table(), snapshot, rows, uploadedKeys.get(0), bytes,
                commit.plan().createsTable(), ImportResult.of(commit.plan().columns()), uploadedKeys, warnings);
    }

    /**
     * Deletes the keys an import or sync uploaded before it failed; a key that cannot be deleted is
     * left (nothing names it: gc removes it later).
     */
    public static void deleteUploaded(ObjectStore store, List<String> keys) {
        for (String key : keys) {
            try {
                store.delete(key);
            } catch (RuntimeException ignored) {
                // nothing names the file: gc removes it later
            }
        }
    }

    /**
     * Refuses an empty file and a gzip stream that does not end properly: DuckDB's CSV reader
     * returns the rows before the break of a truncated gzip file without an error.
     */
    public static void checkSource(Path source) {
        checkSource(source, null);
    }

    /**
     * {@link #checkSource(Path)}, except that a gzipped CSV file is not decompressed here (a pass
     * over the whole file): DuckDB's CSV reader refuses a truncated gzip stream itself ("Unexpected
     * end of GZIP stream"), and {@link CsvSource} runs {@link #checkGzip} when a read fails, for
     * fdl's message.
     */
    static void checkSource(Path source, ImportFormat format) {
        try {
            if (Files.size(source) == 0) throw new FdlException("cannot import " + source + ": the file is empty");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source, e);
        }
        if (ImportFormat.gzipped(source) && format != ImportFormat.CSV) checkGzip(source);
    }

    /**
     * Refuses a gzip file whose stream does not end properly (truncated) or that is empty once
     * decompressed, reading it whole.
     */
    static void checkGzip(Path source) {
        long total = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = new GZIPInputStream(Files.newInputStream(source), 1 << 16)) {
            for (int r; (r = in.read(buf)) >= 0; ) total += r;
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source
                    + ": it is not a complete gzip file (" + e.getMessage() + "); the file may be truncated", e);
        }
        if (total == 0) throw new FdlException("cannot import " + source + ": the file is empty once decompressed");
    }

    /** {@link #writeParquet} with each file uploaded under {@code folderKey} as soon as it is finished ({@link DataFileUploads}). */
    private List<DataFileUploads.Uploaded> upload(Connection duck, SourceColumns src, ImportPlan plan, Path folder,
                                                  ImportRequest request, String folderKey) throws SQLException {
        return DataFileUploads.run(uploads, request.store(), folderKey, folder, request.progress(), request.digests(),
                () -> writeParquet(duck, src, plan, folder, request).files());
    }

    /** The source files' sizes together in bytes, what import's progress counts (-1 when one cannot be read). */
    private static long sourceBytes(SourceFiles sources) {
        long total = 0;
        for (Path f : sources.files()) {
            try {
                total += Files.size(f);
            } catch (IOException e) {
                return -1;
            }
        }
        return total;
    }

    private static DataFileWriter.Written writeParquet(Connection duck, SourceColumns src, ImportPlan plan, Path folder,
                                                       ImportRequest request) throws SQLException {
        List<String> select = new ArrayList<>();
        for (ImportPlan.Column c : plan.columns()) {
            String from = src.column(c.sourceName());
            select.add("CAST(src." + SqlQuote.ident(from) + " AS " + c.duckType() + ") AS " + SqlQuote.ident(c.name()));
        }
        try {
            return DataFileWriter.write(duck, "SELECT " + String.join(", ", select) + " FROM " + src.relation() + " AS src",
                    plan.columns(), folder, request.targetFileSize(), request.progress(), sourceBytes(request.sources()));
        } catch (SQLException e) {
            if (src.sampled()) throw new SampleFailed(e);
            Path source = request.source();
            FdlException bad = CsvSource.badLine(source, e, null);
            if (bad == null) bad = CsvSource.lineTooLong(source, e, CsvSource.LINE_LIMIT);
            if (bad != null) throw bad;
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + source + ": " + DuckDbErrors.duckError(e, PhaseTracker.phaseOf(request.progress())), e);
        }
    }

    /** Refuses a working catalog whose data_path is not the repository's data folder {@code location}. */
    public static void checkDataFolder(String location, String dataPath) {
        if (!sameFolder(location, dataPath)) {
            throw new FdlException("the working catalog's data_path is " + dataPath + " but the repository's data folder is "
                    + location + "; the working copy does not belong to this repository");
        }
    }

    private static boolean sameFolder(String a, String b) {
        return DuckLakePaths.dataPath(a).equals(DuckLakePaths.dataPath(b));
    }

    /** A strict read of a CSV file sniffed from its sample alone failed: the whole file is to be sniffed. */
    private static final class SampleFailed extends RuntimeException {
        SampleFailed(SQLException cause) {
            super(cause);
        }
    }

    /**
     * The columns of the source file as DuckDB reads it, and the relation to select them from;
     * {@code sampled}: a CSV file's dialect and types come from its sample ({@link CsvSource#sniffSample});
     * {@code warnings}: what the reading changed that the user should know (a column the sample
     * typed that a later value made text), in words.
     */
    public record SourceColumns(String relation, Map<String, String> types, boolean sampled, List<String> warnings) {
        public SourceColumns {
            types = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(types));
            warnings = List.copyOf(warnings);
        }

        public SourceColumns(String relation, Map<String, String> types, boolean sampled) {
            this(relation, types, sampled, List.of());
        }

        /**
         * {@link #describe} after a read of {@code sampled} (from the file's sample) failed: the
         * whole file sniffed, with a warning for each column the sample typed and a later value
         * made text ({@link CsvSource#widenedToText}).
         */
        public static SourceColumns describeAgain(Connection duck, Path source, SourceReading reading, SourceColumns sampled)
                throws SQLException {
            if (reading.format() != ImportFormat.CSV) return describe(duck, source, reading);
            CsvSource whole = CsvSource.sniff(duck, source, reading.nullStrings());
            SourceColumns again = describe(duck, source, reading, whole);
            Map<String, String> sampleTypes = new LinkedHashMap<>();
            for (Map.Entry<String, String> c : sampled.types().entrySet())
                if (reading.overrides().keySet().stream().noneMatch(o -> Identifiers.same(o, c.getKey()))) sampleTypes.put(c.getKey(), c.getValue());
            return new SourceColumns(again.relation(), again.types(), again.sampled(), whole.widenedToText(duck, sampleTypes));
        }

        /**
         * As {@link #describe}, but a CSV file is sniffed from its sample ({@link CsvSource#sniffSample});
         * whoever reads it with {@link #relation()} must sniff the whole file with {@link #describe}
         * and read again when that read fails.
         */
        public static SourceColumns describeFast(Connection duck, Path source, SourceReading reading) throws SQLException {
            // with --schema, refuseRounding reads the file before any fallback could: sniff it whole
            CsvSource sample = reading.format() == ImportFormat.CSV && reading.overrides().isEmpty()
                    ? CsvSource.sniffSample(duck, source, reading.nullStrings()) : null;
            return sample == null ? describe(duck, source, reading) : describe(duck, source, reading, sample);
        }

        /** The source column named {@code name}, matched as DuckDB matches identifiers ({@link Identifiers#same}). */
        public String column(String name) {
            for (String c : types.keySet()) if (Identifiers.same(c, name)) return c;
            throw new IllegalStateException("no source column " + name);
        }

        /** The columns of {@code source} read as {@code reading} says, a CSV file sniffed over its whole length. */
        public static SourceColumns describe(Connection duck, Path source, SourceReading reading) throws SQLException {
            return describe(duck, source, reading,
                    reading.format() == ImportFormat.CSV ? CsvSource.sniff(duck, source, reading.nullStrings()) : null);
        }

        private static SourceColumns describe(Connection duck, Path source, SourceReading reading, CsvSource csv) throws SQLException {
            ImportFormat format = reading.format();
            Map<String, String> overrides = reading.overrides();
            String path = SqlQuote.literal(source.toAbsolutePath().toString());
            String relation = switch (format) {
                case CSV -> csv.relation(Map.of());
                case PARQUET -> "read_parquet(" + path + ")";
                case JSON -> "read_json(" + path + ")";
            };
            Map<String, String> types = csv != null ? csv.columns() : describe(duck, relation, source, format);
            for (String col : overrides.keySet()) {
                boolean found = types.keySet().stream().anyMatch(c -> Identifiers.same(c, col));
                if (!found) {
                    throw FdlException.usage("--schema names column '" + col + "', which " + source
                            + " does not have (it has: " + String.join(", ", types.keySet()) + ")");
                }
            }
            Map<String, String> effective = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : types.entrySet()) {
                String override = null;
                for (Map.Entry<String, String> o : overrides.entrySet()) {
                    if (Identifiers.same(o.getKey(), e.getKey())) override = o.getValue();
                }
                effective.put(e.getKey(), override != null ? normalizeType(duck, override) : e.getValue());
            }
            refuseRounding(duck, relation, source, types, effective);
            if (csv != null && !overrides.isEmpty()) relation = csv.relation(effective);
            return new SourceColumns(relation, effective, csv != null && csv.sampled());
        }


        /**
         * DuckDB's cast to an integer or DECIMAL type rounds what does not fit ('2.5' becomes 3 as
         * BIGINT, 2.25 becomes 2.3 as DECIMAL(5,1)) where it refuses 'abc' or an overflow: a
         * {@code --schema} type must not change values silently, so the first value the cast would
         * change is refused, naming file, column, value and what it would become. One scan of the
         * source for all such columns; values are compared as doubles, so a difference beyond a
         * double's 15-17 digits is not seen.
         *
         * @param fileTypes the columns' types as the file reads (sniffed, or the file's own)
         * @param effective the types after {@code --schema}
         * @throws FdlException failure (exit 1) naming the first value the cast would change
         */
        private static void refuseRounding(Connection duck, String relation, Path source, Map<String, String> fileTypes,
                                           Map<String, String> effective) {
            List<String> columns = new ArrayList<>();
            for (Map.Entry<String, String> e : effective.entrySet()) {
                String target = e.getValue();
                if (!target.equals(fileTypes.get(e.getKey())) && (DuckLakeTypes.INTEGER_TYPES.contains(target) || target.startsWith("DECIMAL(")))
                    columns.add(e.getKey());
            }
            if (columns.isEmpty()) return;
            StringBuilder which = new StringBuilder("CASE");
            List<String> shown = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                String c = SqlQuote.ident(columns.get(i));
                String cast = "TRY_CAST(" + c + " AS " + effective.get(columns.get(i)) + ")";
                which.append(" WHEN CAST(").append(cast).append(" AS DOUBLE) <> TRY_CAST(").append(c).append(" AS DOUBLE) THEN ").append(i);
                shown.add("CAST(" + c + " AS VARCHAR)");
                shown.add("CAST(" + cast + " AS VARCHAR)");
            }
            String sql = "SELECT * FROM (SELECT " + which + " END AS __fdl_bad, " + String.join(", ", shown) + " FROM " + relation
                    + " AS src) WHERE __fdl_bad IS NOT NULL LIMIT 1";
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                if (rs.next()) {
                    int i = rs.getInt(1);
                    String column = columns.get(i);
                    throw new FdlException("cannot read column '" + column + "' of " + source + " as " + effective.get(column)
                            + " (--schema): value " + rs.getString(2 + 2 * i) + " would be stored as " + rs.getString(3 + 2 * i)
                            + ". Keep the values with a type that holds them (DOUBLE, or a wider DECIMAL; --mode replace replaces "
                            + "the table's columns), or round them in the file first");
                }
            } catch (SQLException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "cannot read " + source + ": " + DuckDbErrors.duckError(e), e);
            }
        }

        private static Map<String, String> describe(Connection duck, String relation, Path source, ImportFormat format) {
            Map<String, String> types = new LinkedHashMap<>();
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + relation)) {
                while (rs.next()) types.put(rs.getString(1), rs.getString(2));
            } catch (SQLException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "cannot read " + source + " as " + format.name() + ": "
                        + DuckDbErrors.duckError(e), e);
            }
            return types;
        }

        /** DuckDB's canonical spelling of a user-written type ({@code int} → {@code INTEGER}); usage error if unknown. */
        private static String normalizeType(Connection duck, String type) {
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT typeof(CAST(NULL AS " + type + "))")) {
                rs.next();
                return rs.getString(1);
            } catch (SQLException e) {
                throw FdlException.usage("--schema: '" + type + "' is not a DuckDB type (" + DuckDbErrors.duckError(e) + ")");
            }
        }
    }

    /** Deletes a scratch folder and everything in it; errors are ignored (temporary files left behind are harmless). */
    public static void deleteTree(Path dir) {
        if (dir == null) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary folder left behind is harmless
        }
    }

}
