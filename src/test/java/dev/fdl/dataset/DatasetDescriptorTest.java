package dev.fdl.dataset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.util.JsonRead;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetDescriptorTest {
    static final TableFacts CITIES = new TableFacts("cities", 28501, List.of(
            new TableFacts.Column("name", "VARCHAR"), new TableFacts.Column("country", "VARCHAR"),
            new TableFacts.Column("subcountry", "VARCHAR"), new TableFacts.Column("geonameid", "BIGINT")));

    static ObjectNode worldCitiesPackage() throws Exception {
        try (InputStream in = DatasetDescriptorTest.class.getResourceAsStream("/demo/world-cities/datapackage.json")) {
            return JsonRead.parseObject(in.readAllBytes(), "datapackage.json");
        }
    }

    @Test
    void datapackageWithResourceRenamedToTableIsFilled() throws Exception {
        ObjectNode pkg = worldCitiesPackage();
        ((ObjectNode) pkg.get("resources").get(0)).put("name", "cities");
        ObjectNode filled = DatasetDescriptor.checkAndFill(pkg, "dataset.json", List.of(CITIES), "x");
        ObjectNode r = (ObjectNode) filled.get("resources").get(0);
        assertThat(r.get("rows").asLong()).isEqualTo(28501);
        assertThat(r.get("description").asText()).startsWith("List of major cities");
        assertThat(r.at("/schema/fields/3/type").asText()).isEqualTo("integer");
        assertThat(r.at("/schema/fields/3/ducklake_type").asText()).isEqualTo("BIGINT");
        assertThat(r.at("/schema/fields/0/description").asText()).isEqualTo("English name of the city");
        assertThat(filled.get("licenses").get(0).get("name").asText()).isEqualTo("CC-BY-4.0");
        assertThat(filled.get("has_extended_version").asBoolean()).isTrue();
    }

    @Test
    void undescribedTablesGetResourcesAndNoDescriptorWorks() {
        TableFacts rivers = new TableFacts("geo.rivers", 2, List.of(new TableFacts.Column("length_km", "DOUBLE")));
        ObjectNode filled = DatasetDescriptor.checkAndFill(null, "dataset.json", List.of(CITIES, rivers), "demo");
        assertThat(filled.get("name").asText()).isEqualTo("demo");
        assertThat(filled.get("resources")).hasSize(2);
        assertThat(filled.at("/resources/1/name").asText()).isEqualTo("geo.rivers");
        assertThat(filled.at("/resources/1/schema/fields/0/type").asText()).isEqualTo("number");
    }

    @Test
    void everyProblemIsNamed() throws Exception {
        ObjectNode pkg = worldCitiesPackage();
        assertThatThrownBy(() -> DatasetDescriptor.checkAndFill(pkg, "dataset.json", List.of(CITIES), "x"))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining("resource 'world-cities': no table world-cities")
                .hasMessageContaining("tables: cities");
        ObjectNode bad = worldCitiesPackage();
        ObjectNode r = (ObjectNode) bad.get("resources").get(0);
        r.put("name", "cities");
        ((ObjectNode) r.at("/schema/fields/0")).put("type", "integer");
        ((ObjectNode) r.at("/schema/fields/1")).put("name", "nation");
        assertThatThrownBy(() -> DatasetDescriptor.checkAndFill(bad, "dataset.json", List.of(CITIES), "x"))
                .hasMessageContaining("field 'name' is declared 'integer' but the column is VARCHAR")
                .hasMessageContaining("field 'nation' is not a column of cities");
    }

    @Test
    void aBadShapeOfTheUsersOwnFileIsNamedAsTheWorkingCopysNotTheRepositorys() {
        ObjectNode d = JsonRead.parseObject("{\"resources\": {\"name\": \"cities\"}}".getBytes(java.nio.charset.StandardCharsets.UTF_8), "dataset.json");
        assertThatThrownBy(() -> DatasetDescriptor.checkAndFill(d, "dataset.json", List.of(CITIES), "x"))
                .hasMessageStartingWith("the working copy's dataset.json: key 'resources' must be an array")
                .hasMessageContaining("not object")
                .hasMessageNotContaining("corrupt repository file");
    }

    @Test
    void aTableDescribedTwiceIsRefused() {
        ObjectNode d = JsonRead.parseObject("{\"resources\": [{\"name\": \"cities\", \"rows\": 999}, {\"name\": \"cities\"}]}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8), "dataset.json");
        assertThatThrownBy(() -> DatasetDescriptor.checkAndFill(d, "dataset.json", List.of(CITIES), "x"))
                .hasMessageContaining("resource 'cities' is described more than once");
    }

    @Test
    void typeMapping() {
        assertThat(FrictionlessTypes.of("INTEGER[]")).isEqualTo("array");
        assertThat(FrictionlessTypes.of("STRUCT(a INTEGER, b VARCHAR)")).isEqualTo("object");
        assertThat(FrictionlessTypes.of("DECIMAL(18,3)")).isEqualTo("number");
        assertThat(FrictionlessTypes.of("TIMESTAMP WITH TIME ZONE")).isEqualTo("datetime");
        assertThat(FrictionlessTypes.compatible("number", "BIGINT")).isTrue();
        assertThat(FrictionlessTypes.compatible("integer", "DOUBLE")).isFalse();
    }
}
