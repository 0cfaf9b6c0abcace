package dev.fdl.retention;

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
}
