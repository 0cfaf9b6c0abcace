package dev.fdl.iceberg;

import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

import java.net.URI;
import java.nio.file.Path;

/** A read-only Iceberg {@link FileIO} over {@code file:} URLs, for Iceberg's clients in tests (named by class in catalog properties: {@code io-impl}). */
public class LocalFileIO implements FileIO {
    public LocalFileIO() {}

    @Override
    public InputFile newInputFile(String path) {
        return org.apache.iceberg.Files.localInput(Path.of(URI.create(path)).toFile());
    }

    @Override
    public OutputFile newOutputFile(String path) {
        throw new UnsupportedOperationException("read only");
    }

    @Override
    public void deleteFile(String path) {
        throw new UnsupportedOperationException("read only");
    }
}
