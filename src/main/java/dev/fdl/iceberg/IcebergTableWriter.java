package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.store.Payload;

import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.MappedField;
import org.apache.iceberg.mapping.MappedFields;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * One DuckLake table at one snapshot as an Iceberg table of format 2 (docs/iceberg.md), built with
 * Iceberg's own API: the schema ({@link IcebergTypes}), one snapshot whose manifests list every
 * visible data file in place (record count, size, {@link FileMetrics}), the delete file and
 * inlined rows {@link ExtraFiles} writes, and, for data files registered without field ids, the
 * name mapping {@code schema.name-mapping.default}. Spec 0 is unpartitioned; a table DuckLake
 * partitions has its key as spec 1 ({@link IcebergPartitions}), holding the data files whose rows
 * share one partition value.
 */
final class IcebergTableWriter {
    /** The metadata file of a table's static metadata, under {@code metadata/}. */
    static final String METADATA_FILE = "v1.metadata.json";
    /** Hadoop-style readers (DuckDB's {@code iceberg_scan} of a folder) find the metadata file through it. */
    static final String VERSION_HINT = "version-hint.text";

    /** Where the table goes: its folder's URL (no trailing {@code /}) and the data folder's URL (ending in {@code /}). */
    record Place(String tableLocation, String dataLocation) {}

    /** A table of the snapshot and its Iceberg schema ({@link #schema}). */
    record Described(SnapshotView.TableEntry table, Schema schema) {}

    /** What was made: every file to store, by its URL, and the bytes of the delete and inlined-row files among them. */
    record TableFiles(Map<String, Payload> files, long extraBytes) {}

    private final Connection duck;
    private final MetadataQueries model;
    private final SnapshotView catalog;
    private final Path scratch;

    IcebergTableWriter(Connection duck, MetadataQueries model, SnapshotView catalog, Path scratch) {
        this.duck = duck;
        this.model = model;
        this.catalog = catalog;
        this.scratch = scratch;
    }

    /**
     * Describes a table with its schema (its data and delete file locations relative to the data folder, as
     * {@link SnapshotView#loadRelative} gives them).
     *
     * @param readableDeletes each delete file's location DuckDB reads, in {@code table.deleteFiles()} order
     * @param sizeOf          a data file's size in bytes by its name under the data folder, for files whose size the catalog does not record
     * @throws FdlException (exit 1) naming the table for a file outside the data folder, or name mappings that contradict
     */
    TableFiles write(Described described, Place place, List<String> readableDeletes, ToLongFunction<String> sizeOf,
                 String versionId) throws SQLException {
        SnapshotView.TableEntry table = described.table();
        String where = table.schema() + "." + table.name();
        Schema schema = described.schema();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(TableProperties.FORMAT_VERSION, "2");
        properties.put(IcebergHistory.VERSION_KEY, versionId);
        // deflate (Iceberg's default codec, read by every engine) at its fastest level: at the default
        // level compressing the manifest cost more than writing its entries (docs/iceberg.md, "Benchmark")
        properties.put(TableProperties.MANIFEST_COMPRESSION_LEVEL, "1");
        NameMapping mapping = nameMapping(schema, table, where);
        if (mapping != null) properties.put(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(mapping));
        TableMetadata.Builder builder = TableMetadata.buildFromEmpty(2).assignUUID().setLocation(place.tableLocation())
                .setCurrentSchema(schema, Math.max(schema.highestFieldId(), 0)).setDefaultPartitionSpec(PartitionSpec.unpartitioned())
                .setDefaultSortOrder(SortOrder.unsorted()).setProperties(properties);
        // spec 0 stays unpartitioned (inlined rows, deletes, files without one partition value); DuckLake's own is spec 1
        PartitionSpec partitioned = IcebergPartitions.spec(schema, model.partitions().key(table.id(), catalog.snapshot()));
        if (partitioned != null) builder.setDefaultPartitionSpec(partitioned);
        TableMetadata empty = builder.build();
        BufferedFileIO io = new BufferedFileIO();
        MemoryTableOperations ops = new MemoryTableOperations(empty, io);
        BaseTable iceberg = new BaseTable(ops, where);
        Map<String, Payload> files = new LinkedHashMap<>();
        String metadata = place.tableLocation() + "/metadata/";
        long extraBytes;
        if (table.deleteFiles().isEmpty() && table.inlinedDeleteTable() == null) {
            extraBytes = append(iceberg, io, table, place, sizeOf, versionId, files);
        } else {
            RowDelta delta = iceberg.newRowDelta().set(IcebergHistory.VERSION_KEY, versionId);
            Map<Long, String> locations = addDataFiles(delta::addRows, iceberg, table, place, sizeOf, where);
            extraBytes = addDeletes(delta, table, place, readableDeletes, locations, files)
                    + addInlined(delta::addRows, schema, table, place, files);
            delta.commit();
        }
        TableMetadataParser.overwrite(ops.current(), io.newOutputFile(metadata + METADATA_FILE));
        io.files().forEach((location, bytes) -> files.put(location, Payload.of(bytes)));
        files.put(metadata + VERSION_HINT, Payload.of("1".getBytes(StandardCharsets.UTF_8)));
        return new TableFiles(files, extraBytes);
    }

