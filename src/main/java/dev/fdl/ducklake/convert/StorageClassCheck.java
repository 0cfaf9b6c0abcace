package dev.fdl.ducklake.convert;

import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Finds values a SQLite catalog holds in a storage class its column's type cannot take. SQLite
 * types values, not columns: a BIGINT column may hold the REAL 1.5 or the TEXT {@code '0x10'},
 * which DuckDB would silently turn into 2 or 16 (and JDBC's {@code getLong} into 1 or 0); DuckDB's
 * sqlite extension refuses them ("Mismatch Type Error"), and so does conversion. Expected: BIGINT
 * columns hold integers, DOUBLE columns reals (or integers), VARCHAR columns anything but a BLOB;
 * BLOB columns anything; NULL fits every column.
 */
final class StorageClassCheck {
    private StorageClassCheck() {}

    /** The SQLite storage classes (as {@code typeof} names them) a column of this SQLite type may hold; null: any. */
    private static String allowed(String sqliteType) {
        return switch (sqliteType) {
            case "BIGINT" -> "('integer', 'null')";
            case "DOUBLE" -> "('real', 'integer', 'null')";
            // (a column of another declared type, NUMERIC say, in a table fdl does not know may hold numbers)
            case "VARCHAR" -> "('text', 'integer', 'real', 'null')";
            default -> null;
        };
    }

    /** A SQLite condition true where the value of {@code column} fits its type (null if every value fits). */
    static String fits(DuckLakeSchema.ColumnDef column) {
        String allowed = allowed(column.sqliteType());
        return allowed == null ? null : "typeof(" + SqlQuote.ident(column.name()) + ") IN " + allowed;
    }

    /**
     * Looks for the first value of {@code table} that does not fit its column (see {@link #fits})
     * and describes it, naming the table, column, rowid and value.
     *
     * @return the failure to report, or null if every value fits
     */
    static SQLException firstMismatch(Connection lite, String table, List<DuckLakeSchema.ColumnDef> columns) {
        String alias = rowidAlias(columns);
        SQLException found = alias == null ? null : firstMismatch(lite, table, columns, alias);
        // a WITHOUT ROWID table has no rowid: then the row is not named
        return found != null ? found : firstMismatch(lite, table, columns, "NULL");
    }

    /**
     * A name of the table's rowid that no column shadows ({@code rowid}, {@code _rowid_} or
     * {@code oid}: SQLite lets a column take each of them), or null if columns take all three.
     */
    static String rowidAlias(List<DuckLakeSchema.ColumnDef> columns) {
        for (String alias : List.of("rowid", "_rowid_", "oid")) {
            if (columns.stream().noneMatch(c -> Identifiers.same(c.name(), alias))) {
                return alias;
            }
        }
        return null;
    }

    private static SQLException firstMismatch(Connection lite, String table, List<DuckLakeSchema.ColumnDef> columns, String rowid) {
        StringBuilder where = new StringBuilder();
        StringBuilder select = new StringBuilder("SELECT ").append(rowid);
        for (DuckLakeSchema.ColumnDef c : columns) {
            String fits = fits(c);
            if (fits != null) {
                where.append(where.length() > 0 ? " OR " : "").append("NOT (").append(fits).append(')');
            }
            String ident = SqlQuote.ident(c.name());
            select.append(", typeof(").append(ident).append("), substr(quote(").append(ident).append("), 1, 100)");
        }
        if (where.length() == 0) {
            return null;
        }
        select.append(" FROM ").append(SqlQuote.ident(table)).append(" WHERE ").append(where).append(" LIMIT 1");
        try (PreparedStatement ps = lite.prepareStatement(select.toString()); ResultSet r = ps.executeQuery()) {
            if (!r.next()) {
                return null;
            }
            String row = r.getString(1) == null ? "a row" : "the row with rowid " + r.getString(1);
            for (int i = 0; i < columns.size(); i++) {
                DuckLakeSchema.ColumnDef c = columns.get(i);
                String type = r.getString(2 + 2 * i);
                String allowed = allowed(c.sqliteType());
                if (allowed != null && !allowed.contains("'" + type + "'")) {
                    return new SQLException("table " + table + ", " + row + ": column " + c.name() + " is declared " + c.sqliteType()
                            + " but holds the " + type + " value " + r.getString(3 + 2 * i)
                            + "; fix or delete that value in the SQLite catalog");
                }
            }
            return null;
        } catch (SQLException e) {
            return null; // (no rowid) the caller reports its own failure
        }
    }
}
