package dev.fdl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cache.CatalogCache;
import dev.fdl.util.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fdl cache} and {@code fdl cache clear}: what the local cache holds, and freeing it. */
class CacheCliTest {
    @TempDir Path dir;

    /** A repository with one committed version whose catalog gc has put into {@code cache}. */
    private String repositoryWithCachedCatalog(Path cache) throws Exception {
        Path root = dir.resolve("repo");
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", WorkflowCliTest.month(dir, "2024-10-04").toString(), "--table", "cities", "--mode", "create");
        Cli.ok(wc, "commit", "-m", "cities");
        Cli.ok(dir, "gc", "--repo", root.toString(), "--cache-dir", cache.toString(), "--quiet");
        return root.toString();
    }

    @Test
    void showsEachRepositorysCachedVersionsAndClearFreesThem() throws Exception {
        Path cache = dir.resolve("cache");
        String repo = repositoryWithCachedCatalog(cache);
        String id = Json.MAPPER.readTree(Files.readAllBytes(Path.of(repo, "fdl.json"))).get("id").asText();

        JsonNode before = Json.MAPPER.readTree(Cli.ok(dir, "cache", "--cache-dir", cache.toString(), "--json").out());
        assertThat(before.get("repositories")).hasSize(1);
        JsonNode entry = before.get("repositories").get(0);
        assertThat(entry.get("id").asText()).isEqualTo(id);
        assertThat(entry.get("versions").asInt()).isEqualTo(1);
        assertThat(entry.get("catalog_bytes").asLong()).isPositive();
        assertThat(Cli.ok(dir, "cache", "--cache-dir", cache.toString()).out()).contains(id).contains("Total:");

        JsonNode cleared = Json.MAPPER.readTree(Cli.ok(dir, "cache", "clear", "--repo", repo, "--cache-dir", cache.toString(), "--json").out());
        assertThat(cleared.get("bytes_freed").asLong()).isEqualTo(before.get("bytes").asLong());
        assertThat(Json.MAPPER.readTree(Cli.ok(dir, "cache", "--cache-dir", cache.toString(), "--json").out()).get("repositories")).isEmpty();
        // nothing is lost: the repository still answers, fetching its catalog again
        assertThat(Cli.ok(dir, "verify", "--repo", repo, "--cache-dir", cache.toString(), "--quiet").out()).contains("no problems");
    }

    @Test
    void clearAllLeavesFilesThatAreNotTheCachesAlone() throws Exception {
        Path cache = dir.resolve("cache");
        repositoryWithCachedCatalog(cache);
        Path foreign = Files.createDirectories(cache.resolve("notes"));
        Files.writeString(foreign.resolve("todo.txt"), "mine");
        Files.writeString(cache.resolve("readme.txt"), "mine too");

        Cli.Result r = Cli.ok(dir, "cache", "clear", "--all", "--cache-dir", cache.toString());

        assertThat(r.out()).startsWith("Freed ");
        assertThat(foreign.resolve("todo.txt")).hasContent("mine");
        assertThat(cache.resolve("readme.txt")).hasContent("mine too");
        assertThat(new CatalogCache(cache).usage()).isEmpty();
    }

    @Test
    void clearAllWithARepositoryIsAUsageError() {
        Cli.Result r = Cli.in(dir, "cache", "clear", "--all", "--repo", dir.toString(), "--cache-dir", dir.resolve("c").toString());
        assertThat(r.exit()).isEqualTo(2);
    }

    @Test
    void aRepositoryIdThatIsNotAPlainNameStaysInsideTheCache() {
        CatalogCache cache = new CatalogCache(dir.resolve("cache"));
        Path folder = cache.repositoryFolder("../../escape");
        assertThat(folder.getParent()).isEqualTo(dir.resolve("cache").toAbsolutePath().normalize());
        assertThat(folder.getFileName().toString()).hasSize(64);
    }
}
