package dev.fdl.ducklake.working;

import dev.fdl.ducklake.engine.DuckDbPool;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fdl.FdlException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.BuiltInReaderFixtureTest;
import dev.fdl.ducklake.rewrite.FormatUpgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Restore against catalogs the real DuckLake extension wrote: the working catalog holds the towns
 * story (16 snapshots: inlined rows, an UPDATE of them, a Parquet file, a delete file, added,
 * renamed and dropped columns, a dropped table, a view, a second schema); restoring the state of
 * any snapshot adds one snapshot that reads exactly as expected.json says that snapshot reads
 * (tables, columns, row counts, checksums), while the older snapshots still read as before.
 */
class CatalogMatchTest {
    @TempDir Path tmp;

    static JsonNode expected(String fixture) {
        try {
            return new ObjectMapper().readTree(FixtureCopies.resource(fixture + "/expected.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode snapshot(JsonNode expected, long id) {
        for (JsonNode s : expected.get("snapshots")) if (s.get("id").asLong() == id) return s;
        throw new IllegalArgumentException("no snapshot " + id);
    }

    /** The fixture copied and converted to a SQLite catalog (what a working copy holds). */
    static Path sqlite(FixtureCopies.Copy copy, String name) {
        Path p = copy.dir().resolve(name);
        CatalogConverter.convert(copy.catalog(), p, CatalogKind.SQLITE, ProgressListener.NONE);
        return p;
    }

    /**
     * The working catalog at {@code restored} reads as {@code expectedRestored} records, and at
     * {@code older} as {@code expectedOlder} (one conversion for both reads).
     */
    void assertReadsAs(Path working, String dataPath, long restored, JsonNode expectedRestored, long older, JsonNode expectedOlder)
            throws Exception {
        Path duck = tmp.resolve("read-" + System.nanoTime() + ".duckdb");
        CatalogConverter.convert(working, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, dataPath, restored)) {
            BuiltInReaderFixtureTest.assertReadsAsExpected(reader, expectedRestored, "at " + restored);
        }
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, dataPath, older)) {
            BuiltInReaderFixtureTest.assertReadsAsExpected(reader, expectedOlder, "at " + older);
        }
    }

    @TempDir
    static Path shared;

    private static Path townsSqlite;

    /**
     * The towns fixture converted to a working catalog once per class (each restore test
     * converted it twice, to the same result); each test copies it.
     */
    private static synchronized Path townsSqlite() {
        if (townsSqlite == null) townsSqlite = sqlite(FixtureCopies.copy("towns", shared), "towns.sqlite");
        return townsSqlite;
    }

