package dev.fdl.util;

import dev.fdl.FdlException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * A catalog is written to a temporary file beside its target and moved into place only when
 * complete, so a partially written catalog never replaces a good one.
 */
public final class AtomicFile {
    private AtomicFile() {}

    /** A fresh, not yet existing path in the target's directory. */
    public static Path tempBeside(Path target) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot create directory " + dir + ": " + e.getMessage(), e);
        }
        return dir.resolve("." + abs.getFileName() + ".tmp-" + UUID.randomUUID());
    }

    /** Moves a complete temporary file over the target (atomically where the file system can). */
    public static void moveInto(Path temp, Path target) {
        try {
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new FdlException(FdlException.Kind.FAILURE, "cannot move catalog into place at " + target + ": " + e.getMessage(), e);
        }
    }

    /** Removes a temporary file and the write-ahead log / journal its database may have left. */
    public static void deleteQuietly(Path temp) {
        for (String suffix : new String[] {"", ".wal", "-journal", "-wal", "-shm"}) {
            try {
                Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + suffix));
            } catch (IOException ignored) {
                // best effort: a stray temporary file is harmless and named as such
            }
        }
    }
}
