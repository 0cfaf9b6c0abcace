package dev.fdl.ducklake.working;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A {@code ducklake_snapshot} row (DuckLake spec, {@code ducklake_snapshot}): the snapshot's id, the
 * schema version it reads with, and the next catalog id and file id a later snapshot allocates from.
 */
public record SnapshotRow(long id, long schemaVersion, long nextCatalogId, long nextFileId) {

    /**
     * The newest snapshot of the SQLite catalog {@code db} ({@code main}, or the alias of an
     * attached catalog) read on {@code c}, or null when it has none (a corrupt catalog: the caller
     * names it).
     */
    static SnapshotRow newest(Connection c, String db) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM " + db
                     + ".ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 1")) {
            return rs.next() ? new SnapshotRow(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)) : null;
        }
    }
}
