package dev.fdl.ducklake.catalog;

import dev.fdl.util.AtomicFile;

import dev.fdl.FdlException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.UUID;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.format.DuckLakeSchema;

/** Creates empty DuckLake 1.0 catalogs without the DuckLake extension. */
public final class EmptyCatalog {
    /** The DuckLake format of the catalogs {@link #create} makes: a new branch's. */
    public static final String NEW_FORMAT = DuckLakeSchema.FORMAT;

    private EmptyCatalog() {}

    /**
     * Creates an empty DuckLake 1.0 catalog: exactly the tables, column types and initial rows
     * DuckLake creates (DUCKLAKE.md "A new, empty catalog"): snapshot 0, schema {@code main},
     * metadata {@code version 1.0}, {@code created_by}, {@code data_path}, {@code encrypted false}.
     * The file is written to a temporary file beside {@code file} and moved over it when complete.
     *
     * @param file catalog file to write (replaced if present)
     * @param kind SQLite (working catalog) or DuckDB (written as {@link DuckDbStorage#DEFAULT})
     * @param dataPath the catalog's data path; a path separator is appended if missing
     * @throws FdlException (exit 1) if the file cannot be written
     */
    public static void create(Path file, CatalogKind kind, String dataPath) {
        Objects.requireNonNull(kind, "kind");
        if (dataPath == null || dataPath.isBlank()) {
            throw FdlException.usage("a DuckLake catalog needs a data path; got none for " + file);
        }
        String path = DuckLakePaths.dataPath(dataPath);
        Path temp = AtomicFile.tempBeside(file);
        try {
            if (kind == CatalogKind.DUCKDB) {
                createDuckDb(temp, path);
            } else {
                createSqlite(temp, path);
            }
        } catch (SQLException e) {
            AtomicFile.deleteQuietly(temp);
            throw Sql.failure("creating DuckLake catalog", file, e);
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(temp);
            throw e;
        }
        AtomicFile.moveInto(temp, file);
    }

    /**
     * Copies the SQLite catalog {@code source} into the new file {@code target}, by SQLite itself
     * ({@code VACUUM INTO}, https://www.sqlite.org/lang_vacuum.html#vacuuminto): a consistent copy
     * of one read transaction, including what a WAL file holds, that commit may truncate and
     * convert while the working catalog stays as it is.
     *
     * @throws FdlException (exit 1) naming both files if the source is not a SQLite catalog or
     *     the copy cannot be written (a partial target is removed)
     */
    public static void copySqlite(Path source, Path target) {
        if (CatalogKind.detect(source) != CatalogKind.SQLITE) {
            throw new FdlException("cannot copy " + source + " as a SQLite catalog: it is a DuckDB file");
        }
        try (Connection c = Sql.sqlite(source, true); PreparedStatement ps = c.prepareStatement("VACUUM INTO ?")) {
            ps.setString(1, target.toAbsolutePath().toString());
            ps.execute();
        } catch (SQLException e) {
            AtomicFile.deleteQuietly(target);
            throw Sql.failure("copying SQLite catalog " + source + " to", target, e);
        }
    }

    /** {@code DuckDB <source id>}, the {@code created_by} value DuckLake writes. */
    static String createdBy(Connection duck) throws SQLException {
        try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery("SELECT source_id FROM pragma_version()")) {
            r.next();
            return "DuckDB " + r.getString(1);
        }
    }

    private static void createDuckDb(Path temp, String dataPath) throws SQLException {
        try (Connection duck = Sql.duckDbMemory()) {
            DuckDbStorage.DEFAULT.attachNew(duck, temp, "cat");
            Sql.inTransaction(duck, () -> {
                for (DuckLakeSchema.TableDef def : DuckLakeSchema.tables()) {
                    Sql.exec(duck, def.duckDbDdl("cat."));
                }
                Sql.exec(duck, "INSERT INTO cat.ducklake_snapshot VALUES (0, now(), 0, 1, 0)");
                Sql.exec(duck, "INSERT INTO cat.ducklake_snapshot_changes VALUES (0, 'created_schema:\"main\"', NULL, NULL, NULL)");
                try (PreparedStatement ps = duck.prepareStatement("INSERT INTO cat.ducklake_metadata (key, value) VALUES (?, ?)")) {
                    insertMetadata(ps, createdBy(duck), dataPath);
                }
                Sql.exec(duck, "INSERT INTO cat.ducklake_schema VALUES (0, uuid(), 0, NULL, 'main', 'main/', true)");
                return null;
            });
            Sql.exec(duck, "DETACH cat");
        }
    }

    private static void createSqlite(Path temp, String dataPath) throws SQLException {
        String createdBy;
        String now;
        try (Connection duck = Sql.duckDbMemory()) {
            createdBy = createdBy(duck);
            try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery("SELECT CAST(now() AS VARCHAR)")) {
                r.next();
                now = r.getString(1);
            }
        }
        try (Connection db = Sql.sqlite(temp, false)) {
            Sql.inTransaction(db, () -> {
                for (DuckLakeSchema.TableDef def : DuckLakeSchema.tables()) {
                    Sql.exec(db, def.sqliteDdl(false));
                }
                try (PreparedStatement ps = db.prepareStatement("INSERT INTO ducklake_snapshot VALUES (0, ?, 0, 1, 0)")) {
                    ps.setString(1, now);
                    ps.executeUpdate();
                }
                Sql.exec(db, "INSERT INTO ducklake_snapshot_changes VALUES (0, 'created_schema:\"main\"', NULL, NULL, NULL)");
                try (PreparedStatement ps = db.prepareStatement("INSERT INTO ducklake_metadata (key, value) VALUES (?, ?)")) {
                    insertMetadata(ps, createdBy, dataPath);
                }
                try (PreparedStatement ps = db.prepareStatement("INSERT INTO ducklake_schema VALUES (0, ?, 0, NULL, 'main', 'main/', 1)")) {
                    ps.setString(1, UUID.randomUUID().toString());
                    ps.executeUpdate();
                }
                return null;
            });
        }
    }

    private static void insertMetadata(PreparedStatement ps, String createdBy, String dataPath) throws SQLException {
        String[][] rows = {{"version", DuckLakeSchema.FORMAT}, {"created_by", createdBy}, {"data_path", dataPath}, {"encrypted", "false"}};
        for (String[] row : rows) {
            ps.setString(1, row[0]);
            ps.setString(2, row[1]);
            ps.executeUpdate();
        }
    }

}
