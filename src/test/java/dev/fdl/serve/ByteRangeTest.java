package dev.fdl.serve;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** RFC 9110 section 14.1.2 byte ranges as fdl serve reads them, against an object of 100 bytes. */
class ByteRangeTest {
    private static ByteRange of(String header) {
        return ByteRange.parse(header, 100);
    }

    @Test
    void rangesAreClampedToTheObjectAndPositionsBeyondALongStillCount() {
        assertThat(of("bytes=10-19")).isEqualTo(new ByteRange(10, 10));
        assertThat(of("bytes=99-99")).isEqualTo(new ByteRange(99, 1));
        assertThat(of("bytes=90-")).isEqualTo(new ByteRange(90, 10));
        assertThat(of("bytes=-10")).isEqualTo(new ByteRange(90, 10));
        assertThat(of("bytes=0-999")).isEqualTo(new ByteRange(0, 100));
        assertThat(of("bytes=0-99999999999999999999")).isEqualTo(new ByteRange(0, 100));
        assertThat(of("bytes=-99999999999999999999")).isEqualTo(new ByteRange(0, 100));
        assertThat(of("bytes=99999999999999999999-")).isEqualTo(ByteRange.UNSATISFIABLE);
        assertThat(of("bytes=100-")).isEqualTo(ByteRange.UNSATISFIABLE);
        assertThat(of("bytes=-0")).isEqualTo(ByteRange.UNSATISFIABLE);
    }

    @Test
    void malformedOrSeveralRangesAreIgnored() {
        for (String h : new String[] {"bytes=+5-10", "bytes=5-2", "bytes=a-b", "bytes=-", "bytes=1-2,4-5", "items=0-1", "bytes=0x1-2", "bytes=-+3"})
            assertThat(of(h)).as(h).isNull();
    }
}
