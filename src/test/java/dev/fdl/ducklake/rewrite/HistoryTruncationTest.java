package dev.fdl.ducklake.rewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.fdl.ducklake.CatalogCompare;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.SnapshotInfo;
import dev.fdl.ducklake.TableInfo;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;

class HistoryTruncationTest {
    @TempDir
    Path dir;

    /**
     * Columns that differ between two runs of the same story (UUIDs, times, generated file
     * names, the fixture's own name in the data path and the DuckDB build; a positional delete
     * file holds its data file's path, so its size differs too): ignored when
     * comparing with the catalog DuckLake's own expiry produced.
     */
    private static final Map<String, String> RUN_SPECIFIC = Map.of(
            "ducklake_snapshot", "snapshot_time",
            "ducklake_schema", "schema_uuid",
            "ducklake_table", "table_uuid",
            "ducklake_view", "view_uuid",
            "ducklake_data_file", "path",
            "ducklake_delete_file", "path, file_size_bytes, footer_size");

    @Test
    void truncatingTownsBefore8LeavesWhatDuckLakesOwnExpiryLeaves() throws Exception {
        Path towns = Fixtures.catalog("towns", dir);
        Path expired = Fixtures.catalog("towns_expired_before_8", dir);

        assertThat(HistoryTruncation.truncateBefore(towns, 8)).isEqualTo(8);

        List<String> diffs = new ArrayList<>();
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, towns, "a", true);
            Sql.attach(c, expired, "b", true);
            Map<String, List<String>> sa = CatalogCompare.schema(c, "a");
            Map<String, List<String>> sb = CatalogCompare.schema(c, "b");
            assertThat(sa).isEqualTo(sb);
            for (String table : sa.keySet()) {
                if (table.equals("ducklake_files_scheduled_for_deletion")) {
                    continue;
                }
                String exclude = RUN_SPECIFIC.containsKey(table) ? " EXCLUDE (" + RUN_SPECIFIC.get(table) + ")" : "";
                String where = table.equals("ducklake_metadata") ? " WHERE key NOT IN ('created_by', 'data_path')" : "";
                for (String[] d : new String[][] {{"a", "b"}, {"b", "a"}}) {
                    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                            "SELECT CAST(x AS VARCHAR) FROM (SELECT *" + exclude + " FROM " + d[0] + ".main." + table + where
                                    + " EXCEPT ALL SELECT *" + exclude + " FROM " + d[1] + ".main." + table + where + ") x")) {
                        while (r.next()) {
                            diffs.add(table + " only in " + d[0] + ": " + r.getString(1));
                        }
                    }
                }
            }
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT count(*) FROM a.main.ducklake_files_scheduled_for_deletion")) {
                r.next();
                assertThat(r.getLong(1)).isZero();
            }
        }
        assertThat(diffs).isEmpty();
    }

    /**
     * Commit truncates its SQLite copy of the working catalog before converting it (one fresh
     * DuckDB file, no second copy): the result must equal truncating the DuckDB form, table by
     * table, row for row.
     */
    @ParameterizedTest
    @ValueSource(longs = {3, 8, 9, 13})
    void truncatingTheSqliteFormLeavesWhatTruncatingTheDuckDbFormLeaves(long firstKept) throws Exception {
        Path towns = Fixtures.catalog("towns", dir);
        Path lite = dir.resolve("towns-" + firstKept + ".sqlite");
        CatalogConverter.convert(towns, lite, CatalogKind.SQLITE, ProgressListener.NONE);
        Path back = dir.resolve("towns-back-" + firstKept + ".duckdb");

        int removedDuck = HistoryTruncation.truncateBefore(towns, firstKept);
        int removedLite = HistoryTruncation.truncateBefore(lite, firstKept);
        CatalogConverter.convert(lite, back, CatalogKind.DUCKDB, ProgressListener.NONE);

        assertThat(removedLite).isEqualTo(removedDuck).isPositive();
        List<String> diffs = new ArrayList<>();
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, towns, "a", true);
            Sql.attach(c, back, "b", true);
            Map<String, List<String>> sa = CatalogCompare.schema(c, "a");
            assertThat(CatalogCompare.schema(c, "b").keySet()).isEqualTo(sa.keySet());
            for (String table : sa.keySet()) {
                for (String[] d : new String[][] {{"a", "b"}, {"b", "a"}}) {
                    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT CAST(x AS VARCHAR) FROM (SELECT * FROM "
                            + d[0] + ".main." + table + " EXCEPT ALL SELECT * FROM " + d[1] + ".main." + table + ") x")) {
                        while (r.next()) {
                            diffs.add(table + " only in " + d[0] + ": " + r.getString(1));
                        }
                    }
                }
            }
        }
        assertThat(diffs).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 3, 6, 8, 9, 10, 13, 15})
    void everyKeptSnapshotReadsExactlyAsBefore(long firstKept) throws Exception {
        Path towns = Fixtures.catalog("towns", dir);
        Map<Long, String> before = visibility(towns, firstKept);

        HistoryTruncation.truncateBefore(towns, firstKept);

        try (CatalogInspector catalog = CatalogInspector.open(towns)) {
            assertThat(catalog.firstSnapshotId()).isEqualTo(firstKept);
            assertThat(catalog.lastSnapshotId()).isEqualTo(15);
        }
        assertThat(visibility(towns, firstKept)).isEqualTo(before);
    }

    @Test
    void filesVisibleOnlyAtRemovedSnapshotsAreNoLongerNamed() {
        Path towns = Fixtures.catalog("towns", dir);
        assertThat(locations(towns)).anyMatch(l -> l.contains("/main/scratch/"));

        HistoryTruncation.truncateBefore(towns, 9);

        assertThat(locations(towns)).noneMatch(l -> l.contains("/main/scratch/")).hasSize(2);
    }

    @Test
    void aTableDroppedBeforeTheKeptSnapshotsIsGoneWithItsInlinedData() throws Exception {
        Path towns = Fixtures.catalog("towns", dir);
        HistoryTruncation.truncateBefore(towns, 9);
        assertThat(CatalogCompare.schema(towns)).doesNotContainKey("ducklake_inlined_data_2_4").containsKey("ducklake_inlined_data_1_1");
        try (CatalogInspector catalog = CatalogInspector.open(towns);
             Statement s = catalog.connection().createStatement();
             ResultSet r = s.executeQuery("SELECT (SELECT count(*) FROM ducklake_table WHERE table_id = 2)"
                     + " + (SELECT count(*) FROM ducklake_column WHERE table_id = 2)"
                     + " + (SELECT count(*) FROM ducklake_inlined_data_tables WHERE table_id = 2)")) {
            r.next();
            assertThat(r.getLong(1)).isZero();
        }
    }

    @Test
    void keepingFromTheFirstSnapshotChangesNothing() throws Exception {
        Path towns = Fixtures.catalog("towns", dir);
        Path copy = dir.resolve("copy.duckdb");
        Files.copy(towns, copy);
        assertThat(HistoryTruncation.truncateBefore(towns, 0)).isZero();
        assertThat(CatalogCompare.differences(copy, towns)).isEmpty();
    }

    @Test
    void refusesToRemoveEverySnapshot() throws Exception {
        Path towns = Fixtures.catalog("towns", dir);
        Path copy = dir.resolve("copy.duckdb");
        Files.copy(towns, copy);
        assertThatThrownBy(() -> HistoryTruncation.truncateBefore(towns, 16)).isInstanceOf(FdlException.class)
                .hasMessageContaining("newest snapshot is 15");
        assertThat(CatalogCompare.differences(copy, towns)).isEmpty();
    }

    private static List<String> locations(Path catalogFile) {
        List<String> result = new ArrayList<>();
        try (CatalogInspector catalog = CatalogInspector.open(catalogFile)) {
            catalog.forEachFile(f -> result.add(f.location()));
        }
        return result;
    }

    /**
     * What a reader sees at each snapshot from {@code first} on, from catalog rows alone: tables
     * with columns and row counts, visible data and delete files (with paths), visible inlined
     * rows (their values) and inlined deletes.
     */
    static Map<Long, String> visibility(Path catalogFile, long first) throws Exception {
        Map<Long, String> result = new LinkedHashMap<>();
        try (CatalogInspector catalog = CatalogInspector.open(catalogFile)) {
            Connection c = catalog.connection();
            for (SnapshotInfo snapshot : catalog.snapshots()) {
                long s = snapshot.id();
                if (s < first) {
                    continue;
                }
                StringBuilder b = new StringBuilder(snapshot.toString()).append('\n');
                for (TableInfo t : catalog.tables(s)) {
                    b.append(t).append(" rows=").append(catalog.rowCount(t.tableId(), s)).append('\n');
                    String vis = " begin_snapshot <= " + s + " AND (end_snapshot IS NULL OR end_snapshot > " + s + ")";
                    b.append(rows(c, "SELECT data_file_id, path, record_count, row_id_start FROM ducklake_data_file WHERE table_id = "
                            + t.tableId() + " AND" + vis + " ORDER BY data_file_id"));
                    b.append(rows(c, "SELECT delete_file_id, data_file_id, path, delete_count FROM ducklake_delete_file WHERE table_id = "
                            + t.tableId() + " AND" + vis + " ORDER BY delete_file_id"));
                    for (String inlined : inlinedDataTables(catalog, t.tableId())) {
                        b.append(inlined).append(rows(c, "SELECT * FROM " + inlined + " WHERE" + vis + " ORDER BY row_id"));
                    }
                    if (catalog.tableNames().contains("ducklake_inlined_delete_" + t.tableId())) {
                        b.append(rows(c, "SELECT * FROM ducklake_inlined_delete_" + t.tableId() + " WHERE begin_snapshot <= " + s
                                + " ORDER BY file_id, row_id"));
                    }
                }
                result.put(s, b.toString());
            }
        }
        return result;
    }

    private static String rows(Connection c, String sql) throws Exception {
        StringBuilder b = new StringBuilder();
        try (Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                for (int i = 1; i <= n; i++) {
                    b.append(r.getString(i)).append('|');
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    /** The inlined-data tables of a table that exist in the file, by name ({@code ducklake_inlined_data_<table>_<version>}). */
    private static List<String> inlinedDataTables(CatalogInspector catalog, long tableId) {
        String prefix = DuckLakeSchema.INLINED_DATA_PREFIX + tableId + "_";
        return catalog.tableNames().stream()
                .filter(n -> n.startsWith(prefix) && n.substring(prefix.length()).matches("\\d+")).sorted().toList();
    }
}
