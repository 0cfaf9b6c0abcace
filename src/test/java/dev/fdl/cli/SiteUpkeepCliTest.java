package dev.fdl.cli;

import dev.fdl.repo.RepoFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** expire and gc keep the site in step (site.auto) or say it is stale (docs/site.md). */
class SiteUpkeepCliTest {
    @TempDir Path tmp;
    RepoFixture fx;

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
    }

    Cli.Result fdl(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--repo");
        all.add(fx.root.toString());
        Cli.Result r = Cli.run(all.toArray(String[]::new));
        assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isZero();
        return r;
    }

    String page(String id) throws Exception {
        return Files.readString(fx.root.resolve("site/versions/" + id + ".html"));
    }

    @Test
    void withSiteAutoExpireRewritesTheExpiredVersionsPagesWithoutAttachStatements() throws Exception {
        List<String> v = new ArrayList<>();
        for (int i = 0; i < 3; i++) v.add(fx.commit("main", List.of()));
        fdl("site", "--auto", "true", "--no-stat");
        assertThat(page(v.get(0))).contains("ATTACH").doesNotContain("This version expired");

        Cli.Result r = fdl("expire", "--keep", "1");
        assertThat(r.out()).contains("Expired 2 version(s)", " site: ");
        assertThat(r.err()).doesNotContain("stale");
        for (String id : v.subList(0, 2)) assertThat(page(id)).contains("This version expired").doesNotContain("ATTACH");
        assertThat(page(v.get(2))).contains("ATTACH");

        assertThat(fdl("expire", "--keep", "1", "--json").out()).doesNotContain("site_pages_written"); // nothing expired: nothing to redo
    }

    @Test
    void tagAndBranchKeepTheSiteInStepOrSayItIsStale() throws Exception {
        String v = fx.commit("main", List.of());
        fdl("site", "--auto", "true", "--no-stat");
        Cli.Result tag = fdl("tag", "v1", v);
        assertThat(tag.out()).contains(" site: ");
        assertThat(Files.readString(fx.root.resolve("index.html"))).contains("v1");
        assertThat(fdl("tag", "v2", v, "--json").out()).doesNotContain("site:"); // JSON stays JSON
        fdl("tag", "-d", "v1");
        assertThat(Files.readString(fx.root.resolve("index.html"))).doesNotContain("v1").contains("v2");

        fdl("site", "--auto", "false", "--no-stat");
        Cli.Result branch = fdl("branch", "dev", v);
        assertThat(branch.err()).isEqualTo(SiteUpkeep.STALE + "\n");
        assertThat(branch.out()).doesNotContain("site:");
    }

    @Test
    void withoutSiteAutoExpireAndGcSayTheSiteIsStale() {
        List<String> v = new ArrayList<>();
        for (int i = 0; i < 3; i++) v.add(fx.commit("main", List.of()));
        assertThat(fdl("expire", "--keep", "2").err()).doesNotContain("stale"); // no site: nothing to say

        fdl("site", "--no-stat");
        Cli.Result r = fdl("expire", "--keep", "1");
        assertThat(r.err()).isEqualTo(SiteUpkeep.STALE + "\n");
        assertThat(r.out()).doesNotContain("site:");
        assertThat(fdl("expire", "--keep", "1", "--dry-run").err()).isEmpty();
    }

    @Test
    void withSiteAutoGcRemovesThePagesOfTheVersionsItDeletes() throws Exception {
        fx.copyFixtureData("towns", RepoFixture.OLD); // gc reads real catalogs
        String v1 = fx.commit("main", fx.fixtureCatalog("towns"));
        String v2 = fx.commit("main", fx.fixtureCatalog("towns"));
        String v3 = fx.version(List.of(v2), java.time.Instant.now(), fx.fixtureCatalog("towns")); // reached through a tag only
        fx.tag("t", v3);
        fdl("site", "--auto", "true", "--no-stat");
        assertThat(Files.exists(fx.root.resolve("site/versions/" + v3 + ".html"))).isTrue();
        fx.store.delete(dev.fdl.repo.RepoLayout.refKey(dev.fdl.repo.RefValue.Kind.TAG, new dev.fdl.repo.RefName("t"))); // not through fdl tag -d, which would already redo the site

        Cli.Result r = fdl("gc", "--grace", "0s", "--cache-dir", tmp.resolve("cache").toString());
        assertThat(r.out()).contains("Deleted 1 unreachable version(s)", " site: ");
        assertThat(Files.exists(fx.root.resolve("site/versions/" + v3 + ".html"))).isFalse();
        assertThat(Files.exists(fx.root.resolve("site/versions/" + v1 + ".html"))).isTrue();

        fdl("site", "--auto", "false", "--no-stat");
        String v4 = fx.version(List.of(v2), java.time.Instant.now(), fx.fixtureCatalog("towns")); // lost a race: no ref reaches it
        assertThat(v4).isNotNull();
        assertThat(fdl("gc", "--grace", "0s", "--cache-dir", tmp.resolve("cache").toString()).err()).contains(SiteUpkeep.STALE);
    }
}
