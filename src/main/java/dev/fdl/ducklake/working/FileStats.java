package dev.fdl.ducklake.working;

import dev.fdl.util.SqlQuote;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The statistics DuckLake records for a data file ({@code ducklake_data_file} record count, size
 * and footer size; {@code ducklake_file_column_stats} per column), measured on the written
 * Parquet file the way the extension renders them: min/max as DuckDB's text of the value,
 * booleans as {@code 0}/{@code 1}, blobs as upper-case hex, NaN left out of float min/max and
 * reported in {@code contains_nan}, no min/max for HUGEINT, UHUGEINT, INTERVAL and JSON (as the
 * extension leaves them empty for some of these).
 */
public record FileStats(long recordCount, long fileSizeBytes, long footerSize, List<ColumnStats> columns) {
    public FileStats {
        columns = List.copyOf(columns);
    }

    /** One column's statistics in one file; min/max null when unknown; containsNan null for non-float columns. */
    record ColumnStats(long columnId, String duckType, long columnSizeBytes, long valueCount, long nullCount,
                       String min, String max, Boolean containsNan) {}

    public static FileStats of(Connection duck, Path file, List<ImportPlan.Column> columns) throws SQLException {
        String f = SqlQuote.literal(file.toAbsolutePath().toString());
        long rows;
        long size;
        long footer;
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT num_rows, file_size_bytes, footer_size FROM parquet_file_metadata(" + f + ")")) {
            rs.next();
            rows = rs.getLong(1);
            size = rs.getLong(2);
            footer = rs.getLong(3);
        }
        // Flat columns only: leaf i of the Parquet schema is column i.
        Map<Integer, long[]> leaves = new HashMap<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT column_id, sum(total_compressed_size), sum(num_values) FROM parquet_metadata("
                     + f + ") GROUP BY column_id")) {
            while (rs.next()) leaves.put(rs.getInt(1), new long[]{rs.getLong(2), rs.getLong(3)});
        }
        // Two statements: DuckDB answers null counts and plain min/max from the file's row-group
        // statistics without reading the data, but an aggregate with a FILTER (NaN left out of a
        // float's min/max) makes it read every column of the file; the float columns' aggregates
        // therefore go to a second statement, which reads those columns alone.
        List<String> aggregates = new ArrayList<>();
        List<String> floats = new ArrayList<>();
        for (ImportPlan.Column c : columns) addAggregates(c, aggregates, floats);
        // per column: null count, min, max, contains NaN (null for non-float columns)
        Object[][] values = new Object[columns.size()][];
        try (PreparedStatement ps = duck.prepareStatement("SELECT " + String.join(", ", aggregates) + " FROM read_parquet(" + f + ")");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            for (int i = 0; i < columns.size(); i++) {
                int base = i * 4 + 1;
                values[i] = new Object[] {rs.getLong(base), rs.getString(base + 1), rs.getString(base + 2), null};
            }
        }
        if (!floats.isEmpty()) {
            try (PreparedStatement ps = duck.prepareStatement("SELECT " + String.join(", ", floats) + " FROM read_parquet(" + f + ")");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                int base = 1;
                for (int i = 0; i < columns.size(); i++) {
                    if (kind(columns.get(i).duckType().toUpperCase(Locale.ROOT)) != Kind.FLOAT) continue;
                    values[i][1] = rs.getString(base);
                    values[i][2] = rs.getString(base + 1);
                    values[i][3] = rs.getBoolean(base + 2);
                    base += 3;
                }
            }
        }
        List<ColumnStats> stats = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            ImportPlan.Column c = columns.get(i);
            long[] leaf = leaves.getOrDefault(i, new long[]{0, rows});
            stats.add(new ColumnStats(c.id(), c.duckType(), leaf[0], leaf[1], (Long) values[i][0], (String) values[i][1],
                    (String) values[i][2], (Boolean) values[i][3]));
        }
        return new FileStats(rows, size, footer, stats);
    }

    /**
     * Column {@code c}'s aggregates, appended: to {@code aggregates} its null count, min, max and NaN flag (the three
     * last NULL for a float column), and for a float column to {@code floats} its min and max without NaN and its NaN flag.
     */
    private static void addAggregates(ImportPlan.Column c, List<String> aggregates, List<String> floats) {
        String col = SqlQuote.ident(c.name());
        String type = c.duckType().toUpperCase(Locale.ROOT);
        aggregates.add("count(*) - count(" + col + ")");
        switch (kind(type)) {
            case FLOAT -> {
                aggregates.add("NULL");
                aggregates.add("NULL");
                aggregates.add("NULL");
                floats.add("CAST(min(" + col + ") FILTER (WHERE NOT isnan(" + col + ")) AS VARCHAR)");
                floats.add("CAST(max(" + col + ") FILTER (WHERE NOT isnan(" + col + ")) AS VARCHAR)");
                floats.add("coalesce(bool_or(isnan(" + col + ")), false)");
            }
            case BOOLEAN -> {
                aggregates.add("CAST(CAST(min(" + col + ") AS INTEGER) AS VARCHAR)");
                aggregates.add("CAST(CAST(max(" + col + ") AS INTEGER) AS VARCHAR)");
                aggregates.add("NULL");
            }
            case BLOB -> {
                aggregates.add("hex(min(" + col + "))");
                aggregates.add("hex(max(" + col + "))");
                aggregates.add("NULL");
            }
            case NONE -> {
                aggregates.add("NULL");
                aggregates.add("NULL");
                aggregates.add("NULL");
            }
            case TEXT -> {
                aggregates.add("CAST(min(" + col + ") AS VARCHAR)");
                aggregates.add("CAST(max(" + col + ") AS VARCHAR)");
                aggregates.add("NULL");
            }
        }
    }

    /**
     * The statistics of a Parquet file another writer made, read from its footer alone (DuckDB's
     * {@code parquet_file_metadata} and {@code parquet_metadata}, as DuckLake's
     * {@code ducklake_add_data_files} reads them): per column the compressed size, value and null
     * counts summed over row groups, min and max as the least and greatest row-group statistic
     * compared as the column's type. A statistic some row group lacks is unknown (min/max null);
     * a null count some row group lacks is counted from the column's data. Footers say nothing
     * of NaN, so float columns are recorded as possibly holding NaN (readers then never skip the
     * file on a float filter), and blobs get no min/max.
     *
     * @param columns the table's columns, each matched to the file's top-level field of the same
     *                name ({@code sourceName}), which the caller checked
     */
    public static FileStats fromFooter(Connection duck, Path file, List<ImportPlan.Column> columns) throws SQLException {
        String f = SqlQuote.literal(file.toAbsolutePath().toString());
        long rows, size, footer;
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT num_rows, file_size_bytes, footer_size FROM parquet_file_metadata(" + f + ")")) {
            rs.next();
            rows = rs.getLong(1);
            size = rs.getLong(2);
            footer = rs.getLong(3);
        }
        List<String> aggregates = new ArrayList<>();
        for (ImportPlan.Column c : columns) {
            String w = " FILTER (WHERE path_in_schema = " + SqlQuote.literal(c.sourceName()) + ")";
            String type = c.duckType();
            aggregates.add("coalesce(sum(total_compressed_size)" + w + ", 0)");
            aggregates.add("coalesce(sum(num_values)" + w + ", 0)");
            aggregates.add("CASE WHEN count(*)" + w + " = count(stats_null_count)" + w + " THEN sum(stats_null_count)" + w + " END");
            String known = "count(*)" + w + " = count(stats_min_value)" + w + " AND count(*)" + w + " = count(stats_max_value)" + w;
            switch (kind(type)) {
                case BOOLEAN -> {
                    aggregates.add("CASE WHEN " + known + " THEN CAST(CAST(min(TRY_CAST(stats_min_value AS BOOLEAN))" + w + " AS INTEGER) AS VARCHAR) END");
                    aggregates.add("CASE WHEN " + known + " THEN CAST(CAST(max(TRY_CAST(stats_max_value AS BOOLEAN))" + w + " AS INTEGER) AS VARCHAR) END");
                }
                case BLOB, NONE -> {
                    aggregates.add("NULL");
                    aggregates.add("NULL");
                }
                case FLOAT, TEXT -> {
                    aggregates.add("CASE WHEN " + known + " THEN CAST(min(TRY_CAST(stats_min_value AS " + type + "))" + w + " AS VARCHAR) END");
                    aggregates.add("CASE WHEN " + known + " THEN CAST(max(TRY_CAST(stats_max_value AS " + type + "))" + w + " AS VARCHAR) END");
                }
            }
        }
        List<ColumnStats> stats = new ArrayList<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + String.join(", ", aggregates) + " FROM parquet_metadata(" + f + ")")) {
            rs.next();
            for (int i = 0; i < columns.size(); i++) {
                ImportPlan.Column c = columns.get(i);
                int base = i * 5 + 1;
                long nulls = rs.getLong(base + 2);
                if (rs.wasNull()) nulls = countNulls(duck, f, c.sourceName());
                Boolean nan = kind(c.duckType()) == Kind.FLOAT ? Boolean.TRUE : null;
                stats.add(new ColumnStats(c.id(), c.duckType(), rs.getLong(base), rs.getLong(base + 1), nulls,
                        rs.getString(base + 3), rs.getString(base + 4), nan));
            }
        }
        return new FileStats(rows, size, footer, stats);
    }

    private static long countNulls(Connection duck, String file, String column) throws SQLException {
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) - count(" + SqlQuote.ident(column) + ") FROM read_parquet(" + file + ")")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    enum Kind { FLOAT, BOOLEAN, BLOB, NONE, TEXT }

    static Kind kind(String duckType) {
        String t = duckType.toUpperCase(Locale.ROOT);
        return switch (t) {
            case "FLOAT", "DOUBLE" -> Kind.FLOAT;
            case "BOOLEAN" -> Kind.BOOLEAN;
            case "BLOB" -> Kind.BLOB;
            case "HUGEINT", "UHUGEINT", "INTERVAL", "JSON" -> Kind.NONE;
            default -> Kind.TEXT;
        };
    }
}
