package dev.fdl.util;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * {@link Instant#parse} with a quick path for the form fdl writes in version.json
 * ({@code created_at}, RFC 3339 in UTC: {@code 2026-12-01T18:17:04.123Z}). {@code fdl log} reads a
 * version.json per version, and in a fresh JVM {@code Instant.parse}'s general formatter took about
 * as long as reading and parsing the JSON around it (fast to start). Any text that is not
 * exactly {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} with a valid date and time goes to
 * {@code Instant.parse}, so what is accepted, the instant returned and the errors are its.
 */
public final class Instants {
    private Instants() {}

    /**
     * The instant {@code text} names, as {@link Instant#parse} gives it.
     *
     * @throws java.time.format.DateTimeParseException when {@code Instant.parse} refuses {@code text}
     */
    public static Instant parse(String text) {
        Instant quick = quick(text);
        return quick != null ? quick : Instant.parse(text);
    }

    /** The instant of {@code yyyy-MM-ddTHH:mm:ss[.f…]Z} (0 to 9 fraction digits, as Instant.parse takes them), or null for any other text. */
    private static Instant quick(String s) {
        int n = s.length();
        if (n < 20 || n > 30 || s.charAt(n - 1) != 'Z' || s.charAt(4) != '-' || s.charAt(7) != '-'
                || s.charAt(10) != 'T' || s.charAt(13) != ':' || s.charAt(16) != ':' || (n > 20 && s.charAt(19) != '.'))
            return null;
        int year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
        int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
        int nano = n > 20 ? digits(s, 20, n - 21) : 0;
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || nano < 0) return null;
        for (int i = n - 21; i < 9 && n > 20; i++) nano *= 10;
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second, nano).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return null; // Instant.parse words the error
        }
    }

    /** The number written by {@code count} ASCII digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
