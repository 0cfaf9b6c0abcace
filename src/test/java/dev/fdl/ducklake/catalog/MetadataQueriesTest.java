package dev.fdl.ducklake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.SnapshotInfo;
import dev.fdl.ducklake.TableInfo;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.read.CatalogStat;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.working.WorkingCatalog;

/**
 * There is one model of a catalog ({@link MetadataQueries}): inspection ({@link CatalogInspector}: tables,
 * row counts, gc's and verify's file lists), the built-in reader ({@link SnapshotView}),
 * {@code log --stat} ({@link CatalogStat}) and the importer ({@link WorkingCatalog}) see the same
 * tables, columns and files at every snapshot of every fixture the real extension wrote.
 */
class MetadataQueriesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"empty", "towns", "types", "towns_expired_before_8",
            "duckdb2-ducklake1.0/towns", "duckdb2-ducklake1.0/types",
            "duckdb2-ducklake1.1-dev/empty", "duckdb2-ducklake1.1-dev/towns", "duckdb2-ducklake1.1-dev/types"})
    void inspectionTheReaderAndLogStatAgreeAtEverySnapshot(String fixture) throws Exception {
        Path duck = Fixtures.catalog(fixture, dir);
        Set<String> read = new LinkedHashSet<>();
        Set<String> listed = new LinkedHashSet<>();
        try (CatalogInspector inspection = CatalogInspector.open(duck); Connection conn = Sql.duckDbMemory()) {
            Sql.attach(conn, duck, "r", true);
            inspection.forEachFile(f -> listed.add((f.deleteFile() ? "delete " : "data ") + f.location()));
            long last = inspection.lastSnapshotId();
            for (SnapshotInfo s : inspection.snapshots()) {
                SnapshotView reader = SnapshotView.load(conn, "r", duck.toString(), null, s.id());
                Map<String, List<String>> seenByInspection = new TreeMap<>();
                for (TableInfo t : inspection.tables(s.id())) {
                    List<String> columns = new ArrayList<>();
                    t.columns().forEach(c -> columns.add(c.columnId() + " " + c.name() + " " + c.type()));
                    seenByInspection.put(t.tableId() + " " + t.qualifiedName(), columns);
                }
                Map<String, List<String>> seenByReader = new TreeMap<>();
                for (SnapshotView.TableEntry t : reader.tables()) {
                    List<String> columns = new ArrayList<>();
                    t.columns().forEach(c -> columns.add(c.id() + " " + c.name() + " " + c.duckType()));
                    seenByReader.put(t.id() + " " + t.schema() + "." + t.name(), columns);
                    t.dataFiles().forEach(f -> read.add("data " + f.location()));
                    t.deleteFiles().forEach(f -> read.add("delete " + f.location()));
                }
                assertThat(seenByReader).as("%s snapshot %d", fixture, s.id()).isEqualTo(seenByInspection);
                // every file the reader opens is on gc's list: gc never deletes a file a snapshot reads
                assertThat(listed).as("%s snapshot %d", fixture, s.id()).containsAll(read);
            }
            // and gc keeps nothing no snapshot reads
            assertThat(read).as(fixture).containsExactlyInAnyOrderElementsOf(listed);

            Map<String, Long> rowsByInspection = new LinkedHashMap<>();
            for (TableInfo t : inspection.tables(last)) rowsByInspection.put(t.qualifiedName(), inspection.rowCount(t.tableId(), last));
            Map<String, Long> rowsByStat = new LinkedHashMap<>();
            for (CatalogStat.TableRows t : CatalogStat.of(duck, 0)) {
                rowsByStat.put(t.table(), t.rows());
                assertThat(t.added()).as("every row is added since snapshot 0").isEqualTo(t.rows());
            }
            assertThat(rowsByStat).as(fixture).isEqualTo(rowsByInspection);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"towns", "duckdb2-ducklake1.1-dev/towns"})
    void theImporterSeesTheTablesAndColumnsInspectionSees(String fixture) throws Exception {
        Path sqlite = Fixtures.catalogAs(fixture, "sqlite", dir);
        try (CatalogInspector inspection = CatalogInspector.open(sqlite); WorkingCatalog working = WorkingCatalog.open(sqlite)) {
            long last = inspection.lastSnapshotId();
            List<TableInfo> tables = inspection.tables(last);
            assertThat(tables).isNotEmpty();
            for (TableInfo t : tables) {
                WorkingCatalog.State state = working.state(new TableName(t.schema(), t.name()));
                assertThat(state.snapshot()).isEqualTo(last);
                assertThat(state.table()).as(t.qualifiedName()).isNotNull();
                assertThat(state.table().id()).isEqualTo(t.tableId());
                assertThat(state.columns()).extracting(c -> c.id() + " " + c.name())
                        .containsExactlyElementsOf(t.columns().stream().map(c -> c.columnId() + " " + c.name()).toList());
            }
            assertThat(working.state(new TableName("main", "no_such_table")).table()).isNull();
        }
    }

    /**
     * A SQLite catalog may hold {@code path_is_relative} as text ({@code true}/{@code false}) rather
     * than 0/1: the model reads it as the value it spells, for the schema, the table and every file,
     * so gc neither loses a relative file's location nor invents one for an absolute file.
     */
    @Test
    void pathIsRelativeStoredAsTextInSqliteIsReadAsItsValue() throws Exception {
        Path file = dir.resolve("text.sqlite");
        EmptyCatalog.create(file, CatalogKind.SQLITE, "/data/");
        try (Connection db = Sql.sqlite(file, false)) {
            Sql.exec(db, "UPDATE ducklake_schema SET path_is_relative = 'true'");
            Sql.exec(db, "INSERT INTO ducklake_table (table_id, table_uuid, begin_snapshot, end_snapshot, schema_id, table_name, path,"
                    + " path_is_relative) VALUES (1, 'u', 0, NULL, 0, 't', 't/', 'true')");
            Sql.exec(db, "INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, end_snapshot, path, path_is_relative,"
                    + " file_format, record_count, file_size_bytes) VALUES (1, 1, 0, NULL, 'a.parquet', 'true', 'parquet', 1, 10),"
                    + " (2, 1, 0, NULL, '/elsewhere/b.parquet', 'false', 'parquet', 1, 10)");
        }
        List<String> locations = new ArrayList<>();
        try (CatalogInspector c = CatalogInspector.open(file)) {
            c.forEachFile(f -> locations.add(f.location() + (f.relative() ? " relative" : " absolute")));
        }
        assertThat(locations).containsExactlyInAnyOrder("/data/main/t/a.parquet relative", "/elsewhere/b.parquet absolute");
    }
}
