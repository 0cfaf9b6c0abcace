package dev.fdl.data;

import dev.fdl.FdlException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The gate of {@code fdl query}: only SELECT-shaped statements (SELECT, FROM-first, WITH,
 * DESCRIBE, SHOW) pass. DuckDB's own parser decides: {@code json_serialize_sql} serializes
 * SELECT statements only and reports an error for anything else (COPY, ATTACH, CREATE, …).
 */
public final class ReadOnlySql {
    private ReadOnlySql() {}

    /**
     * @throws FdlException usage error (exit 2) when {@code sql} is not read-only or does not parse
     */
    public static void check(Connection duck, String sql) {
        try (PreparedStatement ps = duck.prepareStatement("SELECT json_extract_string(j, '$.error_message'), "
                + "CAST(json_extract(j, '$.error') AS BOOLEAN) FROM (SELECT json_serialize_sql(?::VARCHAR) AS j)")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getBoolean(2)) {
                    String msg = rs.getString(1) == null ? "" : rs.getString(1);
                    if (msg.startsWith("Only SELECT"))
                        throw FdlException.usage("fdl query runs read-only queries (SELECT, WITH, FROM, DESCRIBE, SHOW); "
                                + "to change data, use a working copy: fdl import or fdl sql");
                    throw FdlException.usage("invalid SQL: " + msg);
                }
            }
        } catch (SQLException e) {
            throw new FdlException("cannot check the query: " + e.getMessage());
        }
    }
}
