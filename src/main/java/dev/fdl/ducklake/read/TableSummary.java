package dev.fdl.ducklake.read;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.util.Json;
import dev.fdl.util.Sha256;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a site shows of each table of a catalog's newest snapshot without the DuckLake extension:
 * the first rows (as {@code fdl query "SELECT * FROM t"} returns them) and per column the null
 * count, an approximate distinct count, the minimum and the maximum over the snapshot's rows.
 *
 * <p>The statistics are combined from per-<em>unit</em> statistics. A unit is one visible data file
 * with its visible delete file, if any (DUCKLAKE.md "Data"): both are immutable (new UUIDv7 names
 * for every write) and shared by every later snapshot that still sees them, so a unit's statistics
 * are computed once and kept in a {@link Store} under a key naming both files and the columns read.
 * A unit without a delete file takes its null counts, minima and maxima from the catalog's
 * {@code ducklake_file_column_stats} where that row is there and its text is DuckDB's text of the
 * value (the DuckLake spec's per-file statistics; not for BOOLEAN, BLOB, HUGEINT, UHUGEINT,
 * INTERVAL, JSON or nested types, whose stored text differs or is left empty); a file with a delete
 * file is read with its deletes applied, so its numbers are exact (the catalog's are over the whole
 * file: upper bounds once rows are deleted). {@code ducklake_table_column_stats} is not used: it
 * holds only bounds over every row ever inserted and whether a null was, never a null count.
 * Inlined rows, and every row of a table with inlined deletes, are read again for each snapshot
 * (they are in the catalog, which changes with every version).
 *
 * <p>Distinct counts: a single unit's is DuckDB's {@code approx_count_distinct} (HyperLogLog);
 * several units are combined through a HyperLogLog sketch of 2<sup>10</sup> registers over
 * DuckDB's {@code hash(hash(value))} (standard error about 3%, exact-ish by linear counting below
 * a few hundred values). Either way approximate.
 */
public final class TableSummary {
    /** Bumped when what a unit's statistics hold or how they are computed changes: old entries are then not found. */
    static final String RULE = "unit-stats 1";
    private static final int P = 10;
    private static final int M = 1 << P;

    /** One column's statistics; min and max as DuckDB's text of the value, null when the column holds no value. */
    public record ColumnStats(String column, String type, long nulls, long distinct, String min, String max) {}

    /**
     * One table: its columns and types, its first rows (each value as {@code fdl query} prints it;
     * null for NULL), its row count and its columns' statistics (null: could not be computed).
     */
    public record Table(String name, List<String> columns, List<String> types, List<List<String>> rows, long rowCount,
                        List<ColumnStats> stats, List<RowOrigin> origins) {
        /** A table whose rows' origins are not known. */
        public Table(String name, List<String> columns, List<String> types, List<List<String>> rows, long rowCount, List<ColumnStats> stats) {
            this(name, columns, types, rows, rowCount, stats, List.of());
        }
    }

    /**
     * Where a first row began: the begin snapshot of its data file or inlined row, and its data
     * file's location relative to the data path (null for an inlined row), which is what
     * {@code history.SnapshotOwners} maps to the version that added or last changed the row.
     */
    public record RowOrigin(long beginSnapshot, String dataFile) {}

    /** The first rows, and per row where it began (aligned with the rows). */
    private record FirstRows(List<List<String>> rows, List<RowOrigin> origins) {}

    /** Where units' statistics are kept between runs; keys are SHA-256 hex, values small JSON documents. */
    public interface Store {
        /** The value stored under {@code key}, or null. */
        byte[] get(String key);

        /** Stores {@code value} under {@code key}; a failure to store is not an error (the value is computed again next time). */
        void put(String key, byte[] value);
    }

    /** Makes the data files named (relative to the data path) readable under the local data folder; for a remote repository. */
    public interface Fetcher {
        void fetch(List<String> relativePaths);
    }

    /** A unit's statistics as stored: rows, first rows, and per column id nulls, min, max, distinct and HyperLogLog registers. */
    record UnitStats(long rows, List<List<String>> first, Map<Long, Col> columns) {}

    /** One column of a unit; {@code hll} the registers in base64. */
    record Col(long nulls, String min, String max, long distinct, String hll) {}

