package dev.fdl.iceberg;

import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An Iceberg {@link FileIO} that keeps what Iceberg's writers write (manifests, manifest lists,
 * metadata JSON) in memory, by location, until {@link IcebergMetadataWriter} puts them into the
 * repository's store: nothing is stored before the whole table is written, and fdl's own store
 * (local folder, S3) does the writing, without Hadoop. Files are small (a manifest entry per data
 * file). One per table written; safe for the thread that encodes its manifests ({@link DataManifests})
 * beside the thread that commits.
 */
final class BufferedFileIO implements FileIO {
    private final Map<String, InMemoryOutputFile> written = java.util.Collections.synchronizedMap(new LinkedHashMap<>());

    @Override
    public InputFile newInputFile(String path) {
        InMemoryOutputFile out = written.get(path);
        if (out == null) throw new IllegalStateException("fdl's Iceberg writer reads only what it wrote: " + path);
        return new InMemoryInputFile(path, out.toByteArray());
    }

    @Override
    public OutputFile newOutputFile(String path) {
        InMemoryOutputFile out = new InMemoryOutputFile(path);
        written.put(path, out);
        return out;
    }

    @Override
    public void deleteFile(String path) {
        written.remove(path);
    }

    /** Every file written and not deleted, by location, in the order written. */
    Map<String, byte[]> files() {
        Map<String, byte[]> result = new LinkedHashMap<>();
        written.forEach((location, out) -> result.put(location, out.toByteArray()));
        return result;
    }
}
