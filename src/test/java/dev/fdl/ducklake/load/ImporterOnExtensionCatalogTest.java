package dev.fdl.ducklake.load;

import dev.fdl.util.SqlQuote;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.rewrite.FormatUpgrade;

import static dev.fdl.ducklake.WorkingCatalogFixture.checksum;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Imports into a working catalog the DuckLake extension wrote (the towns fixture, converted to
 * SQLite as checkout does, its data files in the repository): inlined rows, a delete file and
 * renamed and dropped columns are already there.
 */
class ImporterOnExtensionCatalogTest {
    @TempDir
    Path tmp;

    private LocalStore store;
    private Path sqlite;
    private JsonNode at15;
    private int reads;

    @BeforeEach
    void checkOutTowns() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp.resolve("fixture"));
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve("data"));
        try (Stream<Path> walk = Files.walk(towns.data())) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path to = repo.resolve("data").resolve(towns.data().relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to);
            }
        }
        store = new LocalStore(repo);
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH " + SqlQuote.literal(towns.catalog().toString()) + " AS c");
            st.execute("UPDATE c.ducklake_metadata SET value = " + SqlQuote.literal(store.location("data/")) + " WHERE key = 'data_path'");
        }
        sqlite = tmp.resolve("wc/catalog.sqlite");
        Files.createDirectories(sqlite.getParent());
        CatalogConverter.convert(towns.catalog(), sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
        JsonNode expected = new ObjectMapper().readTree(FixtureCopies.resource("towns/expected.json").toFile());
        at15 = expected.get("snapshots").get(15).get("tables").get("main.towns");
    }

    private BuiltInReader read(Long snapshot) {
        Path duck = tmp.resolve("read-" + (reads++) + ".duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        return BuiltInReader.open(DuckDbPool.shared(), duck, null, snapshot);
    }

    private Path csv(String name, String content) throws Exception {
        return Files.writeString(tmp.resolve(name), content);
    }

    private String expected15() {
        return at15.get("rows").asLong() + ":" + at15.get("md5").asText();
    }

    @Test
    void appendKeepsInlinedAndParquetRowsAndContinuesRowIds() throws Exception {
        Path more = csv("more.csv", "name,pop,note\nBergen,285000,new\nTromso,77000,\n");
        ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(sqlite, store, "data/", more, "towns", ImportMode.APPEND)
                .withAuthor("bob").withMessage("more towns"));
        assertThat(r.snapshot()).isEqualTo(16);
        try (BuiltInReader reader = read(null)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM towns WHERE name NOT IN ('Bergen', 'Tromso')")).isEqualTo(expected15());
            assertThat(reader.query("SELECT name, pop, note FROM towns WHERE name IN ('Bergen', 'Tromso') ORDER BY name").rows())
                    .containsExactly(List.of("Bergen", 285000, "new"), java.util.Arrays.asList("Tromso", 77000, null));
        }
        try (BuiltInReader reader = read(15L)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM towns")).isEqualTo(expected15());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite)) {
            // table stats said next_row_id 2004: the new file's rows start there
            assertThat(ImporterRecordsTest.rows(c, "SELECT row_id_start, record_count FROM ducklake_data_file WHERE begin_snapshot = 16"))
                    .containsExactly("2004|2");
            assertThat(ImporterRecordsTest.rows(c, "SELECT changes_made, author, commit_message FROM ducklake_snapshot_changes "
                    + "WHERE snapshot_id = 16")).containsExactly("inserted_into_table:1|bob|more towns");
        }
    }

    @Test
    void replaceHidesInlinedRowsParquetRowsAndOldColumnsFromTheNewSnapshotOn() throws Exception {
        Path other = csv("other.csv", "city,inhabitants\nBergen,285000\n");
        ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(sqlite, store, "data/", other, "towns", ImportMode.REPLACE));
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("city VARCHAR", "inhabitants BIGINT");
        try (BuiltInReader reader = read(null)) {
            assertThat(reader.query("SELECT * FROM towns").rows()).containsExactly(List.of("Bergen", 285000L));
            assertThat(reader.query("SELECT count(*) FROM geo.rivers").rows().get(0).get(0)).isEqualTo(2L);
        }
        try (BuiltInReader reader = read(15L)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM towns")).isEqualTo(expected15());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite)) {
            assertThat(ImporterRecordsTest.rows(c, "SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 16"))
                    .containsExactly("altered_table:1,deleted_from_table:1,inserted_into_table:1");
            // new column ids after the largest the table ever used (4)
            assertThat(ImporterRecordsTest.rows(c, "SELECT column_id, column_name, column_type FROM ducklake_column "
                    + "WHERE table_id = 1 AND begin_snapshot = 16 ORDER BY column_id")).containsExactly("5|city|varchar", "6|inhabitants|int64");
            assertThat(ImporterRecordsTest.rows(c, "SELECT count(*) FROM ducklake_data_file WHERE table_id = 1 AND end_snapshot IS NULL"))
                    .containsExactly("1");
        }
        // no file was deleted
        assertThat(Files.exists(tmp.resolve("repo/data/main/towns/ducklake-01a22959-f487-780c-9bbb-d3e43bb46f07.parquet"))).isTrue();
    }

    /**
     * DuckLake 1.1 names the system columns of inlined-data tables {@code _ducklake_begin_snapshot}
     * and {@code _ducklake_end_snapshot}: a replace ends the inlined rows by the names the catalog
     * has ({@link dev.fdl.ducklake.catalog.MetadataQueries#inlinedTables}), not by 1.0's.
     */
    @Test
    void replaceEndsTheInlinedRowsOfADuckLake11CatalogByItsSystemColumnNames() throws Exception {
        FormatUpgrade.upgrade(sqlite, "1.1");
        Path other = csv("other.csv", "city,inhabitants\nBergen,285000\n");
        new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(sqlite, store, "data/", other, "towns", ImportMode.REPLACE));
        try (BuiltInReader reader = read(null)) {
            assertThat(reader.query("SELECT * FROM towns").rows()).containsExactly(List.of("Bergen", 285000L));
        }
        try (BuiltInReader reader = read(15L)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM towns")).isEqualTo(expected15());
        }
    }

    /** The towns table at the newest snapshot, changed by {@code sql} over it (a view {@code t}), as a CSV file. */
    private Path townsCsv(String name, String sql) throws Exception {
        Path file = tmp.resolve(name);
        try (BuiltInReader reader = read(null); Statement st = reader.connection().createStatement()) {
            st.execute("CREATE VIEW t AS SELECT * FROM towns");
            st.execute("COPY (" + sql + ") TO " + SqlQuote.literal(file.toString()) + " (HEADER, DELIMITER ',')");
        }
        return file;
    }

    private static String csvChecksum(BuiltInReader reader, Path file) {
        return checksum(reader.connection(), "SELECT * FROM read_csv(" + SqlQuote.literal(file.toString())
                + ", header = true, types = {'pop': 'INTEGER'})");
    }

    @Test
    void syncDeletesInlinedAndParquetRowsExtendsTheDeleteFileAndAddsOnlyTheDifference() throws Exception {
        // Lyon is inlined (snapshot 2), town-500 and town-501 are in the Parquet file (which has 136 deletes), Tokyo changes.
        Path next = townsCsv("next.csv", "SELECT name, CASE WHEN name = 'Tokyo' THEN 14100000 ELSE pop END AS pop, note FROM t "
                + "WHERE name NOT IN ('Lyon', 'town-500', 'town-501') UNION ALL SELECT 'Bergen', 285000, 'new'");
        SyncResult r = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", next, "towns", ImportMode.SYNC)
                .withCacheDir(tmp.resolve("cache")).withKeys(List.of("name")).withSchemaOverride("pop INTEGER")
                .withAuthor("bob").withMessage("next build"));
        assertThat(r.snapshot()).isEqualTo(16);
        assertThat(List.of(r.added(), r.removed(), r.changed(), (long) r.deleteFiles(), (long) r.endedFiles()))
                .containsExactly(1L, 3L, 1L, 1L, 0L);
        assertThat(r.schemaChanges()).isEmpty();
        try (BuiltInReader reader = read(null)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM towns")).isEqualTo(csvChecksum(reader, next));
            assertThat(reader.query("SELECT pop FROM towns WHERE name = 'Tokyo'").rows()).containsExactly(List.of(14100000));
        }
        try (BuiltInReader reader = read(15L)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM towns")).isEqualTo(expected15());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite)) {
            assertThat(ImporterRecordsTest.rows(c, "SELECT changes_made, author, commit_message FROM ducklake_snapshot_changes "
                    + "WHERE snapshot_id = 16")).containsExactly("deleted_from_table:1,inlined_delete:1,inserted_into_table:1|bob|next build");
            // one visible delete file per data file: the extension's one (136 positions) ends, the new one holds 138
            assertThat(ImporterRecordsTest.rows(c, "SELECT delete_file_id, begin_snapshot, end_snapshot, data_file_id, delete_count "
                    + "FROM ducklake_delete_file ORDER BY delete_file_id")).containsExactly("3|6|16|1|136", "7|16|null|1|138");
            assertThat(ImporterRecordsTest.rows(c, "SELECT name, end_snapshot FROM ducklake_inlined_data_1_1 ORDER BY row_id"))
                    .containsExactly("Tokyo|5", "Lyon|16", "Quito|5");
            assertThat(ImporterRecordsTest.rows(c, "SELECT name, end_snapshot FROM ducklake_inlined_data_1_2 ORDER BY row_id"))
                    .containsExactly("Tokyo|16", "Quito|null");
            assertThat(ImporterRecordsTest.rows(c, "SELECT data_file_id, row_id_start, record_count FROM ducklake_data_file "
                    + "WHERE begin_snapshot = 16")).containsExactly("8|2004|2");
            assertThat(ImporterRecordsTest.rows(c, "SELECT next_file_id FROM ducklake_snapshot WHERE snapshot_id = 16"))
                    .containsExactly("9");
        }
        // The delete file has the Parquet schema the extension writes (the fixture's), and names the data file as written.
        Path folder = tmp.resolve("repo/data/main/towns");
        Path theirs = folder.resolve("ducklake-01a22959-f515-7195-8ca9-a09be8bdc366-delete.parquet");
        Path ours;
        try (Stream<Path> files = Files.list(folder)) {
            ours = files.filter(p -> p.toString().endsWith("-delete.parquet") && !p.equals(theirs)).findFirst().orElseThrow();
        }
        try (Connection d = DuckDbPool.connect()) {
            // repetition is left out: DuckDB 2.0's writer marks columns without NULLs REQUIRED where the
            // extension writes OPTIONAL; readers (the extension, fdl's reader) take either
            String schema = "SELECT name, type, converted_type, field_id, num_children FROM parquet_schema(?) ORDER BY column_id";
            assertThat(ImporterRecordsTest.rows(d, schema.replace("?", SqlQuote.literal(ours.toString()))))
                    .isEqualTo(ImporterRecordsTest.rows(d, schema.replace("?", SqlQuote.literal(theirs.toString()))));
            assertThat(ImporterRecordsTest.rows(d, "SELECT DISTINCT file_path FROM read_parquet(" + SqlQuote.literal(ours.toString()) + ")"))
                    .containsExactly(store.location("data/") + "main/towns/ducklake-01a22959-f487-780c-9bbb-d3e43bb46f07.parquet");
            assertThat(ImporterRecordsTest.rows(d, "SELECT count(*) FROM (SELECT pos FROM read_parquet(" + SqlQuote.literal(theirs.toString())
                    + ") EXCEPT SELECT pos FROM read_parquet(" + SqlQuote.literal(ours.toString()) + "))")).containsExactly("0");
        }
    }

    @Test
    void syncOfTheTableItselfWritesNothing() throws Exception {
        Path same = townsCsv("same.csv", "SELECT * FROM t ORDER BY name DESC");
        String before = WorkingCatalogFixture.dump(sqlite);
        SyncResult r = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", same, "towns", ImportMode.SYNC)
                .withCacheDir(tmp.resolve("cache")).withKeys(List.of()).withSchemaOverride("pop INTEGER"));
        assertThat(r.unchanged()).isTrue();
        assertThat(r.rows()).isEqualTo(at15.get("rows").asLong());
        assertThat(WorkingCatalogFixture.dump(sqlite)).isEqualTo(before);
        // a key the table has not recorded yet is recorded by a snapshot that writes no data or delete file
        r = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(sqlite, store, "data/", same, "towns", ImportMode.SYNC)
                .withCacheDir(tmp.resolve("cache")).withKeys(List.of("name")).withSchemaOverride("pop INTEGER"));
        assertThat(r.unchanged()).isFalse();
        assertThat(r.dataFileKey()).isNull();
        assertThat(r.deleteFiles()).isZero();
        assertThat(r.added() + r.removed() + r.changed()).isZero();
        assertThat(r.rows()).isEqualTo(at15.get("rows").asLong());
    }
}
