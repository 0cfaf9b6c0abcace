package dev.fdl.ducklake.working;


import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import dev.fdl.ducklake.format.RowKeyTag;
import dev.fdl.ducklake.format.Visibility;

/**
 * The row identity of a table, as the last {@code fdl import --mode sync --key cols} named it,
 * recorded in the catalog so that {@code fdl diff} reports changed rows (old → new) without
 * {@code --key} (docs/data.md "The recorded key").
 *
 * <p>It is a DuckLake table tag ({@code ducklake_tag}: {@code object_id} = the table id, key
 * {@value RowKeyTag#TAG}, value a JSON array of column names), so it lives in the working catalog and in
 * every version's catalog, travels through checkout and commit like every catalog row, and follows
 * DuckLake's snapshot rules: a new key ends the previous tag row ({@code end_snapshot}) and begins
 * its own in the sync's snapshot; a sync without {@code --key} uses it, {@code sync --no-key} ends it (the whole row is the
 * identity again). The DuckLake extension keeps tags it does not use (its own key is
 * {@code comment}); readers ignore this one.
 */
public final class RowKey {
    private RowKey() {}

    /**
     * At new snapshot {@code s}: records {@code key} (empty: none) for table {@code tableId},
     * unless the visible tag already says the same.
     */
    public static void record(NewSnapshot s, long tableId, List<String> key) throws SQLException {
        WorkingCatalog catalog = s.catalog();
        if (current(catalog, tableId).equals(key)) return;
        s.endRows("ducklake_tag", "object_id = ? AND key = ?", tableId, RowKeyTag.TAG);
        if (!key.isEmpty()) {
            catalog.update("INSERT INTO ducklake_tag (object_id, begin_snapshot, end_snapshot, key, value) VALUES (?, ?, NULL, ?, ?)",
                    tableId, s.id(), RowKeyTag.TAG, RowKeyTag.json(key));
        }
    }

    /** The key recorded for table {@code tableId} at the working catalog's newest snapshot; empty when none. */
    public static List<String> current(WorkingCatalog catalog, long tableId) throws SQLException {
        try (PreparedStatement ps = catalog.connection().prepareStatement(
                "SELECT value FROM ducklake_tag WHERE object_id = ? AND key = ? AND" + Visibility.live(""))) {
            ps.setLong(1, tableId);
            ps.setString(2, RowKeyTag.TAG);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? RowKeyTag.parse(rs.getString(1)) : List.of();
            }
        }
    }
}
