package dev.fdl.ducklake;

import java.nio.file.Path;
import java.sql.Connection;

/** SQLite catalogs made by tests. */
final class SqliteFiles {
    private SqliteFiles() {}

    /** Runs {@code statements} on the SQLite file {@code file} (created if missing); returns it. */
    static Path create(Path file, String... statements) throws java.sql.SQLException {
        try (Connection c = Sql.sqlite(file, false)) {
            for (String sql : statements) {
                Sql.exec(c, sql);
            }
        }
        return file;
    }

    /** A new empty DuckLake catalog in SQLite at {@code file} (data path {@code /data/}), then {@code statements} run on it. */
    static Path catalog(Path file, String... statements) throws java.sql.SQLException {
        Catalogs.create(file, CatalogKind.SQLITE, "/data/");
        return create(file, statements);
    }
}
