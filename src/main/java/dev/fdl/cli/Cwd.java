package dev.fdl.cli;

import java.nio.file.Path;

/** The folder fdl acts in: the process's current folder, or {@code -C <path>} (as git's {@code -C}). */
final class Cwd {
    private static final ThreadLocal<Path> DIR = new ThreadLocal<>();

    private Cwd() {}

    static void set(Path dir) {
        DIR.set(dir == null ? null : dir.toAbsolutePath().normalize());
    }

    /** The current folder, absolute. */
    static Path get() {
        Path p = DIR.get();
        return p != null ? p : Path.of("").toAbsolutePath();
    }

    /** {@code p} resolved against the current folder. */
    static Path resolve(Path p) {
        return get().resolve(p).normalize();
    }
}