    /**
     * The snapshot of a table without deletes: its data manifests encoded while the data files are
     * built ({@link DataManifests}), appended as they are. The summary counts the files' bytes and
     * partitions as Iceberg counts files added one by one (appended manifests carry only counts).
     */
    private long append(BaseTable iceberg, BufferedFileIO io, SnapshotView.TableEntry table, Place place,
                        ToLongFunction<String> sizeOf, String versionId, Map<String, Payload> files) throws SQLException {
        Map<String, String> writer = Map.of(
                TableProperties.AVRO_COMPRESSION, iceberg.properties().getOrDefault(TableProperties.MANIFEST_COMPRESSION,
                        TableProperties.MANIFEST_COMPRESSION_DEFAULT),
                TableProperties.AVRO_COMPRESSION_LEVEL, iceberg.properties().get(TableProperties.MANIFEST_COMPRESSION_LEVEL));
        long[] bytes = {0};
        Set<String> partitions = new HashSet<>();
        long extraBytes;
        List<ManifestFile> manifests;
        try (DataManifests encoder = new DataManifests(io, place.tableLocation() + "/metadata/", iceberg.specs(), writer)) {
            java.util.function.Consumer<DataFile> add = f -> {
                encoder.add(f);
                bytes[0] += f.fileSizeInBytes();
                partitions.add(iceberg.specs().get(f.specId()).partitionToPath(f.partition()));
            };
            addDataFiles(add, iceberg, table, place, sizeOf, table.schema() + "." + table.name());
            extraBytes = addInlined(add, iceberg.schema(), table, place, files);
            manifests = encoder.finish();
        }
        AppendFiles append = iceberg.newFastAppend().set(IcebergHistory.VERSION_KEY, versionId);
        manifests.forEach(append::appendManifest);
        if (!manifests.isEmpty()) {
            append.set(SnapshotSummary.ADDED_FILE_SIZE_PROP, Long.toString(bytes[0]))
                    .set(SnapshotSummary.CHANGED_PARTITION_COUNT_PROP, Integer.toString(partitions.size()));
        }
        append.commit();
        return extraBytes;
    }

    /**
     * The Iceberg schema of {@code table} at the snapshot.
     *
     * @throws FdlException (exit 1) naming the table and column for a type Iceberg cannot hold or a
     *     column with an initial default (files written before the column read it; Iceberg 2 reads NULL)
     */
    Schema schema(SnapshotView.TableEntry table) throws SQLException {
        String where = table.schema() + "." + table.name();
        List<ColumnTypes.Row> rows = model.columnRows(table.id(), catalog.snapshot());
        for (ColumnTypes.Row r : rows) {
            if (r.parent() == null && r.initialDefault() != null) {
                throw new FdlException("table " + where + " cannot be described as an Iceberg table of format 2: column " + r.name()
                        + " has an initial default (" + r.initialDefault() + "), which files written before the column read as;"
                        + " Iceberg 2 readers would read NULL there. Rewrite the table (fdl compact) or read it with DuckLake");
            }
        }
        return IcebergTypes.schema(rows, where);
    }

    /**
     * Adds every visible data file, in {@code iceberg}'s partition spec where it has one partition
     * value, in data file id order, each as soon as its statistics are read; returns each one's
     * Iceberg location by DuckLake data file id.
     */
    private Map<Long, String> addDataFiles(java.util.function.Consumer<DataFile> add, Table iceberg, SnapshotView.TableEntry table,
                                           Place place, ToLongFunction<String> sizeOf, String where) throws SQLException {
        Schema schema = iceberg.schema();
        FileMetrics metrics = new FileMetrics(schema);
        PartitionSpec partitioned = iceberg.spec().isPartitioned() ? iceberg.spec() : null;
        List<SnapshotView.DataFileEntry> visible = new ArrayList<>(table.dataFiles());
        visible.sort(java.util.Comparator.comparingLong(SnapshotView.DataFileEntry::id));
        Map<Long, String> locations = new LinkedHashMap<>();
        java.util.function.IntConsumer addUpTo = end -> { // adds the files before index end, their statistics all read
            for (int i = locations.size(); i < end; i++) {
                SnapshotView.DataFileEntry f = visible.get(i);
                String name = underDataFolder(f.location(), where);
                String location = place.dataLocation() + name;
                long bytes = f.bytes() >= 0 ? f.bytes() : sizeOf.applyAsLong(name);
                Metrics m = metrics.take(f.id(), f.recordCount());
                PartitionData partition = partitioned == null ? null : IcebergPartitions.partition(partitioned, schema, m);
                DataFiles.Builder file = DataFiles.builder(partition == null ? PartitionSpec.unpartitioned() : partitioned).withPath(location)
                        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(bytes).withMetrics(m);
                if (partition != null) file.withPartition(partition);
                add.accept(file.build());
                locations.put(f.id(), location);
            }
        };
        int[] next = {0}; // the first file whose statistics may still come
        model.fileColumnStats(table.id(), metrics.boundedColumns(), s -> {
            while (next[0] < visible.size() && visible.get(next[0]).id() < s.dataFileId()) next[0]++;
            addUpTo.accept(next[0]);
            metrics.add(s);
        });
        addUpTo.accept(visible.size());
        return locations;
    }

