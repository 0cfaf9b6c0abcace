package dev.fdl.ducklake.working;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.catalog.WholeRows;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two catalogs {@link CatalogMatch} works on, on the working catalog's connection: the working
 * catalog ({@code main}) and the source catalog attached to it, each read through the one metadata
 * model ({@link MetadataQueries} with its {@link WholeRows}) and named by its database,
 * {@code main} or the source's alias; and the working catalog's rows inserted and updated (catalog
 * tables created like the source's, rows inserted whole). Both catalogs must declare each catalog
 * table's columns alike (the same DuckLake format).
 */
final class CatalogTables {
    static final String WORKING = "main";

    private final Connection conn;
    private final String source;
    private final MetadataQueries workingModel;
    private final MetadataQueries sourceModel;
    private final WholeRows workingRows;
    private final WholeRows sourceRows;
    /** Tables of the working catalog created here: the model's table list is read once, before. */
    private final Set<String> created = new HashSet<>();
    private final Map<String, List<String>> columnCache = new HashMap<>();

    /**
     * @param source       the alias the source catalog is attached as
     * @param workingFile  names the working catalog in messages
     * @param sourceFile   names the source catalog in messages
     * @throws dev.fdl.FdlException as {@link MetadataQueries#sqlite} when either is no DuckLake catalog fdl reads
     */
    CatalogTables(Connection conn, String source, String workingFile, String sourceFile) throws SQLException {
        this.conn = conn;
        this.source = source;
        this.workingModel = MetadataQueries.sqlite(conn, WORKING, workingFile);
        this.sourceModel = MetadataQueries.sqlite(conn, source, sourceFile);
        this.workingRows = workingModel.wholeRows();
        this.sourceRows = sourceModel.wholeRows();
    }

    /** The model of catalog {@code db}: {@link #WORKING}, or the source's alias. */
    MetadataQueries model(String db) {
        return db.equals(WORKING) ? workingModel : sourceModel;
    }

    private WholeRows wholeRows(String db) {
        return db.equals(WORKING) ? workingRows : sourceRows;
    }

    /** The source's catalog tables as SQL names them, for the writes that copy rows from it in bulk. */
    String sourceTable(String table) {
        return sourceModel.qualifier() + SqlQuote.ident(table);
    }

    boolean exists(String db, String table) {
        return model(db).tableNames().contains(table) || db.equals(WORKING) && created.contains(table);
    }

    /** The columns of catalog table {@code table}, which both catalogs must declare alike (same DuckLake format). */
    List<String> columns(String table) throws SQLException {
        List<String> c = columnCache.get(table);
        if (c != null) return c;
        List<String> w = columns(WORKING, table), v = columns(source, table);
        if (!w.equals(v))
            throw new FdlException("cannot restore: the catalogs' " + table + " tables have different columns (" + w + " here, " + v
                    + " in the version); nothing was changed");
        columnCache.put(table, w);
        return w;
    }

    List<String> columns(String db, String table) throws SQLException {
        return model(db).columns(table);
    }

    List<String> declaredColumns(String db, String table) throws SQLException {
        return wholeRows(db).declaredColumns(table);
    }

    /** Rows of {@code table} in {@code db} visible at {@code snapshot} (null: every row of every snapshot). */
    List<CatalogRow> rows(String db, String table, Long snapshot) throws SQLException {
        return copies(wholeRows(db).visible(table, snapshot));
    }

    /** Rows of {@code table} in {@code db}, of any snapshot, whose {@code column} is {@code value}. */
    List<CatalogRow> rows(String db, String table, String column, Object value) throws SQLException {
        return copies(wholeRows(db).where(table, column, value));
    }

    long count(String db, String table, Long snapshot) throws SQLException {
        return wholeRows(db).count(table, snapshot);
    }

    /** The rowid of a row of the working catalog visible at {@code snapshot} with {@code values} ({@link WholeRows#rowidOf}), or null. */
    Long workingRowid(String table, long snapshot, Map<String, Object> values) throws SQLException {
        return workingRows.rowidOf(table, snapshot, values);
    }

    List<WholeRows.InlinedDelete> inlinedDeletes(String db, long tableId, Long snapshot) throws SQLException {
        return wholeRows(db).inlinedDeletes(tableId, snapshot);
    }

    private static List<CatalogRow> copies(List<WholeRows.Row> rows) {
        List<CatalogRow> out = new ArrayList<>(rows.size());
        for (WholeRows.Row r : rows) out.add(CatalogRow.of(r));
        return out;
    }

    /** Creates table {@code target} in the working catalog with the columns of the source's {@code sourceTable}. */
    boolean createLike(String sourceTable, String target) throws SQLException {
        update("CREATE TABLE " + WORKING + "." + SqlQuote.ident(target) + " " + sourceRows.columnDefinitions(sourceTable));
        created.add(target);
        return true;
    }

    void insert(String table, List<String> cols, Map<String, Object> values) throws SQLException {
        List<String> q = new ArrayList<>();
        for (String c : cols) q.add(SqlQuote.ident(c));
        String marks = String.join(", ", Collections.nCopies(cols.size(), "?"));
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
}
