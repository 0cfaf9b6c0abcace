package dev.fdl.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's six monthly versions of world-cities (synced: each a delete file of the rows its
 * month removed or changed), described afterwards with {@code fdl iceberg}, read by the Iceberg
 * Java reader as {@code fdl query} reads each version.
 */
class IcebergDemoCliTest {
    @TempDir Path dir;

    @Test
    void everyMonthOfTheDemoReadsThroughIcebergAsFdlQueryReadsIt() throws Exception {
        Cli.ok(dir, "demo");
        Path root = dir.resolve("fdl-demo/repo");
        String repo = root.toString();
        List<String> versions = new ArrayList<>();
        for (JsonNode v : Json.MAPPER.readTree(Cli.ok(dir, "log", "--repo", repo, "--json").out())) versions.add(v.get("id").asText());
        assertThat(versions).hasSize(6);
        List<String> args = new ArrayList<>(List.of("iceberg", "--repo", repo));
        args.addAll(versions);
        Cli.ok(dir, args.toArray(String[]::new));
        long deleteFiles = 0;
        for (String id : versions) {
            Path metadata = root.resolve(IcebergMetadataWriter.metadataKey(id, "main", "cities"));
            IcebergRows.assertSame(metadata, dir, repo, id, "cities");
            deleteFiles += Long.parseLong(IcebergRows.table(metadata).currentSnapshot().summary().getOrDefault("total-delete-files", "0"));
        }
        assertThat(deleteFiles).as("synced months with removed or changed rows carry a delete file").isEqualTo(5);
    }
}
