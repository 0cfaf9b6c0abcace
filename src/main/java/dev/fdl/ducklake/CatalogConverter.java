package dev.fdl.ducklake;

import dev.fdl.util.AtomicFile;
import dev.fdl.util.SqlQuote;

import dev.fdl.FdlException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Converts a DuckLake catalog between its SQLite and DuckDB encodings with plain JDBC (no DuckDB
 * extension): every {@code ducklake_*} table, inlined-data and inlined-delete tables and tables
 * fdl does not know included, every row. Values keep their exact meaning: the SQLite side holds
 * what DuckDB's sqlite extension writes (DUCKLAKE.md "The SQLite-backed catalog"), the DuckDB
 * side the native types; the text forms are DuckDB's own casts to and from VARCHAR (TimeZone
 * UTC), which round-trip exactly (NaN, infinities, -0.0, time zones, nested values).
 *
 * <p>SQLite → DuckDB, in one DuckDB transaction: tables whose SQLite columns are all BIGINT or
 * VARCHAR (every fixed DuckLake table) go through a {@link RowHandover} (SQLite renders rows as
 * CSV on other threads, DuckDB loads them with a typed {@code read_csv}); the rest stream from
 * sqlite-jdbc into DuckDB's Appender (through a staging table plus one vectorized CAST when a
 * column's stored form differs from its DuckDB type). DuckDB → SQLite copies each table with a
 * {@link SqliteTableCopy} in one SQLite transaction. Memory use does not grow with the catalog:
 * rows are never collected.
 */
public final class CatalogConverter {
    /** A staging table's name; it exists only inside the conversion's transaction. */
    private static final String STAGE = "fdl_stage";
    private static final Pattern INLINED_DATA = Pattern.compile("ducklake_inlined_data_(\\d+)_(\\d+)");

    private CatalogConverter() {}

    /**
     * Converts {@code source} (kind detected) into a new catalog of {@code targetKind} at
     * {@code target}. The target is written to a temporary file beside it and moved over it only
     * when complete; a DuckDB target is written with storage version v1.5.0.
     *
     * @param progress told after each table; {@link ProgressListener#NONE} for none
     * @return what was copied, with the DuckDB storage string for a DuckDB target
     * @throws FdlException (exit 1) if the source is not a DuckLake catalog of a known format
     *     version, or reading/writing fails; the target is then left as it was
     */
    public static ConversionResult convert(Path source, Path target, CatalogKind targetKind, ProgressListener progress) {
        return convert(source, target, targetKind, progress, RowHandover.pipesAllowedByDefault());
    }

    /** {@link #convert(Path, Path, CatalogKind, ProgressListener)}, saying whether SQLite → DuckDB may stream through named pipes. */
    static ConversionResult convert(Path source, Path target, CatalogKind targetKind, ProgressListener progress, boolean pipesAllowed) {
        return convert(source, target, targetKind, progress, pipesAllowed, directWriteAllowed(), 0);
    }

