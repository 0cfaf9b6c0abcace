package dev.fdl.site;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.repo.Repository;
import dev.fdl.store.CountingStore;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The site of a repository on {@code s3://} shows the same previews and statistics as that of the
 * same repository in a folder: the data files it needs are fetched into the local cache's mirror,
 * and a second site over a new cache whose statistics are already kept fetches no data file.
 */
@UsesS3Mock
class SiteOnS3Test {
    @Test
    void previewsAndStatisticsOfAnS3RepositoryEqualThoseOfTheSameFolderRepository(@TempDir Path dir) throws Exception {
        SiteRepo towns = SiteRepo.copy(dir.resolve("local"));
        S3MockServer s3 = S3MockServer.shared();
        String version;
        try (S3Store remote = s3.newStore(); var walk = Files.walk(towns.root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList())
                remote.put(towns.root.relativize(p).toString().replace('\\', '/'), Payload.of(Files.readAllBytes(p)));
            version = towns.third;
            String local;
            try (ObjectStore store = new LocalStore(towns.root)) {
                local = new String(Site.render(Repository.open(store), SiteOptions.defaults(), new CatalogCache(dir.resolve("cache-local")), DuckDbPool.shared())
                        .get("site/versions/" + version + ".html"), StandardCharsets.UTF_8);
            }
            CatalogCache cache = new CatalogCache(dir.resolve("cache"));
            Site.write(Repository.open(remote), SiteOptions.defaults(), cache, DuckDbPool.shared());
            String page = new String(remote.get("site/versions/" + version + ".html").orElseThrow().bytes(), StandardCharsets.UTF_8);
            assertThat(page).contains("class=\"preview\"").contains("class=\"stats\"");
            assertThat(data(page)).isEqualTo(data(local));
            // only the data files of the live versions' tables were fetched into the mirror
            Path mirror = cache.dataFolder(Repository.open(remote));
            try (var files = Files.walk(mirror)) {
                assertThat(files.filter(Files::isRegularFile).count()).isBetween(1L, 2L);
            }
            // the same repository, a cache holding the statistics but no data file: nothing is downloaded
            try (var files = Files.walk(mirror)) {
                for (Path p : files.filter(Files::isRegularFile).toList()) Files.delete(p);
            }
            CountingStore counting = new CountingStore(remote);
            String again = new String(Site.render(Repository.open(counting), SiteOptions.defaults(), cache, DuckDbPool.shared())
                    .get("site/versions/" + version + ".html"), StandardCharsets.UTF_8);
            assertThat(data(again)).isEqualTo(data(local));
            assertThat(counting.contentReads).noneMatch(k -> k.startsWith("data/"));
            try (var files = Files.walk(mirror)) {
                assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
            }
        }
    }

    /** Each table's preview and statistics as the page shows them. */
    private static List<String> data(String page) {
        Matcher m = Pattern.compile("<table class=\"(preview|stats)\"[\\s\\S]*?</table>").matcher(page);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) out.add(m.group());
        return out;
    }
}
