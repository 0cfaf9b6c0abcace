package dev.fdl.ducklake.convert;

import dev.fdl.util.AtomicFile;
import dev.fdl.util.SqlQuote;

import dev.fdl.FdlException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ColumnInfo;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;

/**
 * Converts a DuckLake catalog between its SQLite and DuckDB encodings with plain JDBC (no DuckDB
 * extension): every {@code ducklake_*} table, inlined-data and inlined-delete tables and tables
 * fdl does not know included, every row. Values keep their exact meaning: the SQLite side holds
 * what DuckDB's sqlite extension writes (DUCKLAKE.md "The SQLite-backed catalog"), the DuckDB
 * side the native types; the text forms are DuckDB's own casts to and from VARCHAR (TimeZone
 * UTC), which round-trip exactly (NaN, infinities, -0.0, time zones, nested values).
 *
 * <p>One path per direction, each built on what the two databases do themselves (docs/catalog.md
 * "Conversion"): SQLite → DuckDB (commit) has SQLite render rows as JSON arrays and DuckDB load
 * them as CSV ({@link DuckDbTableLoad}), in one DuckDB transaction; DuckDB → SQLite (checkout)
 * binds DuckDB's rows into multi-row SQLite inserts ({@link SqliteTableCopy}) in one SQLite
 * transaction. Before the target replaces anything, {@link ConversionCheck} compares it with
 * the source (row counts of every table, a digest of the data and delete files; SQLite's
 * {@code quick_check} of a new SQLite file): a difference fails the conversion. Memory use does
 * not grow with the catalog: rows are never collected.
 */
public final class CatalogConverter {
    private static final Pattern INLINED_DATA = Pattern.compile("ducklake_inlined_data_(\\d+)_(\\d+)");

    private CatalogConverter() {}

    /**
     * A working catalog (SQLite) copied to the DuckDB file {@code scratch} for reading: DuckDB
     * without the extension reads only DuckDB catalogs, so the built-in reader, the key check,
     * compaction, {@code fdl diff} and {@code fdl query --working} read this copy. The caller owns
     * and deletes {@code scratch}; the copy is checked as {@link #convert} checks.
     *
     * @return {@code scratch}
     * @throws FdlException as {@link #convert}
     */
    public static Path scratchCopy(Path workingCatalog, Path scratch) {
        convert(workingCatalog, scratch, CatalogKind.DUCKDB, ProgressListener.NONE);
        return scratch;
    }

    /**
     * Converts {@code source} (kind detected) into a new catalog of {@code targetKind} at
     * {@code target}. The target is written to a temporary file beside it, checked against the
     * source ({@link ConversionCheck}), and moved over it only then; a DuckDB target is created
     * by {@link #attachNewDuckDb} as {@link DuckDbStorage#DEFAULT}, with the block size
     * {@link DuckDbStorage#forCatalog} chooses for the source's largest table.
     *
     * @param progress told after each table; {@link ProgressListener#NONE} for none
     * @return what was copied, with the DuckDB storage string for a DuckDB target
     * @throws FdlException (exit 1) if the source is not a DuckLake catalog of a known format
     *     version, reading/writing fails, or the written catalog differs from the source (naming
     *     the table); the target is then left as it was
     */
    public static ConversionResult convert(Path source, Path target, CatalogKind targetKind, ProgressListener progress) {
        return convert(source, target, targetKind, progress, DuckDbStorage.DEFAULT);
    }

    /**
     * {@link #convert(Path, Path, CatalogKind, ProgressListener)} into a DuckDB file written with
     * {@code storage} (a repository may opt into a newer DuckDB storage version: SPEC.md section 3),
     * with the block size {@code storage.forCatalog} chooses for the source's largest table.
     */
    public static ConversionResult toDuckDb(Path source, Path target, DuckDbStorage storage, ProgressListener progress) {
        return convert(source, target, CatalogKind.DUCKDB, progress, Objects.requireNonNull(storage, "storage"));
    }

