package dev.fdl.ducklake.engine;

import dev.fdl.FdlException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The gate of {@code fdl query}: exactly one SELECT-shaped statement (SELECT, FROM-first, WITH,
 * VALUES, DESCRIBE, SHOW, SUMMARIZE, or EXPLAIN of one of these) passes. DuckDB's own parser
 * decides: {@code json_serialize_sql} serializes SELECT statements only and reports an error for
 * anything else (COPY, ATTACH, CREATE, SET, …), so nothing a query runs writes a file, changes a
 * setting or attaches a database.
 */
public final class ReadOnlySql {
    private ReadOnlySql() {}

    /**
     * @throws FdlException usage error (exit 2) when {@code sql} is not one read-only statement or does not parse
     */
    public static void check(Connection duck, String sql) {
        String body = body(sql);
        try (PreparedStatement ps = duck.prepareStatement("SELECT json_extract_string(j, '$.error_message'), "
                + "CAST(json_extract(j, '$.error') AS BOOLEAN), json_array_length(json_extract(j, '$.statements')) "
                + "FROM (SELECT json_serialize_sql(?::VARCHAR) AS j)")) {
            ps.setString(1, body);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getBoolean(2)) {
                    String msg = rs.getString(1) == null ? "" : rs.getString(1);
                    if (msg.startsWith("Only SELECT"))
                        throw FdlException.usage("fdl query runs read-only queries (SELECT, WITH, FROM, DESCRIBE, SHOW, "
                                + "EXPLAIN); to change data, use a working copy: fdl import or fdl sql");
                    throw FdlException.usage("invalid SQL: " + msg);
                }
                long statements = rs.getLong(3);
                if (statements != 1) {
                    throw FdlException.usage("fdl query runs one statement at a time; got " + statements);
                }
            }
        } catch (SQLException e) {
            throw new FdlException("cannot check the query: " + e.getMessage());
        }
    }

    /** Whether {@code sql} is exactly one read-only statement, as {@link #check} decides, without throwing. */
    public static boolean isOne(Connection duck, String sql) {
        try {
            check(duck, sql);
            return true;
        } catch (FdlException e) {
            return false;
        }
    }

    /** The statement {@code sql} runs: without a leading {@code EXPLAIN [ANALYZE]}, which json_serialize_sql does not take. */
    static String body(String sql) {
        String body = sql.strip();
        if (body.regionMatches(true, 0, "EXPLAIN", 0, 7)) {
            body = body.substring(7).strip();
            if (body.regionMatches(true, 0, "ANALYZE", 0, 7)) body = body.substring(7).strip();
        }
        return body;
    }
}
