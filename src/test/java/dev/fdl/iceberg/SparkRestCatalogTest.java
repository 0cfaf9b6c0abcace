package dev.fdl.iceberg;

import dev.fdl.repo.Repository;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.LocalStore;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md, "REST catalog" and "History": Apache Spark pointed at {@code fdl serve}'s one URL
 * sees the repository's tables and reads a tag through {@code VERSION AS OF}, a branch through
 * Iceberg's {@code branch_<name>} suffix and main as the table itself, each equal to {@code fdl query}
 * of the same ref.
 */
class SparkRestCatalogTest {
    @TempDir Path dir;

    @Test
    void sparkReadsEveryRefThroughFdlServesRestCatalog() throws Exception {
        IcebergHistoryCliTest.threeVersions(dir);
        Path root = dir.resolve("repo"), wc = dir.resolve("wc");
        String repo = root.toString();
        LocalStore store = new LocalStore(root);
        try (RepoServer server = RepoServer.start(store, SiteOptions.of(Repository.open(store).config()), "127.0.0.1", 0)) {
            SparkSession spark = SparkIceberg.session();
            SparkIceberg.restCatalog(spark, "served", server.url().toString());

            List<String> tables = spark.sql("SHOW TABLES IN served.main").collectAsList().stream().map(r -> r.getString(1)).toList();
            assertThat(tables).containsExactly("t");
            List<String> atTag = SparkIceberg.rows(spark.sql("SELECT * FROM served.main.t VERSION AS OF 'v1'"));
            assertThat(atTag).isEqualTo(IcebergRows.fdl(wc, repo, "v1", "t")).hasSize(3);
            List<String> onBranch = SparkIceberg.rows(spark.sql("SELECT * FROM served.main.t.branch_staging"));
            assertThat(onBranch).isEqualTo(IcebergRows.fdl(wc, repo, "staging", "t")).hasSize(4);
            List<String> onMain = SparkIceberg.rows(spark.sql("SELECT * FROM served.main.t"));
            assertThat(onMain).isEqualTo(IcebergRows.fdl(wc, repo, "main", "t")).isNotEqualTo(onBranch);
        }
    }
}