    private static ConversionResult convert(Path source, Path target, CatalogKind targetKind, ProgressListener progress, DuckDbStorage storage) {
        Objects.requireNonNull(targetKind, "targetKind");
        ProgressListener listener = progress == null ? ProgressListener.NONE : progress;
        CatalogKind sourceKind = CatalogKind.detect(source);
        if (source.toAbsolutePath().normalize().equals(target.toAbsolutePath().normalize())) {
            throw FdlException.usage("cannot convert catalog " + source + " onto itself; give another target file");
        }
        try (CatalogInspector check = CatalogInspector.open(source)) {
            check.formatVersion();
        }
        Path temp = AtomicFile.tempBeside(target);
        Totals totals = new Totals();
        try {
            if (sourceKind == CatalogKind.SQLITE && targetKind == CatalogKind.DUCKDB) {
                sqliteToDuckDb(source, temp, listener, totals, storage);
            } else if (sourceKind == CatalogKind.DUCKDB && targetKind == CatalogKind.SQLITE) {
                duckDbToSqlite(source, temp, listener, totals);
            } else if (sourceKind == CatalogKind.DUCKDB) {
                duckDbToDuckDb(source, temp, listener, totals, storage);
            } else {
                Files.copy(source, temp);
                try (Connection c = Sql.sqlite(temp, true)) {
                    totals.tables = Sql.sqliteTables(c).size();
                }
            }
        } catch (SQLException e) {
            AtomicFile.deleteQuietly(temp);
            throw new FdlException(FdlException.Kind.FAILURE, "converting catalog " + source + " to " + targetKind
                    + " failed: " + e.getMessage() + "; " + target + " was left unchanged", e);
        } catch (IOException e) {
            AtomicFile.deleteQuietly(temp);
            throw new FdlException(FdlException.Kind.FAILURE, "converting catalog " + source + " to " + targetKind + " failed: " + e.getMessage()
                    + "; " + target + " was left unchanged", e);
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(temp);
            throw e;
        }
        AtomicFile.moveInto(temp, target);
        String written = targetKind != CatalogKind.DUCKDB ? null : totals.storage != null ? totals.storage : duckDbStorage(target);
        long bytes;
        try {
            bytes = Files.size(target);
        } catch (IOException e) {
            bytes = -1;
        }
        return new ConversionResult(sourceKind, targetKind, totals.tables, totals.rows, written, bytes);
    }

    /**
     * Creates the DuckDB file {@code file} (which must not exist) and attaches it to {@code duck}
     * as {@code alias}, writable: the one place where the options of a DuckDB catalog fdl writes
     * are chosen ({@code storage}: version and block size, {@link DuckDbStorage#attachNew}).
     */
    public static void attachNewDuckDb(Connection duck, Path file, String alias, DuckDbStorage storage) throws SQLException {
        storage.attachNew(duck, file, alias);
    }

