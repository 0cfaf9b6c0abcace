package dev.fdl.iceberg;

import dev.fdl.ducklake.catalog.PartitionKeys;

import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SerializableFunction;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * DuckLake's partitioning as an Iceberg partition spec (docs/iceberg.md, "Partitioning").
 *
 * <p>The spec: DuckLake's {@code identity}, {@code year}, {@code month}, {@code day} and
 * {@code hour} transforms (DuckLake spec, {@code ducklake_partition_column}) are Iceberg's
 * transforms of the same names, on a top-level column whose bounds {@link FileMetrics} reads
 * exactly (identity: integers, decimals, booleans, dates, times, timestamps without zone; year,
 * month, day: dates and timestamps without zone; hour: timestamps without zone). Of several
 * temporal transforms of one column only the finest is kept ({@code year(ts), month(ts)} is
 * Iceberg's {@code month(ts)}, which Iceberg requires and which names the year too). Other
 * transforms and columns are left out of the spec; a key of which nothing maps gives none.
 *
 * <p>A file's partition value is computed by Iceberg's own transform from the file's column
 * bounds, never taken from DuckLake's {@code ducklake_file_partition_value} text (whose
 * temporal values the extension writes as calendar parts, where the spec says counts from 1970):
 * a file gets a value only when every row has it (no nulls and the transform of the lower bound
 * equals that of the upper bound, or only nulls). A file without one (written before the table
 * was partitioned, or without statistics) stays in the unpartitioned spec 0, as Iceberg's
 * partition evolution keeps files of an earlier spec: read, just never pruned by partition.
 */
final class IcebergPartitions {
    private IcebergPartitions() {}

    private static final Set<Type.TypeID> IDENTITY_SOURCES = Set.of(Type.TypeID.INTEGER, Type.TypeID.LONG, Type.TypeID.DECIMAL,
            Type.TypeID.BOOLEAN, Type.TypeID.DATE, Type.TypeID.TIME, Type.TypeID.TIMESTAMP);
    /** DuckLake's temporal transforms, coarsest first. */
    private static final List<String> TEMPORAL = List.of("year", "month", "day", "hour");

    /**
     * The Iceberg spec of DuckLake's partition key {@code key} over {@code schema} (the table's
     * Iceberg schema), or null when no column of it maps.
     */
    static PartitionSpec spec(Schema schema, List<PartitionKeys.PartitionKeyColumn> key) {
        Map<String, String> temporal = new LinkedHashMap<>();
        Map<String, Boolean> identity = new LinkedHashMap<>();
        for (PartitionKeys.PartitionKeyColumn c : key) {
            if (c.columnId() <= 0 || c.columnId() > Integer.MAX_VALUE || schema.asStruct().field((int) c.columnId()) == null) continue;
            Type type = schema.findType((int) c.columnId());
            String name = schema.findColumnName((int) c.columnId());
            String transform = c.transform() == null ? "" : c.transform().toLowerCase(Locale.ROOT).trim();
            if (transform.equals("identity")) {
                if (IDENTITY_SOURCES.contains(type.typeId()) && !zoned(type)) identity.put(name, true);
            } else if (TEMPORAL.contains(transform) && temporalSource(type, transform)) {
                temporal.merge(name, transform, (a, b) -> TEMPORAL.indexOf(a) >= TEMPORAL.indexOf(b) ? a : b);
            }
        }
        if (identity.isEmpty() && temporal.isEmpty()) return null;
        PartitionSpec.Builder b = PartitionSpec.builderFor(schema);
        for (String name : identity.keySet()) b.identity(name);
        temporal.forEach((name, transform) -> {
            switch (transform) {
                case "year" -> b.year(name);
                case "month" -> b.month(name);
                case "day" -> b.day(name);
                default -> b.hour(name);
            }
        });
        return b.build();
    }

    private static boolean zoned(Type type) {
        return type.typeId() == Type.TypeID.TIMESTAMP && ((Types.TimestampType) type).shouldAdjustToUTC();
    }

    private static boolean temporalSource(Type type, String transform) {
        if (zoned(type)) return false;
        return type.typeId() == Type.TypeID.TIMESTAMP || type.typeId() == Type.TypeID.DATE && !transform.equals("hour");
    }

    /**
     * The partition of a data file with {@code metrics} under {@code spec}: every field's value
     * shared by all its rows, from the bounds; null when a field has no such value (the file
     * belongs in the unpartitioned spec).
     */
    static PartitionData partition(PartitionSpec spec, Schema schema, Metrics metrics) {
        PartitionData p = new PartitionData(spec.partitionType());
        List<PartitionField> fields = spec.fields();
        for (int i = 0; i < fields.size(); i++) {
            int source = fields.get(i).sourceId();
            Long nulls = metrics.nullValueCounts() == null ? null : metrics.nullValueCounts().get(source);
            if (nulls == null) return null;
            if (nulls.longValue() == metrics.recordCount()) { // only nulls: the transform of null is null
                p.set(i, null);
                continue;
            }
            ByteBuffer lower = metrics.lowerBounds() == null ? null : metrics.lowerBounds().get(source);
            ByteBuffer upper = metrics.upperBounds() == null ? null : metrics.upperBounds().get(source);
            if (nulls != 0 || lower == null || upper == null) return null;
            Type type = schema.findType(source);
            @SuppressWarnings("unchecked")
            SerializableFunction<Object, Object> transform = ((Transform<Object, Object>) fields.get(i).transform()).bind(type);
            Object low = transform.apply(Conversions.fromByteBuffer(type, lower));
            if (!Objects.equals(low, transform.apply(Conversions.fromByteBuffer(type, upper)))) return null;
            p.set(i, low);
        }
        return p;
    }
}
