package dev.fdl.cli;

import dev.fdl.FdlException;
import picocli.CommandLine.ITypeConverter;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations as retention options take them: a whole number and a unit, {@code 90s},
 * {@code 90m}, {@code 12h}, {@code 30d}, {@code 2w} (a day is 24 hours), a plain number of
 * seconds ({@code 0}, {@code 3600}: as {@code sleep} and most Unix tools read a bare number), or
 * ISO-8601 ({@code PT36H}).
 */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern SHORT = Pattern.compile("(\\d{1,12})([smhdw]?)");

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (dev.fdl.FdlException e) {
            throw new picocli.CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** The duration {@code value} names; a usage error (exit 2) naming it otherwise. */
    static Duration parse(String value) {
        String v = value == null ? "" : value.trim();
        Matcher m = SHORT.matcher(v);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "", "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
        }
        if (v.startsWith("P") || v.startsWith("p")) {
            try {
                Duration d = Duration.parse(v);
                if (!d.isNegative()) return d;
            } catch (DateTimeParseException e) {
                // reported below
            }
        }
        throw FdlException.usage("invalid duration '" + value + "': use a number of seconds (0, 3600) or a number and a unit s, m, h, d or w (e.g. 30d, 12h, 2w)");
    }

    /** A short human form: {@code 7d}, {@code 12h}, {@code 90m}, {@code 45s}. */
    static String format(Duration d) {
        long s = d.getSeconds();
        if (s != 0 && s % 86400 == 0) return s / 86400 + "d";
        if (s != 0 && s % 3600 == 0) return s / 3600 + "h";
        if (s != 0 && s % 60 == 0) return s / 60 + "m";
        return s + "s";
    }
}
