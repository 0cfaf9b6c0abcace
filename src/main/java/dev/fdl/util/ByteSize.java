package dev.fdl.util;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes in bytes as people write them, with DuckDB's units: a number and an optional unit,
 * {@code B}, {@code KB}/{@code MB}/{@code GB}/{@code TB} (powers of 1000) or
 * {@code KiB}/{@code MiB}/{@code GiB}/{@code TiB} (powers of 1024), any case, a space allowed
 * between: {@code 64MB}, {@code 512 MiB}, {@code 1000000}.
 */
public final class ByteSize {
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*");

    private ByteSize() {}

    /**
     * The bytes {@code text} names, or -1 when it names none (no number, an unknown unit, zero, or
     * more than a long holds).
     */
    public static long parse(String text) {
        if (text == null) return -1;
        Matcher m = SIZE.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) return -1;
        long unit = switch (m.group(2)) {
            case "", "b", "byte", "bytes" -> 1L;
            case "k", "kb" -> 1000L;
            case "m", "mb" -> 1000L * 1000;
            case "g", "gb" -> 1000L * 1000 * 1000;
            case "t", "tb" -> 1000L * 1000 * 1000 * 1000;
            case "kib" -> 1L << 10;
            case "mib" -> 1L << 20;
            case "gib" -> 1L << 30;
            case "tib" -> 1L << 40;
            default -> -1L;
        };
        if (unit < 0) return -1;
        double bytes = Double.parseDouble(m.group(1)) * unit;
        if (bytes < 1 || bytes >= Long.MAX_VALUE) return -1;
        return (long) bytes;
    }
}
