package dev.fdl.util;

import dev.fdl.FdlException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * A file (a catalog, a working copy's state) is written to a temporary file beside its target and
 * moved into place only when complete, so a partially written file never replaces a good one. The
 * temporary file is forced to disk before the rename and the folder after it, so that after a
 * crash (power loss included) the target holds the old content or the whole new one.
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

    /**
     * A fresh, not yet existing path in the target's directory named {@code prefix} and a random
     * UUID, for a folder whose owner recognises its leftovers by that prefix (a store's
     * {@code .fdl-dl-}, the catalog cache's {@code .tmp-}). The directory is not created.
     */
    public static Path tempBeside(Path target, String prefix) {
        return target.toAbsolutePath().resolveSibling(prefix + UUID.randomUUID());
    }

    /**
     * Moves a complete temporary file over the target, atomically where the file system can,
     * without forcing either to disk: for copies of data kept elsewhere (a download, a cache
     * entry), which their reader checks or fetches again. A reader never sees a partial file;
     * after a power loss the target may hold the old content, the new one, or be empty.
     *
     * @throws IOException when the move fails (the temporary file is left to the caller)
     */
    public static void moveCopy(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Moves a complete temporary file over the target (atomically where the file system can), forced to disk. */
    public static void moveInto(Path temp, Path target) {
        try {
            sync(temp);
            moveCopy(temp, target);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new FdlException(FdlException.Kind.FAILURE, "cannot move " + target.getFileName() + " into place at " + target + ": " + e.getMessage(), e);
        }
        syncDirectory(target.toAbsolutePath().getParent());
    }

    /**
     * Writes {@code bytes} to {@code target} through a temporary file: written, forced to disk,
     * renamed over the target, then the folder forced to disk.
     *
     * @param beforeRename called after the temporary file is complete and before the rename (crash tests stop there)
     * @throws FdlException exit 1 naming the target when it cannot be written
     */
    public static void write(Path target, byte[] bytes, Runnable beforeRename) {
        Path temp = tempBeside(target);
        try {
            Files.write(temp, bytes, java.nio.file.StandardOpenOption.CREATE_NEW);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new FdlException(FdlException.Kind.FAILURE, "cannot write " + target + ": " + e.getMessage(), e);
        }
        beforeRename.run(); // a crash here leaves the temporary file, as a real one would
        moveInto(temp, target);
    }

    /**
     * Forces a file's content to disk (fsync), so that a rename making it current cannot reach the
     * disk before its content does.
     *
     * @throws IOException when the file cannot be opened or forced
     */
    public static void sync(Path file) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /**
     * Forces a folder's entries (a rename, a new file) to disk. Best effort: some platforms cannot
     * open a folder for that (Windows), and there the rename alone is what the file system offers.
     */
    public static void syncDirectory(Path dir) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir, java.nio.file.StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // not supported here: nothing more can be done for durability of the entry
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