    /**
     * The storage string of a DuckDB file for SPEC.md {@code catalog.storage}: {@code duckdb-}
     * + the storage version DuckDB reports for it (its {@code storage_version} tag, e.g.
     * {@code v1.5.0+} → {@code duckdb-v1.5.0}).
     *
     * @throws FdlException (exit 1) naming the file if it is not a readable DuckDB file
     */
    public static String duckDbStorage(Path duckdbFile) {
        if (CatalogKind.detect(duckdbFile) != CatalogKind.DUCKDB) {
            throw new FdlException("not a DuckDB file: " + duckdbFile);
        }
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, duckdbFile, "cat", true);
            return storageOf(duck, "cat", duckdbFile);
        } catch (SQLException e) {
            throw Sql.failure("reading the storage version of", duckdbFile, e);
        }
    }

    /** {@link #duckDbStorage} of the database attached as {@code alias} (the file {@code file}). */
    private static String storageOf(Connection duck, String alias, Path file) throws SQLException {
        try (PreparedStatement ps = duck.prepareStatement("SELECT tags['storage_version'] FROM duckdb_databases() WHERE database_name = ?")) {
            ps.setString(1, alias);
            try (ResultSet r = ps.executeQuery()) {
                String version = r.next() ? r.getString(1) : null;
                if (version == null || version.isBlank()) {
                    throw new FdlException("DuckDB reports no storage version for " + file);
                }
                if (version.endsWith("+")) {
                    version = version.substring(0, version.length() - 1);
                }
                return "duckdb-" + version;
            }
        }
    }

    /**
     * Ends the conversion between tables when its thread was interrupted; the target is then
     * left as it was.
     */
    private static void stopIfInterrupted(String table) throws SQLException {
        if (Thread.currentThread().isInterrupted()) {
            throw new SQLException("interrupted after table " + table);
        }
    }

    private static final class Totals {
        int tables;
        long rows;
        /** The DuckDB target's storage string, read while it was attached (saves attaching it again). */
        String storage;
    }

    // ---------------------------------------------------------------- SQLite → DuckDB

    private static void sqliteToDuckDb(Path source, Path temp, ProgressListener progress, Totals totals, DuckDbStorage storage) throws SQLException {
        try (Connection lite = Sql.sqlite(source, true); Connection duck = Sql.duckDbMemory()) {
            // one read transaction on the source from its first read to the check after the last
            // table: in rollback-journal mode its SHARED lock keeps writers out, so every table and
            // the check see the same state; in WAL mode a commit meanwhile is detected at the end
            // and fails the conversion
            lite.setAutoCommit(false);
            List<String> tables = Sql.sqliteTables(lite);
            ConversionCheck.CheckedCatalog from = new ConversionCheck.CheckedCatalog(lite, "", "the SQLite catalog " + source);
            ConversionCheck.RowCounts counts = ConversionCheck.count(from, tables);
            attachNewDuckDb(duck, temp, "cat", storage.forCatalog(counts.largest()));
            // a table's rows are a set (every reader of a catalog orders by keys): letting DuckDB
            // insert them in any order lets it write row groups as they come
            Sql.exec(duck, "SET preserve_insertion_order = false");
            long version = dataVersion(lite);
            boolean wal;
            try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery("PRAGMA journal_mode")) {
                wal = r.next() && "wal".equalsIgnoreCase(r.getString(1));
            }
            Map<String, List<DuckLakeSchema.ColumnDef>> columns = new LinkedHashMap<>();
            for (String table : tables) {
                columns.put(table, sqliteColumns(lite, table));
            }
            // one transaction: autocommit would commit (and maybe checkpoint) the file after every table
            Sql.exec(duck, "BEGIN");
            int done = 0;
            for (String table : tables) {
                List<DuckLakeSchema.ColumnDef> cols = columns.get(table);
                Sql.exec(duck, ddl("cat.main.", table, cols));
                long rows = DuckDbTableLoad.load(lite, duck, temp, table, cols);
                totals.rows += rows;
                progress.tableCopied(table, rows, ++done, tables.size());
                stopIfInterrupted(table);
            }
            Sql.exec(duck, "COMMIT");
            ConversionCheck.compare(from, counts, new ConversionCheck.CheckedCatalog(duck, "cat.main.", "the DuckDB catalog written"));
            lite.commit(); // ends the read transaction: the next read sees any commit made meanwhile
            if (wal && dataVersion(lite) != version) {
                throw new SQLException("the SQLite catalog changed while it was being converted (a writer committed meanwhile);"
                        + " convert again when no one writes to it");
            }
            totals.tables = tables.size();
            totals.storage = storageOf(duck, "cat", temp);
            Sql.exec(duck, "DETACH cat");
        }
    }

    /**
     * SQLite's {@code PRAGMA data_version} of {@code lite}: it changes when another connection
     * commits to the database (https://www.sqlite.org/pragma.html#pragma_data_version).
     */
    private static long dataVersion(Connection lite) throws SQLException {
        try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery("PRAGMA data_version")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static List<DuckLakeSchema.ColumnDef> sqliteColumns(Connection lite, String table) throws SQLException {
        Map<String, String> inlinedTypes = Map.of();
        Matcher m = INLINED_DATA.matcher(table);
        if (m.matches()) {
            inlinedTypes = inlinedColumnTypes(lite, table, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
        }
        DuckLakeSchema.TableDef known = DuckLakeSchema.table(table);
        List<DuckLakeSchema.ColumnDef> columns = new ArrayList<>();
        for (Sql.SqliteColumn col : Sql.sqliteTableInfo(lite, table)) {
            String name = col.name();
            String declared = col.declaredType();
            String storage = DuckLakeSchema.duckTypeOfSqlite(declared);
            String duckType = inlinedTypes.get(name);
            if (duckType == null && known != null) {
                duckType = known.columns().stream().filter(c -> c.name().equals(name))
                        .map(DuckLakeSchema.ColumnDef::duckType).findFirst().orElse(null);
            }
            if (duckType == null) {
                duckType = storage;
            }
            columns.add(new DuckLakeSchema.ColumnDef(name, duckType, storage, col.notNull(), col.primaryKey()));
        }
        return columns;
    }

    /**
     * The DuckDB types of an inlined-data table's columns: the table's columns in
     * {@code ducklake_column} at the snapshot of the table's schema version (DUCKLAKE.md "Inlined
     * data"); the three leading columns are BIGINT.
     */
    private static Map<String, String> inlinedColumnTypes(Connection c, String table, long tableId, long schemaVersion) throws SQLException {
        Map<String, String> types = new HashMap<>();
        for (DuckLakeSchema.InlinedColumns spelling : List.of(DuckLakeSchema.INLINED_1_0, DuckLakeSchema.INLINED_1_1)) {
            spelling.names().forEach(n -> types.put(n, "BIGINT"));
        }
        Long snapshot = ColumnTypes.snapshotOfSchemaVersion(c, tableId, schemaVersion);
        if (snapshot == null) {
            throw new FdlException("cannot tell the column types of inlined-data table " + table
                    + ": schema version " + schemaVersion + " of table " + tableId + " is not recorded in the catalog");
        }
        for (ColumnInfo col : ColumnTypes.at(c, tableId, snapshot)) {
            types.putIfAbsent(col.name(), col.type());
        }
        return types;
    }

    private static String ddl(String qualifier, String table, List<DuckLakeSchema.ColumnDef> columns) {
        StringBuilder b = new StringBuilder("CREATE TABLE ").append(qualifier).append(SqlQuote.ident(table)).append('(');
        long pks = columns.stream().filter(DuckLakeSchema.ColumnDef::primaryKey).count();
        for (int i = 0; i < columns.size(); i++) {
            DuckLakeSchema.ColumnDef c = columns.get(i);
            b.append(i > 0 ? ", " : "").append(SqlQuote.ident(c.name())).append(' ').append(c.duckType());
            if (c.primaryKey() && pks == 1) {
                b.append(" PRIMARY KEY");
            } else if (c.notNull()) {
                b.append(" NOT NULL");
            }
        }
        if (pks > 1) {
            b.append(", PRIMARY KEY (");
            String sep = "";
            for (DuckLakeSchema.ColumnDef c : columns) {
                if (c.primaryKey()) {
                    b.append(sep).append(SqlQuote.ident(c.name()));
                    sep = ", ";
                }
            }
            b.append(')');
        }
        return b.append(')').toString();
    }

    private static String sqliteDdl(String table, List<DuckLakeSchema.ColumnDef> columns) {
        List<DuckLakeSchema.ColumnDef> lite = new ArrayList<>();
        for (DuckLakeSchema.ColumnDef c : columns) {
            lite.add(new DuckLakeSchema.ColumnDef(c.name(), c.sqliteType(), c.sqliteType(), c.notNull(), c.primaryKey()));
        }
        return ddl("", table, lite);
    }

    // ---------------------------------------------------------------- DuckDB → SQLite / DuckDB

    /**
     * The columns of every {@code ducklake_*} table of the DuckDB database attached as
     * {@code alias}, with their constraints, by table name in name order: two catalog queries in
     * all (per-table queries cost milliseconds each, and a catalog has about thirty tables).
     */
    private static Map<String, List<DuckLakeSchema.ColumnDef>> duckDbColumns(Connection duck, String alias) throws SQLException {
        Map<String, List<String>> pk = new HashMap<>();
        Map<String, List<String>> notNull = new HashMap<>();
        try (PreparedStatement ps = duck.prepareStatement("SELECT table_name, constraint_type, constraint_column_names FROM duckdb_constraints()"
                + " WHERE database_name = ? AND schema_name = 'main'")) {
            ps.setString(1, alias);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    String type = r.getString(2);
                    Map<String, List<String>> target = "PRIMARY KEY".equals(type) ? pk : "NOT NULL".equals(type) ? notNull : null;
                    if (target != null) {
                        List<String> names = target.computeIfAbsent(r.getString(1), t -> new ArrayList<>());
                        for (Object o : (Object[]) r.getArray(3).getArray()) {
                            names.add(String.valueOf(o));
                        }
                    }
                }
            }
        }
        Map<String, List<DuckLakeSchema.ColumnDef>> tables = new LinkedHashMap<>();
        for (String table : Sql.duckDbTables(duck, alias)) {
            tables.put(table, new ArrayList<>());
        }
        try (PreparedStatement ps = duck.prepareStatement("SELECT table_name, column_name, data_type FROM information_schema.columns"
                + " WHERE table_catalog = ? AND table_schema = 'main' ORDER BY table_name, ordinal_position")) {
            ps.setString(1, alias);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    String table = r.getString(1);
                    List<DuckLakeSchema.ColumnDef> columns = tables.get(table);
                    if (columns == null) {
                        continue;
                    }
                    boolean inlined = table.startsWith(DuckLakeSchema.INLINED_DATA_PREFIX) && INLINED_DATA.matcher(table).matches();
                    String name = r.getString(2);
                    String type = r.getString(3);
                    String liteType = inlined ? DuckLakeSchema.sqliteInlinedType(type) : DuckLakeSchema.sqliteType(type);
                    boolean isPk = pk.getOrDefault(table, List.of()).contains(name);
                    columns.add(new DuckLakeSchema.ColumnDef(name, type, liteType, isPk || notNull.getOrDefault(table, List.of()).contains(name), isPk));
                }
            }
        }
        return tables;
    }

    private static void duckDbToSqlite(Path source, Path temp, ProgressListener progress, Totals totals) throws SQLException {
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, source, "src", true);
            Map<String, List<DuckLakeSchema.ColumnDef>> tables = duckDbColumns(duck, "src");
            ConversionCheck.CheckedCatalog from = new ConversionCheck.CheckedCatalog(duck, "src.main.", "the DuckDB catalog " + source);
            ConversionCheck.RowCounts counts = ConversionCheck.count(from, tables.keySet());
            try (Connection lite = Sql.sqlite(temp, false)) {
                // a new file nobody else sees until it is complete and checked: no journal, no sync
                Sql.exec(lite, "PRAGMA journal_mode = OFF");
                Sql.exec(lite, "PRAGMA synchronous = OFF");
                lite.setAutoCommit(false);
                int done = 0;
                for (Map.Entry<String, List<DuckLakeSchema.ColumnDef>> e : tables.entrySet()) {
                    String table = e.getKey();
                    List<DuckLakeSchema.ColumnDef> columns = e.getValue();
                    Sql.exec(lite, sqliteDdl(table, columns));
                    long rows = SqliteTableCopy.copy(duck, lite, table, columns, counts.rows().get(table));
                    totals.rows += rows;
                    progress.tableCopied(table, rows, ++done, tables.size());
                    stopIfInterrupted(table);
                }
                totals.tables = tables.size();
                lite.commit();
                // the checks read the whole new file once more: through a memory map (about 0.06 s
                // less CPU for quick_check at 10,000 snapshots, and the counts are nearly free)
                ConversionCheck.mapForReading(lite);
                ConversionCheck.compare(from, counts, new ConversionCheck.CheckedCatalog(lite, "", "the SQLite catalog written"));
                ConversionCheck.quickCheck(lite);
            }
        }
    }

    private static void duckDbToDuckDb(Path source, Path temp, ProgressListener progress, Totals totals, DuckDbStorage storage) throws SQLException {
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, source, "src", true);
            Map<String, List<DuckLakeSchema.ColumnDef>> tables = duckDbColumns(duck, "src");
            ConversionCheck.CheckedCatalog from = new ConversionCheck.CheckedCatalog(duck, "src.main.", "the DuckDB catalog " + source);
            ConversionCheck.RowCounts counts = ConversionCheck.count(from, tables.keySet());
            attachNewDuckDb(duck, temp, "cat", storage.forCatalog(counts.largest()));
            Sql.exec(duck, "BEGIN");
            int done = 0;
            for (Map.Entry<String, List<DuckLakeSchema.ColumnDef>> e : tables.entrySet()) {
                String table = e.getKey();
                List<DuckLakeSchema.ColumnDef> columns = e.getValue();
                Sql.exec(duck, ddl("cat.main.", table, columns));
                long rows;
                try (Statement s = duck.createStatement()) {
                    rows = s.executeLargeUpdate("INSERT INTO cat.main." + SqlQuote.ident(table) + " SELECT * FROM src.main." + SqlQuote.ident(table));
                }
                totals.rows += rows;
                progress.tableCopied(table, rows, ++done, tables.size());
                stopIfInterrupted(table);
            }
            totals.tables = tables.size();
            Sql.exec(duck, "COMMIT");
            ConversionCheck.compare(from, counts, new ConversionCheck.CheckedCatalog(duck, "cat.main.", "the DuckDB catalog written"));
            totals.storage = storageOf(duck, "cat", temp);
            Sql.exec(duck, "DETACH cat");
        }
    }
}
