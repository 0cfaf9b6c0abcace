package dev.fdl.history;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.ReadOnlySql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The {@code --where} of {@code fdl blame} and {@code fdl log --table}: one read-only SQL expression over
 * a table's columns. The statement it makes must pass {@link ReadOnlySql} (the gate of
 * {@code fdl query}: nothing writes, attaches or sets) and bind on DuckDB; anything else is a usage
 * error naming the expression.
 */
final class RowFilter {
    private RowFilter() {}

    /**
     * {@code rows} filtered by {@code where}.
     *
     * @throws FdlException usage error (exit 2) when {@code where} is not one read-only expression over the columns of {@code rows}
     */
    static String apply(Connection duck, String rows, String where) {
        String filtered = "SELECT * FROM (" + rows + ") AS __fdl_rows WHERE (" + where + "\n)";
        try {
            ReadOnlySql.check(duck, filtered);
        } catch (FdlException e) {
            throw FdlException.usage("--where '" + where + "' is not one read-only SQL expression over the table's columns: "
                    + e.getMessage());
        }
        try (PreparedStatement ignored = duck.prepareStatement(filtered)) {
            return filtered;
        } catch (SQLException e) {
            throw FdlException.usage("--where '" + where + "' does not apply to the table: " + DuckDbErrors.firstLine(e));
        }
    }
}
