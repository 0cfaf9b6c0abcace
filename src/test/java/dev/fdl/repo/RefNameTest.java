package dev.fdl.repo;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RefNameTest {
    @Test
    void acceptsGitStyleNames() {
        for (String ok : new String[]{"main", "feature/x", "2025-final", "v1.0", "a-b_c", "ünïcødé"})
            assertThat(new RefName(ok).name()).isEqualTo(ok);
    }

    @Test
    void refusesNamesGitRefuses() {
        for (String bad : new String[]{"", "../x", "a..b", "x.lock", "a/b.lock/c", "-x", "a b", "a\tb", "/a", "a/", "a.", ".a", "a/.b", "@", "a@{b", "x".repeat(256), "refs/heads/x", "refs/tags/v1"})
            assertThatThrownBy(() -> new RefName(bad)).isInstanceOf(FdlException.class)
                    .satisfies(e -> assertThat(((FdlException) e).kind()).isEqualTo(FdlException.Kind.USAGE));
    }
}
