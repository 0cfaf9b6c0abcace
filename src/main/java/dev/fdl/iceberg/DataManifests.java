package dev.fdl.iceberg;

import dev.fdl.util.BatchedWorker;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.FileIO;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A table's data manifests (Iceberg spec, "Manifests"), one per partition spec, encoded by Iceberg's
 * {@link ManifestFiles#write} on one thread of their own while the caller still builds the data
 * files from the catalog: DuckDB reading the statistics and Avro encoding the entries overlap
 * (docs/iceberg.md, "Benchmark"). The manifests carry no snapshot id: the snapshot that appends
 * them ({@link org.apache.iceberg.AppendFiles#appendManifest}) gives its own (format 2's
 * inheritance), so Iceberg lists them as they are. Used by one caller thread: {@link #add} the
 * files, then {@link #finish}; {@link #close} without finishing discards what was written.
 */
final class DataManifests implements AutoCloseable {
    /** Files handed over at a time: a hand-over per file would cost more than encoding it. */
    private static final int BATCH = 256;

    private final FileIO io;
    private final String metadataLocation;
    private final Map<Integer, PartitionSpec> specs;
    private final Map<String, String> writerProperties;
    private final String prefix = UUID.randomUUID().toString();
    /** The manifest of each spec, by spec id (the encoding thread's alone until it ends). */
    private final Map<Integer, ManifestWriter<DataFile>> writers = new LinkedHashMap<>();
    private final List<ManifestFile> written = new ArrayList<>();
    private final BatchedWorker<DataFile> worker;

    /**
     * Starts the encoding thread.
     *
     * @param metadataLocation the table's metadata folder URL, ending in {@code /}: the manifests are {@code <uuid>-m<spec id>.avro} there
     * @param specs            the table's partition specs by id (each file goes to its {@link DataFile#specId()}'s manifest)
     * @param writerProperties Iceberg's manifest writer properties (the Avro codec and its level)
     */
    DataManifests(FileIO io, String metadataLocation, Map<Integer, PartitionSpec> specs, Map<String, String> writerProperties) {
        this.io = io;
        this.metadataLocation = metadataLocation;
        this.specs = Map.copyOf(specs);
        this.writerProperties = Map.copyOf(writerProperties);
        this.worker = new BatchedWorker<>("fdl-iceberg-manifests", BATCH, 32,
                f -> writers.computeIfAbsent(f.specId(), this::writer).add(f), this::closeWriters);
    }

    /** Adds a data file to its spec's manifest. */
    void add(DataFile file) {
        worker.add(file);
    }

    /**
     * Waits for the encoding to end and returns the manifests (none when no file was added).
     *
     * @throws UncheckedIOException or Iceberg's own exception when a manifest could not be written
     */
    List<ManifestFile> finish() {
        worker.finish();
        return List.copyOf(written);
    }

    /** Ends the encoding thread; after a failure of the caller, what it wrote stays unused in the table's buffer. */
    @Override
    public void close() {
        worker.close();
    }

    private void closeWriters() {
        for (ManifestWriter<DataFile> w : writers.values()) {
            try {
                w.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the manifest " + w.toManifestFile().path(), e);
            }
            written.add(w.toManifestFile());
        }
    }

    private ManifestWriter<DataFile> writer(int specId) {
        String location = metadataLocation + FileFormat.AVRO.addExtension(prefix + "-m" + specId);
        return ManifestFiles.write(2, specs.get(specId), io.newOutputFile(location), null, writerProperties);
    }
}
