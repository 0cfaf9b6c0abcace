package dev.fdl.cli;

import dev.fdl.store.S3MockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The main job: fdl demo on the shipped months, on a folder and on S3. */
@dev.fdl.store.UsesS3Mock
class DemoTest {
    @TempDir Path dir;

    @Test
    void demoBuildsSixVersionsTagsThemAndLeavesARepositoryThatVerifies() throws Exception {
        Cli.Result r = Cli.ok(dir, "demo");
        assertThat(r.out()).contains("--mode sync --key geonameid: 28,500 rows (+28,500 -0 ~0)")
                .contains("--mode sync --key geonameid: 33,073 rows (+459 -13 ~159)")
                .contains("== fdl diff --stat 2024-10-04 2026-01-01").containsPattern(" main\\.cities \\| \\+\\d+ -\\d+ ~[1-9]\\d*")
                .contains("(HEAD -> main, tag: 2026-01-01)").contains("(tag: 2024-10-04)")
                .contains("India").contains("28,500 cities → 33,073")
                .contains("ATTACH 'ducklake:" + dir.resolve("fdl-demo/repo")).contains("CC-BY-4.0");
        Path repo = dir.resolve("fdl-demo/repo");
        assertThat(Cli.ok(dir, "verify", "--repo", repo.toString()).exit()).isZero();
        // compact catalogs: 16 KiB blocks and a fresh file after history truncation: 307,200 and
        // 323,584 bytes (19 blocks: DuckDB's floor for these tables, docs/catalog.md); with DuckDB's default
        // 256 KiB blocks each was 3.4-4.5 MB, without the fresh file up to 405,504 bytes (before the recorded key)
        try (var versions = Files.list(repo.resolve("versions"))) {
            for (Path v : versions.toList())
                assertThat(Files.size(v.resolve("ducklake.duckdb"))).as(v + " catalog bytes").isLessThan(330_000);
        }
        assertThat(Cli.ok(dir.resolve("fdl-demo/work"), "query", "2024-10-04", "SELECT count(*) FROM cities").out()).contains("28500");
        assertThat(Cli.ok(dir, "log", "--repo", repo.toString(), "--oneline").out().lines()).hasSize(6);
        // a second run replaces the previous demo
        Cli.ok(dir, "demo");
        assertThat(Cli.ok(dir, "log", "--repo", repo.toString(), "--oneline").out().lines()).hasSize(6);
    }

    @Test
    void demoRefusesAFolderItDidNotMake() throws Exception {
        Files.createDirectories(dir.resolve("fdl-demo"));
        Files.writeString(dir.resolve("fdl-demo/mine.txt"), "precious");
        Cli.Result r = Cli.in(dir, "demo");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("is not an fdl demo folder");
        assertThat(dir.resolve("fdl-demo/mine.txt")).hasContent("precious");
    }

    @Test
    void demoRunsOnAnS3Root() {
        S3MockServer s3 = S3MockServer.shared();
        s3.installSystemProperties();
        String root = s3.newRoot();
        Cli.Result r = Cli.ok(dir, "demo", "--root", root);
        assertThat(r.out()).contains("ATTACH 'ducklake:" + root + "versions/").contains("LOAD httpfs;");
        assertThat(Cli.ok(dir, "query", "--repo", root, "2026-01-01", "SELECT count(*) FROM cities").out()).contains("33073");
    }
}
