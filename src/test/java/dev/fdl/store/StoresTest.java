package dev.fdl.store;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How {@link Stores} reads a root: a folder path and a file:// URL are local, other URLs are not. */
class StoresTest {
    @Test
    void folderPathsAndFileUrlsAreLocal() {
        assertThat(Stores.localPath("/data/repo")).contains(Path.of("/data/repo"));
        assertThat(Stores.localPath("file:///data/my%20repo")).contains(Path.of("/data/my repo"));
        assertThat(Stores.localPath("s3://bucket/prefix/")).isEmpty();
        assertThat(Stores.localPath("https://example.org/repo/")).isEmpty();
    }

    @Test
    void aBadFileUrlAndAnUnknownSchemeAreUsageErrors() {
        assertThatThrownBy(() -> Stores.localPath("file:relative"))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                .hasMessageContaining("invalid file URL 'file:relative'");
        assertThatThrownBy(() -> Stores.open("ftp://example.org/repo/"))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                .hasMessageContaining("unsupported repository root 'ftp://example.org/repo/'");
    }
}
