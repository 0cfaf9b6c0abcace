package dev.fdl.ducklake.load.sync;

import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fdl.FdlException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.stream.Stream;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.load.ImporterRecordsTest;
import dev.fdl.ducklake.read.BuiltInReader;

import static dev.fdl.ducklake.WorkingCatalogFixture.checksum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** import --mode sync: the table ends up holding exactly the file's rows, and only the difference is written. */
class SyncerTest {
    @TempDir
    Path tmp;

    @Test
    void syncOfEveryShippedMonthOntoThePreviousReadsAsThatMonthAtEverySnapshot() {
        List<Path> months = WorkingCatalogFixture.months();
        // with the key every month; without (the whole row as identity, duplicates counted) the first three
        for (String[] keys : List.of(new String[]{"geonameid"}, new String[]{})) {
            WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("k" + keys.length));
            List<Long> snapshots = new ArrayList<>();
            int n = keys.length == 0 ? 3 : months.size();
            for (Path month : months.subList(0, n)) {
                SyncResult r = wc.sync(month, "cities", keys);
                assertThat(r.snapshot()).isNotNull();
                snapshots.add(r.snapshot());
            }
            Path converted = wc.dir.resolve("read.duckdb");
            CatalogConverter.convert(wc.catalog, converted, CatalogKind.DUCKDB, ProgressListener.NONE);
            for (int i = 0; i < n; i++) {
                try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), converted, null, snapshots.get(i))) {
                    assertThat(checksum(reader.connection(), "SELECT * FROM cities")).as("month " + i)
                            .isEqualTo(checksum(reader.connection(), WorkingCatalogFixture.csvSource(months.get(i))));
                }
            }
        }
    }

    /**
     * Issue 15: every month synced onto the previous reads as that month's file through DuckDB's
     * own DuckLake extension too, at every snapshot (skipped where the extension cannot be loaded:
     * fdl never downloads it).
     */
    @Test
    void everySyncedMonthReadsAsThatMonthThroughTheDuckLakeExtension() throws Exception {
        WorkingCatalogFixture.assumeDuckLakeExtension("synced months");
        List<Path> months = WorkingCatalogFixture.months();
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("ext"));
        List<Long> snapshots = new ArrayList<>();
        for (Path month : months) snapshots.add(wc.sync(month, "cities", "geonameid").snapshot());
        try (Connection duck = wc.attachedByExtension()) {
            for (int i = 0; i < months.size(); i++) {
                assertThat(checksum(duck, "SELECT * FROM lake.cities AT (VERSION => " + snapshots.get(i) + ")")).as("month " + i)
                        .isEqualTo(checksum(duck, WorkingCatalogFixture.csvSource(months.get(i))));
            }
        }
    }

    private Path csv(String name, String content) {
        try {
            return Files.writeString(tmp.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String error(Runnable r) {
        return assertThatThrownBy(r::run).isInstanceOf(FdlException.class).actual().getMessage();
    }

    private static long files(WorkingCatalogFixture wc) {
        try (Stream<Path> s = Files.walk(wc.dir.resolve("repo"))) {
            // the store's own files (.fdl-lock, taken by deletes) are not objects
            return s.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().startsWith(".fdl-")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A CSV {@code id,score} of {@code rows} rows whose score is an integer except at row {@code late}, beyond the sniffer's sample. */
    private Path lateDouble(String name, int rows, int late) {
        StringBuilder sb = new StringBuilder("id,score\n");
        for (int i = 1; i <= rows; i++) sb.append(i).append(',').append(i == late ? "2.5" : String.valueOf(i)).append('\n');
        return csv(name, sb.toString());
    }

    private static String value(WorkingCatalogFixture wc, String sql) {
        try (BuiltInReader r = wc.read(null)) {
            return String.valueOf(r.query(sql).rows().get(0).get(0));
        }
    }

    @Test
    void aValueOfAnotherTypeAfterTheSniffersSampleIsReadAsTheWholeFileHasIt() {
        // the sample gives score BIGINT, the table has DOUBLE: the whole file is sniffed (score DOUBLE) before any read
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("a.csv", "id,score\n1,1.5\n2,2\n"), "t", "id");
        SyncResult r = wc.sync(lateDouble("late.csv", 30_000, 25_000), "t", "id");
        assertThat(r.columns()).extracting(c -> c.text()).containsExactly("id BIGINT", "score DOUBLE");
        assertThat(value(wc, "SELECT score FROM t WHERE id = 25000")).isEqualTo("2.5");
        assertThat(value(wc, "SELECT count(*) FROM t")).isEqualTo("30000");
        // a table that does not exist yet: its key is checked on the whole-file read
        SyncResult n = wc.sync(lateDouble("late2.csv", 30_000, 25_000), "u", "id");
        assertThat(n.columns()).extracting(c -> c.text()).containsExactly("id BIGINT", "score DOUBLE");
        assertThat(value(wc, "SELECT score FROM u WHERE id = 25000")).isEqualTo("2.5");
        // the sample's BIGINT is the table's: the strict read fails at the late value, the whole file gives DOUBLE, which
        // a BIGINT column cannot take: refused as the whole-file sniff refuses it, not rounded to 3
        wc.sync(csv("b.csv", "id,score\n1,1\n"), "v", "id");
        assertThatThrownBy(() -> wc.sync(lateDouble("late3.csv", 30_000, 25_000), "v", "id"))
                .hasMessageContaining("'score' is BIGINT in the table but DOUBLE in the file");
        assertThat(value(wc, "SELECT count(*) FROM v")).isEqualTo("1");
    }

    @Test
    void duplicateOrNullKeysAreRefusedNamingTheFirstAndNothingIsWritten() {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("a.csv", "id,name\n1,a\n2,b\n"), "t", "id");
        String before = wc.dump();
        long files = files(wc);
        assertThat(error(() -> wc.sync(csv("dup.csv", "id,name\n1,a\n3,c\n2,b\n3,d\n2,e\n"), "t", "id")))
                .contains("dup.csv").contains("key id = 3 (data row 2) appears more than once").contains("Nothing was imported");
        assertThat(error(() -> wc.sync(csv("null.csv", "id,name\n1,a\n,b\n"), "t", "id")))
                .contains("null.csv").contains("data row 2 has a NULL key (id)");
        assertThat(error(() -> wc.sync(csv("pair.csv", "id,name\n1,a\n1,b\n1,a\n"), "t", "id", "name")))
                .contains("key id = 1, name = a (data row 1)");
        // a table that does not exist yet is refused the same way
        assertThat(error(() -> wc.sync(csv("dup2.csv", "k\n5\n5\n"), "u", "k"))).contains("key k = 5 (data row 1)");
        assertThat(error(() -> wc.sync(csv("nokey.csv", "id,name\n1,a\n"), "t", "code"))).contains("--key names column 'code'");
        assertThat(wc.dump()).isEqualTo(before);
        assertThat(files(wc)).isEqualTo(files);
        // unique as a pair: accepted
        SyncResult r = wc.sync(csv("pairs.csv", "id,name\n1,a\n1,b\n2,b\n"), "t", "id", "name");
        assertThat(List.of(r.added(), r.removed(), r.changed())).containsExactly(1L, 0L, 0L);
    }

    @Test
    void columnsAddedDroppedRenamedAndWidenedAreDuckLakeSchemaChanges() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        Path v1 = csv("v1.csv", "id,Name,pop,gone\n1,a,10,x\n2,b,20,y\n3,c,30,z\n");
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(wc.catalog, wc.store, "data/", v1, "t", ImportMode.SYNC)
                .withCacheDir(tmp.resolve("cache")).withKeys(List.of("id")).withSchemaOverride("pop INTEGER"));
        // pop INTEGER -> BIGINT widens, Name -> name renames, gone is dropped, note is added; row 2 changes, 3 goes, 4 comes
        Path v2 = csv("v2.csv", "id,name,pop,note\n1,a,10,\n2,b,21,\n4,d,5000000000,new\n");
        SyncResult r = wc.sync(v2, "t", "id");
        assertThat(r.schemaChanges()).containsExactly("renamed column Name -> name", "retyped column pop int32 -> int64",
                "dropped column gone", "added column note VARCHAR");
        assertThat(List.of(r.added(), r.removed(), r.changed())).containsExactly(1L, 1L, 1L);
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(checksum(reader.connection(), "SELECT * FROM t")).isEqualTo(checksum(reader.connection(), WorkingCatalogFixture.csvSource(v2)));
            assertThat(reader.query("DESCRIBE t").rows().stream().map(row -> row.get(0) + " " + row.get(1)).toList())
                    .containsExactly("id BIGINT", "name VARCHAR", "pop BIGINT", "note VARCHAR");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog)) {
            // the column ids stay (field ids of the first file), the new column gets the next id
            assertThat(ImporterRecordsTest.rows(c, "SELECT column_id, column_name, column_type, begin_snapshot, end_snapshot "
                    + "FROM ducklake_column ORDER BY column_id, begin_snapshot")).containsExactly(
                    "1|id|int64|1|null", "2|Name|varchar|1|2", "2|name|varchar|2|null", "3|pop|int32|1|2", "3|pop|int64|2|null",
                    "4|gone|varchar|1|2", "5|note|varchar|2|null");
            assertThat(ImporterRecordsTest.rows(c, "SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 2"))
                    .containsExactly("altered_table:1,deleted_from_table:1,inserted_into_table:1");
            assertThat(ImporterRecordsTest.rows(c, "SELECT schema_version FROM ducklake_schema_versions ORDER BY 1")).containsExactly("1", "2");
        }
        // a narrower type in the file keeps the table's type; another type is refused naming the column
        Path small = csv("small.csv", "id,name,pop,note\n1,a,10,\n2,b,21,\n4,d,40,new\n");
        SyncResult narrower = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(wc.catalog, wc.store, "data/", small, "t", ImportMode.SYNC)
                .withCacheDir(tmp.resolve("cache")).withKeys(List.of("id")).withSchemaOverride("pop INTEGER"));
        assertThat(narrower.schemaChanges()).isEmpty();
        assertThat(narrower.changed()).isEqualTo(1);
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT typeof(pop), pop FROM t WHERE id = 4").rows()).containsExactly(List.of("BIGINT", 40L));
        }
        String before = wc.dump();
        assertThat(error(() -> wc.sync(csv("v3.csv", "id,name,pop,note\n1,a,lots,\n"), "t", "id")))
                .contains("column 'pop' is BIGINT in the table but VARCHAR in the file").contains("--mode replace");
        assertThat(wc.dump()).isEqualTo(before);
    }

    @Test
    void aDataFileDeletedFromTwiceKeepsOneVisibleDeleteFileHoldingEveryPosition() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("twice"));
        wc.sync(csv("a.csv", "id,v\n1,a\n2,b\n3,c\n4,d\n"), "t", "id");
        wc.sync(csv("b.csv", "id,v\n1,a\n3,c\n4,d\n"), "t", "id");
        wc.sync(csv("c.csv", "id,v\n1,a\n3,c\n"), "t", "id");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog)) {
            assertThat(ImporterRecordsTest.rows(c, "SELECT data_file_id, delete_count, begin_snapshot FROM ducklake_delete_file "
                    + "WHERE end_snapshot IS NULL ORDER BY 1")).as("one visible delete file per data file, as DuckLake keeps it")
                    .containsExactly("0|2|3");
            assertThat(ImporterRecordsTest.rows(c, "SELECT data_file_id, delete_count, begin_snapshot, end_snapshot FROM ducklake_delete_file "
                    + "WHERE end_snapshot IS NOT NULL")).containsExactly("0|1|2|3");
        }
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT id FROM t ORDER BY id").rows()).containsExactly(List.of(1L), List.of(3L));
        }
    }

    @Test
    void aDataFileWhoseRowsAreAllGoneEndsAndGetsNoDeleteFile() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("a.csv", "id,v\n1,a\n2,b\n"), "t");
        wc.sync(csv("b.csv", "id,v\n1,a\n2,b\n3,c\n4,d\n"), "t");
        SyncResult r = wc.sync(csv("c.csv", "id,v\n3,c\n4,d\n"), "t");
        assertThat(List.of(r.added(), r.removed(), (long) r.deleteFiles(), (long) r.endedFiles())).containsExactly(0L, 2L, 0L, 1L);
        assertThat(r.dataFileKey()).isNull();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog)) {
            assertThat(ImporterRecordsTest.rows(c, "SELECT data_file_id, begin_snapshot, end_snapshot FROM ducklake_data_file ORDER BY 1"))
                    .containsExactly("0|1|3", "1|2|null");
            assertThat(ImporterRecordsTest.rows(c, "SELECT count(*) FROM ducklake_delete_file")).containsExactly("0");
        }
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT * FROM t ORDER BY id").rows()).containsExactly(List.of(3L, "c"), List.of(4L, "d"));
        }
        try (BuiltInReader reader = wc.read(2L)) {
            assertThat(reader.query("SELECT count(*) FROM t").rows()).containsExactly(List.of(4L));
        }
    }
}
