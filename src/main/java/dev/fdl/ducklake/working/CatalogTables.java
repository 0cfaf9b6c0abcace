package dev.fdl.ducklake.working;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQL {@link CatalogMatch} runs on the working catalog's connection, which has the source
 * catalog attached as {@code source}: catalog tables read as whole rows ({@link CatalogRow}), rows
 * inserted and updated, and the columns each catalog declares (both must declare them alike: the
 * same DuckLake format).
 */
final class CatalogTables {
    private final Connection conn;
    private final String source;
    private final Map<String, List<String>> columnCache = new HashMap<>();


    CatalogTables(Connection conn, String source) {
        this.conn = conn;
        this.source = source;
    }

    boolean exists(String db, String table) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM " + db + ".sqlite_master WHERE type = 'table' AND name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    /** The columns of catalog table {@code table}, which both catalogs must declare alike (same DuckLake format). */
    List<String> columns(String table) throws SQLException {
        List<String> c = columnCache.get(table);
        if (c != null) return c;
        List<String> w = columns("main", table), v = columns(source, table);
        if (!w.equals(v))
            throw new FdlException("cannot restore: the catalogs' " + table + " tables have different columns (" + w + " here, " + v
                    + " in the version); nothing was changed");
        columnCache.put(table, w);
        return w;
    }

    List<String> columns(String db, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        for (Sql.SqliteColumn c : Sql.sqliteTableInfo(conn, db, table)) out.add(c.name());
        return out;
    }

    String columnDecl(String db, String table) throws SQLException {
        StringBuilder sb = new StringBuilder();
        for (Sql.SqliteColumn c : Sql.sqliteTableInfo(conn, db, table)) sb.append(c.name()).append(' ').append(c.declaredType()).append(',');
        return sb.toString();
    }

    boolean createLike(String sourceTable, String target) throws SQLException {
        String sql = one("SELECT sql FROM " + source + ".sqlite_master WHERE type = 'table' AND name = " + SqlQuote.literal(sourceTable));
        int open = sql.indexOf('(');
        update("CREATE TABLE main." + SqlQuote.ident(target) + " " + sql.substring(open));
        return true;
    }

    List<CatalogRow> rows(String db, String table, String where) throws SQLException {
        List<CatalogRow> out = new ArrayList<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT rowid AS \"__rowid\", * FROM " + db + "." + SqlQuote.ident(table) + " WHERE " + where)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                CatalogRow r = new CatalogRow();
                r.rowid = rs.getLong(1);
                for (int i = 2; i <= n; i++) r.values.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
                out.add(r);
            }
        }
        return out;
    }

    void insert(String table, List<String> cols, Map<String, Object> values) throws SQLException {
        List<String> q = new ArrayList<>();
        for (String c : cols) q.add(SqlQuote.ident(c));
        String marks = String.join(", ", java.util.Collections.nCopies(cols.size(), "?"));
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table + " (" + String.join(", ", q) + ") VALUES (" + marks + ")")) {
            for (int i = 0; i < cols.size(); i++) ps.setObject(i + 1, values.get(cols.get(i)));
            ps.executeUpdate();
        }
    }

    void update(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            ps.executeUpdate();
        }
    }

    int updateCount(String sql) throws SQLException {
        try (Statement st = conn.createStatement()) {
            return st.executeUpdate(sql);
        }
    }

    String one(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
