package dev.fdl.ducklake;

import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.engine.DuckDbPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.fdl.ducklake.catalog.NamedFile;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.BuiltInReaderFixtureTest;
import dev.fdl.ducklake.read.CatalogStat;
import dev.fdl.ducklake.rewrite.DataPath;
import dev.fdl.ducklake.rewrite.FormatUpgrade;
import dev.fdl.ducklake.rewrite.HistoryTruncation;

/**
 * DuckLake 1.1 catalogs without the extension: the released 1.1 shape (made from the real
 * extension's 1.1-dev1 and 1.0 fixtures with the specification's upgrade, {@link FormatUpgrade}),
 * inlined rows under the renamed system columns, nested schemas, deletion vectors, and formats or
 * columns fdl does not know.
 */
class DuckLake11Test {
    private static final String DEV = "duckdb2-ducklake1.1-dev/";

    @TempDir
    Path tmp;

    /** Runs statements on a DuckDB catalog file, in place. */
    static void sql(Path catalog, String... statements) throws Exception {
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, catalog, "c", false);
            Sql.exec(c, "USE c");
            for (String s : statements) Sql.exec(c, s);
        }
    }

    /** Reads every snapshot of expected.json with the built-in reader and the inspector. */
    private static void assertEverySnapshotAsExpected(Path catalog, String dataPath, JsonNode expected) throws Exception {
        for (JsonNode snap : expected.get("snapshots")) {
            long id = snap.get("id").asLong();
            try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), catalog, dataPath, id)) {
                BuiltInReaderFixtureTest.assertReadsAsExpected(reader, snap, "@" + id);
            }
            try (CatalogInspector inspected = CatalogInspector.open(catalog)) {
                for (TableInfo t : inspected.tables(id)) {
                    assertThat(inspected.rowCount(t.tableId(), id)).as(t.qualifiedName() + " @" + id)
                            .isEqualTo(snap.get("tables").get(t.qualifiedName()).get("rows").asLong());
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {DEV + "towns", DEV + "types", "duckdb2-ducklake1.0/towns"})
    void theReleased11ShapeReadsAsTheExtensionWroteItAtEverySnapshot(String fixture) throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(fixture, tmp);
        String before = FormatUpgrade.upgrade(copy.catalog(), "1.1");

        assertThat(before).isEqualTo(fixture.startsWith(DEV) ? "1.1-dev1" : "1.0");
        try (CatalogInspector c = CatalogInspector.open(copy.catalog())) {
            assertThat(c.formatVersion()).isEqualTo("1.1");
            assertThat(c.columns("ducklake_schema")).contains("parent_schema_id");
            assertThat(c.columns("ducklake_data_file")).contains("row_group_count");
            assertThat(c.tableNames()).contains("ducklake_view_column_tag");
            List<String> inlined = c.tableNames().stream().filter(n -> n.startsWith("ducklake_inlined_data_") && !n.endsWith("tables")).toList();
            assertThat(inlined).isNotEmpty();
            for (String t : inlined) {
                assertThat(c.columns(t).subList(0, 3)).containsExactly("_ducklake_row_id", "_ducklake_begin_snapshot", "_ducklake_end_snapshot");
            }
        }
        assertEverySnapshotAsExpected(copy.catalog(), copy.dataPath(), Fixtures.expected(fixture));
    }

    @ParameterizedTest
    @ValueSource(strings = {DEV + "towns", DEV + "types"})
    void aReleased11CatalogRoundTripsThroughSqliteTableEqualAndUpgradesThereToo(String fixture) throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(fixture, tmp);
        Path original = copy.catalog();
        FormatUpgrade.upgrade(original, "1.1");
        Path sqlite = copy.dir().resolve("work.sqlite");
        Path back = copy.dir().resolve("back.duckdb");
        CatalogConverter.convert(original, sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
        CatalogConverter.convert(sqlite, back, CatalogKind.DUCKDB, ProgressListener.NONE);
        // table-equal to a catalog that reads as expected.json at every snapshot (the test above)
        assertThat(CatalogCompare.differences(original, back)).isEmpty();

        // the working copy's path: a SQLite 1.1-dev1 catalog upgraded in place, then committed
        Path lite = copy.dir().resolve("dev.sqlite");
        Path dev = FixtureCopies.copy(fixture, tmp.resolve("dev")).catalog();
        CatalogConverter.convert(dev, lite, CatalogKind.SQLITE, ProgressListener.NONE);
        assertThat(FormatUpgrade.upgrade(lite, "1.1")).isEqualTo("1.1-dev1");
        Path committed = copy.dir().resolve("committed.duckdb");
        CatalogConverter.convert(lite, committed, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(CatalogCompare.differences(original, committed)).isEmpty();
    }

    @Test
    void anUpgradeIsRefusedForUnknownTargetsAndDowngradesAndChangesNothing() throws Exception {
        Path catalog = FixtureCopies.copy(DEV + "towns", tmp).catalog();
        Path copy = tmp.resolve("copy.duckdb");
        Files.copy(catalog, copy);
        assertThatThrownBy(() -> FormatUpgrade.upgrade(catalog, "1.2")).isInstanceOf(FdlException.class)
                .hasMessageContaining("unknown DuckLake format '1.2'")
                .extracting(e -> ((FdlException) e).kind()).isEqualTo(FdlException.Kind.USAGE);
        assertThatThrownBy(() -> FormatUpgrade.upgrade(catalog, "1.0")).isInstanceOf(FdlException.class)
                .hasMessageContaining("has DuckLake format 1.1-dev1").hasMessageContaining("downgrade");
        assertThat(CatalogCompare.differences(copy, catalog)).isEmpty();
        assertThat(FormatUpgrade.upgrade(catalog, "1.1")).isEqualTo("1.1-dev1");
        assertThat(FormatUpgrade.upgrade(catalog, "1.1")).isEqualTo("1.1");
    }

    @Test
    void historyTruncationOfA11CatalogKeepsEveryRemainingSnapshotAsTheExtensionWroteIt() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        FormatUpgrade.upgrade(copy.catalog(), "1.1");
        assertThat(HistoryTruncation.truncateBefore(copy.catalog(), 9)).isEqualTo(9);
        JsonNode expected = Fixtures.expected(DEV + "towns");
        for (JsonNode snap : expected.get("snapshots")) {
            long id = snap.get("id").asLong();
            if (id < 9) continue;
            try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), id)) {
                BuiltInReaderFixtureTest.assertReadsAsExpected(reader, snap, "@" + id);
            }
        }
        assertThat(CatalogCompare.schema(copy.catalog())).doesNotContainKey("ducklake_inlined_data_2_4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.1-dev2", "1.2", "2.0"})
    void aFormatFdlDoesNotKnowIsRefusedByTheInspectorAndTheReader(String format) throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        sql(copy.catalog(), "UPDATE ducklake_metadata SET value = '" + format + "' WHERE key = 'version'");
        assertThatThrownBy(() -> CatalogInspector.open(copy.catalog())).isInstanceOf(FdlException.class)
                .hasMessageContaining("format version " + format).hasMessageContaining("does not know");
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null)).isInstanceOf(FdlException.class)
                .hasMessageContaining("format version " + format);
        assertThatThrownBy(() -> CatalogFiles.duckLake().forEach(copy.catalog(), f -> {})).isInstanceOf(FdlException.class);
    }

    @Test
    void aColumnTheFormatDoesNotDefineInATableThatDecidesFilesOrRowsIsRefusedNamingIt() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        sql(copy.catalog(), "ALTER TABLE ducklake_delete_file ADD COLUMN deletion_vector_offset BIGINT");
        assertThatThrownBy(() -> CatalogInspector.open(copy.catalog())).isInstanceOf(FdlException.class)
                .hasMessageContaining("ducklake_delete_file.deletion_vector_offset");
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null)).isInstanceOf(FdlException.class)
                .hasMessageContaining("ducklake_delete_file.deletion_vector_offset");

        // 1.1's columns in a catalog that says it is 1.0
        FixtureCopies.Copy v10 = FixtureCopies.copy(DEV + "towns", tmp.resolve("v10"));
        sql(v10.catalog(), "UPDATE ducklake_metadata SET value = '1.0' WHERE key = 'version'");
        assertThatThrownBy(() -> CatalogInspector.open(v10.catalog())).isInstanceOf(FdlException.class)
                .hasMessageContaining("ducklake_data_file.row_group_count");
    }

    /** A delete file row for {@code main.towns} (table 1, data file 1) at the newest snapshot. */
    private static String deleteFileRow(String path, String format) {
        return "INSERT INTO ducklake_delete_file (delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, path,"
                + " path_is_relative, format, delete_count, file_size_bytes, footer_size) SELECT 100, 1, max(snapshot_id), NULL, 1, '"
                + path + "', true, " + (format == null ? "NULL" : "'" + format + "'") + ", 1, 64, 0 FROM ducklake_snapshot";
    }

    @ParameterizedTest
    @ValueSource(strings = {"puffin", "parquet", ""})
    void aDeletionVectorIsRefusedByTheReaderNamingTheTableAndNamedAsAFileByTheCatalog(String format) throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        FormatUpgrade.upgrade(copy.catalog(), "1.1");
        sql(copy.catalog(), "UPDATE ducklake_delete_file SET end_snapshot = (SELECT max(snapshot_id) FROM ducklake_snapshot)"
                + " WHERE data_file_id = 1 AND end_snapshot IS NULL",
                deleteFileRow("ducklake-01a2306a-dv.puffin", format.isEmpty() ? null : format));
        long last;
        try (CatalogInspector c = CatalogInspector.open(copy.catalog())) {
            last = c.lastSnapshotId();
            List<NamedFile> files = new ArrayList<>();
            c.forEachFile(files::add);
            assertThat(files).filteredOn(NamedFile::deleteFile).extracting(NamedFile::location)
                    .contains("/fixture/towns/data/main/towns/ducklake-01a2306a-dv.puffin");
        }
        assertThatThrownBy(() -> BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null)).isInstanceOf(FdlException.class)
                .hasMessageContaining("table main.towns").hasMessageContaining("deletion vector")
                .hasMessageContaining("ducklake-01a2306a-dv.puffin");
        // the snapshot before it still reads exactly
        JsonNode snap = Fixtures.expected(DEV + "towns").get("snapshots").get((int) last - 1);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), last - 1)) {
            BuiltInReaderFixtureTest.assertReadsAsExpected(reader, snap, "@" + (last - 1));
        }
    }

    /**
     * Table main.towns moved into schema {@code main.europe} (parent: main) whose path is
     * {@code europe/}, its files moved to {@code data/europe/towns/}: a schema's path is relative to
     * the data path even when the schema is nested (the 1.1 extension's metadata manager,
     * DuckLakePaths), so only a reader that does not resolve it through the parent finds them, and
     * gc's list names them there.
     */
    @Test
    void aTableInANestedSchemaIsReadAndItsFilesAreNamedUnderTheDataPathNotItsParentsFolder() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        FormatUpgrade.upgrade(copy.catalog(), "1.1");
        sql(copy.catalog(), "INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, end_snapshot, schema_name, path,"
                + " path_is_relative, parent_schema_id) VALUES (100, uuid(), 0, NULL, 'europe', 'europe/', true, 0)",
                "UPDATE ducklake_table SET schema_id = 100 WHERE table_id = 1");
        Path from = copy.data().resolve("main/towns");
        Path to = copy.data().resolve("europe/towns");
        Files.createDirectories(to.getParent());
        Files.move(from, to);

        List<String> locations = new ArrayList<>();
        try (CatalogInspector c = CatalogInspector.open(copy.catalog())) {
            c.forEachFile(f -> locations.add(f.location()));
            assertThat(c.tables(c.lastSnapshotId())).extracting(TableInfo::qualifiedName).contains("main.europe.towns");
        }
        assertThat(locations).hasSize(3).noneMatch(l -> l.contains("/data/main/towns/"))
                .filteredOn(l -> l.startsWith("/fixture/towns/data/europe/towns/")).hasSize(2);

        JsonNode snap = Fixtures.expected(DEV + "towns").get("snapshots").get(15);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), 15L);
             java.sql.Statement st = reader.connection().createStatement()) {
            assertThat(reader.tables()).contains("main.europe.towns").doesNotContain("main.towns");
            FixtureChecksum.Result sum = FixtureChecksum.of(st, "\"main.europe\".towns");
            assertThat(sum.md5()).isEqualTo(snap.get("tables").get("main.towns").get("md5").asText());
            assertThat(sum.rows()).isEqualTo(snap.get("tables").get("main.towns").get("rows").asLong());
        }
    }

    /**
     * A schema whose parent the catalog does not describe, or a cycle of parents: the tables cannot
     * be named, so inspection refuses them, while gc's file list (which does not depend on parents)
     * still names every file.
     */
    @Test
    void aNestedSchemaWhoseParentTheCatalogDoesNotDescribeIsRefusedRatherThanGuessed() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        FormatUpgrade.upgrade(copy.catalog(), "1.1");
        List<String> before = new ArrayList<>();
        try (CatalogInspector c = CatalogInspector.open(copy.catalog())) {
            c.forEachFile(f -> before.add(f.location()));
        }
        sql(copy.catalog(), "UPDATE ducklake_schema SET parent_schema_id = 77 WHERE schema_name = 'geo'");
        try (CatalogInspector c = CatalogInspector.open(copy.catalog())) {
            assertThatThrownBy(() -> c.tables(c.lastSnapshotId())).isInstanceOf(FdlException.class)
                    .hasMessageContaining("not visible");
            List<String> after = new ArrayList<>();
            c.forEachFile(f -> after.add(f.location()));
            assertThat(after).isEqualTo(before);
        }
        sql(copy.catalog(), "UPDATE ducklake_schema SET parent_schema_id = 4 WHERE schema_name = 'main'",
                "UPDATE ducklake_schema SET parent_schema_id = 0 WHERE schema_name = 'geo'");
        try (CatalogInspector c = CatalogInspector.open(copy.catalog())) {
            assertThatThrownBy(() -> c.tables(c.lastSnapshotId())).isInstanceOf(FdlException.class).hasMessageContaining("cycle");
        }
    }

    @Test
    void logStatisticsCountInlinedRowsUnderEitherSpelling() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        List<CatalogStat.TableRows> before = CatalogStat.of(copy.catalog(), 5);
        FormatUpgrade.upgrade(copy.catalog(), "1.1");
        assertThat(CatalogStat.of(copy.catalog(), 5)).isEqualTo(before)
                .anySatisfy(t -> assertThat(t.rows()).isPositive());
    }

    /**
     * fdl sync on a 1.1 working catalog (SQLite, renamed inlined system columns): a row that lives
     * inlined (Oslo, in ducklake_inlined_data_1_9) and is missing from the new file is ended under
     * the 1.1 column names, and the table then reads as the file.
     */
    @Test
    void syncEndsAnInlinedRowOfA11WorkingCatalog() throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(DEV + "towns", tmp);
        Path repo = java.nio.file.Files.createDirectories(tmp.resolve("repo"));
        dev.fdl.store.LocalStore store = new dev.fdl.store.LocalStore(repo);
        try (Stream<Path> walk = java.nio.file.Files.walk(copy.data())) {
            for (Path f : walk.filter(java.nio.file.Files::isRegularFile).toList()) {
                Path to = repo.resolve("data").resolve(copy.data().relativize(f).toString());
                java.nio.file.Files.createDirectories(to.getParent());
                java.nio.file.Files.copy(f, to);
            }
        }
        Path working = tmp.resolve("working.sqlite");
        CatalogConverter.convert(copy.catalog(), working, CatalogKind.SQLITE, ProgressListener.NONE);
        DataPath.set(working, store.location("data/"));
        FormatUpgrade.upgrade(working, "1.1");
        Path csv = tmp.resolve("towns.csv");
        long rows;
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), copy.catalog(), copy.dataPath(), null);
             java.sql.Statement st = reader.connection().createStatement()) {
            st.execute("COPY (SELECT * FROM main.towns WHERE name <> 'Oslo') TO '" + csv + "' (HEADER)");
            try (java.sql.ResultSet r = st.executeQuery("SELECT count(*) FROM main.towns WHERE name <> 'Oslo'")) {
                r.next();
                rows = r.getLong(1);
            }
        }
        SyncResult result = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(working, store, "data/", csv, "main.towns", ImportMode.SYNC)
                .withCacheDir(tmp.resolve("cache")).withKeys(List.of("name", "pop")).withAuthor("tester")
                .withMessage("drop Oslo"));
        assertThat(result.removed()).isEqualTo(1);
        try (CatalogInspector c = CatalogInspector.open(working); java.sql.Statement st = c.connection().createStatement();
             java.sql.ResultSet r = st.executeQuery("SELECT count(*) FROM ducklake_inlined_data_1_9 WHERE _ducklake_end_snapshot IS NOT NULL")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(1);
            TableInfo towns = c.tables(c.lastSnapshotId()).stream().filter(t -> t.qualifiedName().equals("main.towns")).findFirst().orElseThrow();
            assertThat(c.rowCount(towns.tableId(), c.lastSnapshotId())).isEqualTo(rows);
        }
    }
}
