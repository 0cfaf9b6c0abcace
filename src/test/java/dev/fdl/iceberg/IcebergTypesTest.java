package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.ColumnTypes;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DuckLake column rows as Iceberg schemas: field ids are column ids, child columns keep theirs. */
class IcebergTypesTest {
    private static ColumnTypes.Row row(long id, String name, String type, Long parent) {
        return new ColumnTypes.Row(id, name, type, true, null, parent);
    }

    @Test
    void nestedColumnsKeepTheirChildColumnIds() {
        Schema s = IcebergTypes.schema(List.of(
                row(1, "id", "int64", null),
                row(2, "st", "struct", null), row(3, "a", "int32", 2L), row(4, "b", "varchar", 2L),
                row(5, "l", "list", null), row(6, "element", "int32", 5L),
                row(7, "m", "map", null), row(8, "key", "varchar", 7L), row(9, "value", "int32", 7L),
                row(10, "dec", "decimal(18,3)", null), row(11, "ts", "timestamptz", null)), "main.t");
        assertThat(s.findField("id").fieldId()).isEqualTo(1);
        assertThat(s.findField("st.a").fieldId()).isEqualTo(3);
        assertThat(s.findField("st.b").type()).isEqualTo(Types.StringType.get());
        assertThat(s.findType("l")).isEqualTo(Types.ListType.ofOptional(6, Types.IntegerType.get()));
        assertThat(s.findType("m")).isEqualTo(Types.MapType.ofOptional(8, 9, Types.StringType.get(), Types.IntegerType.get()));
        assertThat(s.findType("dec")).isEqualTo(Types.DecimalType.of(18, 3));
        assertThat(s.findType("ts")).isEqualTo(Types.TimestampType.withZone());
    }

    @Test
    void aTypeIcebergCannotHoldIsRefusedNamingTableColumnAndType() {
        assertThatThrownBy(() -> IcebergTypes.schema(List.of(row(1, "st", "struct", null), row(2, "n", "uint64", 1L)), "geo.rivers"))
                .isInstanceOf(FdlException.class).hasMessageContaining("table geo.rivers").hasMessageContaining("column st.n")
                .hasMessageContaining("'uint64'");
    }
}
