package dev.fdl.cli;

import java.nio.file.Path;

/**
 * The folder a run of fdl acts in: the process's current folder, or {@code -C <path>} (as git's
 * {@code -C}). One per run, held by {@link CommandContext}.
 */
final class Cwd {
    private final Path dir;

    private Cwd(Path dir) {
        this.dir = dir;
    }

    /** The process's current folder. */
    static Cwd process() {
        return new Cwd(Path.of("").toAbsolutePath());
    }

    /**
     * {@code -C dir}, absolute and normalised.
     *
     * @throws picocli.CommandLine.TypeConversionException when {@code dir} is not a folder
     */
    static Cwd of(Path dir) {
        if (!java.nio.file.Files.isDirectory(dir))
            throw new picocli.CommandLine.TypeConversionException("-C " + dir + ": no such folder");
        return new Cwd(dir.toAbsolutePath().normalize());
    }

    /** The folder, absolute. */
    Path get() {
        return dir;
    }

    /** A repository root as given: URLs unchanged, a relative folder resolved against this folder. */
    String root(String root) {
        if (root == null || root.isBlank() || root.matches("(?i)^[a-z][a-z0-9+.-]*:.*")) return root;
        return resolve(Path.of(root)).toString();
    }

    /** {@code p} resolved against this folder. */
    Path resolve(Path p) {
        return dir.resolve(p).normalize();
    }
}
