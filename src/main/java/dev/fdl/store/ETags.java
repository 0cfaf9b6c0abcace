package dev.fdl.store;

/**
 * ETag comparison as object stores need it: S3 and S3-compatible stores return ETags quoted in
 * some responses and unquoted in others (RFC 7232 section 2.3 quotes them), and a weak prefix
 * {@code W/} may appear behind HTTP caches. fdl keeps ETags unquoted and compares them that way.
 */
public final class ETags {
    private ETags() {}

    /** The ETag without a weak prefix or surrounding quotes; null stays null. */
    public static String normalize(String etag) {
        if (etag == null) return null;
        String e = etag.trim();
        if (e.startsWith("W/")) e = e.substring(2);
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) e = e.substring(1, e.length() - 1);
        return e;
    }

    /** True when both name the same entity tag, quoted or not. Two nulls are not equal. */
    public static boolean same(String a, String b) {
        if (a == null || b == null) return false;
        return normalize(a).equals(normalize(b));
    }

    /** The quoted form for an {@code If-Match} header. */
    public static String quoted(String etag) {
        return "\"" + normalize(etag) + "\"";
    }
}
