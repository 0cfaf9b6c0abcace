package dev.fdl.util;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;

/** Version ids: UUIDv7 (RFC 9562), time-ordered, so that id order is creation order (SPEC.md section 3). */
public final class VersionIds {

    /** Made on first use: the generator's SecureRandom loads the JDK's security providers, which reading commands never need. */
    private static final class Gen {
        static final TimeBasedEpochGenerator INSTANCE = Generators.timeBasedEpochGenerator();
    }

    private VersionIds() {}

    /** A new UUIDv7 in lower-case text form. */
    public static String next() {
        return Gen.INSTANCE.generate().toString();
    }

    /**
     * True for a lower-case textual UUID (the only form fdl writes into refs and keys):
     * {@code 8-4-4-4-12} hex digits. Checked by hand, not by a pattern: log checks each version's
     * id and parents, and a fresh JVM runs a regex matcher interpreted.
     */
    public static boolean isValid(String s) {
        if (s == null || s.length() != 36) return false;
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? c == '-' : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
            if (!ok) return false;
        }
        return true;
    }

    /** True for something that could be the start of a version id (4+ lower-case hex digits/dashes). */
    public static boolean isPrefix(String s) {
        return s != null && s.length() >= 4 && s.length() <= 36 && s.matches("[0-9a-f][0-9a-f-]*");
    }
}
