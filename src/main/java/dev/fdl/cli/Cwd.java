package dev.fdl.cli;

import java.nio.file.Path;

/** The folder fdl acts in: the process's current folder, or {@code -C <path>} (as git's {@code -C}). */
final class Cwd {
    private static final ThreadLocal<Path> DIR = new ThreadLocal<>();

    private Cwd() {}

    static void set(Path dir) {
        if (dir != null && !java.nio.file.Files.isDirectory(dir))
            throw new picocli.CommandLine.TypeConversionException("-C " + dir + ": no such folder");
        DIR.set(dir == null ? null : dir.toAbsolutePath().normalize());
    }

    /** The current folder, absolute. */
    static Path get() {
        Path p = DIR.get();
        return p != null ? p : Path.of("").toAbsolutePath();
    }

    /** A repository root as given: URLs unchanged, a relative folder resolved against the current folder. */
    static String root(String root) {
        if (root == null || root.isBlank() || root.matches("(?i)^[a-z][a-z0-9+.-]*:.*")) return root;
        return resolve(Path.of(root)).toString();
    }

    /** {@code p} resolved against the current folder. */
    static Path resolve(Path p) {
        return get().resolve(p).normalize();
    }
}
