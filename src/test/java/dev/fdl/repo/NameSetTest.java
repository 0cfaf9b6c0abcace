package dev.fdl.repo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NameSetTest {
    @Test
    void holdsExactlyTheNamesAddedAcrossGrowth() {
        NameSet set = new NameSet(16);
        for (int i = 0; i < 200_000; i++) assertThat(set.add("main/towns/ducklake-" + i + ".parquet")).isTrue();
        assertThat(set.add("main/towns/ducklake-7.parquet")).isFalse();
        assertThat(set.size()).isEqualTo(200_000);
        for (int i = 0; i < 200_000; i++) assertThat(set.contains("main/towns/ducklake-" + i + ".parquet")).isTrue();
        for (int i = 200_000; i < 400_000; i++) assertThat(set.contains("main/towns/ducklake-" + i + ".parquet")).isFalse();
        assertThat(set.contains("")).isFalse();
        assertThat(set.contains("main/towns/ducklake-1.parquet ")).isFalse();
    }

    @Test
    void namesResolveAgainstTheCatalogsDataPathThenTheRepositorysAndNeverEscapeIt() {
        String repoData = "/r/data/";
        assertThat(new NamedFile("/old/data/", "/old/data/main/t/f.parquet", false, 1).nameIn(repoData)).isEqualTo("main/t/f.parquet");
        assertThat(new NamedFile("/old/data", "/old/data/main/t/f.parquet", false, 1).nameIn(repoData)).isEqualTo("main/t/f.parquet");
        assertThat(new NamedFile("/old/data/", "/r/data/x.parquet", false, 1).nameIn(repoData)).isEqualTo("x.parquet");
        assertThat(new NamedFile("s3://b/p/data/", "s3://b/p/data/main/x.parquet", true, 1).nameIn("s3://b/p/data/")).isEqualTo("main/x.parquet");
        assertThat(new NamedFile("/old/data/", "/elsewhere/x.parquet", false, 1).nameIn(repoData)).isNull();
        for (String bad : new String[]{"../x.parquet", "a/../../x", "a//b", "./a", "a/./b", "a/", "", "a\\b"})
            assertThat(new NamedFile("/old/data/", "/old/data/" + bad, false, 1).nameIn(repoData)).as(bad).isNull();
        assertThat(new NamedFile("/old/data/", "/old/data/.hidden/..x/a.parquet", false, 1).nameIn(repoData)).isEqualTo(".hidden/..x/a.parquet");
    }
}
