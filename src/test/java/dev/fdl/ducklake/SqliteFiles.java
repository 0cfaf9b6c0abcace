package dev.fdl.ducklake;

import java.nio.file.Path;
import java.sql.Connection;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.Sql;

/** SQLite catalogs made by tests. */
public final class SqliteFiles {
    private SqliteFiles() {}

    /** Runs {@code statements} on the SQLite file {@code file} (created if missing); returns it. */
    public static Path create(Path file, String... statements) throws java.sql.SQLException {
        try (Connection c = Sql.sqlite(file, false)) {
            for (String sql : statements) {
                Sql.exec(c, sql);
            }
        }
        return file;
    }

    /** A new empty DuckLake catalog in SQLite at {@code file} (data path {@code /data/}), then {@code statements} run on it. */
    public static Path catalog(Path file, String... statements) throws java.sql.SQLException {
        EmptyCatalog.create(file, CatalogKind.SQLITE, "/data/");
        return create(file, statements);
    }
}
