package dev.fdl.ducklake.rewrite;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;

/**
 * Moves a DuckLake catalog (DuckDB or SQLite file) to a newer DuckLake format with plain SQL, as
 * the extension's {@code AUTOMATIC_MIGRATION} does it (DuckLake specification, "Upgrading to
 * DuckLake 1.1"): the columns the new format adds (NULL for existing rows), its new tables, the
 * system columns of registered inlined-data tables renamed to {@code _ducklake_row_id},
 * {@code _ducklake_begin_snapshot}, {@code _ducklake_end_snapshot}, and the metadata key
 * {@code version}. Of the repairs the extension makes on the way, fdl adds the missing
 * {@code ducklake_schema_versions} rows of inlined-data tables; it does not restore renamed struct
 * fields' defaults or clear column bounds (those change no row a snapshot shows).
 * A downgrade is refused: DuckLake has none ("A migrated catalog cannot be downgraded").
 */
public final class FormatUpgrade {
    private FormatUpgrade() {}

    /** The DuckLake formats a catalog can be moved to with {@link #upgrade}. */
    public static List<String> targets() {
        return List.of(DuckLakeSchema.FORMAT, DuckLakeSchema.FORMAT_1_1);
    }

    /**
     * Upgrades {@code catalogFile} in place to DuckLake format {@code target}, in one transaction.
     *
     * @return the catalog's format before (equal to {@code target}: nothing was changed)
     * @throws FdlException (exit 2, usage) for a target fdl cannot write or a downgrade; (exit 1) for
     *     a catalog fdl cannot read; nothing is changed in either case
     */
    public static String upgrade(Path catalogFile, String target) {
        if (!targets().contains(target)) {
            throw FdlException.usage("unknown DuckLake format '" + target + "': fdl writes " + String.join(" or ", targets()));
        }
        try (CatalogInspector catalog = CatalogInspector.open(catalogFile, false)) {
            String from = catalog.formatVersion();
            if (from.equals(target)) return from;
            if (rank(from) > rank(target)) {
                throw FdlException.usage("catalog " + catalogFile + " has DuckLake format " + from
                        + "; moving it to " + target + " would be a downgrade, which DuckLake does not have");
            }
            Connection c = catalog.connection();
            try {
                Sql.inTransaction(c, () -> {
                    apply(catalog, c, target);
                    return null;
                });
            } catch (SQLException e) {
                throw Sql.failure("upgrading the DuckLake format of", catalogFile, e);
            }
            return from;
        }
    }

    private static int rank(String format) {
        return DuckLakeSchema.KNOWN_FORMATS.indexOf(format);
    }

    private static void apply(CatalogInspector catalog, Connection c, String target) throws SQLException {
        boolean sqlite = catalog.kind() == CatalogKind.SQLITE;
        for (DuckLakeSchema.TableDef def : DuckLakeSchema.tables(target)) {
            if (!catalog.tableNames().contains(def.name())) {
                Sql.exec(c, sqlite ? def.sqliteDdl(false) : def.duckDbDdl(""));
                continue;
            }
            List<String> have = catalog.columns(def.name());
            for (DuckLakeSchema.ColumnDef col : def.columns()) {
                if (have.contains(col.name())) continue;
                String type = sqlite ? DuckLakeSchema.sqliteType(col.duckType()) : col.duckType();
                Sql.exec(c, "ALTER TABLE " + SqlQuote.ident(def.name()) + " ADD COLUMN " + SqlQuote.ident(col.name()) + " " + type);
            }
        }
        List<long[]> registered = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT table_id, table_name, schema_version FROM ducklake_inlined_data_tables");
             ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                registered.add(new long[] {r.getLong(1), r.getLong(3)});
                names.add(r.getString(2));
            }
        }
        for (int i = 0; i < names.size(); i++) {
            String table = names.get(i);
            if (catalog.tableNames().contains(table)) renameSystemColumns(catalog, c, table);
            addMissingSchemaVersion(c, registered.get(i)[0], registered.get(i)[1]);
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE ducklake_metadata SET value = ? WHERE key = 'version' AND scope IS NULL")) {
            ps.setString(1, target);
            ps.executeUpdate();
        }
    }

    private static void renameSystemColumns(CatalogInspector catalog, Connection c, String table) throws SQLException {
        List<String> columns = catalog.columns(table);
        DuckLakeSchema.InlinedColumns spelling = DuckLakeSchema.inlinedColumns(columns);
        if (spelling == DuckLakeSchema.INLINED_1_1) return;
        if (spelling == null) {
            throw new FdlException("inlined-data table " + table + " in " + catalog.file()
                    + " does not start with row_id, begin_snapshot, end_snapshot; the catalog looks corrupt");
        }
        for (String name : DuckLakeSchema.INLINED_1_1.names()) {
            if (columns.contains(name)) {
                throw new FdlException("cannot upgrade " + catalog.file() + ": inlined-data table " + table
                        + " already has a column named " + name + ", the name DuckLake 1.1 gives a system column");
            }
        }
        List<String> from = DuckLakeSchema.INLINED_1_0.names();
        List<String> to = DuckLakeSchema.INLINED_1_1.names();
        for (int i = 0; i < 3; i++) {
            Sql.exec(c, "ALTER TABLE " + SqlQuote.ident(table) + " RENAME COLUMN " + SqlQuote.ident(from.get(i))
                    + " TO " + SqlQuote.ident(to.get(i)));
        }
    }

    /**
     * The extension's repair: an inlined-data table's schema version without a
     * {@code ducklake_schema_versions} row gets one, beginning at the first snapshot with that
     * schema version (what fdl's readers assume when the row is missing, {@link dev.fdl.ducklake.catalog.ColumnTypes}).
     */
    private static void addMissingSchemaVersion(Connection c, long tableId, long schemaVersion) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ducklake_schema_versions (begin_snapshot, schema_version, table_id)"
                + " SELECT min(snapshot_id), ?, ? FROM ducklake_snapshot WHERE schema_version = ?"
                + " AND NOT EXISTS (SELECT 1 FROM ducklake_schema_versions WHERE table_id = ? AND schema_version = ?)"
                + " HAVING min(snapshot_id) IS NOT NULL")) {
            ps.setLong(1, schemaVersion);
            ps.setLong(2, tableId);
            ps.setLong(3, schemaVersion);
            ps.setLong(4, tableId);
            ps.setLong(5, schemaVersion);
            ps.executeUpdate();
        }
    }
}
