package dev.fdl.ducklake.catalog;

import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.Visibility;

/**
 * A catalog's tables read whole, as they are stored: every column of a row by name, for a caller
 * that copies rows from one catalog into another ({@link dev.fdl.ducklake.working.CatalogMatch})
 * and so carries columns it does not name. Part of the one model, made by
 * {@link MetadataQueries#wholeRows()}: its qualifier names the catalog (two SQLite catalogs
 * attached to one connection are read apart), visibility is {@link Visibility}'s rule. The table
 * read must exist ({@link MetadataQueries#tableNames()}): an absent one is an SQL error.
 */
public final class WholeRows {
    /**
     * A catalog table's row.
     *
     * @param rowid  its rowid (SQLite's; DuckDB's pseudo-column): the row's address in an update
     * @param values every column by name, in declaration order, as the driver reads it (null kept); an
     *               unmodifiable view of the map given (rows are read by the thousand: not copied again)
     */
    public record Row(long rowid, Map<String, Object> values) {
        public Row {
            values = Collections.unmodifiableMap(values);
        }
    }

    /** An inlined delete ({@code ducklake_inlined_delete_<table id>}): row {@code rowId} of data file {@code fileId} is deleted. */
    public record InlinedDelete(long fileId, long rowId) {}

    private final MetadataQueries model;
    private final Connection conn;

    WholeRows(MetadataQueries model) {
        this.model = model;
        this.conn = model.connection();
    }

    /** The rows of catalog table {@code table} visible at {@code snapshot} (null: every row of every snapshot). */
    public List<Row> visible(String table, Long snapshot) throws SQLException {
        return read("SELECT x.rowid AS \"__rowid\", x.*" + model.visibleFrom(table, "x", null, snapshot));
    }

    /** The rows of catalog table {@code table}, of any snapshot, whose {@code column} equals {@code value} (SQL {@code =}; not null). */
    public List<Row> where(String table, String column, Object value) throws SQLException {
        Objects.requireNonNull(value, "value");
        return read("SELECT x.rowid AS \"__rowid\", x.* FROM " + model.t(table) + " x WHERE x." + SqlQuote.ident(column) + " = ?", value);
    }

    /** How many rows of catalog table {@code table} are visible at {@code snapshot} (null: rows of every snapshot). */
    public long count(String table, Long snapshot) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*)" + model.visibleFrom(table, "x", null, snapshot));
             ResultSet r = ps.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * The rowid of a row of {@code table} visible at {@code snapshot} whose every column of
     * {@code values} but {@code begin_snapshot}/{@code end_snapshot} holds that value (SQL
     * {@code IS}: null matches null, values compared as the column's type affinity says), or null
     * when none does.
     */
    public Long rowidOf(String table, long snapshot, Map<String, Object> values) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT rowid FROM " + model.t(table) + " WHERE" + Visibility.at(snapshot));
        List<Object> args = new ArrayList<>();
        for (Map.Entry<String, Object> c : values.entrySet()) {
            if (c.getKey().equals("begin_snapshot") || c.getKey().equals("end_snapshot")) continue;
            sql.append(" AND ").append(SqlQuote.ident(c.getKey())).append(" IS ?");
            args.add(c.getValue());
        }
        try (PreparedStatement ps = conn.prepareStatement(sql + " LIMIT 1")) {
            for (int i = 0; i < args.size(); i++) ps.setObject(i + 1, args.get(i));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /**
     * The inlined deletes of table {@code tableId} made by {@code snapshot} (null: all; they have no
     * end: a deletion, once made, stays), none when the table has no inlined-delete table.
     */
    public List<InlinedDelete> inlinedDeletes(long tableId, Long snapshot) throws SQLException {
        String table = model.inlinedDeleteTable(tableId);
        List<InlinedDelete> out = new ArrayList<>();
        if (table == null) return out;
        try (PreparedStatement ps = conn.prepareStatement("SELECT file_id, row_id FROM " + model.t(table)
                + (snapshot == null ? "" : " WHERE begin_snapshot <= " + snapshot)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(new InlinedDelete(rs.getLong(1), rs.getLong(2)));
        }
        return out;
    }

    /**
     * Each column of a table of a SQLite catalog with its declared type ({@code name type}), in
     * order: two tables whose lists are equal hold the same columns alike.
     *
     * @throws IllegalStateException on a DuckDB catalog
     */
    public List<String> declaredColumns(String table) throws SQLException {
        requireSqlite();
        List<String> out = new ArrayList<>();
        for (Sql.SqliteColumn c : Sql.sqliteTableInfo(conn, model.sqliteDatabase(), table)) out.add(c.name() + " " + c.declaredType());
        return out;
    }

    /**
     * The column definitions of a table of a SQLite catalog as its {@code CREATE TABLE} states them,
     * from the opening parenthesis on: {@code CREATE TABLE other} followed by them makes a table
     * like it.
     *
     * @throws IllegalStateException on a DuckDB catalog
     */
    public String columnDefinitions(String table) throws SQLException {
        requireSqlite();
        String db = model.sqliteDatabase();
        try (PreparedStatement ps = conn.prepareStatement("SELECT sql FROM " + (db == null ? "" : SqlQuote.ident(db) + ".")
                + "sqlite_master WHERE type = 'table' AND name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SQLException("no table " + table + " in " + model.file());
                String sql = rs.getString(1);
                return sql.substring(sql.indexOf('('));
            }
        }
    }

    private void requireSqlite() {
        if (!model.isSqlite()) throw new IllegalStateException("a table's declared columns are read from SQLite catalogs only; " + model.file() + " is read through DuckDB");
    }

    private List<Row> read(String sql, Object... args) throws SQLException {
        List<Row> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                String[] names = new String[meta.getColumnCount() + 1];
                for (int i = 2; i < names.length; i++) names[i] = meta.getColumnName(i);
                while (rs.next()) {
                    Map<String, Object> values = new LinkedHashMap<>(2 * names.length);
                    for (int i = 2; i < names.length; i++) values.put(names[i], rs.getObject(i));
                    out.add(new Row(rs.getLong(1), values));
                }
            }
        }
        return out;
    }
}
