package dev.fdl.site;

import dev.fdl.repo.Repository;
import dev.fdl.repo.TestVersions;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The site walks every parent: a version only a merge's second parent reaches gets its page and is counted. */
class SiteMergeTest {
    @TempDir Path dir;

    @Test
    void aVersionReachedOnlyThroughASecondParentIsListed() {
        SiteRepo towns = SiteRepo.copy(dir);
        Map<String, byte[]> pages;
        String side, merge;
        try (LocalStore store = new LocalStore(towns.root)) {
            Repository repo = Repository.open(store);
            VersionInfo first = repo.readVersion(towns.first).orElseThrow(), third = repo.readVersion(towns.third).orElseThrow();
            side = TestVersions.copyWithParents(store, first, List.of(towns.first), "side work");
            merge = TestVersions.copyWithParents(store, third, List.of(towns.third, side), "merge side");
            TestVersions.setBranch(store, "main", merge);
            pages = Site.render(Repository.open(store), SiteOptions.defaults());
        }
        assertThat(pages).containsKey("site/versions/" + side + ".html");
        String index = new String(pages.get("index.html"), StandardCharsets.UTF_8);
        assertThat(index).contains("<span id=\"version-count\">5</span> versions");
        String mergePage = new String(pages.get("site/versions/" + merge + ".html"), StandardCharsets.UTF_8);
        assertThat(mergePage).contains("parents (merge)")
                .contains("<a class=\"id\" href=\"" + towns.third + ".html\">")
                .contains("<a class=\"id\" href=\"" + side + ".html\">");
    }
}
