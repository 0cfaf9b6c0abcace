package dev.fdl.iceberg;

import dev.fdl.ducklake.catalog.MetadataQueries;

import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
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
    /** Each data file's metrics so far, by data file id. */
    private final Map<Long, Bounds> byFile = new HashMap<>();

    /** One data file's null counts and bounds, by field id, converted as the statistics rows arrive. */
    private record Bounds(Map<Integer, Long> nulls, Map<Integer, ByteBuffer> lower, Map<Integer, ByteBuffer> upper) {
        Bounds() {
            this(new HashMap<>(8), new HashMap<>(8), new HashMap<>(8));
        }
    }

    FileMetrics(Schema schema) {
        this.schema = schema;
    }

    /**
     * The ids of the schema's fields whose statistics can give bounds (the others' are not read),
     * each with the DuckDB type their bounds are read as: integers and floats cast by DuckDB
     * (exact: DuckDB's casts of such text are correctly rounded), the rest as text {@link #value} reads.
     */
    Map<Long, String> boundedColumns() {
        Map<Long, String> ids = new HashMap<>();
        for (Types.NestedField f : TypeUtil.indexById(schema.asStruct()).values()) {
            if (!f.type().isPrimitiveType() || !bounded(f.type())) continue;
            ids.put((long) f.fieldId(), switch (f.type().typeId()) {
                case INTEGER -> "INTEGER";
                case LONG -> "BIGINT";
                case FLOAT -> "FLOAT";
                case DOUBLE -> "DOUBLE";
                default -> "VARCHAR";
            });
        }
        return ids;
    }

    /**
     * Whether DuckLake's text of a value of {@code type} can be read as an exact bound by
     * {@link #value}: not strings, binaries, UUIDs (the text need not be a byte-exact bound) nor
     * timestamps with zone (DuckDB's text is in the session's zone).
     */
    private static boolean bounded(Type type) {
        return switch (type.typeId()) {
            case INTEGER, LONG, FLOAT, DOUBLE, BOOLEAN, DATE, TIME, DECIMAL -> true;
            case TIMESTAMP -> !((Types.TimestampType) type).shouldAdjustToUTC();
            default -> false;
        };
    }

    /** Takes one statistics row (rows of columns the schema does not hold are ignored). */
    void add(MetadataQueries.FileColumnStats s) {
        if (s.columnId() <= 0 || s.columnId() > Integer.MAX_VALUE) return;
        int id = (int) s.columnId();
        Type type = schema.findType(id);
        if (type == null || !type.isPrimitiveType()) return;
        Bounds b = byFile.computeIfAbsent(s.dataFileId(), k -> new Bounds());
        if (s.nullCount() >= 0) b.nulls().put(id, s.nullCount());
        if (s.min() == null || s.max() == null) return;
        if (isFloat(type) && !Boolean.FALSE.equals(s.containsNan())) return;
        Object min = bound(type, s.min());
        Object max = min == null ? null : bound(type, s.max());
        if (max == null) return;
        b.lower().put(id, Conversions.toByteBuffer(type, min));
        b.upper().put(id, Conversions.toByteBuffer(type, max));
    }

    /** The metrics of data file {@code dataFileId} holding {@code records} rows; its statistics are then forgotten. */
    Metrics take(long dataFileId, long records) {
        Bounds b = byFile.remove(dataFileId);
        if (b == null) return new Metrics(records, null, null, Map.of(), null, Map.of(), Map.of());
        return new Metrics(records, null, null, b.nulls(), null, b.lower(), b.upper());
    }

    private static boolean isFloat(Type type) {
        return type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE;
    }

    /** A bound as {@link MetadataQueries#fileColumnStats} gives it (text, or the number DuckDB cast it to) as the Java value Iceberg's {@link Conversions} takes; null when not exact. */
    private static Object bound(Type type, Object v) {
        if (v instanceof String text) return value(type, text);
        return switch (type.typeId()) {
            case INTEGER -> v instanceof Integer ? v : null;
            case LONG -> v instanceof Long ? v : null;
            case FLOAT -> v instanceof Float f ? finite(f) : null;
            case DOUBLE -> v instanceof Double d ? finite(d) : null;
            default -> null;
        };
    }

    /** DuckDB's text of a value as the Java value Iceberg's {@link Conversions} takes, or null when it is not read exactly. */
    static Object value(Type type, String text) {
        if (!bounded(type)) return null;
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
                case TIMESTAMP -> ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0),
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
