package dev.fdl.serve;

/**
 * One byte range of an HTTP {@code Range} header (RFC 9110 section 14.1.2): {@code bytes=a-b},
 * {@code bytes=a-}, {@code bytes=-n}, resolved against the object's size.
 */
record ByteRange(long from, long length) {
    /** The header asks only for bytes past the end: 416. */
    static final ByteRange UNSATISFIABLE = new ByteRange(-1, -1);

    /**
     * The range {@code header} asks for in an object of {@code size} bytes: null when the header
     * is to be ignored (not {@code bytes=}, malformed, or several ranges: the whole object is
     * then sent, as RFC 9110 allows), {@link #UNSATISFIABLE} when it starts past the end.
     */
    static ByteRange parse(String header, long size) {
        String h = header.trim();
        if (!h.regionMatches(true, 0, "bytes=", 0, 6)) return null;
        String spec = h.substring(6).trim();
        if (spec.contains(",")) return null;
        int dash = spec.indexOf('-');
        if (dash < 0) return null;
        String a = spec.substring(0, dash).trim(), b = spec.substring(dash + 1).trim();
        if (a.isEmpty()) {
            long n = digits(b);
            if (n < 0) return null;
            if (n == 0 || size == 0) return UNSATISFIABLE;
            long len = Math.min(n, size);
            return new ByteRange(size - len, len);
        }
        long from = digits(a);
        long to = b.isEmpty() ? Long.MAX_VALUE : digits(b);
        if (from < 0 || to < 0 || to < from) return null;
        if (from >= size) return UNSATISFIABLE;
        to = Math.min(to, size - 1);
        return new ByteRange(from, to - from + 1);
    }

    /**
     * A position of the header (RFC 9110: {@code 1*DIGIT}): -1 when not only digits, and
     * {@link Long#MAX_VALUE} for a number beyond it, so {@code bytes=0-99999999999999999999} is
     * clamped to the object's end as the RFC asks rather than ignored.
     */
    private static long digits(String s) {
        if (s.isEmpty()) return -1;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException tooLarge) {
            return Long.MAX_VALUE;
        }
    }
}
