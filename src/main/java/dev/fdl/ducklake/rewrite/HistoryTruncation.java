package dev.fdl.ducklake.rewrite;

import dev.fdl.util.SqlQuote;

import dev.fdl.FdlException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.format.Visibility;

/**
 * Removes old snapshots from a catalog (SQLite or DuckDB) the way DuckLake's own
 * {@code ducklake_expire_snapshots} does (DUCKLAKE.md "Expiring snapshots"), except that nothing
 * is added to {@code ducklake_files_scheduled_for_deletion}: files still named by older versions
 * must stay, and fdl gc alone deletes data (SPEC.md section 4, commit step 1).
 */
public final class HistoryTruncation {
    /** A row of x visible at no remaining snapshot although it has an end snapshot. */
    private static final String DEAD = "(%1$s.end_snapshot IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ducklake_snapshot s"
            + " WHERE" + Visibility.at("%1$s", "s.snapshot_id") + "))";

    /** Per-table metadata of a table that is gone (DUCKLAKE.md expiry step 2). */
    private static final String[] TABLE_METADATA = {
        "ducklake_table", "ducklake_table_stats", "ducklake_table_column_stats", "ducklake_partition_info",
        "ducklake_partition_column", "ducklake_column", "ducklake_column_tag", "ducklake_sort_info",
        "ducklake_sort_expression", "ducklake_schema_versions", "ducklake_inlined_data_tables", "ducklake_column_mapping",
    };

    /** Per-data-file metadata (DUCKLAKE.md expiry step 3). */
    private static final String[] FILE_METADATA = {
        "ducklake_file_column_stats", "ducklake_file_variant_stats", "ducklake_file_partition_value",
    };

    /**
     * Catalog objects removed once visible at no remaining snapshot (DUCKLAKE.md expiry step 4);
     * DuckLake 1.1's {@code ducklake_view_column_tag} rows, versioned like tags, likewise (a row no
     * remaining snapshot sees is read by no one).
     */
    private static final String[] OBJECTS = {"ducklake_schema", "ducklake_view", "ducklake_tag", "ducklake_macro",
        "ducklake_view_column_tag"};

    private HistoryTruncation() {}

    /**
     * Removes every snapshot older than {@code firstKeptSnapshot} from a catalog file (SQLite or
     * DuckDB: the same SQL), in place and in one transaction. Afterwards every remaining snapshot reads as before, and files
     * visible only at removed snapshots are no longer named.
     *
     * @param catalogFile a catalog file (commit truncates its SQLite copy of the working catalog)
     * @param firstKeptSnapshot the oldest snapshot to keep; must not be newer than the newest snapshot
     * @return the number of snapshots removed (0 if none is older)
     * @throws FdlException (exit 1) if the file is not a DuckLake catalog, or
     *     {@code firstKeptSnapshot} is newer than its newest snapshot (nothing is changed)
     */
    public static int truncateBefore(Path catalogFile, long firstKeptSnapshot) {
        try (CatalogInspector catalog = CatalogInspector.open(catalogFile, false)) {
            long last = catalog.lastSnapshotId();
            if (firstKeptSnapshot > last) {
                throw new FdlException("cannot keep snapshots from " + firstKeptSnapshot + " on in catalog " + catalogFile
                        + ": its newest snapshot is " + last);
            }
            Connection c = catalog.connection();
            try {
                return Sql.inTransaction(c, () -> truncate(c, catalog, firstKeptSnapshot));
            } catch (SQLException e) {
                throw Sql.failure("truncating the history of", catalogFile, e);
            }
        }
    }

    private static int truncate(Connection c, CatalogInspector catalog, long firstKept) throws SQLException {
        int removed;
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM ducklake_snapshot WHERE snapshot_id < ?")) {
            ps.setLong(1, firstKept);
            removed = ps.executeUpdate();
        }
        if (removed == 0) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM ducklake_snapshot_changes WHERE snapshot_id < ?")) {
            ps.setLong(1, firstKept);
            ps.executeUpdate();
        }

        // 2. tables whose every row has ended and is visible at no remaining snapshot
        List<Long> goneTables = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT DISTINCT table_id FROM ducklake_table WHERE table_id NOT IN"
                        + " (SELECT x.table_id FROM ducklake_table x WHERE NOT " + DEAD.formatted("x") + ") ORDER BY table_id")) {
            while (r.next()) {
                goneTables.add(r.getLong(1));
            }
        }
        StringJoiner ids = new StringJoiner(", ", "(", ")");
        ids.add("NULL");
        goneTables.forEach(id -> ids.add(Long.toString(id)));
        String gone = ids.toString();

        // 3. data files of gone tables and data files visible at no remaining snapshot, with their
        //    metadata and delete files (nothing is scheduled for deletion: fdl gc owns data)
        String removedFiles = "SELECT f.data_file_id FROM ducklake_data_file f WHERE f.table_id IN " + gone + " OR " + DEAD.formatted("f");
        for (String table : FILE_METADATA) {
            if (catalog.tableNames().contains(table)) {
                Sql.exec(c, "DELETE FROM " + table + " WHERE table_id IN " + gone + " OR data_file_id IN (" + removedFiles + ")");
            }
        }
        if (catalog.tableNames().contains("ducklake_delete_file")) {
            Sql.exec(c, "DELETE FROM ducklake_delete_file WHERE table_id IN " + gone + " OR " + DEAD.formatted("ducklake_delete_file")
                    + " OR data_file_id IN (" + removedFiles + ")");
        }
        Sql.exec(c, "DELETE FROM ducklake_data_file WHERE table_id IN " + gone + " OR " + DEAD.formatted("ducklake_data_file"));

        // 2 (continued). the gone tables' own metadata and inlined tables
        for (String table : TABLE_METADATA) {
            if (catalog.tableNames().contains(table)) {
                Sql.exec(c, "DELETE FROM " + table + " WHERE table_id IN " + gone);
            }
        }
        // the entries of mappings removed with their tables (ducklake_name_mapping has no table_id; DuckLake's
        // expiry removes entries whose mapping is gone the same way)
        if (catalog.tableNames().contains("ducklake_name_mapping") && catalog.tableNames().contains("ducklake_column_mapping")) {
            Sql.exec(c, "DELETE FROM ducklake_name_mapping WHERE NOT EXISTS (SELECT 1 FROM ducklake_column_mapping m WHERE m.mapping_id = ducklake_name_mapping.mapping_id)");
        }
        for (long tableId : goneTables) {
            for (String name : catalog.tableNames()) {
                if (name.equals(DuckLakeSchema.INLINED_DELETE_PREFIX + tableId)
                        || (name.startsWith(DuckLakeSchema.INLINED_DATA_PREFIX + tableId + "_")
                            && name.substring((DuckLakeSchema.INLINED_DATA_PREFIX + tableId + "_").length()).matches("\\d+"))) {
                    Sql.exec(c, "DROP TABLE " + SqlQuote.ident(name));
                }
            }
        }

        // 4. schemas, views, tags and macros visible at no remaining snapshot
        for (String table : OBJECTS) {
            if (catalog.tableNames().contains(table)) {
                Sql.exec(c, "DELETE FROM " + table + " WHERE " + DEAD.formatted(table));
            }
        }
        return removed;
    }
}
