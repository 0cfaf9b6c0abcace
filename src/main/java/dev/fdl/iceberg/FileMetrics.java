package dev.fdl.iceberg;

import dev.fdl.ducklake.catalog.MetadataQueries;

import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/**
 * A data file's Iceberg metrics from the statistics DuckLake keeps ({@code ducklake_file_column_stats}),
 * so that engines prune files: null counts for every primitive field, lower and upper bounds where
 * DuckLake's text of the value reads back exactly as the field's type (integers, floats without
 * NaN, decimals, booleans, dates, times, timestamps without zone). A bound that cannot be read
 * exactly is left out, never approximated: a wrong bound would make an engine skip rows. Strings,
 * binaries and UUIDs get no bounds (DuckLake's text need not be a byte-exact bound).
 * Value counts are left out: Iceberg counts nulls in them and DuckLake's count is not defined so.
 */
final class FileMetrics {
    private final Schema schema;
    /** Statistics by data file id, then field id. */
    private final Map<Long, Map<Integer, MetadataQueries.FileColumnStats>> stats = new HashMap<>();

    FileMetrics(Schema schema) {
        this.schema = schema;
    }

    /** Takes one statistics row (rows of columns the schema does not hold are ignored). */
    void add(MetadataQueries.FileColumnStats s) {
        if (s.columnId() <= 0 || s.columnId() > Integer.MAX_VALUE) return;
        int id = (int) s.columnId();
        Type type = schema.findType(id);
        if (type == null || !type.isPrimitiveType()) return;
        stats.computeIfAbsent(s.dataFileId(), k -> new HashMap<>()).put(id, s);
    }

    /** The metrics of data file {@code dataFileId} holding {@code records} rows. */
    Metrics of(long dataFileId, long records) {
        Map<Integer, Long> nulls = new HashMap<>();
        Map<Integer, ByteBuffer> lower = new HashMap<>();
        Map<Integer, ByteBuffer> upper = new HashMap<>();
        for (Map.Entry<Integer, MetadataQueries.FileColumnStats> e : stats.getOrDefault(dataFileId, Map.of()).entrySet()) {
            MetadataQueries.FileColumnStats s = e.getValue();
            if (s.nullCount() >= 0) nulls.put(e.getKey(), s.nullCount());
            Type type = schema.findType(e.getKey());
            if (s.min() == null || s.max() == null) continue;
            if (isFloat(type) && !Boolean.FALSE.equals(s.containsNan())) continue;
            Object min = value(type, s.min());
            Object max = value(type, s.max());
            if (min == null || max == null) continue;
            lower.put(e.getKey(), Conversions.toByteBuffer(type, min));
            upper.put(e.getKey(), Conversions.toByteBuffer(type, max));
        }
        return new Metrics(records, null, null, nulls, null, lower, upper);
    }

    private static boolean isFloat(Type type) {
        return type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE;
    }

    /** DuckDB's text of a value as the Java value Iceberg's {@link Conversions} takes, or null when it is not read exactly. */
    static Object value(Type type, String text) {
        try {
            return switch (type.typeId()) {
                case INTEGER -> Integer.valueOf(text.trim());
                case LONG -> Long.valueOf(text.trim());
                case FLOAT -> finite(Float.valueOf(text.trim()));
                case DOUBLE -> finite(Double.valueOf(text.trim()));
                // DuckLake writes a boolean's statistics as 0 and 1 (its own writer and fdl's FileStats); DuckDB's text is true/false
                case BOOLEAN -> switch (text.trim()) {
                    case "1", "true" -> Boolean.TRUE;
                    case "0", "false" -> Boolean.FALSE;
                    default -> null;
                };
                case DATE -> (int) LocalDate.parse(text.trim()).toEpochDay();
                case TIME -> LocalTime.parse(text.trim()).toNanoOfDay() / 1000;
                case TIMESTAMP -> ((Types.TimestampType) type).shouldAdjustToUTC() ? null
                        : ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0),
                        LocalDateTime.parse(text.trim().replace(' ', 'T')).atOffset(ZoneOffset.UTC).toLocalDateTime());
                case DECIMAL -> new BigDecimal(text.trim()).setScale(((Types.DecimalType) type).scale(), RoundingMode.UNNECESSARY);
                default -> null;
            };
        } catch (RuntimeException e) {
            return null; // infinity, a text of another shape: no bound rather than a wrong one
        }
    }

    private static Object finite(Number n) {
        return Double.isFinite(n.doubleValue()) ? n : null;
    }
}
