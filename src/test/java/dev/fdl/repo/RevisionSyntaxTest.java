package dev.fdl.repo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** RevisionResolver's one rule for which specs name HEAD and where suffixes start, as the CLI asks it. */
class RevisionSyntaxTest {
    @Test
    void headAndAtNameHeadWithEverySuffix() {
        assertThat(RevisionResolver.afterHead("HEAD")).isEqualTo("");
        assertThat(RevisionResolver.afterHead("@")).isEqualTo("");
        assertThat(RevisionResolver.afterHead("HEAD~2")).isEqualTo("~2");
        assertThat(RevisionResolver.afterHead("@~2")).isEqualTo("~2");
        assertThat(RevisionResolver.afterHead("HEAD^2~1")).isEqualTo("^2~1");
        assertThat(RevisionResolver.afterHead("@^")).isEqualTo("^");
        assertThat(RevisionResolver.afterHead("HEAD@{2026-01-01}")).isEqualTo("@{2026-01-01}");
        assertThat(RevisionResolver.afterHead("@{2026-01-01}")).isEqualTo("@{2026-01-01}");
    }

    @Test
    void otherRefsAndUnreadableSuffixesDoNotNameHead() {
        assertThat(RevisionResolver.afterHead("main~1")).isNull();
        assertThat(RevisionResolver.afterHead("HEADS")).isNull();
        assertThat(RevisionResolver.afterHead("HEAD@")).isNull();
        assertThat(RevisionResolver.afterHead("HEAD~x")).isNull(); // resolution names the bad suffix
        assertThat(RevisionResolver.afterHead("")).isNull();
    }

    @Test
    void theBaseNameIsWhatPrecedesTheFirstSuffix() {
        assertThat(RevisionResolver.baseName("abcd~1")).isEqualTo("abcd");
        assertThat(RevisionResolver.baseName("abcd@{2026-01-01}")).isEqualTo("abcd");
        assertThat(RevisionResolver.baseName("abcd")).isEqualTo("abcd");
        assertThat(RevisionResolver.baseName("abcd~x")).isNull();
        assertThat(RevisionResolver.isDateAlone("@{2026-01-01}")).isTrue();
        assertThat(RevisionResolver.isDateAlone("main@{2026-01-01}")).isFalse();
    }
}
