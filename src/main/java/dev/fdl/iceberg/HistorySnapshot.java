package dev.fdl.iceberg;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.io.FileIO;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A version's Iceberg snapshot as the table's history holds it ({@link IcebergHistory}): the same
 * snapshot id, operation and manifest list (so its manifests are reused, not written again), with
 * the history's sequence number, parent (the first parent version's snapshot), the version's
 * creation time and the history's id of its schema. Iceberg has no public snapshot constructor;
 * {@link org.apache.iceberg.TableMetadataParser} writes any {@link Snapshot} by its accessors.
 * The manifest list's own sequence numbers stay those of the version's metadata (all 1): a
 * version's deletes apply to its data files exactly as there.
 */
final class HistorySnapshot implements Snapshot {
    private final Snapshot version;
    private final long sequenceNumber;
    private final Long parentId;
    private final long timestampMillis;
    private final int schemaId;
    private final Map<String, String> summary;

    HistorySnapshot(Snapshot version, long sequenceNumber, Long parentId, long timestampMillis, int schemaId, String versionId) {
        this.version = version;
        this.sequenceNumber = sequenceNumber;
        this.parentId = parentId;
        this.timestampMillis = timestampMillis;
        this.schemaId = schemaId;
        Map<String, String> s = new LinkedHashMap<>(version.summary());
        s.put(IcebergHistory.VERSION_KEY, versionId);
        this.summary = Map.copyOf(s);
    }

    @Override public long sequenceNumber() { return sequenceNumber; }
    @Override public long snapshotId() { return version.snapshotId(); }
    @Override public Long parentId() { return parentId; }
    @Override public long timestampMillis() { return timestampMillis; }
    @Override public Integer schemaId() { return schemaId; }
    @Override public String operation() { return version.operation(); }
    @Override public Map<String, String> summary() { return summary; }
    @Override public String manifestListLocation() { return version.manifestListLocation(); }
    @Override public List<ManifestFile> allManifests(FileIO io) { return version.allManifests(io); }
    @Override public List<ManifestFile> dataManifests(FileIO io) { return version.dataManifests(io); }
    @Override public List<ManifestFile> deleteManifests(FileIO io) { return version.deleteManifests(io); }
    @Override public Iterable<DataFile> addedDataFiles(FileIO io) { return version.addedDataFiles(io); }
    @Override public Iterable<DataFile> removedDataFiles(FileIO io) { return version.removedDataFiles(io); }
    @Override public Iterable<DeleteFile> addedDeleteFiles(FileIO io) { return version.addedDeleteFiles(io); }
    @Override public Iterable<DeleteFile> removedDeleteFiles(FileIO io) { return version.removedDeleteFiles(io); }
}
