package dev.fdl.store;

/** Validation of store keys: relative, {@code /}-separated, no empty, {@code .} or {@code ..} segment. */
public final class Keys {
    private Keys() {}

    /**
     * Returns the key if it is a valid object key.
     *
     * @throws IllegalArgumentException naming the key when it is absolute, empty or escapes the root
     */
    public static String check(String key) {
        if (key == null || key.isEmpty()) throw new IllegalArgumentException("empty object key");
        if (key.startsWith("/") || key.contains("\\") || key.contains("\0"))
            throw new IllegalArgumentException("invalid object key '" + key + "': must be relative, '/'-separated");
        for (String seg : key.split("/", -1)) {
            if (seg.equals(".") || seg.equals(".."))
                throw new IllegalArgumentException("invalid object key '" + key + "': '.' and '..' segments are not allowed");
        }
        if (key.contains("//")) throw new IllegalArgumentException("invalid object key '" + key + "': empty segment");
        return key;
    }

    /** Returns the prefix if valid for listing (may be empty, may end in {@code /}). */
    public static String checkPrefix(String prefix) {
        if (prefix == null || prefix.isEmpty()) return "";
        String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (!p.isEmpty()) check(p);
        return prefix;
    }
}
