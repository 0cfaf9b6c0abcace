package dev.fdl.repo;

import dev.fdl.util.VersionIds;

import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;

/**
 * Test-only: adds one DuckLake snapshot to a SQLite working catalog by plain SQL, as the DuckLake
 * extension would record "CREATE TABLE t AS SELECT n rows" with one Parquet data file, the file
 * written into the repository through the store. Lets commit tests run without the extension.
 */
public final class WorkingCatalogEdits {
    private WorkingCatalogEdits() {}

    /** Creates table {@code main.<name>(id BIGINT)} with {@code rows} rows in one new data file; returns the file's key. */
    public static String addTable(Path sqlite, ObjectStore store, String dataDir, String name, int rows) throws Exception {
        String fileName = "ducklake-" + VersionIds.next() + ".parquet";
        String key = dataDir + "main/" + name + "/" + fileName;
        Path parquet = Files.createTempFile("fdl-test", ".parquet");
        try (Connection duck = dev.fdl.ducklake.engine.DuckDbPool.connect(); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT range::BIGINT AS id FROM range(" + rows + ")) TO '" + parquet + "' (FORMAT parquet, FIELD_IDS {id: 1})");
        }
        long size = Files.size(parquet);
        store.put(key, Payload.of(parquet));
        Files.delete(parquet);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            long snap, schemaVersion, catalogId, fileId;
            try (ResultSet rs = st.executeQuery("SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 1")) {
                rs.next();
                snap = rs.getLong(1) + 1;
                schemaVersion = rs.getLong(2) + 1;
                catalogId = rs.getLong(3);
                fileId = rs.getLong(4);
            }
            st.execute("INSERT INTO ducklake_snapshot VALUES (" + snap + ", '2026-11-29 12:00:00.000000+00', " + schemaVersion + ", " + (catalogId + 1) + ", " + (fileId + 1) + ")");
            st.execute("INSERT INTO ducklake_snapshot_changes VALUES (" + snap + ", 'created_table:\"main\".\"" + name + "\",inserted_into_table:" + catalogId + "', NULL, NULL, NULL)");
            st.execute("INSERT INTO ducklake_table VALUES (" + catalogId + ", '" + UUID.randomUUID() + "', " + snap + ", NULL, 0, '" + name + "', '" + name + "/', 1)");
            st.execute("INSERT INTO ducklake_column (column_id, begin_snapshot, end_snapshot, table_id, column_order, column_name, column_type, initial_default, default_value, nulls_allowed, parent_column) VALUES (1, " + snap + ", NULL, " + catalogId + ", 1, 'id', 'int64', NULL, NULL, 1, NULL)");
            st.execute("INSERT INTO ducklake_schema_versions VALUES (" + snap + ", " + schemaVersion + ", " + catalogId + ")");
            st.execute("INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, end_snapshot, file_order, path, path_is_relative, file_format, record_count, file_size_bytes, footer_size, row_id_start, partition_id, encryption_key, mapping_id, partial_max) VALUES ("
                    + fileId + ", " + catalogId + ", " + snap + ", NULL, NULL, '" + fileName + "', 1, 'parquet', " + rows + ", " + size + ", 0, 0, NULL, NULL, NULL, NULL)");
            st.execute("INSERT INTO ducklake_table_stats VALUES (" + catalogId + ", " + rows + ", " + rows + ", " + size + ")");
            c.commit();
        }
        return key;
    }
}
