package dev.fdl.site;

import dev.fdl.cli.Cli;
import dev.fdl.repo.Repository;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A version page's preview rows name, per row, the version that last added or changed it (docs/history.md), linked to its page. */
class SitePreviewBlameTest {
    @TempDir Path dir;

    private String commit(Path wc, String message) throws Exception {
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", message, "--json").out()).get("id").asText();
    }

    @Test
    void eachPreviewRowLinksTheVersionThatLastChangedIt() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", Files.writeString(dir.resolve("a.csv"), "id,v\n1,a\n2,b\n3,c\n").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        String first = commit(wc, "first");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("b.csv"), "id,v\n1,a\n2,B\n3,c\n4,d\n").toString(), "--table", "t", "--mode", "sync");
        String second = commit(wc, "second");
        Map<String, byte[]> pages;
        try (ObjectStore store = new LocalStore(dir.resolve("repo"))) {
            pages = Site.render(Repository.open(store), SiteOptions.defaults(), dev.fdl.cache.CatalogCache.fromEnvironment(),
                    dev.fdl.ducklake.engine.DuckDbPool.shared());
        }
        String page = new String(pages.get("site/versions/" + second + ".html"), StandardCharsets.UTF_8);
        // git blame's rule: rows 1 and 3 are as the first version added them, 2 changed and 4 was added in the second
        Map<String, String> expected = Map.of("1", first, "2", second, "3", first, "4", second);
        Matcher m = Pattern.compile("<tr><td class=\"blame\"><a class=\"id\" href=\"([0-9a-f-]+)\\.html\"[^>]*>[^<]*</a></td><td>([^<]*)</td>")
                .matcher(page);
        Map<String, String> got = new java.util.HashMap<>();
        while (m.find()) got.put(m.group(2), m.group(1));
        assertThat(got).isEqualTo(expected);
        assertThat(page).contains("<th class=\"blame\"");
        // the first version's page blames its own rows on itself
        String firstPage = new String(pages.get("site/versions/" + first + ".html"), StandardCharsets.UTF_8);
        assertThat(firstPage).contains("href=\"" + first + ".html\"").doesNotContain("href=\"" + second + ".html\"");
    }
}
