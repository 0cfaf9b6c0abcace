package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.SqlQuote;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.FixtureChecksum;
import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.convert.CatalogConverter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in reader against catalogs written by the real DuckLake extension: at every snapshot
 * of every fixture, the tables, their columns and types, the row count and the checksum of all
 * rows are those expected.json records.
 */
public class BuiltInReaderFixtureTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> everySnapshotOfEveryFixtureReadsAsTheExtensionWroteIt() {
        return perSnapshot(false, "empty", "towns", "types", "towns_expired_before_8", "duckdb2-ducklake1.0/empty", "duckdb2-ducklake1.0/towns", "duckdb2-ducklake1.0/types",
                "duckdb2-ducklake1.1-dev/empty", "duckdb2-ducklake1.1-dev/towns", "duckdb2-ducklake1.1-dev/types");
    }

    /** The path of {@code fdl query --working}: the working catalog (SQLite) converted back to a DuckDB file. */
    @TestFactory
    Stream<DynamicTest> everySnapshotReadsTheSameAfterARoundTripThroughSqlite() {
        return perSnapshot(true, "towns", "types", "duckdb2-ducklake1.0/towns", "duckdb2-ducklake1.0/types",
                "duckdb2-ducklake1.1-dev/towns", "duckdb2-ducklake1.1-dev/types");
    }

    @TempDir
    static Path shared;

    private static final Map<String, Path> ROUND_TRIPPED = new HashMap<>();

    /**
     * The fixture's catalog converted to SQLite and back, once per fixture: the conversions are the
     * same whichever snapshot is read after them (the suite converted each fixture twice
     * per snapshot). Each test reads a copy of its own.
     */
    private static synchronized Path roundTripped(String name) {
        return ROUND_TRIPPED.computeIfAbsent(name, n -> {
            FixtureCopies.Copy copy = FixtureCopies.copy(n, shared);
            Path sqlite = copy.dir().resolve("working.sqlite");
            Path back = copy.dir().resolve("back.duckdb");
            CatalogConverter.convert(copy.catalog(), sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
            CatalogConverter.convert(sqlite, back, CatalogKind.DUCKDB, ProgressListener.NONE);
            return back;
        });
    }

    /** One test per snapshot listed in each fixture's expected.json. */
    private Stream<DynamicTest> perSnapshot(boolean viaSqlite, String... fixtures) {
        return Stream.of(fixtures).flatMap(name -> {
            JsonNode expected;
            try {
                expected = new ObjectMapper().readTree(FixtureCopies.resource(name + "/expected.json").toFile());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            List<DynamicTest> tests = new ArrayList<>();
            for (JsonNode snap : expected.get("snapshots")) {
                long id = snap.get("id").asLong();
                tests.add(DynamicTest.dynamicTest(name + (viaSqlite ? " via SQLite" : "") + " @" + id,
                        () -> checkSnapshot(name, id, snap, viaSqlite)));
            }
            return tests.stream();
        });
    }

    private void checkSnapshot(String name, long id, JsonNode snap, boolean viaSqlite) throws Exception {
        FixtureCopies.Copy copy = FixtureCopies.copy(name, tmp.resolve("s" + id));
        Path catalog = copy.catalog();
        if (viaSqlite) {
            catalog = copy.dir().resolve("back.duckdb");
            Files.copy(roundTripped(name), catalog);
        }
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), catalog, copy.dataPath(), id)) {
            assertThat(reader.snapshot()).isEqualTo(id);
            assertReadsAsExpected(reader, snap, "@" + id);
        }
    }

    /**
     * The reader shows exactly the tables of an expected.json snapshot, each with its columns and
     * types, row count and checksum over all rows (TimeZone UTC, as the fixtures were made).
     */
    public static void assertReadsAsExpected(BuiltInReader reader, JsonNode snap, String label) throws java.sql.SQLException {
        try (Statement st = reader.connection().createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            Map<String, JsonNode> tables = new TreeMap<>();
            snap.get("tables").fields().forEachRemaining(e -> tables.put(e.getKey(), e.getValue()));
            assertThat(reader.tables()).as("tables " + label).containsExactlyInAnyOrderElementsOf(tables.keySet());
            for (Map.Entry<String, JsonNode> e : tables.entrySet()) {
                String[] parts = e.getKey().split("\\.");
                String q = SqlQuote.qualified(parts[0], parts[1]);
                List<List<String>> columns = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("DESCRIBE " + q)) {
                    while (rs.next()) columns.add(List.of(rs.getString(1), rs.getString(2)));
                }
                List<List<String>> expectedColumns = new ArrayList<>();
                for (JsonNode c : e.getValue().get("columns")) expectedColumns.add(List.of(c.get(0).asText(), c.get(1).asText()));
                assertThat(columns).as(e.getKey() + " columns " + label).isEqualTo(expectedColumns);
                FixtureChecksum.Result sum = FixtureChecksum.of(st, q);
                assertThat(sum.rows()).as(e.getKey() + " rows " + label).isEqualTo(e.getValue().get("rows").asLong());
                assertThat(sum.md5()).as(e.getKey() + " md5 " + label).isEqualTo(e.getValue().get("md5").asText());
            }
        }
    }
}
