package dev.fdl.util;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PluralTest {
    @Test
    void oneIsSingularEveryOtherCountPlural() {
        assertThat(Plural.of(1, "row")).isEqualTo("1 row");
        assertThat(Plural.of(0, "row")).isEqualTo("0 rows");
        assertThat(Plural.of(2, "data file")).isEqualTo("2 data files");
        assertThat(Plural.grouped(1234, "version")).isEqualTo("1,234 versions");
        assertThat(Plural.grouped(1, "version")).isEqualTo("1 version");
    }
}
