package dev.fdl.util;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Instants#parse} gives what {@link Instant#parse} gives, on the quick path and off it. */
class InstantsTest {
    @Test
    void theFormFdlWritesParsesAsInstantParseDoes() {
        for (String s : List.of("2026-12-01T18:17:04Z", "2026-12-01T18:17:04.1Z", "2026-12-01T18:17:04.12Z",
                "2026-12-01T18:17:04.123Z", "2026-12-01T18:17:04.123456Z", "2026-12-01T18:17:04.123456789Z",
                "2026-12-01T18:17:04.000000001Z", "2024-02-29T00:00:00Z", "1999-12-31T23:59:59.999Z", "0001-01-01T00:00:00Z",
                "1970-01-01T00:00:00Z", "2026-01-31T09:05:07.050Z"))
            assertThat(Instants.parse(s)).as(s).isEqualTo(Instant.parse(s));
    }

    @Test
    void otherTextIsLeftToInstantParseWithItsResultOrItsError() {
        for (String s : List.of("2026-12-01T23:59:60Z", "+12026-12-01T18:17:04Z", "2026-12-01T18:17:04+00:00"))
            sameAsInstantParse(s);
        for (String s : List.of("2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
                "2026-12-01T24:00:00Z", "2026-12-01T18:60:00Z", "2026-12-01T18:17:04.Z", "2026-12-01T18:17:04.1234567890Z",
                "2026-12-01T18:17:04z", "2026-12-01 18:17:04Z", "2026-12-01T18:17:4Z", "2026-1a-01T18:17:04Z", "2026-12-01T18:17:04",
                "2026-12-01T18:17:04.-1Z", "", "2026-12-01"))
            sameAsInstantParse(s);
    }

    private static void sameAsInstantParse(String s) {
        Instant expected;
        try {
            expected = Instant.parse(s);
        } catch (DateTimeParseException e) {
            assertThatThrownBy(() -> Instants.parse(s)).as(s).isInstanceOf(DateTimeParseException.class).hasMessage(e.getMessage());
            return;
        }
        assertThat(Instants.parse(s)).as(s).isEqualTo(expected);
    }
}