    /** Writes and adds the delete file; returns its bytes. */
    private long addDeletes(RowDelta delta, SnapshotView.TableEntry table, Place place, List<String> readableDeletes,
                            Map<Long, String> locations, Map<String, Payload> files) throws SQLException {
        ExtraFiles.Written deletes = ExtraFiles.deletes(duck, catalog, table, readableDeletes, locations,
                scratch.resolve("deletes-" + table.id() + ".parquet"));
        if (deletes == null) return 0;
        long size = size(deletes.file());
        String location = place.tableLocation() + "/data/deletes-" + catalog.snapshot() + ".parquet";
        delta.addDeletes(FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned()).ofPositionDeletes().withPath(location)
                .withFormat(FileFormat.PARQUET).withFileSizeInBytes(size).withRecordCount(deletes.rows()).build());
        files.put(location, Payload.of(deletes.file()));
        return size;
    }

    /** Writes and adds the inlined rows' data file (unpartitioned); returns its bytes. */
    private long addInlined(java.util.function.Consumer<DataFile> add, Schema schema, SnapshotView.TableEntry table, Place place,
                            Map<String, Payload> files) throws SQLException {
        ExtraFiles.Written inlined = ExtraFiles.inlinedRows(duck, catalog, table, schema, scratch.resolve("inlined-" + table.id() + ".parquet"));
        if (inlined == null) return 0;
        long size = size(inlined.file());
        String location = place.tableLocation() + "/data/inlined-" + catalog.snapshot() + ".parquet";
        add.accept(DataFiles.builder(PartitionSpec.unpartitioned()).withPath(location).withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(size).withRecordCount(inlined.rows()).build());
        files.put(location, Payload.of(inlined.file()));
        return size;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A file's name under the data folder; a file outside it cannot be named by the repository's URL. */
    private static String underDataFolder(String relative, String where) {
        if (relative.startsWith("/") || dev.fdl.ducklake.format.DuckLakePaths.isRemote(relative) || relative.contains("..")) {
            throw new FdlException("table " + where + " names data file " + relative + " outside the repository's data folder;"
                    + " Iceberg metadata names files under the repository's root only");
        }
        return relative;
    }

    /**
     * The name mapping for the data files registered without field ids (null when there are none):
     * every field by its name, and each top-level field also by the names the files' DuckLake
     * mappings give it.
     */
    private static NameMapping nameMapping(Schema schema, SnapshotView.TableEntry table, String where) {
        Map<Integer, Set<String>> aliases = new HashMap<>();
        Map<String, Integer> owner = new HashMap<>();
        boolean any = false;
        for (SnapshotView.DataFileEntry f : table.dataFiles()) {
            if (f.nameMap() == null) continue;
            any = true;
            for (Map.Entry<Long, String> e : f.nameMap().entrySet()) {
                int id = e.getKey().intValue();
                Integer before = owner.putIfAbsent(e.getValue(), id);
                if (before != null && before != id) {
                    throw new FdlException("table " + where + ": files registered without field ids name field '" + e.getValue()
                            + "' for two columns (ids " + before + " and " + id + "); one Iceberg name mapping cannot hold both");
                }
                aliases.computeIfAbsent(id, k -> new LinkedHashSet<>()).add(e.getValue());
            }
        }
        if (!any) return null;
        List<MappedField> fields = new ArrayList<>();
        for (MappedField f : MappingUtil.create(schema).asMappedFields().fields()) {
            Set<String> names = new LinkedHashSet<>(f.names());
            names.addAll(aliases.getOrDefault(f.id(), Set.of()));
            fields.add(MappedField.of(f.id(), names, f.nestedMapping()));
        }
        return NameMapping.of(MappedFields.of(fields));
    }
}
