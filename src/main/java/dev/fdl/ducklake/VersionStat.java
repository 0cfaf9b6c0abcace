package dev.fdl.ducklake;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Row counts of a DuckLake catalog's tables from the catalog alone, without opening any data file
 * ({@code fdl log --stat}): the rows a reader sees at the newest snapshot (record counts of the
 * visible data files minus their visible delete files' and inlined deletes' counts, plus visible
 * inlined rows; DUCKLAKE.md "Data"), and how many of them were added from a given snapshot on.
 */
public final class VersionStat {
    private static final String ALIAS = "__fdl_stat";

    /** One table: rows at the newest snapshot, and rows added by data files and inlined rows that begin at or after {@code since}. */
    public record TableRows(String table, long rows, long added) {}

    private VersionStat() {}

    /**
     * @param catalog a DuckDB-file catalog
     * @param since   the first snapshot whose additions count as added
     * @return per visible table ({@code schema.table}), in catalog order
     * @throws FdlException failure when the file is not a readable catalog
     */
    public static List<TableRows> of(Path catalog, long since) {
        if (!Files.isRegularFile(catalog)) throw FdlException.notFound("catalog file " + catalog + " does not exist");
        try (Connection duck = DuckDbPool.connect()) {
            try (Statement st = duck.createStatement()) {
                st.execute("ATTACH " + SqlQuote.literal(catalog.toAbsolutePath().toString()) + " AS " + ALIAS + " (READ_ONLY)");
            }
            long s = single(duck, "SELECT max(snapshot_id) FROM " + t("ducklake_snapshot"));
            Set<String> tables = new HashSet<>();
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables() WHERE database_name = '" + ALIAS + "'")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            Map<Long, String> names = new LinkedHashMap<>();
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT t.table_id, s.schema_name || '.' || t.table_name FROM " + t("ducklake_table")
                         + " t JOIN " + t("ducklake_schema") + " s USING (schema_id) WHERE " + visible("t", s) + " AND "
                         + visible("s", s) + " ORDER BY t.table_id")) {
                while (rs.next()) names.put(rs.getLong(1), rs.getString(2));
            }
            List<TableRows> result = new ArrayList<>();
            for (Map.Entry<Long, String> e : names.entrySet()) {
                long id = e.getKey();
                String inlinedDeletes = "ducklake_inlined_delete_" + id;
                String deleted = "coalesce(d.delete_count, 0)" + (tables.contains(inlinedDeletes)
                        ? " + (SELECT count(*) FROM " + t(inlinedDeletes) + " i WHERE i.file_id = f.data_file_id AND i.begin_snapshot <= " + s + ")"
                        : "");
                String files = "SELECT f.begin_snapshot >= " + since + " AS new, f.record_count - (" + deleted + ") AS n FROM "
                        + t("ducklake_data_file") + " f LEFT JOIN " + t("ducklake_delete_file") + " d ON d.data_file_id = f.data_file_id AND "
                        + visible("d", s) + " WHERE f.table_id = " + id + " AND " + visible("f", s);
                List<String> parts = new ArrayList<>(List.of(files));
                try (PreparedStatement ps = duck.prepareStatement("SELECT table_name FROM " + t("ducklake_inlined_data_tables")
                        + " WHERE table_id = ?")) {
                    ps.setLong(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            String inlined = rs.getString(1);
                            if (!tables.contains(inlined)) continue;
                            // 1.0 and 1.1 spell the system columns differently (DUCKLAKE.md "DuckLake 1.1")
                            DuckLakeSchema.InlinedColumns system = DuckLakeSchema.inlinedColumns(Sql.duckDbColumns(duck, ALIAS, inlined));
                            if (system == null) throw new FdlException("inlined-data table " + inlined + " in " + catalog
                                    + " does not start with DuckLake's system columns; the catalog looks corrupt");
                            String begin = "i." + SqlQuote.ident(system.begin());
                            parts.add("SELECT " + begin + " >= " + since + ", count(*) FROM " + t(inlined) + " i WHERE "
                                    + Visibility.at("i", SqlQuote.ident(system.begin()), SqlQuote.ident(system.end()), Long.toString(s))
                                    + " GROUP BY 1");
                        }
                    }
                } catch (SQLException ignored) {
                    // a catalog without inlined data tables
                }
                try (Statement st = duck.createStatement();
                     ResultSet rs = st.executeQuery("SELECT coalesce(sum(n), 0), coalesce(sum(n) FILTER (WHERE new), 0) FROM ("
                             + String.join(" UNION ALL ", parts) + ") AS x(new, n)")) {
                    rs.next();
                    result.add(new TableRows(e.getValue(), rs.getLong(1), rs.getLong(2)));
                }
            }
            return result;
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog " + catalog + ": " + CatalogReader.firstLine(e), e);
        }
    }

    private static String t(String table) {
        return ALIAS + ".main." + SqlQuote.ident(table);
    }

    /** DuckLake's one visibility rule ({@link Visibility}), parenthesised. */
    private static String visible(String alias, long s) {
        return "(" + Visibility.at(alias, s) + ")";
    }

    private static long single(Connection duck, String sql) throws SQLException {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
