package dev.fdl.util;

import java.util.Locale;

/** A count with its noun in the number English gives it: "1 row", "0 rows", "2 data files". */
public final class Plural {
    private Plural() {}

    /** {@code n} and {@code noun}, with an {@code s} added unless {@code n} is 1 (nouns fdl counts: row, file, version, snapshot…). */
    public static String of(long n, String noun) {
        return n + " " + noun(n, noun);
    }

    /** As {@link #of}, with the digits grouped ({@code 1,234 rows}). */
    public static String grouped(long n, String noun) {
        return String.format(Locale.ROOT, "%,d ", n) + noun(n, noun);
    }

    /** {@code noun} as it follows the count {@code n}: itself for 1, with an {@code s} otherwise. */
    public static String noun(long n, String noun) {
        return n == 1 ? noun : noun + "s";
    }
}
