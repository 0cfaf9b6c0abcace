package dev.fdl.catalog;

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
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * <p>SQLite → DuckDB hands rows over as JSON lines rendered by SQLite on a second thread and
 * loaded by DuckDB in chunks (BIGINT/VARCHAR tables), or streams them from sqlite-jdbc into
 * DuckDB's Appender (through a staging table plus one vectorized CAST when a column's stored
 * form differs from its DuckDB type);
 * DuckDB → SQLite streams a DuckDB result into batched SQLite inserts in one transaction.
 * Memory use does not grow with the catalog: rows are never collected.
 */
public final class CatalogConverter {
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
                sqliteToDuckDb(source, temp, listener, totals);
            } else if (sourceKind == CatalogKind.DUCKDB && targetKind == CatalogKind.SQLITE) {
                duckDbToSqlite(source, temp, listener, totals);
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
            throw new FdlException(FdlException.FAILURE, "converting catalog " + source + " to " + targetKind
                    + " failed: " + e.getMessage() + "; " + target + " was left unchanged", e);
        } catch (IOException e) {
            AtomicFile.deleteQuietly(temp);
            throw new FdlException(FdlException.FAILURE, "converting catalog " + source + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(temp);
            throw e;
        }
        AtomicFile.moveInto(temp, target);
        String storage = targetKind == CatalogKind.DUCKDB ? duckDbStorage(target) : null;
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
            try (Statement s = duck.createStatement();
                 ResultSet r = s.executeQuery("SELECT tags['storage_version'] FROM duckdb_databases() WHERE database_name = 'cat'")) {
                String version = r.next() ? r.getString(1) : null;
                if (version == null || version.isBlank()) {
                    throw new FdlException("DuckDB reports no storage version for " + duckdbFile);
                }
                if (version.endsWith("+")) {
                    version = version.substring(0, version.length() - 1);
                }
                return "duckdb-" + version;
            }
        } catch (SQLException e) {
            throw Sql.failure("reading the storage version of", duckdbFile, e);
        }
    }

    private static final class Totals {
        int tables;
        long rows;
    }

    /** A column as copied: DuckDB type, and the storage class its SQLite side uses. */
    private record CopyColumn(String name, String duckType, String sqliteType, boolean notNull, boolean primaryKey) {}

    // ---------------------------------------------------------------- SQLite → DuckDB

    /** Rows per temporary JSON-lines file: DuckDB loads one while SQLite renders the next. */
    private static final int CHUNK_ROWS = 131_072;

    /** A temporary file of {@code rows} JSON lines; {@link #END} after a table's last; or a failure. */
    private record Chunk(Path file, long rows, Exception failure) {
        static final Chunk END = new Chunk(null, 0, null);
    }

    private static void sqliteToDuckDb(Path source, Path temp, ProgressListener progress, Totals totals) throws SQLException {
        try (Connection lite = Sql.sqlite(source, true); Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, temp, "cat", false, Catalogs.STORAGE_VERSION);
            DuckDBConnection dc = duck.unwrap(DuckDBConnection.class);
            List<String> tables = Sql.sqliteTables(lite);
            Map<String, List<CopyColumn>> columns = new HashMap<>();
            Map<String, BlockingQueue<Chunk>> chunks = new LinkedHashMap<>();
            for (String table : tables) {
                List<CopyColumn> cols = sqliteColumns(lite, table);
                columns.put(table, cols);
                if (cols.stream().allMatch(c -> c.sqliteType().equals("BIGINT") || c.sqliteType().equals("VARCHAR"))) {
                    // two chunks of look-ahead bound the temporary disk use
                    chunks.put(table, new ArrayBlockingQueue<>(2));
                }
            }
            // two cores: a second SQLite connection renders rows on its own thread while DuckDB loads
            ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "fdl-sqlite-reader");
                t.setDaemon(true);
                return t;
            });
            try {
                reader.execute(() -> renderJsonLines(source, temp, columns, chunks));
                // no enclosing transaction: staging tables live in another database, and one DuckDB
                // transaction writes one database; the temporary file only replaces the target when complete
                int done = 0;
                for (String table : tables) {
                    List<CopyColumn> cols = columns.get(table);
                    Sql.exec(duck, ddl("cat.main.", table, cols));
                    BlockingQueue<Chunk> queue = chunks.get(table);
                    long rows = queue != null
                            ? loadJsonLines(duck, table, cols, queue)
                            : copySqliteTable(lite, duck, dc, table, cols);
                    totals.rows += rows;
                    progress.tableCopied(table, rows, ++done, tables.size());
                }
            } finally {
                reader.shutdownNow();
                try {
                    reader.awaitTermination(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (BlockingQueue<Chunk> queue : chunks.values()) {
                    for (Chunk c : queue) {
                        deleteQuietly(c.file());
                    }
                }
            }
            totals.tables = tables.size();
            Sql.exec(duck, "DETACH cat");
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a stray temporary file beside the target is harmless
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

    /**
     * The reading half of the fast path for tables whose SQLite columns are all BIGINT or VARCHAR
     * (every fixed DuckLake table), run on its own thread with its own read-only connection:
     * SQLite renders each row as one JSON array ({@code json_array}, in C: exact for integers and
     * text, {@code null} for NULL; about twice as fast as concatenating {@code quote()}d values),
     * and its UTF-8 bytes go unchanged into temporary files beside the target, one line per row
     * (JSON escapes every control character), {@link #CHUNK_ROWS} rows per file. Each finished
     * file, then {@link Chunk#END}, is handed over in table order; a failure is handed over
     * instead, and an interrupt stops the work and deletes the unfinished file.
     */
    private static void renderJsonLines(Path source, Path temp, Map<String, List<CopyColumn>> columns,
                                        Map<String, BlockingQueue<Chunk>> chunks) {
        Path file = null;
        int sequence = 0;
        try (Connection lite = Sql.sqlite(source, true)) {
            for (Map.Entry<String, BlockingQueue<Chunk>> e : chunks.entrySet()) {
                BlockingQueue<Chunk> current = e.getValue();
                StringBuilder select = new StringBuilder("SELECT json_array(");
                List<CopyColumn> cols = columns.get(e.getKey());
                for (int i = 0; i < cols.size(); i++) {
                    select.append(i > 0 ? ", " : "").append(SqlQuote.ident(cols.get(i).name()));
                }
                select.append(") FROM ").append(SqlQuote.ident(e.getKey()));
                try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery(select.toString())) {
                    java.io.OutputStream out = null;
                    long rows = 0;
                    try {
                        while (r.next()) {
                            if (out == null) {
                                file = temp.resolveSibling(temp.getFileName() + ".rows." + sequence++ + ".jsonl");
                                out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                            }
                            // the bytes SQLite holds (UTF-8): no decoding to a Java String and back
                            out.write(r.getBytes(1));
                            out.write('\n');
                            if (++rows == CHUNK_ROWS) {
                                out.close();
                                out = null;
                                current.put(new Chunk(file, rows, null));
                                file = null;
                                rows = 0;
                            }
                        }
                        if (out != null) {
                            out.close();
                            out = null;
                            current.put(new Chunk(file, rows, null));
                            file = null;
                        }
                    } finally {
                        if (out != null) {
                            out.close();
                        }
                    }
                }
                current.put(Chunk.END);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            deleteQuietly(file);
        } catch (SQLException | IOException | RuntimeException e) {
            deleteQuietly(file);
            Exception failure = e instanceof IOException
                    ? new SQLException("cannot write temporary file " + file + ": " + e.getMessage(), e) : e;
            // the loader waits on one of these queues: it meets the failure before anything else
            for (BlockingQueue<Chunk> queue : chunks.values()) {
                List<Chunk> dropped = new ArrayList<>();
                queue.drainTo(dropped);
                dropped.forEach(c -> deleteQuietly(c.file()));
                queue.offer(new Chunk(null, 0, failure));
            }
        }
    }

    /**
     * The loading half of the fast path: DuckDB loads each temporary JSON-lines file of
     * {@code table} as it is finished with one vectorized, parallel {@code INSERT … SELECT
     * CAST(…)} over {@code json_extract_string}, then deletes it. This avoids one JNI call per
     * value on both sides.
     */
    private static long loadJsonLines(Connection duck, String table, List<CopyColumn> columns,
                                      BlockingQueue<Chunk> queue) throws SQLException {
        StringBuilder paths = new StringBuilder("[");
        StringBuilder casts = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            CopyColumn c = columns.get(i);
            paths.append(i > 0 ? ", " : "").append("'$[").append(i).append("]'");
            String field = "v[" + (i + 1) + "]";
            String stored = c.sqliteType().equals("VARCHAR") ? field : "CAST(" + field + " AS " + c.sqliteType() + ")";
            casts.append(i > 0 ? ", " : "");
            casts.append(c.duckType().equals(c.sqliteType()) ? stored : "CAST(" + stored + " AS " + c.duckType() + ")");
        }
        paths.append(']');
        long rows = 0;
        while (true) {
            Chunk chunk;
            try {
                chunk = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while copying table " + table, e);
            }
            if (chunk.failure() instanceof SQLException e) {
                throw e;
            } else if (chunk.failure() instanceof RuntimeException e) {
                throw e;
            } else if (chunk.file() == null) {
                return rows;
            }
            try {
                // one column per line: JSON escapes every control character, so no tab splits a line
                Sql.exec(duck, "INSERT INTO cat.main." + SqlQuote.ident(table) + " SELECT " + casts
                        + " FROM (SELECT json_extract_string(line, " + paths + ") AS v FROM read_csv("
                        + SqlQuote.literal(chunk.file().toAbsolutePath().toString()) + ", columns = {'line': 'VARCHAR'},"
                        + " header = false, delim = '\\t', quote = '', escape = '', auto_detect = false, new_line = '\\n'))");
            } finally {
                deleteQuietly(chunk.file());
            }
            rows += chunk.rows();
        }
    }

    private static long copySqliteTable(Connection lite, Connection duck, DuckDBConnection dc, String table,
                                        List<CopyColumn> columns) throws SQLException {
        boolean direct = columns.stream().allMatch(c -> c.duckType().equals(c.sqliteType())
                || (c.duckType().equals("BOOLEAN") && c.sqliteType().equals("BIGINT")));
        String appendCatalog = "cat";
        String appendTable = table;
        if (!direct) {
            appendCatalog = "memory";
            appendTable = "fdl_stage";
            List<CopyColumn> stage = new ArrayList<>();
            for (CopyColumn c : columns) {
                stage.add(new CopyColumn(c.name(), c.sqliteType(), c.sqliteType(), false, false));
            }
            Sql.exec(duck, "DROP TABLE IF EXISTS memory.main.fdl_stage");
            Sql.exec(duck, ddl("memory.main.", appendTable, stage));
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            select.append(i > 0 ? ", " : "").append(SqlQuote.ident(columns.get(i).name()));
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
        long rows = 0;
        if (direct) {
            // one transaction per table: in autocommit mode every appender flush (2,048 rows)
            // would be a commit to the file
            Sql.exec(duck, "BEGIN");
        }
        try (Statement s = lite.createStatement(); ResultSet r = s.executeQuery(select.toString());
             DuckDBAppender app = dc.createAppender(appendCatalog, "main", appendTable)) {
            while (r.next()) {
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
                            String v = r.getString(col);
                            if (v == null) {
                                app.appendNull();
                            } else {
                                app.append(v);
                            }
                        }
                    }
                }
                app.endRow();
                rows++;
            }
        }
        if (direct) {
            Sql.exec(duck, "COMMIT");
        } else {
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
            insert.append(" FROM memory.main.fdl_stage");
            Sql.exec(duck, insert.toString());
            Sql.exec(duck, "DROP TABLE memory.main.fdl_stage");
        }
        return rows;
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

    /** Columns of a table of the DuckDB database attached as {@code alias}, with their constraints. */
    private static List<CopyColumn> duckDbColumns(Connection duck, String alias, String table) throws SQLException {
        boolean inlined = table.startsWith(DuckLakeSchema.INLINED_DATA_PREFIX) && INLINED_DATA.matcher(table).matches();
        List<String> pk = new ArrayList<>();
        List<String> notNull = new ArrayList<>();
        try (PreparedStatement ps = duck.prepareStatement("SELECT constraint_type, constraint_column_names FROM duckdb_constraints()"
                + " WHERE database_name = ? AND schema_name = 'main' AND table_name = ?")) {
            ps.setString(1, alias);
            ps.setString(2, table);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    Object[] names = (Object[]) r.getArray(2).getArray();
                    List<String> target = "PRIMARY KEY".equals(r.getString(1)) ? pk : "NOT NULL".equals(r.getString(1)) ? notNull : null;
                    if (target != null) {
                        for (Object o : names) {
                            target.add(String.valueOf(o));
                        }
                    }
                }
            }
        }
        List<CopyColumn> columns = new ArrayList<>();
        try (PreparedStatement ps = duck.prepareStatement("SELECT column_name, data_type FROM information_schema.columns"
                + " WHERE table_catalog = ? AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, alias);
            ps.setString(2, table);
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    String name = r.getString(1);
                    String type = r.getString(2);
                    String liteType = inlined ? DuckLakeSchema.sqliteInlinedType(type) : DuckLakeSchema.sqliteType(type);
                    columns.add(new CopyColumn(name, type, liteType, notNull.contains(name) || pk.contains(name), pk.contains(name)));
                }
            }
        }
        return columns;
    }

    private static void duckDbToSqlite(Path source, Path temp, ProgressListener progress, Totals totals) throws SQLException {
        try (Connection duck = Sql.duckDbMemory(); Connection lite = Sql.sqlite(temp, false)) {
            Sql.attach(duck, source, "src", true, null);
            Sql.exec(lite, "PRAGMA journal_mode = OFF");
            Sql.exec(lite, "PRAGMA synchronous = OFF");
            lite.setAutoCommit(false);
            List<String> tables = Sql.duckDbTables(duck, "src");
            int done = 0;
            for (String table : tables) {
                List<CopyColumn> columns = duckDbColumns(duck, "src", table);
                Sql.exec(lite, sqliteDdl(table, columns));
                long rows = copyToSqlite(duck, lite, table, columns);
                totals.rows += rows;
                progress.tableCopied(table, rows, ++done, tables.size());
            }
            totals.tables = tables.size();
            lite.commit();
        }
    }

    private static long copyToSqlite(Connection duck, Connection lite, String table, List<CopyColumn> columns) throws SQLException {
        int n = columns.size();
        int[] kind = new int[n];
        StringBuilder select = new StringBuilder("SELECT ");
        StringBuilder insert = new StringBuilder("INSERT INTO ").append(SqlQuote.ident(table)).append(" VALUES (");
        for (int i = 0; i < n; i++) {
            CopyColumn c = columns.get(i);
            String ident = SqlQuote.ident(c.name());
            String duckUpper = c.duckType().toUpperCase(Locale.ROOT);
            select.append(i > 0 ? ", " : "");
            insert.append(i > 0 ? ", ?" : "?");
            switch (c.sqliteType()) {
                case "BIGINT" -> {
                    kind[i] = 0;
                    select.append(duckUpper.equals("BIGINT") ? ident : "CAST(" + ident + " AS BIGINT)");
                }
                case "DOUBLE" -> {
                    kind[i] = 1;
                    select.append(duckUpper.equals("DOUBLE") ? ident : "CAST(" + ident + " AS DOUBLE)");
                }
                case "BLOB" -> {
                    kind[i] = 2;
                    select.append(ident);
                }
                default -> {
                    kind[i] = 3;
                    select.append(duckUpper.equals("VARCHAR") ? ident : "CAST(" + ident + " AS VARCHAR)");
                }
            }
        }
        select.append(" FROM src.main.").append(SqlQuote.ident(table));
        insert.append(')');
        // sqlite-jdbc pays a large fixed cost per statement execution: bind many rows into one
        // multi-row INSERT (at most 30,000 parameters, under SQLite's limit of 32,766)
        int batch = Math.max(1, Math.min(256, 30_000 / Math.max(1, n)));
        String one = insert.toString();
        String tuple = one.substring(one.indexOf("VALUES ") + "VALUES ".length());
        StringBuilder many = new StringBuilder(one);
        for (int i = 1; i < batch; i++) {
            many.append(", ").append(tuple);
        }
        long rows = 0;
        Object[][] buffer = new Object[batch][n];
        try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery(select.toString());
             PreparedStatement multi = lite.prepareStatement(many.toString());
             PreparedStatement single = lite.prepareStatement(one)) {
            int buffered = 0;
            while (r.next()) {
                Object[] row = buffer[buffered];
                for (int i = 0; i < n; i++) {
                    row[i] = read(r, i + 1, kind[i]);
                }
                rows++;
                if (++buffered == batch) {
                    for (int k = 0; k < batch; k++) {
                        bind(multi, k * n, buffer[k]);
                    }
                    multi.executeUpdate();
                    buffered = 0;
                }
            }
            for (int k = 0; k < buffered; k++) {
                bind(single, 0, buffer[k]);
                single.executeUpdate();
            }
        }
        return rows;
    }

    /** A value as its SQLite storage class: Long, Double, byte[] or String; null for NULL. */
    private static Object read(ResultSet r, int col, int kind) throws SQLException {
        switch (kind) {
            case 0 -> {
                long v = r.getLong(col);
                return r.wasNull() ? null : v;
            }
            case 1 -> {
                double v = r.getDouble(col);
                return r.wasNull() ? null : v;
            }
            case 2 -> {
                return r.getBytes(col);
            }
            default -> {
                return r.getString(col);
            }
        }
    }

    private static void bind(PreparedStatement ps, int offset, Object[] row) throws SQLException {
        for (int i = 0; i < row.length; i++) {
            Object v = row[i];
            int param = offset + i + 1;
            if (v == null) {
                ps.setNull(param, java.sql.Types.NULL);
            } else if (v instanceof Long l) {
                ps.setLong(param, l);
            } else if (v instanceof Double d) {
                ps.setDouble(param, d);
            } else if (v instanceof byte[] bytes) {
                ps.setBytes(param, bytes);
            } else {
                ps.setString(param, (String) v);
            }
        }
    }

    private static void duckDbToDuckDb(Path source, Path temp, ProgressListener progress, Totals totals) throws SQLException {
        try (Connection duck = Sql.duckDbMemory()) {
            Sql.attach(duck, source, "src", true, null);
            Sql.attach(duck, temp, "cat", false, Catalogs.STORAGE_VERSION);
            List<String> tables = Sql.duckDbTables(duck, "src");
            Sql.exec(duck, "BEGIN");
            int done = 0;
            for (String table : tables) {
                List<CopyColumn> columns = duckDbColumns(duck, "src", table);
                Sql.exec(duck, ddl("cat.main.", table, columns));
                long rows;
                try (Statement s = duck.createStatement()) {
                    rows = s.executeLargeUpdate("INSERT INTO cat.main." + SqlQuote.ident(table) + " SELECT * FROM src.main." + SqlQuote.ident(table));
                }
                totals.rows += rows;
                progress.tableCopied(table, rows, ++done, tables.size());
            }
            totals.tables = tables.size();
            Sql.exec(duck, "COMMIT");
            Sql.exec(duck, "DETACH cat");
        }
    }
}
