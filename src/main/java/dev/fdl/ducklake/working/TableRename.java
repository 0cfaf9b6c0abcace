package dev.fdl.ducklake.working;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renames a table of a SQLite DuckLake catalog, and some of its columns, as one snapshot, as the
 * DuckLake extension writes {@code ALTER TABLE … RENAME TO} and {@code RENAME COLUMN} (DuckLake
 * spec, "Snapshots and visibility"): the visible {@code ducklake_table} (or {@code ducklake_column})
 * row ends at the new snapshot and a copy with the new name and the same id begins there; the
 * snapshot's {@code schema_version} is one more, a {@code ducklake_schema_versions} row names the
 * table, {@code changes_made} is {@code altered_table:<id>}. Ids stay, so column ids remain the
 * Parquet field ids of the table's files and no data file changes. One SQLite transaction: on any
 * error the catalog is unchanged.
 */
public final class TableRename {
    private TableRename() {}

    /**
     * Renames table {@code tableId} to {@code newName} (null: keeps its name) and its columns
     * {@code columns} (column id to new name) at the newest snapshot.
     *
     * @return the new snapshot's id
     * @throws FdlException naming the catalog and table when the table or a column is not visible, or the catalog cannot be written
     */
    public static long rename(Path sqlite, long tableId, String newName, Map<Long, String> columns, String author, String message) {
        try (WorkingCatalog catalog = WorkingCatalog.open(sqlite)) {
            return catalog.newSnapshot(catalog.newestSnapshot(), "rename", author, message).commit(s -> {
                if (newName != null) copyRow(s, "ducklake_table", "table_id = " + tableId, "table_name", newName);
                for (Map.Entry<Long, String> c : columns.entrySet())
                    copyRow(s, "ducklake_column", "table_id = " + tableId + " AND column_id = " + c.getKey(), "column_name", c.getValue());
                s.schemaChanged();
                if (catalog.hasTable("ducklake_schema_versions"))
                    catalog.update("INSERT INTO ducklake_schema_versions (begin_snapshot, schema_version, table_id) VALUES (?, ?, ?)",
                            s.id(), s.schemaVersion(), tableId);
                s.change("altered_table:" + tableId);
                return s.id();
            });
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot rename table " + tableId + " in catalog " + sqlite + ": " + e.getMessage(), e);
        }
    }

    /** Ends the one visible row of {@code table} matching {@code where} and inserts its copy with {@code column} = {@code value}, beginning at the new snapshot. */
    private static void copyRow(NewSnapshot s, String table, String where, String column, String value) throws SQLException {
        Connection c = s.catalog().connection();
        List<String> cols = Sql.sqliteColumns(c, table);
        long rowid;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rowid FROM " + table + " WHERE end_snapshot IS NULL AND " + where)) {
            if (!rs.next()) throw new SQLException("no visible " + table + " row where " + where);
            rowid = rs.getLong(1);
            if (rs.next()) throw new SQLException("more than one visible " + table + " row where " + where);
        }
        List<String> select = new ArrayList<>();
        for (String col : cols) {
            select.add(switch (col) {
                case "begin_snapshot" -> "?1";
                case "end_snapshot" -> "NULL";
                default -> col.equals(column) ? "?2" : SqlQuote.ident(col);
            });
        }
        String names = String.join(", ", cols.stream().map(SqlQuote::ident).toList());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (" + names + ") SELECT " + String.join(", ", select)
                + " FROM " + table + " WHERE rowid = ?3")) {
            ps.setLong(1, s.id());
            ps.setString(2, value);
            ps.setLong(3, rowid);
            ps.executeUpdate();
        }
        s.endRows(table, "rowid = ?", rowid);
    }
}
