package dev.fdl.serve;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The request path's own refusals (RequestPath), apart from the store's key check that also
 * refuses {@code ..} (RepoServerTest sends the same forms through the server).
 */
class RequestPathTest {
    @Test
    void dotSegmentsEmptySegmentsBackslashesAndControlCharactersAreRefusedAfterOneDecoding() {
        for (String raw : List.of("/../a", "/a/..", "/a/../b", "/%2e%2e/a", "/a/%2E%2E/b", "/./a", "/a/.", "/.%2e/a", "//a", "/a//b",
                "/a%5cb", "/a\\b", "/a%00b", "/%c0%ae%c0%ae/a", "/a%2", "/a%zz", "a", "/é"))
            assertThatThrownBy(() -> RequestPath.key(raw)).as(raw).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPathIsDecodedExactlyOnce() {
        assertThat(RequestPath.key("/")).isEmpty();
        assertThat(RequestPath.key("/versions/")).isEqualTo("versions/");
        assertThat(RequestPath.key("/a%20b/c.txt")).isEqualTo("a b/c.txt");
        assertThat(RequestPath.key("/%252e%252e/a")).isEqualTo("%2e%2e/a");
        assertThat(RequestPath.key("/..a/b..")).isEqualTo("..a/b..");
    }

    @Test
    void theRawPathOfOriginAndAbsoluteFormsLeavesTheQueryOut() {
        assertThat(RepoServer.rawPath("/a/b?x=1")).isEqualTo("/a/b");
        assertThat(RepoServer.rawPath("http://127.0.0.1:8321/a/%2e%2e/b?q")).isEqualTo("/a/%2e%2e/b");
        assertThat(RepoServer.rawPath("http://127.0.0.1:8321")).isEqualTo("/");
        assertThatThrownBy(() -> RepoServer.rawPath("*")).isInstanceOf(IllegalArgumentException.class);
    }
}
