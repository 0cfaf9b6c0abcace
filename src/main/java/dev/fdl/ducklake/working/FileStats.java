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
        List<String> aggregates = new ArrayList<>();
        for (ImportPlan.Column c : columns) {
            String col = SqlQuote.ident(c.name());
            String type = c.duckType().toUpperCase(Locale.ROOT);
            aggregates.add("count(*) - count(" + col + ")");
            switch (kind(type)) {
                case FLOAT -> {
                    aggregates.add("CAST(min(" + col + ") FILTER (WHERE NOT isnan(" + col + ")) AS VARCHAR)");
                    aggregates.add("CAST(max(" + col + ") FILTER (WHERE NOT isnan(" + col + ")) AS VARCHAR)");
                    aggregates.add("coalesce(bool_or(isnan(" + col + ")), false)");
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
        List<ColumnStats> stats = new ArrayList<>();
        try (PreparedStatement ps = duck.prepareStatement("SELECT " + String.join(", ", aggregates) + " FROM read_parquet(" + f + ")");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            for (int i = 0; i < columns.size(); i++) {
                ImportPlan.Column c = columns.get(i);
                int base = i * 4 + 1;
                long nulls = rs.getLong(base);
                String min = rs.getString(base + 1);
                String max = rs.getString(base + 2);
                boolean nan = rs.getBoolean(base + 3);
                Boolean containsNan = rs.wasNull() ? null : nan;
                long[] leaf = leaves.getOrDefault(i, new long[]{0, rows});
                stats.add(new ColumnStats(c.id(), c.duckType(), leaf[0], leaf[1], nulls, min, max, containsNan));
            }
        }
        return new FileStats(rows, size, footer, stats);
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