    /**
     * {@link #convert(Path, Path, CatalogKind, ProgressListener, boolean)}, saying whether DuckDB →
     * SQLite may write b-tree pages directly, and the SQLite page size in bytes (0: SQLite's default).
     */
    static ConversionResult convert(Path source, Path target, CatalogKind targetKind, ProgressListener progress, boolean pipesAllowed,
                                    boolean directWrite, int sqlitePageSize) {
        Objects.requireNonNull(targetKind, "targetKind");
        ProgressListener listener = progress == null ? ProgressListener.NONE : progress;
        CatalogKind sourceKind = CatalogKind.detect(source);
        if (source.toAbsolutePath().normalize().equals(target.toAbsolutePath().normalize())) {
            throw FdlException.usage("cannot convert catalog " + source + " onto itself; give another target file");
        }
        try (Catalog check = Catalog.open(source)) {
            check.formatVersion();
        }
        Path temp = AtomicFile.tempBeside(target);
        Totals totals = new Totals();
        try {
            if (sourceKind == CatalogKind.SQLITE && targetKind == CatalogKind.DUCKDB) {
                sqliteToDuckDb(source, temp, listener, totals, pipesAllowed);
            } else if (sourceKind == CatalogKind.DUCKDB && targetKind == CatalogKind.SQLITE) {
                duckDbToSqlite(source, temp, listener, totals, directWrite, sqlitePageSize);
            } else if (sourceKind == CatalogKind.DUCKDB) {
                duckDbToDuckDb(source, temp, listener, totals);
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
            // an interrupt closes a FileChannel mid-write (SqliteFileWriter): that exception has no message
            String why = e instanceof java.nio.channels.ClosedByInterruptException ? "interrupted while writing pages" : e.getMessage();
            throw new FdlException(FdlException.Kind.FAILURE, "converting catalog " + source + " to " + targetKind + " failed: " + why
                    + "; " + target + " was left unchanged", e);
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(temp);
            throw e;
        }
        AtomicFile.moveInto(temp, target);
        String storage = targetKind != CatalogKind.DUCKDB ? null : totals.storage != null ? totals.storage : duckDbStorage(target);
        long bytes;
        try {
            bytes = Files.size(target);
        } catch (IOException e) {
            bytes = -1;
        }
        return new ConversionResult(sourceKind, targetKind, totals.tables, totals.rows, storage, bytes);
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
            Sql.attach(duck, duckdbFile, "cat", true, null);
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
     * Ends the conversion between tables when its thread was interrupted (a table streaming
     * through pipes runs to its end inside DuckDB); the target is then left as it was.
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

    private static void sqliteToDuckDb(Path source, Path temp, ProgressListener progress, Totals totals,
                                       boolean pipesAllowed) throws SQLException {
        try (Connection lite = Sql.sqlite(source, true); Connection duck = Sql.duckDbMemory()) {
            // one read transaction on the source from its first read to the last table: in
            // rollback-journal mode its SHARED lock keeps writers out, so every connection reading
            // the source (the handover's too) sees the same state; in WAL mode other connections see
            // later commits, so a commit meanwhile is detected at the end and fails the conversion
            lite.setAutoCommit(false);
            Sql.attach(duck, temp, "cat", false, Catalogs.STORAGE_VERSION);
            // a table's rows are a set (every reader of a catalog orders by keys): letting DuckDB
            // insert them in any order lets it write row groups from both pipes as they come,
            // instead of holding one pipe's rows until the other ends (measured: 1.5-1.8x faster
            // at 10,000,000 rows, most of it at COMMIT)
            Sql.exec(duck, "SET preserve_insertion_order = false");
            DuckDBConnection dc = duck.unwrap(DuckDBConnection.class);
            List<String> tables = Sql.sqliteTables(lite);
            long version = dataVersion(lite);
            boolean wal;
            try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery("PRAGMA journal_mode")) {
                wal = r.next() && "wal".equalsIgnoreCase(r.getString(1));
            }
            Map<String, List<CopyColumn>> columns = new LinkedHashMap<>();
            Map<String, List<CopyColumn>> fast = new LinkedHashMap<>();
            for (String table : tables) {
                List<CopyColumn> cols = sqliteColumns(lite, table);
                columns.put(table, cols);
                if (RowHandover.fits(cols)) {
                    fast.put(table, cols);
                }
            }
            // two cores: a second SQLite connection renders rows on its own thread while DuckDB loads
            try (RowHandover handover = new RowHandover(source, temp, fast, pipesAllowed)) {
                // one transaction: autocommit would commit (and maybe checkpoint) the file after every
                // load; staging tables live in it only inside the transaction, so they are never written
                Sql.exec(duck, "BEGIN");
                int done = 0;
                for (String table : tables) {
                    List<CopyColumn> cols = columns.get(table);
                    Sql.exec(duck, ddl("cat.main.", table, cols));
                    long rows = handover.handles(table)
                            ? handover.load(duck, table)
                            : copySqliteTable(lite, duck, dc, table, cols);
                    totals.rows += rows;
                    progress.tableCopied(table, rows, ++done, tables.size());
                    stopIfInterrupted(table);
                }
            }
            lite.commit(); // ends the read transaction: the next read sees any commit made meanwhile
            // (in rollback-journal mode a writer waiting for the lock commits now: no tear, no check)
            if (wal && dataVersion(lite) != version) {
                throw new SQLException("the SQLite catalog changed while it was being converted (a writer committed meanwhile);"
                        + " convert again when no one writes to it");
            }
            Sql.exec(duck, "COMMIT");
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

    private static List<CopyColumn> sqliteColumns(Connection lite, String table) throws SQLException {
        Map<String, String> inlinedTypes = Map.of();
        Matcher m = INLINED_DATA.matcher(table);
        if (m.matches()) {
            inlinedTypes = inlinedColumnTypes(lite, table, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
        }
        DuckLakeSchema.TableDef known = DuckLakeSchema.table(table);
        List<CopyColumn> columns = new ArrayList<>();
        try (Statement s = lite.createStatement();
             ResultSet r = s.executeQuery("PRAGMA table_info(" + SqlQuote.ident(table) + ")")) {
            while (r.next()) {
                String name = r.getString("name");
                String declared = r.getString("type");
                String storage = DuckLakeSchema.duckTypeOfSqlite(declared);
                String duckType = inlinedTypes.get(name);
                if (duckType == null && known != null) {
                    duckType = known.columns().stream().filter(c -> c.name().equals(name))
                            .map(DuckLakeSchema.ColumnDef::duckType).findFirst().orElse(null);
                }
                if (duckType == null) {
                    duckType = storage;
                }
                columns.add(new CopyColumn(name, duckType, storage, r.getInt("notnull") != 0, r.getInt("pk") > 0));
            }
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
        types.put("row_id", "BIGINT");
        types.put("begin_snapshot", "BIGINT");
        types.put("end_snapshot", "BIGINT");
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

    private static long copySqliteTable(Connection lite, Connection duck, DuckDBConnection dc, String table,
                                        List<CopyColumn> columns) throws SQLException {
        boolean direct = columns.stream().allMatch(c -> c.duckType().equals(c.sqliteType())
                || (c.duckType().equals("BOOLEAN") && c.sqliteType().equals("BIGINT")));
        String appendCatalog = "cat";
        String appendTable = table;
        if (!direct) {
            appendTable = STAGE;
            List<CopyColumn> stage = new ArrayList<>();
            for (CopyColumn c : columns) {
                stage.add(new CopyColumn(c.name(), c.sqliteType(), c.sqliteType(), false, false));
            }
            Sql.exec(duck, ddl("cat.main.", appendTable, stage));
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            select.append(i > 0 ? ", " : "").append(SqlQuote.ident(columns.get(i).name()));
        }
        // one more column: whether every value of the row is of a class its column can take (JDBC's
        // getLong would read the REAL 1.5 as 1 and the TEXT '0x10' as 0)
        StringBuilder fits = new StringBuilder();
        for (CopyColumn c : columns) {
            String f = StorageClassCheck.fits(c);
            if (f != null) {
                fits.append(fits.length() > 0 ? " AND " : "").append(f);
            }
        }
        boolean checked = fits.length() > 0;
        if (checked) {
            select.append(", ").append(fits);
        }
        select.append(" FROM ").append(SqlQuote.ident(table));
        int n = columns.size();
        int[] kind = new int[n];
        for (int i = 0; i < n; i++) {
            CopyColumn c = columns.get(i);
            kind[i] = direct && c.duckType().equals("BOOLEAN") ? 4 : switch (c.sqliteType()) {
                case "BIGINT" -> 0;
                case "DOUBLE" -> 1;
                case "BLOB" -> 2;
                default -> 3;
            };
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
        long rows = 0;
        try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery(select.toString());
             DuckDBAppender app = dc.createAppender(appendCatalog, "main", appendTable)) {
            while (r.next()) {
                if (checked && r.getInt(n + 1) == 0) {
                    SQLException mismatch = StorageClassCheck.firstMismatch(lite, table, columns);
                    throw mismatch != null ? mismatch : new SQLException("table " + table + " holds a value of the wrong type");
                }
                app.beginRow();
                for (int i = 0; i < n; i++) {
                    int col = i + 1;
                    switch (kind[i]) {
                        case 0 -> {
                            long v = r.getLong(col);
                            if (r.wasNull()) {
                                app.appendNull();
                            } else {
                                app.append(v);
                            }
                        }
                        case 1 -> {
                            double v = r.getDouble(col);
                            if (r.wasNull()) {
                                app.appendNull();
                            } else {
                                app.append(v);
                            }
                        }
                        case 2 -> {
                            byte[] v = r.getBytes(col);
                            if (v == null) {
                                app.appendNull();
                            } else {
                                app.append(v);
                            }
                        }
                        case 4 -> {
                            long v = r.getLong(col);
                            if (r.wasNull()) {
                                app.appendNull();
                            } else {
                                app.append(v != 0);
                            }
                        }
                        default -> {
                            // the text's own bytes, decoded strictly: getString would replace invalid UTF-8 with U+FFFD
                            byte[] v = r.getBytes(col);
                            if (v == null) {
                                app.appendNull();
                            } else {
                                app.append(text(utf8, v, table, columns.get(i).name()));
                            }
                        }
                    }
                }
                app.endRow();
                rows++;
            }
        }
        if (!direct) {
            StringBuilder insert = new StringBuilder("INSERT INTO cat.main.").append(SqlQuote.ident(table)).append(" SELECT ");
            for (int i = 0; i < n; i++) {
                CopyColumn c = columns.get(i);
                String ident = SqlQuote.ident(c.name());
                insert.append(i > 0 ? ", " : "");
                if (c.duckType().equals(c.sqliteType())) {
                    insert.append(ident);
                } else {
                    insert.append("CAST(").append(ident).append(" AS ").append(c.duckType()).append(')');
                }
            }
            insert.append(" FROM cat.main.").append(STAGE);
            Sql.exec(duck, insert.toString());
            Sql.exec(duck, "DROP TABLE cat.main." + STAGE);
        }
        return rows;
    }

    /** {@code bytes} decoded as UTF-8, which DuckDB's VARCHAR requires; invalid UTF-8 fails, naming table and column. */
    private static String text(CharsetDecoder utf8, byte[] bytes, String table, String column) throws SQLException {
        try {
            return utf8.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SQLException("table " + table + ", column " + column + " holds text that is not valid UTF-8 (hex "
                    + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 40)) + "); fix that value in the SQLite catalog", e);
        }
    }

    private static String ddl(String qualifier, String table, List<CopyColumn> columns) {
        StringBuilder b = new StringBuilder("CREATE TABLE ").append(qualifier).append(SqlQuote.ident(table)).append('(');
        long pks = columns.stream().filter(CopyColumn::primaryKey).count();
        for (int i = 0; i < columns.size(); i++) {
            CopyColumn c = columns.get(i);
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
            for (CopyColumn c : columns) {
                if (c.primaryKey()) {
                    b.append(sep).append(SqlQuote.ident(c.name()));
                    sep = ", ";
                }
            }
            b.append(')');
        }
        return b.append(')').toString();
    }

    private static String sqliteDdl(String table, List<CopyColumn> columns) {
        List<CopyColumn> lite = new ArrayList<>();
        for (CopyColumn c : columns) {
            lite.add(new CopyColumn(c.name(), c.sqliteType(), c.sqliteType(), c.notNull(), c.primaryKey()));
        }
        return ddl("", table, lite);
    }

    // ---------------------------------------------------------------- DuckDB → SQLite / DuckDB

    /**
     * The columns of every {@code ducklake_*} table of the DuckDB database attached as
     * {@code alias}, with their constraints, by table name in name order: two catalog queries in
     * all (per-table queries cost milliseconds each, and a catalog has about thirty tables).
     */
    private static Map<String, List<CopyColumn>> duckDbColumns(Connection duck, String alias) throws SQLException {
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
        Map<String, List<CopyColumn>> tables = new LinkedHashMap<>();
        for (String table : Sql.duckDbTables(duck, alias)) {
            tables.put(table, new ArrayList<>());
        }
        try (PreparedStatement ps = duck.prepareStatement("SELECT table_name, column_name, data_type FROM information_schema.columns"
                + " WHERE table_catalog = ? AND table_schema = 'main' ORDER BY table_name, ordinal_position")) {
            ps.setString(1, alias);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    String table = r.getString(1);
                    List<CopyColumn> columns = tables.get(table);
                    if (columns == null) {
                        continue;
                    }
                    boolean inlined = table.startsWith(DuckLakeSchema.INLINED_DATA_PREFIX) && INLINED_DATA.matcher(table).matches();
                    String name = r.getString(2);
                    String type = r.getString(3);
                    String liteType = inlined ? DuckLakeSchema.sqliteInlinedType(type) : DuckLakeSchema.sqliteType(type);
                    boolean isPk = pk.getOrDefault(table, List.of()).contains(name);
                    columns.add(new CopyColumn(name, type, liteType, isPk || notNull.getOrDefault(table, List.of()).contains(name), isPk));
                }
            }
        }
        return tables;
    }

    private static void duckDbToSqlite(Path source, Path temp, ProgressListener progress, Totals totals, boolean directWrite,
                                       int pageSize) throws SQLException, IOException {
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, source, "src", true, null);
            Map<String, List<CopyColumn>> tables = duckDbColumns(duck, "src");
            if (directWrite && directWritable(tables)) {
                Map<String, int[]> roots = createSqliteSchema(temp, tables, pageSize);
                if (roots != null) {
                    fillSqliteDirectly(duck, temp, tables, roots, progress, totals);
                    return;
                }
                Files.deleteIfExists(temp);
            }
            try (Connection lite = Sql.sqlite(temp, false)) {
                if (pageSize > 0) {
                    Sql.exec(lite, "PRAGMA page_size = " + pageSize);
                }
                Sql.exec(lite, "PRAGMA journal_mode = OFF");
                Sql.exec(lite, "PRAGMA synchronous = OFF");
                lite.setAutoCommit(false);
                int done = 0;
                for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
                    String table = e.getKey();
                    List<CopyColumn> columns = e.getValue();
                    Sql.exec(lite, sqliteDdl(table, columns));
                    long rows = SqliteTableCopy.copy(duck, lite, table, columns);
                    totals.rows += rows;
                    progress.tableCopied(table, rows, ++done, tables.size());
                    stopIfInterrupted(table);
                }
                totals.tables = tables.size();
                lite.commit();
            }
        }
    }

    /** Whether DuckDB → SQLite may write b-tree pages directly: not when system property {@code fdl.catalog.sqliteWriter} is {@code jdbc}. */
    static boolean directWriteAllowed() {
        return !"jdbc".equals(System.getProperty("fdl.catalog.sqliteWriter"));
    }

    /**
     * Whether {@link SqliteFileWriter} can fill every table: a primary key, where there is one,
     * is a single integer column (its index entries are then (integer, rowid) in row order).
     */
    private static boolean directWritable(Map<String, List<CopyColumn>> tables) {
        for (List<CopyColumn> columns : tables.values()) {
            List<CopyColumn> keys = columns.stream().filter(CopyColumn::primaryKey).toList();
            if (keys.size() > 1 || (keys.size() == 1 && !keys.get(0).sqliteType().equals("BIGINT"))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Creates the SQLite file {@code temp} with SQLite itself: every table, empty; pages of
     * {@code pageSize} bytes (0: SQLite's default).
     *
     * @return per table, its root page and its primary key index's root page (0 for none); null
     *     if SQLite laid out the schema otherwise than {@link SqliteFileWriter} expects (then the
     *     caller copies row by row)
     */
    private static Map<String, int[]> createSqliteSchema(Path temp, Map<String, List<CopyColumn>> tables, int pageSize) throws SQLException {
        Map<String, int[]> roots = new LinkedHashMap<>();
        try (Connection lite = Sql.sqlite(temp, false)) {
            if (pageSize > 0) {
                Sql.exec(lite, "PRAGMA page_size = " + pageSize);
            }
            lite.setAutoCommit(false);
            for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
                Sql.exec(lite, sqliteDdl(e.getKey(), e.getValue()));
            }
            lite.commit();
            Map<String, Integer> tableRoots = new HashMap<>();
            Map<String, Integer> indexRoots = new HashMap<>();
            int indexes = 0;
            try (Statement s = lite.createStatement();
                 ResultSet r = s.executeQuery("SELECT type, name, tbl_name, rootpage FROM sqlite_schema")) {
                while (r.next()) {
                    String type = r.getString(1);
                    if (type.equals("table")) {
                        tableRoots.put(r.getString(2), r.getInt(4));
                    } else if (type.equals("index")) {
                        indexes++;
                        if (r.getString(2).equals("sqlite_autoindex_" + r.getString(3) + "_1")) {
                            indexRoots.put(r.getString(3), r.getInt(4));
                        }
                    } else {
                        return null;
                    }
                }
            }
            int keyed = 0;
            for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
                Integer root = tableRoots.get(e.getKey());
                boolean hasKey = e.getValue().stream().anyMatch(CopyColumn::primaryKey);
                Integer indexRoot = indexRoots.get(e.getKey());
                if (root == null || root < 2 || hasKey != (indexRoot != null)) {
                    return null;
                }
                keyed += hasKey ? 1 : 0;
                roots.put(e.getKey(), new int[] {root, hasKey ? indexRoot : 0});
            }
            if (indexes != keyed || tableRoots.size() != tables.size()) {
                return null;
            }
        }
        return roots;
    }

    /**
     * Fills the empty tables of {@code temp} by writing their pages ({@link SqliteFileWriter}),
     * then has SQLite count every table's rows: a count that differs from the rows written fails.
     */
    private static void fillSqliteDirectly(Connection duck, Path temp, Map<String, List<CopyColumn>> tables,
                                           Map<String, int[]> roots, ProgressListener progress, Totals totals)
            throws SQLException, IOException {
        Map<String, Long> written = new LinkedHashMap<>();
        try (SqliteFileWriter writer = SqliteFileWriter.open(temp)) {
            int done = 0;
            for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
                String table = e.getKey();
                List<CopyColumn> columns = e.getValue();
                int[] root = roots.get(table);
                int keyColumn = -1;
                for (int i = 0; i < columns.size(); i++) {
                    keyColumn = columns.get(i).primaryKey() ? i : keyColumn;
                }
                long rows = SqliteTableCopy.copyDirect(duck, writer.table(root[0], root[1]), table, columns, keyColumn);
                written.put(table, rows);
                totals.rows += rows;
                progress.tableCopied(table, rows, ++done, tables.size());
                stopIfInterrupted(table);
            }
            writer.finish();
        }
        totals.tables = tables.size();
        try (Connection lite = Sql.sqlite(temp, true); Statement s = lite.createStatement()) {
            for (Map.Entry<String, Long> e : written.entrySet()) {
                try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + SqlQuote.ident(e.getKey()))) {
                    long counted = r.next() ? r.getLong(1) : -1;
                    if (counted != e.getValue()) {
                        throw new SQLException("table " + e.getKey() + ": " + e.getValue() + " rows were written but SQLite counts " + counted);
                    }
                }
            }
        }
    }

    private static void duckDbToDuckDb(Path source, Path temp, ProgressListener progress, Totals totals) throws SQLException {
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, source, "src", true, null);
            Sql.attach(duck, temp, "cat", false, Catalogs.STORAGE_VERSION);
            Map<String, List<CopyColumn>> tables = duckDbColumns(duck, "src");
            Sql.exec(duck, "BEGIN");
            int done = 0;
            for (Map.Entry<String, List<CopyColumn>> e : tables.entrySet()) {
                String table = e.getKey();
                List<CopyColumn> columns = e.getValue();
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
            totals.storage = storageOf(duck, "cat", temp);
            Sql.exec(duck, "DETACH cat");
        }
    }
}
