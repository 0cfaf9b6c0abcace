package dev.fdl.repo;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** fdl.json's {@code target_file_size}: a JSON number in any of RFC 8259's spellings, when whole. */
class RepoConfigTargetFileSizeTest {
    private static RepoConfig config(String size) {
        return RepoConfig.parse(("{\"fdl\": \"" + FormatVersion.CURRENT + "\", \"id\": \"x\", \"data_dir\": \"data/\", "
                + "\"target_file_size\": " + size + "}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void exponentFormIsTheWholeNumberItSpells() {
        assertThat(config("1e9").targetFileSize()).isEqualTo(1_000_000_000L);
        assertThat(config("5.12E8").targetFileSize()).isEqualTo(512_000_000L);
        assertThat(config("1000000").targetFileSize()).isEqualTo(1_000_000L);
        assertThat(config("\"64MB\"").targetFileSize()).isEqualTo(64_000_000L);
    }

    @Test
    void aFractionOfAByteIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> config("1.5").targetFileSize()).isInstanceOf(FdlException.class)
                .hasMessageContaining("target_file_size").hasMessageContaining("1.5");
        assertThatThrownBy(() -> config("1e30").targetFileSize()).isInstanceOf(FdlException.class);
    }
}
