package dev.fdl.repo;

import dev.fdl.FdlException;

/** The fdl repository format this build reads and writes (SPEC.md title and section 3). */
public final class FormatVersion {
    /** Written into fdl.json and version.json. */
    public static final String CURRENT = "0.1";

    private FormatVersion() {}

    /**
     * Refuses a format whose major.minor this build does not know (a reader MUST, SPEC.md section 3);
     * a patch level ({@code 0.1.3}) is accepted.
     */
    public static void check(String value, String file) {
        String[] parts = value.split("\\.");
        if (parts.length < 2 || !(parts[0] + "." + parts[1]).equals(CURRENT))
            throw FdlException.corrupt(file, "format version 'fdl': \"" + value + "\" is not supported by this fdl (it reads "
                    + CURRENT + "); upgrade fdl to read this repository");
    }
}
