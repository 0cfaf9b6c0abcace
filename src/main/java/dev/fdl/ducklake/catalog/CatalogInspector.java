package dev.fdl.ducklake.catalog;

import dev.fdl.FdlException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.SnapshotInfo;
import dev.fdl.ducklake.TableInfo;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.format.SnapshotChanges;

/**
 * A DuckLake catalog file of either kind opened read-only for inspection through plain JDBC:
 * format version, data path, snapshots, tables and columns at a snapshot, the row count a reader
 * sees, and the data and delete files it names (gc's and verify's file lists, commit step 5). It
 * reads through {@link MetadataQueries}, the one model the built-in reader uses too: visibility,
 * paths and types are the same rules there and here.
 */
public final class CatalogInspector implements AutoCloseable {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "(-?\\d{4,}-\\d{2}-\\d{2})[ T](\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?)(?:([+-]\\d{2})(?::?(\\d{2}))?(?::?(\\d{2}))?|Z)?");

    private final Path file;
    private final CatalogKind kind;
    private final Connection connection;
    private final MetadataQueries model;

    private CatalogInspector(Path file, CatalogKind kind, Connection connection) throws SQLException {
        this.file = file;
        this.kind = kind;
        this.connection = connection;
        this.model = new MetadataQueries(connection, kind == CatalogKind.SQLITE ? null : "cat", file.toString());
    }

    /** The columns of one of the file's tables, in declaration order. */
    public List<String> columns(String table) throws SQLException {
        return model.columns(table);
    }

    /**
     * Opens a catalog file read-only.
     *
     * @throws FdlException (exit 1) naming the file if it is missing, not a SQLite/DuckDB file,
     *     not a DuckLake catalog, or of a DuckLake format version fdl does not know
     */
    public static CatalogInspector open(Path file) {
        return open(file, true);
    }

    /** Opens a catalog file read-only or for writing (package code: truncation, data path). */
    public static CatalogInspector open(Path file, boolean readOnly) {
        CatalogKind kind = CatalogKind.detect(file);
        Connection c = null;
        try {
            if (kind == CatalogKind.SQLITE) {
                c = Sql.sqlite(file, readOnly);
            } else {
                c = Sql.duckDbMemory();
                Sql.attach(c, file, "cat", readOnly);
                Sql.exec(c, "USE cat");
            }
            return new CatalogInspector(file, kind, c);
        } catch (SQLException e) {
            closeQuietly(c);
            throw Sql.failure("opening DuckLake catalog", file, e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing; the first error is the one reported
            }
        }
    }

    /** The file this catalog was opened from. */
    public Path file() {
        return file;
    }

    /** Whether the file is a SQLite or a DuckDB catalog. */
    public CatalogKind kind() {
        return kind;
    }

    /** The DuckLake format version ({@code ducklake_metadata} key {@code version}), e.g. {@code 1.0}. */
    public String formatVersion() {
        return model.formatVersion();
    }

    /** The catalog's data path as stored (DUCKLAKE.md "Paths"), or null if none is recorded. */
    public String dataPath() {
        return model.metadata("data_path");
    }

    /** Every snapshot, oldest first. */
    public List<SnapshotInfo> snapshots() {
        try {
            return model.snapshots();
        } catch (SQLException e) {
            throw Sql.failure("reading snapshots of", file, e);
        }
    }

    /** The newest snapshot id. */
    public long lastSnapshotId() {
        return snapshotRange()[1];
    }

    /** The oldest snapshot id the catalog keeps. */
    public long firstSnapshotId() {
        return snapshotRange()[0];
    }

    private long[] snapshotRange() {
        try {
            return model.snapshotRange();
        } catch (SQLException e) {
            throw Sql.failure("reading snapshots of", file, e);
        }
    }

    /**
     * Names of every schema, table and view by id over all snapshots, to put DuckLake's change
     * lists in words ({@link SnapshotChanges#describe}).
     *
     * @throws FdlException (exit 1) naming the file when it cannot be read
     */
    public SnapshotChanges.Names names() {
        try {
            return model.names();
        } catch (SQLException e) {
            throw Sql.failure("reading the names of", file, e);
        }
    }

    /**
     * The tables visible at a snapshot, ordered by schema and name, with their top-level columns. A
     * table of a nested schema (DuckLake 1.1) names its schema by the dotted path from the top
     * ({@code sales.europe}), as DuckDB addresses it.
     *
     * @throws FdlException (exit 1) when a visible table's schema is not visible (a corrupt catalog)
     */
    public List<TableInfo> tables(long snapshotId) {
        List<TableInfo> result = new ArrayList<>();
        try {
            for (MetadataQueries.Table t : model.tables(snapshotId, DuckLakePaths.of(dataPath(), null))) {
                result.add(new TableInfo(t.id(), t.schema(), t.name(), ColumnTypes.at(connection, t.id(), snapshotId)));
            }
        } catch (SQLException e) {
            throw Sql.failure("reading tables of", file, e);
        }
        result.sort(Comparator.comparing(TableInfo::schema).thenComparing(TableInfo::name));
        return result;
    }

    /**
     * The number of rows a reader sees in a table at a snapshot (DUCKLAKE.md "Data"): rows of the
     * visible data files, minus rows deleted by visible delete files and inlined deletes of those
     * files, plus visible inlined rows. Read from catalog metadata only.
     */
    public long rowCount(long tableId, long snapshotId) {
        try {
            return model.rowCount(tableId, snapshotId, Long.MAX_VALUE).rows();
        } catch (SQLException e) {
            throw Sql.failure("counting rows of table " + tableId + " at snapshot " + snapshotId + " in", file, e);
        }
    }

    /** The names of the {@code ducklake_*} tables in the file when it was opened. */
    public Set<String> tableNames() {
        return model.tableNames();
    }

    /**
     * Streams every data and delete file the catalog names in any snapshot, resolved by
     * {@link DuckLakePaths} (data path, schema path, table path; DUCKLAKE.md "Paths"). Rows are
     * streamed from the catalog, never collected, so this works on catalogs naming millions of files.
     *
     * @throws FdlException (exit 1) if a relative file belongs to a table the catalog does not
     *     describe (its location cannot be resolved), or a file row has no path
     */
    public void forEachFile(Consumer<NamedFile> action) {
        DuckLakePaths paths = DuckLakePaths.of(dataPath(), null);
        String dataPath = dataPath() == null ? "" : DuckLakePaths.dataPath(dataPath());
        try {
            Map<Long, MetadataQueries.Table> tables = model.everyTable(paths);
            model.dataFiles(null, null, f -> action.accept(
                    resolve(paths, dataPath, tables, new FileRow(f.id(), f.tableId(), f.path(), f.relative(), f.bytes(), false))));
            model.deleteFiles(null, null, f -> action.accept(
                    resolve(paths, dataPath, tables, new FileRow(f.id(), f.tableId(), f.path(), f.relative(), f.bytes(), true))));
        } catch (SQLException e) {
            throw Sql.failure("listing the files of", file, e);
        }
    }

    /** A data or delete file row, as {@link #forEachFile} resolves it. */
    private record FileRow(long id, long tableId, String path, Boolean relative, long bytes, boolean deleteFile) {}

    private NamedFile resolve(DuckLakePaths paths, String dataPath, Map<Long, MetadataQueries.Table> tables, FileRow f) {
        long id = f.id(), tableId = f.tableId(), bytes = f.bytes();
        String path = f.path();
        Boolean rel = f.relative();
        boolean deleteFile = f.deleteFile();
        String kind = deleteFile ? "delete" : "data";
        MetadataQueries.Table table = tables.get(tableId);
        boolean isRelative = DuckLakePaths.isRelative(rel);
        if (isRelative && table == null) {
            throw new FdlException("catalog " + file + ": " + kind + " file " + id
                    + " (" + path + ") belongs to table " + tableId + ", which the catalog does not describe");
        }
        String location = paths.file(table == null ? null : table.folder(), path, rel, "catalog " + file + ": " + kind + " file " + id);
        return new NamedFile(dataPath, location, deleteFile, bytes, isRelative);
    }

    /** Parses DuckDB's VARCHAR form of a TIMESTAMPTZ ({@code 2026-11-29 21:41:30.123456+00}) into an instant. */
    static Instant parseTime(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = TIMESTAMP.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        LocalDateTime local = LocalDateTime.parse(m.group(1) + "T" + m.group(2));
        ZoneOffset offset = ZoneOffset.UTC;
        if (m.group(3) != null) {
            int hours = Integer.parseInt(m.group(3));
            int minutes = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int seconds = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int sign = hours < 0 || m.group(3).startsWith("-") ? -1 : 1;
            offset = ZoneOffset.ofHoursMinutesSeconds(hours, sign * minutes, sign * seconds);
        }
        return local.toInstant(offset);
    }

    /** The JDBC connection, for package code (truncation, data path, tests). */
    public Connection connection() {
        return connection;
    }

    /** Closes the catalog. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw Sql.failure("closing catalog", file, e);
        }
    }
}
