package dev.fdl.util;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reading a small file whole (a ref, version.json, a working copy's state.json). Through
 * {@link FileInputStream}, not {@code Files.readAllBytes}: for files of a few hundred bytes the
 * channel and buffers {@code Files} opens cost several times the read itself, and the first use
 * loads a few dozen classes more; {@code fdl log} and {@code fdl status} read such files at every start.
 */
public final class SmallFiles {
    private SmallFiles() {}

    /**
     * The bytes of file {@code f}.
     *
     * @throws NoSuchFileException when the file does not exist (as {@code Files.readAllBytes} says it)
     * @throws IOException         as the read failed otherwise (a folder, no permission, an I/O error)
     */
    public static byte[] readAll(Path f) throws IOException {
        File file = f.toFile();
        try (FileInputStream in = new FileInputStream(file)) {
            return in.readAllBytes();
        } catch (FileNotFoundException e) {
            // also thrown when the file exists but may not be read: only a missing file is absent
            if (!file.exists()) throw new NoSuchFileException(f.toString());
            throw e;
        }
    }
}
