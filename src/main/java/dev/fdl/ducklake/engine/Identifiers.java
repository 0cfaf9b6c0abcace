package dev.fdl.ducklake.engine;

/**
 * DuckDB's rule for identifiers (schema, table and column names): two names are one when they are
 * equal but for the case of ASCII letters. Other letters are compared as written, so {@code É1}
 * and {@code é1} are two tables, as DuckDB (and the DuckLake extension reading fdl's catalogs)
 * sees them. Java's {@code equalsIgnoreCase} and {@code toLowerCase} fold every Unicode letter and
 * must not be used for names.
 */
public final class Identifiers {
    private Identifiers() {}

    /** Whether {@code a} and {@code b} name the same object in DuckDB: equal but for ASCII case. */
    public static boolean same(String a, String b) {
        if (a.length() != b.length()) return false;
        for (int i = 0; i < a.length(); i++) {
            char x = a.charAt(i), y = b.charAt(i);
            if (x == y) continue;
            if (x < 128 && y < 128 && Character.toLowerCase(x) == Character.toLowerCase(y)) continue;
            return false;
        }
        return true;
    }

    /**
     * {@code name} with its ASCII letters lower-cased and every other character kept: the key under
     * which names that are {@link #same} meet (a map of names, a set of names read in a query).
     */
    public static String fold(String name) {
        char[] c = name.toCharArray();
        for (int i = 0; i < c.length; i++) if (c[i] >= 'A' && c[i] <= 'Z') c[i] = (char) (c[i] + ('a' - 'A'));
        return new String(c);
    }
}
