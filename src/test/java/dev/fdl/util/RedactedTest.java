package dev.fdl.util;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedactedTest {
    @Test
    void aUrlLosesItsUserInfoAndQueryAndAFolderStaysAsItIs() {
        assertThat(Redacted.location("https://user:token@data.example.org:8443/lake/?X-Amz-Signature=abc"))
                .isEqualTo("https://data.example.org:8443/lake/");
        assertThat(Redacted.location("s3://bucket/prefix/")).isEqualTo("s3://bucket/prefix/");
        assertThat(Redacted.location("/srv/lake repo/")).isEqualTo("/srv/lake repo/");
        assertThat(Redacted.location("https://user:tok en@host/x")).doesNotContain("tok");
    }
}