    /** A catalog's tables, and their row counts as {@link CatalogStat} gives them (null when not asked for). */
    public record Summary(List<Table> tables, List<CatalogStat.TableRows> rows) {}

    private TableSummary() {}

    /**
     * Reads every table of the newest snapshot of {@code catalog}.
     *
     * @param dataPath local folder holding the data files (ending in {@code /}); for a remote
     *                 repository the mirror folder, filled through {@code fetcher}
     * @param fetcher  null when {@code dataPath} already holds every file; else called with the
     *                 files a computation is about to read (those whose statistics are not stored)
     * @param store    units' statistics kept between runs
     * @param rows     first rows to return per table
     * @param since     when not null, also {@link CatalogStat#of(Path, long)}'s row counts from this snapshot, on the same open catalog
     * @throws FdlException when the catalog cannot be read or a data file is missing
     */
    public static Summary read(DuckDbPool pool, Path catalog, String dataPath, Fetcher fetcher, Store store, int rows, Long since) {
        if (!Files.isRegularFile(catalog)) throw FdlException.notFound("catalog file " + catalog + " does not exist");
        String base = DuckLakePaths.dataPath(dataPath);
        try (Connection conn = pool.connection()) {
            try (Statement st = conn.createStatement()) {
                st.execute(Sql.SET_UTC);
            }
            Sql.attach(conn, catalog, MetadataQueries.CATALOG_ALIAS, true);
            SnapshotView view = SnapshotView.loadRelative(conn, MetadataQueries.CATALOG_ALIAS, catalog.toString(), null);
            Map<Long, Map<Long, String[]>> fileStats = catalogFileStats(conn);
            List<Table> out = new ArrayList<>();
            for (SnapshotView.TableEntry t : view.tables()) {
                out.add(new Reading(conn, view, base, fetcher, store, rows).table(t, fileStats));
            }
            return new Summary(out, since == null ? null : CatalogStat.of(view.model(), since));
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog " + catalog + ": " + DuckDbErrors.firstLine(e), e);
        }
    }

