package dev.fdl.ducklake.catalog;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NamedFileTest {
    @Test
    void namesResolveAgainstTheCatalogsDataPathThenTheRepositorysAndNeverEscapeIt() {
        String repoData = "/r/data/";
        assertThat(new NamedFile("/old/data/", "/old/data/main/t/f.parquet", false, 1, true).nameIn(repoData)).isEqualTo("main/t/f.parquet");
        assertThat(new NamedFile("/old/data", "/old/data/main/t/f.parquet", false, 1, true).nameIn(repoData)).isEqualTo("main/t/f.parquet");
        assertThat(new NamedFile("/old/data/", "/r/data/x.parquet", false, 1, true).nameIn(repoData)).isEqualTo("x.parquet");
        assertThat(new NamedFile("s3://b/p/data/", "s3://b/p/data/main/x.parquet", true, 1, true).nameIn("s3://b/p/data/")).isEqualTo("main/x.parquet");
        assertThat(new NamedFile("/old/data/", "/elsewhere/x.parquet", false, 1, true).nameIn(repoData)).isNull();
        assertThat(new NamedFile("", "/elsewhere/x.parquet", false, 1, true).nameIn(repoData)).as("no data_path recorded").isNull();
        for (String bad : new String[]{"../x.parquet", "a/../../x", "a//b", "./a", "a/./b", "a/", "", "a\\b"})
            assertThat(new NamedFile("/old/data/", "/old/data/" + bad, false, 1, true).nameIn(repoData)).as(bad).isNull();
        assertThat(new NamedFile("/old/data/", "/old/data/.hidden/..x/a.parquet", false, 1, true).nameIn(repoData)).isEqualTo(".hidden/..x/a.parquet");
    }
}
