package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;
import dev.fdl.store.ObjectStore;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.DuckLakeExtension;
import dev.fdl.ducklake.engine.QueryTables;
import dev.fdl.ducklake.engine.ReadOnlySql;

/**
 * Runs a read-only query over a DuckDB-file catalog at a snapshot: with DuckDB's DuckLake
 * extension when it can be loaded (ATTACH 'ducklake:…' READ_ONLY), otherwise with fdl's built-in
 * {@link BuiltInReader} (DuckDB core only).
 */
public final class CatalogQuery {
    private final DuckDbPool pool;
    private final DuckLakeExtension extensions;

    /** Queries on DuckDB instances of {@code pool}, with the extensions {@code extensions} lets it load. */
    public CatalogQuery(DuckDbPool pool, DuckLakeExtension extensions) {
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
        this.extensions = java.util.Objects.requireNonNull(extensions, "extensions");
    }

    /**
     * One {@code fdl query}.
     *
     * @param catalog    a local DuckDB-file catalog
     * @param store      the repository store its data files are in
     * @param dataDirKey the store key prefix of the data folder
     * @param cacheDir   where a remote store's data files are mirrored to be read
     * @param snapshot   null for the newest
     * @param sql        one read-only statement
     */
    public record Request(Path catalog, ObjectStore store, String dataDirKey, Path cacheDir, Long snapshot, String sql) {}

    /** Which reader answered. */
    public enum Engine { DUCKLAKE_EXTENSION, BUILT_IN }

    /** A result and the engine that produced it. */
    public record Answer(QueryResult result, Engine engine, long snapshot) {}

    /**
     * Like {@link #run(Path, String, Long, String)} for a catalog whose data files are in
     * {@code request.store()} under {@code request.dataDirKey()}. For a remote store (S3, HTTPS) without loadable
     * {@code ducklake} and {@code httpfs} extensions, the files the snapshot needs are first
     * fetched into {@code cacheDir} ({@link ReadableCatalog}) and read from there, since DuckDB core
     * reads local files only; only the files of the tables the query names are fetched
     * ({@link QueryTables}), all when that cannot be told.
     */
    public Answer run(Request request) {
        Path catalog = request.catalog();
        ObjectStore store = request.store();
        String dataDirKey = request.dataDirKey();
        Long snapshot = request.snapshot();
        String sql = request.sql();
        Path cacheDir = request.cacheDir();
        ReadableCatalog.DataFiles files = new ReadableCatalog.DataFiles(store, dataDirKey, cacheDir);
        String location = files.location();
        if (!files.remote()) return run(catalog, location, snapshot, sql);
        java.util.Set<String> named;
        try (Connection duck = pool.connection()) {
            ReadOnlySql.check(duck, sql);
            if (extensions.load(duck, "ducklake", "httpfs") == null) return run(catalog, location, snapshot, sql);
            named = QueryTables.named(duck, sql);
        } catch (SQLException e) {
            throw new FdlException("cannot start DuckDB: " + e.getMessage());
        }
        // only the files of the tables the query names (a whole dataset is often many times one table)
        String local = ReadableCatalog.version(catalog).dataPath(pool, files, snapshot, named);
        try (BuiltInReader r = BuiltInReader.open(pool, catalog, local, snapshot, named)) {
            return new Answer(r.query(sql), Engine.BUILT_IN, r.snapshot());
        }
    }

    /**
     * @param catalog  a local DuckDB-file catalog
     * @param dataPath where its data files are (null: its own data_path)
     * @param snapshot null for the newest
     * @throws FdlException exit 2 for non-read-only SQL, exit 1 for SQL errors, exit 4 for an unknown snapshot
     */
    public Answer run(Path catalog, String dataPath, Long snapshot, String sql) {
        try (Connection duck = pool.connection()) {
            ReadOnlySql.check(duck, sql);
            if (extensions.load(duck, "ducklake") == null) {
                try (Statement st = duck.createStatement()) {
                    st.execute(Sql.SET_UTC);
                    String opts = DuckLakeExtension.readerAttachOptions(dataPath, snapshot);
                    st.execute("ATTACH " + SqlQuote.literal("ducklake:" + catalog.toAbsolutePath()) + " AS lake (" + opts + ")");
                    st.execute("USE lake");
                    return new Answer(BuiltInReader.execute(duck, sql), Engine.DUCKLAKE_EXTENSION, snapshot == null ? -1 : snapshot);
                } catch (SQLException e) {
                    throw new FdlException("query failed: " + DuckDbErrors.firstLine(e));
                }
            }
        } catch (SQLException e) {
            throw new FdlException("cannot start DuckDB: " + e.getMessage());
        }
        try (BuiltInReader r = BuiltInReader.open(pool, catalog, dataPath, snapshot)) {
            return new Answer(r.query(sql), Engine.BUILT_IN, r.snapshot());
        }
    }
}
