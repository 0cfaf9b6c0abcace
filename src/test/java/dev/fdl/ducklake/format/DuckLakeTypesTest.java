package dev.fdl.ducklake.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one DuckLake→DuckDB type map (the two maps it replaces differed on time_ns, variant, geometry). */
class DuckLakeTypesTest {
    private static DuckLakeTypes.Node leaf(String name, String type) {
        return DuckLakeTypes.Node.leaf(name, type);
    }

    @ParameterizedTest
    @CsvSource({"int32,INTEGER", "uint64,UBIGINT", "float64,DOUBLE", "time_ns,TIME_NS", "timetz,TIME WITH TIME ZONE",
            "timestamptz,TIMESTAMP WITH TIME ZONE", "timestamp_ns,TIMESTAMP_NS", "json,JSON", "variant,VARIANT",
            "geometry,GEOMETRY", "'decimal(18, 3)','DECIMAL(18,3)'", "UUID,UUID"})
    void mapsEveryDuckLakeTypeToDuckDbsName(String lake, String duck) {
        assertThat(DuckLakeTypes.toDuckDb(leaf("c", lake), "main.t")).isEqualTo(duck);
    }

    @Test
    void theBuiltInReaderReadsTimeNsButRefusesVariantGeometryAndUnknownTypes() {
        assertThatCode(() -> DuckLakeTypes.requireReadable(leaf("c", "time_ns"), "main.t")).doesNotThrowAnyException();
        for (String type : List.of("variant", "geometry", "float128")) {
            assertThatThrownBy(() -> DuckLakeTypes.requireReadable(leaf("c", type), "main.t"))
                    .isInstanceOf(FdlException.class).hasMessageContaining("main.t.c").hasMessageContaining(type);
        }
        DuckLakeTypes.Node nested = new DuckLakeTypes.Node("l", "list", List.of(leaf("element", "variant")));
        assertThatThrownBy(() -> DuckLakeTypes.requireReadable(nested, "main.t")).isInstanceOf(FdlException.class);
        // the inspector still names the type
        assertThat(DuckLakeTypes.toDuckDb(nested, "main.t")).isEqualTo("VARIANT[]");
        assertThat(DuckLakeTypes.toDuckDb(leaf("c", "float128"), "main.t")).isEqualTo("FLOAT128");
    }

    @Test
    void nestedTypesPrintAsDuckDbPrintsThem() {
        DuckLakeTypes.Node struct = new DuckLakeTypes.Node("s", "struct",
                List.of(leaf("a", "int32"), leaf("order", "varchar"), leaf("Bx", "int64"), leaf("two words", "date")));
        DuckLakeTypes.Node map = new DuckLakeTypes.Node("m", "map", List.of(leaf("key", "varchar"), struct));
        // exactly what DuckDB 1.5 prints for typeof() of such a value: keywords and names with spaces quoted
        assertThat(DuckLakeTypes.toDuckDb(map, "main.t"))
                .isEqualTo("MAP(VARCHAR, STRUCT(a INTEGER, \"order\" VARCHAR, Bx BIGINT, \"two words\" DATE))");
        assertThatThrownBy(() -> DuckLakeTypes.toDuckDb(new DuckLakeTypes.Node("l", "list", List.of()), "main.t"))
                .isInstanceOf(FdlException.class).hasMessageContaining("main.t.l").hasMessageContaining("corrupt");
    }

    @Test
    void flatDuckDbTypesMapBack() {
        assertThat(DuckLakeTypes.flatToDuckLake("TIMESTAMPTZ")).contains("timestamptz");
        assertThat(DuckLakeTypes.flatToDuckLake("DECIMAL(9,2)")).contains("decimal(9,2)");
        assertThat(DuckLakeTypes.flatToDuckLake("TIME_NS")).contains("time_ns");
        assertThat(DuckLakeTypes.flatToDuckLake("INTEGER[]")).isEmpty();
    }
}
