package dev.fdl.iceberg;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A version whose table has many data files, some without statistics and some no longer visible
 * between them: its Iceberg metadata has one snapshot whose manifests name every visible data file
 * of the catalog exactly once, with the catalog's record count and its own statistics (never a
 * neighbour's), inherit the snapshot's id and sequence number, and whose summary counts every
 * file, its records and bytes, as the catalog does.
 */
class DataManifestsTest {
    private static final String VERSION = "01a24600-0000-7000-8000-000000000039";
    private static final long FILES = 1_001;

    @TempDir Path tmp;

    @Test
    void everyVisibleDataFileOfTheCatalogIsNamedOnceWithItsOwnStatistics() throws Exception {
        Path catalog = tmp.resolve("ducklake.duckdb");
        ManyFilesCatalog.generate(catalog, FILES);
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + catalog + "' AS cat");
            st.execute("DELETE FROM cat.ducklake_file_column_stats WHERE data_file_id % 7 = 3 OR data_file_id = " + (FILES - 1));
            st.execute("UPDATE cat.ducklake_data_file SET begin_snapshot = 0, end_snapshot = 1 WHERE data_file_id % 11 = 5");
            st.execute("DETACH cat");
        }
        Path root = Files.createDirectories(tmp.resolve("repo"));
        List<IcebergMetadataWriter.TableWritten> written;
        try (ObjectStore store = Stores.open(root.toString())) {
            Repository repo = Repository.init(store, new RefName("main"));
            written = new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(VERSION, catalog,
                    new IcebergMetadataWriter.Target(store, "", root.toUri().toString()), Files.createDirectories(tmp.resolve("scratch")));
        }
        Map<String, long[]> expected = catalogFiles(catalog);
        assertThat(expected).hasSize((int) (FILES - FILES / 11));

        Table t = IcebergRows.table(root.resolve(written.get(0).metadataKey()));
        assertThat(t.snapshots()).hasSize(1);
        Snapshot s = t.currentSnapshot();
        String data = root.toUri() + "data/";
        List<String> named = new ArrayList<>();
        Map<String, long[]> got = new HashMap<>();
        long inlined = 0;
        for (ManifestFile m : s.dataManifests(t.io())) {
            assertThat(m.snapshotId()).isEqualTo(s.snapshotId());
            try (ManifestReader<DataFile> r = ManifestFiles.read(m, t.io(), t.specs())) {
                for (DataFile f : r) {
                    assertThat(f.dataSequenceNumber()).as(f.location()).isEqualTo(s.sequenceNumber());
                    if (!f.location().startsWith(data)) { // the inlined rows' file, under the table's folder
                        inlined += f.recordCount();
                        continue;
                    }
                    String name = f.location().substring(f.location().lastIndexOf('/') + 1);
                    named.add(name);
                    got.put(name, new long[]{f.recordCount(), f.nullValueCounts() == null ? -1 : f.nullValueCounts().getOrDefault(1, -1L),
                            f.lowerBounds() == null || !f.lowerBounds().containsKey(1) ? -1
                                    : Conversions.<Long>fromByteBuffer(Types.LongType.get(), f.lowerBounds().get(1)),
                            f.upperBounds() == null || !f.upperBounds().containsKey(1) ? -1
                                    : Conversions.<Long>fromByteBuffer(Types.LongType.get(), f.upperBounds().get(1))});
                }
            }
        }
        assertThat(named).doesNotHaveDuplicates();
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        expected.forEach((name, want) -> assertThat(got.get(name)).as(name + ": records, c1's null count, lower and upper bound")
                .containsExactly(want));
        assertThat(inlined).isEqualTo(100);
        long rows = expected.values().stream().mapToLong(v -> v[0]).sum() + inlined;
        long bytes = catalogBytes(catalog) + written.get(0).extraBytes(); // the data files, and the inlined rows' file
        assertThat(s.summary()).containsEntry("total-data-files", String.valueOf(expected.size() + 1))
                .containsEntry("total-records", String.valueOf(rows)).containsEntry("total-files-size", String.valueOf(bytes))
                .containsEntry("changed-partition-count", "1").containsEntry("fdl.version", VERSION);
    }

    /** The bytes of the catalog's visible data files. */
    private static long catalogBytes(Path catalog) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + catalog + "' AS cat (READ_ONLY)");
            try (ResultSet r = st.executeQuery("SELECT sum(file_size_bytes) FROM cat.ducklake_data_file WHERE end_snapshot IS NULL")) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /**
     * Each visible data file by its name, with what Iceberg must say of it: its record count, and
     * column c1's (id 1, int64) null count and bounds (-1 where the catalog has no statistics).
     */
    private static Map<String, long[]> catalogFiles(Path catalog) throws Exception {
        Map<String, long[]> result = new HashMap<>();
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + catalog + "' AS cat (READ_ONLY)");
            try (ResultSet r = st.executeQuery("SELECT f.path, f.record_count, coalesce(s.null_count, -1), coalesce(CAST(s.min_value AS BIGINT), -1),"
                    + " coalesce(CAST(s.max_value AS BIGINT), -1) FROM cat.ducklake_data_file f LEFT JOIN cat.ducklake_file_column_stats s"
                    + " ON s.data_file_id = f.data_file_id AND s.column_id = 1 WHERE f.end_snapshot IS NULL")) {
                while (r.next()) result.put(r.getString(1), new long[]{r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5)});
            }
            st.execute("DETACH cat");
        }
        return result;
    }
}