    @TestFactory
    Stream<DynamicTest> everySnapshotOfTownsRestoredOnTopOfTheNewestReadsAsItDid() {
        JsonNode expected = expected("towns");
        List<DynamicTest> tests = new ArrayList<>();
        for (long k = 0; k < 15; k++) {
            long at = k;
            tests.add(DynamicTest.dynamicTest("towns @" + at, () -> {
                FixtureCopies.Copy copy = FixtureCopies.copy("towns", tmp.resolve("k" + at));
                Path working = Files.copy(townsSqlite(), copy.dir().resolve("working.sqlite"));
                Path source = Files.copy(townsSqlite(), copy.dir().resolve("source.sqlite"));
                long nextRowId = nextRowId(working);
                try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + source)) {
                    // an older version's statistics: its next_row_id was smaller
                    c.createStatement().executeUpdate("UPDATE ducklake_table_stats SET next_row_id = 1 WHERE table_id = 1");
                }
                CatalogMatch.MatchResult r = CatalogMatch.run(CatalogMatch.Request.restore(working, source, at, "tester", "restore " + at));
                assertThat(nextRowId(working)).as("row ids never go back").isEqualTo(nextRowId);
                assertThat(r.snapshot()).isEqualTo(16);
                assertThat(r.changes()).isNotEmpty();
                assertReadsAs(working, copy.dataPath(), 16, snapshot(expected, at), 15, snapshot(expected, 15));
                assertThat(dataFiles(copy)).as("no data file written").isEqualTo(dataFiles(FixtureCopies.copy("towns", tmp.resolve("fresh" + at))));
            }));
        }
        return tests.stream();
    }

    /** next_row_id of towns (table 1), which only grows in the towns story. */
    static long nextRowId(Path sqlite) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + sqlite);
             java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT next_row_id FROM ducklake_table_stats WHERE table_id = 1")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<String> dataFiles(FixtureCopies.Copy copy) throws IOException {
        try (Stream<Path> s = Files.walk(copy.data())) {
            return s.filter(Files::isRegularFile).map(p -> copy.data().relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void aStateFromAnotherLineageGetsNewIdsWhereTheWorkingCatalogUsedThem() throws Exception {
        // the towns story and the types story both number their first table 1 and schema main 0, with other uuids
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp.resolve("a"));
        FixtureCopies.Copy types = FixtureCopies.copy("types", tmp.resolve("b"));
        copyTree(types.data(), towns.data());
        Path working = sqlite(towns, "working.sqlite");
        JsonNode typesExpected = expected("types");
        long last = typesExpected.get("snapshots").get(typesExpected.get("snapshots").size() - 1).get("id").asLong();
        CatalogMatch.MatchResult r = CatalogMatch.run(CatalogMatch.Request.restore(working, sqlite(types, "source.sqlite"), last, "tester", "types"));
        assertThat(r.snapshot()).isEqualTo(16);
        assertThat(r.changes()).contains("created_schema:\"main\"", "dropped_schema:0", "dropped_table:1");
        assertReadsAs(working, towns.dataPath(), 16, snapshot(typesExpected, last), 15, snapshot(expected("towns"), 15));
    }

    @Test
    void aDuckLake11CatalogWithInlinedRowsIsRefusedNamingTheFormatAndChangesNothing() throws Exception {
        // 1.1 renamed the inlined system columns (_ducklake_row_id, ...): restore must refuse, not fail in SQL
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp.resolve("a"));
        Path working = sqlite(towns, "working.sqlite");
        Path source = sqlite(towns, "source.sqlite");
        FormatUpgrade.upgrade(working, "1.1");
        FormatUpgrade.upgrade(source, "1.1");
        String before = WorkingCatalogFixture.dump(working);
        assertThatThrownBy(() -> CatalogMatch.run(CatalogMatch.Request.restore(working, source, 5, "tester", "towns")))
                .isInstanceOf(FdlException.class).hasMessageContaining("DuckLake 1.1").hasMessageContaining("inlined rows")
                .hasMessageContaining("nothing was changed");
        assertThat(WorkingCatalogFixture.dump(working)).isEqualTo(before);
    }

    @Test
    void inlinedRowsWrittenUnderASchemaTheWorkingCatalogDoesNotKnowAreRefused() throws Exception {
        // towns' inlined rows of snapshot 2 were written before columns were added and renamed
        FixtureCopies.Copy types = FixtureCopies.copy("types", tmp.resolve("a"));
        FixtureCopies.Copy towns = FixtureCopies.copy("towns", tmp.resolve("b"));
        Path working = sqlite(types, "working.sqlite");
        String before = WorkingCatalogFixture.dump(working);
        assertThatThrownBy(() -> CatalogMatch.run(CatalogMatch.Request.restore(working, sqlite(towns, "source.sqlite"), 15, "tester", "towns")))
                .isInstanceOf(FdlException.class).hasMessageContaining("older schema").hasMessageContaining("nothing was changed");
        assertThat(WorkingCatalogFixture.dump(working)).isEqualTo(before);
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else if (!Files.exists(t)) Files.copy(p, t);
            }
        }
    }

    @Test
    void restoringTheStateTheWorkingCatalogAlreadyShowsIsRefusedAndChangesNothing() {
        FixtureCopies.Copy copy = FixtureCopies.copy("towns", tmp.resolve("same"));
        Path working = sqlite(copy, "working.sqlite");
        String before = WorkingCatalogFixture.dump(working);
        assertThatThrownBy(() -> CatalogMatch.run(CatalogMatch.Request.restore(working, sqlite(copy, "source.sqlite"), 15, "tester", "again")))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.FAILURE))
                .hasMessageContaining("already shows");
        assertThat(WorkingCatalogFixture.dump(working)).isEqualTo(before);
    }
}
