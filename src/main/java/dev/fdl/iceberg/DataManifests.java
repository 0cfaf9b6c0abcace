package dev.fdl.iceberg;

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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

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
    /** Files handed over at a time: a queue operation per file would cost more than encoding it. */
    private static final int BATCH = 256;
    private static final List<DataFile> END = List.of();

    private final FileIO io;
    private final String metadataLocation;
    private final Map<Integer, PartitionSpec> specs;
    private final Map<String, String> writerProperties;
    private final String prefix = UUID.randomUUID().toString();
    private final BlockingQueue<List<DataFile>> queue = new ArrayBlockingQueue<>(32);
    private final Thread thread;
    private final List<ManifestFile> written = new ArrayList<>();
    /** The encoder's first failure; once set, it drains the queue without encoding, so {@link #add} never waits forever. */
    private volatile Throwable failure;
    private List<DataFile> batch = new ArrayList<>(BATCH);
    private boolean ended;

    /**
     * Starts the encoding thread.
     *
     * @param metadataLocation the table's metadata folder URL, ending in {@code /}: the manifests are {@code <uuid>-m<n>.avro} there
     * @param specs            the table's partition specs by id (each file goes to its {@link DataFile#specId()}'s manifest)
     * @param writerProperties Iceberg's manifest writer properties (the Avro codec and its level)
     */
    DataManifests(FileIO io, String metadataLocation, Map<Integer, PartitionSpec> specs, Map<String, String> writerProperties) {
        this.io = io;
        this.metadataLocation = metadataLocation;
        this.specs = Map.copyOf(specs);
        this.writerProperties = Map.copyOf(writerProperties);
        this.thread = new Thread(this::encode, "fdl-iceberg-manifests");
        thread.setDaemon(true);
        thread.start();
    }

    /** Adds a data file to its spec's manifest. */
    void add(DataFile file) {
        batch.add(file);
        if (batch.size() == BATCH) {
            hand(batch);
            batch = new ArrayList<>(BATCH);
        }
    }

    /**
     * Waits for the encoding to end and returns the manifests (none when no file was added).
     *
     * @throws UncheckedIOException or the encoder's own exception when a manifest could not be written
     */
    List<ManifestFile> finish() {
        end();
        if (failure instanceof RuntimeException e) throw e;
        if (failure instanceof Error e) throw e;
        if (failure != null) throw new UncheckedIOException(new IOException("cannot write a manifest", failure));
        return List.copyOf(written);
    }

    /** Ends the encoding thread; after a failure of the caller, what it wrote stays unused in the table's buffer. */
    @Override
    public void close() {
        end();
    }

    private void end() {
        if (ended) return;
        ended = true;
        if (!batch.isEmpty()) hand(batch);
        hand(END);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void hand(List<DataFile> files) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(files);
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the encoder drains the queue whatever happens: the put completes
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void encode() {
        Map<Integer, ManifestWriter<DataFile>> writers = new LinkedHashMap<>();
        while (true) {
            List<DataFile> files;
            try {
                files = queue.take();
            } catch (InterruptedException e) {
                failure = e;
                continue; // keep draining: the caller's END is still to come
            }
            if (files == END) break;
            if (failure != null) continue;
            try {
                for (DataFile f : files) writers.computeIfAbsent(f.specId(), this::writer).add(f);
            } catch (RuntimeException | Error e) {
                failure = e;
            }
        }
        for (ManifestWriter<DataFile> w : writers.values()) {
            try {
                w.close();
                if (failure == null) written.add(w.toManifestFile());
            } catch (IOException | RuntimeException e) {
                if (failure == null) failure = e;
            }
        }
    }

    private ManifestWriter<DataFile> writer(int specId) {
        String location = metadataLocation + FileFormat.AVRO.addExtension(prefix + "-m" + specId);
        return ManifestFiles.write(2, specs.get(specId), io.newOutputFile(location), null, writerProperties);
    }
}
