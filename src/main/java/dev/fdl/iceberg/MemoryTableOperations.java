package dev.fdl.iceberg;

import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * The {@link TableOperations} Iceberg's snapshot producers commit through while fdl describes one
 * table: the table's metadata lives in memory, and every file goes to a {@link BufferedFileIO}.
 * The metadata JSON is written once, by {@link IcebergMetadataWriter}, when the table is complete.
 */
final class MemoryTableOperations implements TableOperations {
    private final BufferedFileIO io;
    private TableMetadata current;

    MemoryTableOperations(TableMetadata initial, BufferedFileIO io) {
        this.current = initial;
        this.io = io;
    }

    @Override
    public TableMetadata current() {
        return current;
    }

    @Override
    public TableMetadata refresh() {
        return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
        if (base != current) throw new CommitFailedException("the table changed while it was being written");
        current = metadata;
    }

    @Override
    public FileIO io() {
        return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
        return current.location() + "/metadata/" + fileName;
    }

    @Override
    public LocationProvider locationProvider() {
        return LocationProviders.locationsFor(current.location(), current.properties());
    }
}
