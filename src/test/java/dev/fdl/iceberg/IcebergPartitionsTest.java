package dev.fdl.iceberg;

import dev.fdl.ducklake.catalog.PartitionKeys.PartitionKeyColumn;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** DuckLake partition keys as Iceberg specs, and a file's partition value from its bounds (docs/iceberg.md, "Partitioning"). */
class IcebergPartitionsTest {
    private static final Schema SCHEMA = new Schema(
            Types.NestedField.optional(1, "d", Types.DateType.get()),
            Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(3, "tz", Types.TimestampType.withZone()),
            Types.NestedField.optional(4, "s", Types.StringType.get()),
            Types.NestedField.optional(5, "n", Types.LongType.get()));

    private static List<String> fields(PartitionSpec spec) {
        return spec.fields().stream().map(f -> SCHEMA.findColumnName(f.sourceId()) + ":" + f.transform()).toList();
    }

    @Test
    void theFinestTemporalTransformOfAColumnIsKeptAndWhatCannotBeComputedExactlyIsLeftOut() {
        PartitionSpec spec = IcebergPartitions.spec(SCHEMA, List.of(new PartitionKeyColumn(2, "year"), new PartitionKeyColumn(2, "month"),
                new PartitionKeyColumn(5, "identity"), new PartitionKeyColumn(1, "hour"), new PartitionKeyColumn(3, "day"),
                new PartitionKeyColumn(4, "identity"), new PartitionKeyColumn(1, "bucket(4)"), new PartitionKeyColumn(99, "identity")));
        assertThat(fields(spec)).containsExactly("n:identity", "ts:month");
        assertThat(IcebergPartitions.spec(SCHEMA, List.of(new PartitionKeyColumn(4, "identity"), new PartitionKeyColumn(3, "year")))).isNull();
        assertThat(fields(IcebergPartitions.spec(SCHEMA, List.of(new PartitionKeyColumn(1, "day"))))).containsExactly("d:day");
    }

    private static Metrics metrics(long records, long nulls, Type type, Object lower, Object upper) {
        return new Metrics(records, null, null, Map.of(1, nulls), null,
                lower == null ? Map.of() : Map.of(1, Conversions.toByteBuffer(type, lower)),
                upper == null ? Map.of() : Map.of(1, Conversions.toByteBuffer(type, upper)));
    }

    @Test
    void aFileHasAPartitionValueOnlyWhenEveryRowSharesIt() {
        PartitionSpec month = IcebergPartitions.spec(SCHEMA, List.of(new PartitionKeyColumn(1, "month")));
        int march1 = (int) LocalDate.of(2024, 3, 1).toEpochDay(), march31 = (int) LocalDate.of(2024, 3, 31).toEpochDay();
        PartitionData p = IcebergPartitions.partition(month, SCHEMA, metrics(10, 0, Types.DateType.get(), march1, march31));
        assertThat(p.get(0, Integer.class)).isEqualTo((2024 - 1970) * 12 + 2); // Iceberg's month of 2024-03: 650
        assertThat(IcebergPartitions.partition(month, SCHEMA, metrics(10, 0, Types.DateType.get(), march1, march31 + 1))).isNull();
        assertThat(IcebergPartitions.partition(month, SCHEMA, metrics(10, 3, Types.DateType.get(), march1, march31))).isNull();
        assertThat(IcebergPartitions.partition(month, SCHEMA, metrics(10, 10, Types.DateType.get(), null, null)).get(0, Integer.class)).isNull();
        assertThat(IcebergPartitions.partition(month, SCHEMA, metrics(10, 0, Types.DateType.get(), null, null))).isNull();
    }
}
