package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl import --json} prints one shape in every mode, the keys its help
 * lists, in that order (sync printed {@code data_bytes} where the others printed {@code bytes},
 * and {@code columns} only outside sync), and columns as {@code {name, type}} objects (a
 * {@code "name TYPE"} string cannot be split when the name holds a space).
 */
class ImportJsonCliTest {
    static final List<String> KEYS = List.of("table", "mode", "snapshot", "rows", "added", "removed", "changed", "data_file", "data_files",
            "data_bytes", "bytes", "delete_files", "delete_bytes", "ended_files", "created_table", "columns", "schema_changes",
            "key", "key_recorded", "warnings");

    @TempDir Path dir;

    @Test
    void everyModePrintsTheSameKeys() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path csv = dir.resolve("a.csv");
        Files.writeString(csv, "id,\"full name\"\n1,Ann\n2,Bob\n", StandardCharsets.UTF_8);
        JsonNode create = json(wc, "import", csv.toString(), "-t", "t", "--json");
        JsonNode append = json(wc, "import", csv.toString(), "-t", "t", "--mode", "append", "--json");
        JsonNode replace = json(wc, "import", csv.toString(), "-t", "t", "--mode", "replace", "--json");
        Files.writeString(csv, "id,\"full name\"\n1,Ann\n2,Bo\n3,Cy\n", StandardCharsets.UTF_8);
        JsonNode sync = json(wc, "import", csv.toString(), "-t", "t", "--mode", "sync", "--key", "id", "--json");
        JsonNode unchanged = json(wc, "import", csv.toString(), "-t", "t", "--mode", "sync", "--json");
        JsonNode syncNew = json(wc, "import", csv.toString(), "-t", "u", "--mode", "sync", "--json");
        for (JsonNode o : List.of(create, append, replace, sync, unchanged, syncNew)) {
            List<String> keys = new ArrayList<>();
            o.fieldNames().forEachRemaining(keys::add);
            assertThat(keys).as(o.toString()).isEqualTo(KEYS);
            assertThat(o.get("bytes")).as(o.toString()).isEqualTo(o.get("data_bytes"));
            assertThat(o.get("columns").toString()).as(o.toString())
                    .isEqualTo("[{\"name\":\"id\",\"type\":\"BIGINT\"},{\"name\":\"full name\",\"type\":\"VARCHAR\"}]");
        }
        assertThat(create.get("mode").asText()).isEqualTo("create");
        assertThat(create.get("rows").asLong()).isEqualTo(2);
        assertThat(create.get("data_bytes").asLong()).isPositive();
        assertThat(create.get("added").isNull()).isTrue();
        assertThat(create.get("ended_files").isNull()).isTrue();
        assertThat(create.get("delete_files").asLong()).isZero();
        assertThat(create.get("created_table").asBoolean()).isTrue();
        assertThat(append.get("created_table").asBoolean()).isFalse();
        assertThat(replace.get("mode").asText()).isEqualTo("replace");

        assertThat(sync.get("mode").asText()).isEqualTo("sync");
        assertThat(sync.get("rows").asLong()).isEqualTo(3);
        assertThat(sync.get("added").asLong()).isEqualTo(1);
        assertThat(sync.get("changed").asLong()).isEqualTo(1);
        assertThat(sync.get("removed").asLong()).isZero();
        assertThat(sync.get("key").toString()).isEqualTo("[\"id\"]");
        assertThat(unchanged.get("snapshot").isNull()).isTrue();
        assertThat(unchanged.get("data_file").isNull()).isTrue();
        assertThat(unchanged.get("key_recorded").asBoolean()).isTrue();
        assertThat(syncNew.get("created_table").asBoolean()).isTrue();
    }

    private static JsonNode json(Path wc, String... args) throws Exception {
        return Json.MAPPER.readTree(Cli.ok(wc, args).out());
    }
}
