package dev.fdl.repo;

import dev.fdl.FdlException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 17: git's revision syntax wherever a ref or version is taken ({@code HEAD~2}, {@code main^}, {@code v1~1}, {@code main@{date}}). */
class RevisionTest {
    @TempDir Path dir;
    RepoFixture fx;
    Repository repo;
    String v1, v2, v3, side;

    @BeforeEach
    void history() {
        fx = RepoFixture.create(dir);
        repo = fx.repo;
        Path cat = fx.textCatalog(List.of());
        v1 = fx.version(List.of(), Instant.parse("2025-12-20T10:00:00Z"), cat);
        v2 = fx.version(List.of(v1), Instant.parse("2026-01-01T23:30:00Z"), cat);
        v3 = fx.version(List.of(v2), Instant.parse("2026-01-02T00:00:00Z"), cat);
        side = fx.version(List.of(v3, v1), Instant.parse("2026-02-01T00:00:00Z"), cat);
        TestVersions.setBranch(fx.store(), "main", v3);
        TestVersions.setBranch(fx.store(), "merge", side);
        fx.tag("v2", v2);
    }

    private String id(String spec) {
        return repo.resolve(spec).version().id();
    }

    @Test
    void tildeAndCaretFollowParents() {
        assertThat(id("HEAD~2")).isEqualTo(v1);
        assertThat(id("HEAD~")).isEqualTo(v2);
        assertThat(id("main^")).isEqualTo(v2);
        assertThat(id("main^^")).isEqualTo(v1);
        assertThat(id("main~1^")).isEqualTo(v1);
        assertThat(id("main^0")).isEqualTo(v3);
        assertThat(id("v2~1")).isEqualTo(v1);
        assertThat(id("refs/tags/v2^")).isEqualTo(v1);
        assertThat(id(v3.substring(0, 13) + "~2")).isEqualTo(v1);
        assertThat(id("merge^2")).isEqualTo(v1);
        assertThat(id("merge~1")).isEqualTo(v3);
        assertThat(id("merge^1")).isEqualTo(v3);
        assertThat(id("merge^2^0")).isEqualTo(v1);
        assertThat(id("merge^1~2")).as("first parent, then two first parents").isEqualTo(v1);
        assertThat(id(side.substring(0, 13) + "^2")).isEqualTo(v1);
    }

    @Test
    void dateNamesTheNewestVersionCreatedAtOrBeforeIt() {
        assertThat(id("main@{2026-01-01}")).as("a day includes its whole (UTC) length").isEqualTo(v2);
        assertThat(id("main@{2026-01-02}")).isEqualTo(v3);
        assertThat(id("main@{2025-12-31}")).isEqualTo(v1);
        assertThat(id("@{2026-01-01}")).as("alone: HEAD's branch").isEqualTo(v2);
        assertThat(id("main@{2026-01-01T23:29:59Z}")).isEqualTo(v1);
        assertThat(id("main@{2026-01-01T23:30:00Z}")).isEqualTo(v2);
        assertThat(id("main@{2026-01-01T23:30}")).isEqualTo(v2);
        assertThat(id("main@{2026-01-02}~1")).isEqualTo(v2);
    }

    private void notFound(String spec, String... parts) {
        assertThatThrownBy(() -> repo.resolve(spec))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND))
                .satisfies(e -> assertThat(e.getMessage()).contains(parts));
    }

    @Test
    void errorsSayWhatWasNotFound() {
        notFound("HEAD~3", "HEAD~3", v1, "has no parent");
        notFound("main^2", v3, "1 parent, not 2: only a merge version has a second parent", "fdl log --graph main");
        notFound("merge^3", side, "(merge) has 2 parents, not 3");
        notFound("merge^2~1", v1, "(merge^2) has no parent");
        notFound("merge^2^2", v1, "(merge^2) has no parent");
        notFound("main@{2025-12-01}", "no version of main", "2025-12-01", v1);
        notFound("mian~1", "'mian'");
        assertThatThrownBy(() -> repo.resolve("main@{yesterday}"))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                .hasMessageContaining("'yesterday' is not a date");
        assertThatThrownBy(() -> repo.resolve("main~x"))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                .hasMessageContaining("main~x");
    }

    @Test
    void aMissingParentIsNamed() {
        fx.store().delete(RepoLayout.versionJson(v1));
        notFound("main~2", "parent " + v1, "missing");
    }

    @Test
    void refsAreCreatedAtARevision() {
        repo.createTag(new RefName("before"), "main~1");
        assertThat(id("before")).isEqualTo(v2);
    }
}
