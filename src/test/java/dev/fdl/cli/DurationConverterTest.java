package dev.fdl.cli;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 17: retention durations accept 0 and plain seconds as well as 7d, 12h, 30m. */
class DurationConverterTest {
    @Test
    void zeroAndPlainSecondsAreDurations() {
        assertThat(DurationConverter.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(DurationConverter.parse("3600")).isEqualTo(Duration.ofHours(1));
        assertThat(DurationConverter.parse(" 90 ".trim())).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void unitsAndIsoStillWork() {
        assertThat(DurationConverter.parse("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(DurationConverter.parse("12h")).isEqualTo(Duration.ofHours(12));
        assertThat(DurationConverter.parse("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(DurationConverter.parse("0s")).isEqualTo(Duration.ZERO);
        assertThat(DurationConverter.parse("2w")).isEqualTo(Duration.ofDays(14));
        assertThat(DurationConverter.parse("PT36H")).isEqualTo(Duration.ofHours(36));
    }

    @Test
    void badDurationsAreUsageErrorsNamingTheValue() {
        for (String bad : new String[]{"", "-1", "7 days", "1.5h", "h", "7y"})
            assertThatThrownBy(() -> DurationConverter.parse(bad))
                    .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE))
                    .hasMessageContaining("'" + bad + "'").hasMessageContaining("seconds");
    }

    @Test
    void gcTakesAZeroGraceOnTheCommandLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        Cli.ok(dir, "gc", "--repo", dir.resolve("repo").toString(), "--grace", "0", "--dry-run");
        assertThat(Cli.in(dir, "expire", "--repo", dir.resolve("repo").toString(), "--keep", "1", "--older-than", "86400", "--dry-run").exit()).isZero();
    }
}