    /** {@code ducklake_file_column_stats} by data file id, column id: null count, min, max, contains_nan (text); empty when the table is absent. */
    private static Map<Long, Map<Long, String[]>> catalogFileStats(Connection conn) throws SQLException {
        Map<Long, Map<Long, String[]>> out = new HashMap<>();
        if (!Sql.duckDbTables(conn, MetadataQueries.CATALOG_ALIAS).contains("ducklake_file_column_stats")) return out;
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT data_file_id, column_id, CAST(null_count AS VARCHAR), min_value, max_value, CAST(contains_nan AS VARCHAR) FROM "
                        + SqlQuote.ident(MetadataQueries.CATALOG_ALIAS) + ".main.ducklake_file_column_stats")) {
            while (rs.next())
                out.computeIfAbsent(rs.getLong(1), k -> new HashMap<>())
                        .put(rs.getLong(2), new String[]{rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)});
        }
        return out;
    }

    /** One table's reading on the open connection. */
    private record Reading(Connection conn, SnapshotView view, String base, Fetcher fetcher, Store store, int limit) {

        Table table(SnapshotView.TableEntry relative, Map<Long, Map<Long, String[]>> fileStats) throws SQLException {
            SnapshotView.TableEntry t = absolute(relative);
            String name = t.schema() + "." + t.name();
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (SnapshotView.ColumnEntry c : t.columns()) {
                names.add(c.name());
                types.add(c.duckType());
            }
            boolean inlinedDeletes = t.inlinedDeleteTable() != null && !t.dataFiles().isEmpty();
            List<UnitStats> units = new ArrayList<>();
            List<Boolean> plain = new ArrayList<>(); // a unit without deletes: its rows are the file's, in order
            if (!inlinedDeletes) {
                Map<Long, Integer> deletes = new HashMap<>();
                for (int i = 0; i < t.deleteFiles().size(); i++) deletes.put(t.deleteFiles().get(i).dataFileId(), i);
                for (int i = 0; i < t.dataFiles().size(); i++) {
                    SnapshotView.DataFileEntry f = t.dataFiles().get(i);
                    Integer d = deletes.get(f.id());
                    units.add(d == null ? unit(t, relative.dataFiles().get(i), f, null, fileStats.get(f.id()))
                            : unit(t, relative.dataFiles().get(i), f, new SnapshotView.DeleteFileEntry[]{relative.deleteFiles().get(d), t.deleteFiles().get(d)}, null));
                    plain.add(d == null);
                }
            }
            // the rest, read at every snapshot: inlined rows (and all rows when inlined deletes touch the files)
            SnapshotView.TableEntry rest = new SnapshotView.TableEntry(t.id(), t.schema(), t.name(), t.columns(),
                    inlinedDeletes ? t.dataFiles() : List.of(), inlinedDeletes ? t.deleteFiles() : List.of(), t.inlined(),
                    t.inlinedDeleteTable());
            if (inlinedDeletes || !t.inlined().isEmpty()) {
                if (inlinedDeletes) fetch(relative.dataFiles(), relative.deleteFiles());
                units.add(compute(rest, Map.of()));
                plain.add(false);
            }
            FirstRows first = firstRows(t, units, plain);
            long count = 0;
            for (UnitStats u : units) count += u.rows();
            List<ColumnStats> stats;
            try {
                stats = combine(t, units);
            } catch (SQLException e) {
                stats = null; // a type whose text DuckDB cannot cast back: no statistics, the preview stays
            }
            return new Table(name, names, types, first.rows(), count, stats, first.origins());
        }

        /** The table with data and delete file locations under the local data folder. */
        private SnapshotView.TableEntry absolute(SnapshotView.TableEntry t) {
            List<SnapshotView.DataFileEntry> files = new ArrayList<>();
            for (SnapshotView.DataFileEntry f : t.dataFiles())
                files.add(f.at(local(f.location())));
            List<SnapshotView.DeleteFileEntry> deletes = new ArrayList<>();
            for (SnapshotView.DeleteFileEntry d : t.deleteFiles()) deletes.add(new SnapshotView.DeleteFileEntry(d.dataFileId(), local(d.location())));
            return new SnapshotView.TableEntry(t.id(), t.schema(), t.name(), t.columns(), files, deletes, t.inlined(), t.inlinedDeleteTable());
        }

        private String local(String location) {
            if (location.startsWith("/") || DuckLakePaths.isRemote(location)) {
                if (fetcher != null)
                    throw new FdlException("the catalog names data file " + location + " outside its data path; "
                            + "the site reads only files of the repository's data folder");
                return location;
            }
            return base + location;
        }

        private void fetch(List<SnapshotView.DataFileEntry> files, List<SnapshotView.DeleteFileEntry> deletes) {
            if (fetcher == null) return;
            List<String> rel = new ArrayList<>();
            for (SnapshotView.DataFileEntry f : files) rel.add(f.location());
            for (SnapshotView.DeleteFileEntry d : deletes) rel.add(d.location());
            fetcher.fetch(rel);
        }

        /** One data file's unit: stored, or computed (catalog statistics first) and stored. */
        private UnitStats unit(SnapshotView.TableEntry t, SnapshotView.DataFileEntry relative, SnapshotView.DataFileEntry f,
                               SnapshotView.DeleteFileEntry[] d, Map<Long, String[]> catalogStats) throws SQLException {
            // d: the delete file relative to the data path and under the local folder, or null
            StringBuilder k = new StringBuilder(RULE).append('\n').append(relative.location()).append('\n');
            k.append(d == null ? "" : d[0].location()).append('\n').append(limit);
            for (SnapshotView.ColumnEntry c : t.columns())
                k.append('\n').append(c.id()).append('\t').append(c.name()).append('\t').append(c.duckType()).append('\t').append(c.initialDefault());
            String key = Sha256.of(k.toString().getBytes(StandardCharsets.UTF_8));
            byte[] stored = store.get(key);
            if (stored != null) {
                try {
                    UnitStats u = Json.MAPPER.readValue(stored, UnitStats.class);
                    if (complete(u, t.columns())) return u;
                } catch (IOException | IllegalArgumentException e) {
                    // unreadable (cut short by a crash): computed again below
                }
            }
            List<SnapshotView.DeleteFileEntry> deletes = d == null ? List.of() : List.of(d[1]);
            fetch(List.of(relative), d == null ? List.of() : List.of(d[0]));
            UnitStats u = compute(new SnapshotView.TableEntry(t.id(), t.schema(), t.name(), t.columns(), List.of(f), deletes, List.of(), null),
                    catalogStats == null ? Map.of() : catalogStats);
            try {
                store.put(key, Json.MAPPER.writeValueAsBytes(u));
            } catch (IOException e) {
                // not kept: computed again next time
            }
            return u;
        }

        /** Whether a stored entry holds every column with its sketch (an entry damaged by hand is computed again). */
        private static boolean complete(UnitStats u, List<SnapshotView.ColumnEntry> columns) {
            if (u == null || u.columns() == null || u.first() == null) return false;
            for (SnapshotView.ColumnEntry c : columns) {
                Col col = u.columns().get(c.id());
                if (col == null || col.hll() == null || Base64.getDecoder().decode(col.hll()).length != M) return false;
            }
            return true;
        }

        /**
         * Statistics of the rows {@code part} shows ({@link TableViewSql#select()}): one aggregate
         * scan (row count; nulls, min, max for columns the catalog has no usable statistics of;
         * approx_count_distinct), one for the HyperLogLog registers, and the first rows.
         */
        private UnitStats compute(SnapshotView.TableEntry part, Map<Long, String[]> catalogStats) throws SQLException {
            String select = new TableViewSql(view, part).select();
            List<SnapshotView.ColumnEntry> cols = part.columns();
            // a unit from the catalog's statistics is a single data file without deletes: its record count is its rows
            long recorded = catalogStats.isEmpty() ? -1 : part.dataFiles().get(0).recordCount();
            Map<Long, String[]> known = new HashMap<>();
            StringBuilder sql = new StringBuilder("SELECT count(*)");
            for (SnapshotView.ColumnEntry c : cols) {
                String col = SqlQuote.ident(c.name());
                String[] cat = catalogStats.get(c.id());
                String[] fromCatalog = cat == null || recorded < 0 ? null : fromCatalog(c.duckType(), cat, recorded);
                if (fromCatalog != null) {
                    known.put(c.id(), fromCatalog);
                    sql.append(", NULL, approx_count_distinct(").append(col).append("), NULL, NULL");
                    continue;
                }
                sql.append(", count(*) - count(").append(col).append("), approx_count_distinct(").append(col).append("), CAST(min(").append(col)
                        .append(") AS VARCHAR), CAST(max(").append(col).append(") AS VARCHAR)");
            }
            sql.append(" FROM (").append(select).append(')');
            Map<Long, Col> columns = new HashMap<>();
            long rows;
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
                rs.next();
                rows = rs.getLong(1);
                Map<Long, byte[]> hll = registers(select, cols);
                for (int i = 0; i < cols.size(); i++) {
                    SnapshotView.ColumnEntry c = cols.get(i);
                    int at = 2 + 4 * i;
                    long nulls = rs.getLong(at);
                    String min = rs.getString(at + 2), max = rs.getString(at + 3);
                    String[] fromCatalog = known.get(c.id());
                    if (fromCatalog != null) {
                        nulls = Long.parseLong(fromCatalog[0]);
                        min = fromCatalog[1];
                        max = fromCatalog[2];
                    }
                    columns.put(c.id(), new Col(nulls, min, max, rs.getLong(at + 1), Base64.getEncoder().encodeToString(hll.get(c.id()))));
                }
            }
            QueryResult first = BuiltInReader.execute(conn, "SELECT * FROM (" + select + ") LIMIT " + limit);
            List<List<String>> firstRows = new ArrayList<>();
            for (List<Object> r : first.rows()) {
                List<String> row = new ArrayList<>(r.size());
                for (Object v : r) row.add(text(v));
                firstRows.add(row);
            }
            return new UnitStats(rows, firstRows, columns);
        }

        /** HyperLogLog registers per column id over DuckDB's {@code hash} of each non-null value, in one scan. */
        private Map<Long, byte[]> registers(String select, List<SnapshotView.ColumnEntry> cols) throws SQLException {
            Map<Long, byte[]> out = new HashMap<>();
            for (SnapshotView.ColumnEntry c : cols) out.put(c.id(), new byte[M]);
            if (cols.isEmpty()) return out;
            // hash of the hash: DuckDB's hash of some types (INTERVAL) leaves bits poorly mixed; that of a UBIGINT mixes them
            StringBuilder ks = new StringBuilder("["), hs = new StringBuilder("[");
            for (int i = 0; i < cols.size(); i++) {
                String col = SqlQuote.ident(cols.get(i).name());
                ks.append(i > 0 ? ", " : "").append(i);
                hs.append(i > 0 ? ", " : "").append("CASE WHEN ").append(col).append(" IS NULL THEN NULL ELSE hash(hash(").append(col).append(")) END");
            }
            String sql = "SELECT k, CAST(h & " + (M - 1) + " AS INTEGER), max(CASE WHEN (h >> " + P + ") = 0 THEN " + (65 - P)
                    + " ELSE " + (64 - P) + " - CAST(floor(log2(CAST(h >> " + P + " AS DOUBLE))) AS INTEGER) END)"
                    + " FROM (SELECT unnest(" + ks + "]) AS k, unnest(" + hs + "]) AS h FROM (" + select + ")) WHERE h IS NOT NULL GROUP BY ALL";
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) out.get(cols.get(rs.getInt(1)).id())[rs.getInt(2)] = (byte) rs.getInt(3);
            }
            return out;
        }

        /**
         * The table's first rows: the units' own first rows in the view's order while each unit is a
         * whole data file (rows in file order, as the reader's view returns them); else one query
         * of the table's view.
         */
        private FirstRows firstRows(SnapshotView.TableEntry t, List<UnitStats> units, List<Boolean> plain) throws SQLException {
            List<List<String>> out = new ArrayList<>();
            List<RowOrigin> origins = new ArrayList<>();
            for (int i = 0; i < units.size() && out.size() < limit; i++) {
                if (!plain.get(i)) {
                    out = null;
                    break;
                }
                SnapshotView.DataFileEntry f = t.dataFiles().get(i);
                for (List<String> r : units.get(i).first()) {
                    if (out.size() >= limit) break;
                    out.add(r);
                    origins.add(new RowOrigin(f.beginSnapshot(), relative(f.location())));
                }
            }
            if (out != null) return new FirstRows(out, origins);
            fetch(t.dataFiles().stream().map(f -> f.at(relative(f.location()))).toList(),
                    t.deleteFiles().stream().map(d -> new SnapshotView.DeleteFileEntry(d.dataFileId(), relative(d.location()))).toList());
            return firstRowsRead(t);
        }

        /** A location under the local data folder as relative to it (others as they are). */
        private String relative(String location) {
            return location.startsWith(base) ? location.substring(base.length()) : location;
        }

        /** The first rows as the table's view returns them, with each row's data file or inlined row's begin snapshot. */
        private FirstRows firstRowsRead(SnapshotView.TableEntry t) throws SQLException {
            Map<Long, SnapshotView.DataFileEntry> byId = new HashMap<>();
            t.dataFiles().forEach(f -> byId.put(f.id(), f));
            StringBuilder begin = new StringBuilder("CAST(NULL AS BIGINT)");
            if (!t.inlined().isEmpty()) {
                begin = new StringBuilder("CASE r." + TableViewSql.INLINED);
                for (int i = 0; i < t.inlined().size(); i++) {
                    SnapshotView.InlinedTable in = t.inlined().get(i);
                    begin.append(" WHEN ").append(i).append(" THEN (SELECT max(i.").append(SqlQuote.ident(in.system().begin())).append(") FROM ")
                            .append(view.catalogTable(in.tableName())).append(" AS i WHERE i.").append(SqlQuote.ident(in.system().rowId()))
                            .append(" = r.").append(TableViewSql.POS).append(')');
                }
                begin.append(" END");
            }
            String sql = "SELECT r.*, " + begin + " AS __fdl_begin FROM (SELECT * FROM (" + new TableViewSql(view, t).selectWithRowIds()
                    + ") LIMIT " + limit + ") AS r";
            QueryResult r = BuiltInReader.execute(conn, sql);
            int n = t.columns().size();
            List<List<String>> rows = new ArrayList<>();
            List<RowOrigin> origins = new ArrayList<>();
            for (List<Object> row : r.rows()) {
                rows.add(row.subList(0, n).stream().map(TableSummary::text).toList());
                Object file = row.get(n);
                SnapshotView.DataFileEntry f = file == null ? null : byId.get(((Number) file).longValue());
                Object b = row.get(n + 3);
                origins.add(f != null ? new RowOrigin(f.beginSnapshot(), relative(f.location()))
                        : b == null ? null : new RowOrigin(((Number) b).longValue(), null));
            }
            return new FirstRows(rows, origins);
        }

        /** The units' statistics combined: sums, the least minimum and greatest maximum (compared by DuckDB as the column's type), distinct counts. */
        private List<ColumnStats> combine(SnapshotView.TableEntry t, List<UnitStats> units) throws SQLException {
            List<ColumnStats> out = new ArrayList<>();
            for (SnapshotView.ColumnEntry c : t.columns()) {
                long nulls = 0;
                List<String> mins = new ArrayList<>(), maxs = new ArrayList<>();
                byte[] hll = new byte[M];
                for (UnitStats u : units) {
                    Col col = u.columns().get(c.id());
                    nulls += col.nulls();
                    if (col.min() != null) mins.add(col.min());
                    if (col.max() != null) maxs.add(col.max());
                    byte[] r = Base64.getDecoder().decode(col.hll());
                    for (int j = 0; j < M; j++) hll[j] = (byte) Math.max(hll[j], r[j]);
                }
                long distinct = units.size() == 1 ? units.get(0).columns().get(c.id()).distinct() : estimate(hll);
                out.add(new ColumnStats(c.name(), c.duckType(), nulls, distinct, extreme("min", mins, c.duckType()), extreme("max", maxs, c.duckType())));
            }
            return out;
        }

        /** The {@code fn} (min or max) of values given as DuckDB's text of the type, by DuckDB; null for none. */
        private String extreme(String fn, List<String> values, String type) throws SQLException {
            Set<String> distinct = new LinkedHashSet<>(values);
            if (distinct.size() <= 1) return distinct.isEmpty() ? null : distinct.iterator().next();
            StringBuilder sql = new StringBuilder("SELECT CAST(").append(fn).append("(CAST(v AS ").append(type).append(")) AS VARCHAR) FROM (VALUES ");
            int i = 0;
            for (String v : distinct) sql.append(i++ > 0 ? ", " : "").append('(').append(SqlQuote.literal(v)).append(')');
            try (PreparedStatement ps = conn.prepareStatement(sql.append(") AS x(v)").toString()); ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /**
     * A catalog's per-file statistics as the site shows them: {@code [nulls, min, max]}, or null
     * when they are missing or their text is not DuckDB's text of the value for this type.
     * {@code ducklake_file_column_stats} leaves NaN out of a float column's bounds and says so in
     * contains_nan; DuckDB orders NaN above every number, so the maximum is then {@code nan}.
     */
    static String[] fromCatalog(String duckType, String[] cat, long rows) {
        String t = duckType.toUpperCase(Locale.ROOT);
        if (cat[0] == null) return null;
        switch (t) {
            case "BOOLEAN", "BLOB", "HUGEINT", "UHUGEINT", "INTERVAL", "JSON", "VARIANT", "GEOMETRY" -> {
                return null;
            }
            default -> {
                if (t.endsWith("]") || t.startsWith("STRUCT") || t.startsWith("MAP") || t.startsWith("UNION")) return null;
            }
        }
        long nulls = Long.parseLong(cat[0]);
        String min = cat[1], max = cat[2];
        boolean nan = "true".equalsIgnoreCase(cat[3]);
        boolean floating = t.equals("FLOAT") || t.equals("DOUBLE");
        if (nan && !floating) return null;
        if (nan) {
            max = "nan";
            if (min == null) min = "nan";
        }
        if ((min == null || max == null) && nulls != rows) return null; // bounds not recorded
        return new String[]{Long.toString(nulls), min, max};
    }

    /** HyperLogLog's estimate from registers (Flajolet et al.; linear counting below 2.5 m). */
    static long estimate(byte[] registers) {
        double sum = 0;
        int zeros = 0;
        for (byte r : registers) {
            sum += Math.pow(2, -r);
            if (r == 0) zeros++;
        }
        double m = registers.length;
        double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
        if (e <= 2.5 * m && zeros > 0) e = m * Math.log(m / zeros);
        return Math.round(e);
    }

    /** A value as {@code fdl query} prints it (a DECIMAL in plain notation); null for NULL. */
    public static String text(Object v) {
        if (v == null) return null;
        if (v instanceof BigDecimal d) return d.toPlainString();
        return v.toString();
    }
}
