package dev.fdl.repo;

import dev.fdl.FdlException;

import java.nio.charset.StandardCharsets;

/**
 * A branch or tag name, valid by git's {@code check-ref-format} rules (SPEC.md section 3): no
 * {@code ..}, no component starting with {@code .}, no leading {@code -}, no {@code //}, no control
 * characters, space or {@code ~^:?*[\}, no {@code @{}, not {@code @}, no trailing {@code .lock},
 * {@code /} or {@code .}, at most 255 bytes; and not starting with {@code refs/} (a full ref path
 * given as a name would be stored one level deeper and never found again). Invalid names cannot be constructed, so they
 * are refused before any write.
 */
public record RefName(String name) {
    public RefName {
        String why = problem(name);
        if (why != null) throw FdlException.usage("invalid ref name '" + printable(name) + "': " + why);
    }

    /**
     * Written out rather than left to the record: the generated methods are linked at their first
     * call through {@code java.lang.runtime.ObjectMethods}, tens of milliseconds on the way of
     * {@code fdl log}, whose decorations compare ref names.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof RefName r && name.equals(r.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** The reason {@code name} is not a valid ref name, or null when it is. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) return "empty name";
        if (name.getBytes(StandardCharsets.UTF_8).length > 255) return "longer than 255 bytes";
        if (name.equals("@")) return "'@' alone is not allowed";
        if (name.startsWith("refs/")) return "give the short name without 'refs/' (e.g. '" + name.substring(name.lastIndexOf('/') + 1) + "')";
        if (name.startsWith("-")) return "must not start with '-'";
        if (name.startsWith("/") || name.endsWith("/")) return "must not start or end with '/'";
        if (name.endsWith(".")) return "must not end with '.'";
        if (name.contains("..")) return "must not contain '..'";
        if (name.contains("//")) return "must not contain '//'";
        if (name.contains("@{")) return "must not contain '@{'";
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) return "must not contain control characters";
            if (" ~^:?*[\\".indexOf(c) >= 0) return "must not contain '" + c + "'";
        }
        for (String comp : name.split("/")) {
            if (comp.startsWith(".")) return "a component must not start with '.'";
            if (comp.endsWith(".lock")) return "a component must not end with '.lock'";
        }
        return null;
    }

    private static String printable(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) b.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        return b.toString();
    }

    @Override
    public String toString() {
        return name;
    }
}
