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
        try {
            if (a.isEmpty()) {
                if (b.isEmpty()) return null;
                long n = Long.parseLong(b);
                if (n < 0) return null;
                if (n == 0 || size == 0) return UNSATISFIABLE;
                long len = Math.min(n, size);
                return new ByteRange(size - len, len);
            }
            long from = Long.parseLong(a);
            if (from < 0) return null;
            long to = b.isEmpty() ? Long.MAX_VALUE : Long.parseLong(b);
            if (to < from) return null;
            if (from >= size) return UNSATISFIABLE;
            to = Math.min(to, size - 1);
            return new ByteRange(from, to - from + 1);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
