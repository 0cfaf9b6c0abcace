package dev.fdl.util;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;

import java.util.regex.Pattern;

/** Version ids: UUIDv7 (RFC 9562), time-ordered, so that id order is creation order (SPEC.md section 3). */
public final class VersionIds {
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /** Made on first use: the generator's SecureRandom loads the JDK's security providers, which reading commands never need. */
    private static final class Gen {
        static final TimeBasedEpochGenerator INSTANCE = Generators.timeBasedEpochGenerator();
    }

    private VersionIds() {}

    /** A new UUIDv7 in lower-case text form. */
    public static String next() {
        return Gen.INSTANCE.generate().toString();
    }

    /** True for a lower-case textual UUID (the only form fdl writes into refs and keys). */
    public static boolean isValid(String s) {
        return s != null && UUID_TEXT.matcher(s).matches();
    }

    /** True for something that could be the start of a version id (4+ lower-case hex digits/dashes). */
    public static boolean isPrefix(String s) {
        return s != null && s.length() >= 4 && s.length() <= 36 && s.matches("[0-9a-f][0-9a-f-]*");
    }
}
