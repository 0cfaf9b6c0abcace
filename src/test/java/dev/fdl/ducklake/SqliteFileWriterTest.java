package dev.fdl.ducklake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DuckDB → SQLite with b-tree pages written directly ({@link SqliteFileWriter}): SQLite finds the
 * file sound ({@code PRAGMA integrity_check}: page structure, cell layout, free space, every
 * index entry against its row) and holds exactly what SQLite's own inserts store, value by value
 * and storage class by storage class.
 */
class SqliteFileWriterTest {
    @TempDir
    Path dir;

    static Stream<Arguments> fixturesAndPageSizes() {
        List<Arguments> cases = new ArrayList<>();
        for (String fixture : List.of("empty", "towns", "types", "towns_expired_before_8")) {
            for (int pageSize : new int[] {512, 4096, 65_536}) {
                cases.add(Arguments.of(fixture, pageSize));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("fixturesAndPageSizes")
    void fixturesWrittenDirectlyHoldWhatSqlitesInsertsHold(String fixture, int pageSize) throws Exception {
        Path source = Fixtures.catalog(fixture, dir);

        Path direct = toSqlite(source, "direct.sqlite", true, pageSize);
        Path inserted = toSqlite(source, "inserted.sqlite", false, pageSize);

        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
        assertThat(SqliteFiles.dump(direct)).isEqualTo(SqliteFiles.dump(inserted));
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 4096, 65_536})
    void largeTablesMakeSoundMultiLevelTreesAndIndexes(int pageSize) throws Exception {
        Path source = generated(120_000);

        Path direct = toSqlite(source, "direct.sqlite", true, pageSize);
        Path inserted = toSqlite(source, "inserted.sqlite", false, pageSize);

        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
        assertThat(SqliteFiles.dump(direct)).isEqualTo(SqliteFiles.dump(inserted));
        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FILTER (WHERE rowid = data_file_id + 1) FROM ducklake_data_file")) {
            r.next();
            assertThat(r.getLong(1)).as("rows stored in key order, rowids 1, 2, 3…").isEqualTo(120_000);
        }
        try (Connection c = Sql.sqlite(direct, true);
             PreparedStatement ps = c.prepareStatement("SELECT path FROM ducklake_data_file WHERE data_file_id = ?")) {
            // answered through the primary key's index
            for (long id : new long[] {0, 1, 2, 255, 256, 65_535, 65_536, 99_999, 119_999}) {
                ps.setLong(1, id);
                try (ResultSet r = ps.executeQuery()) {
                    assertThat(r.next()).as("data file %d", id).isTrue();
                    assertThat(r.getString(1)).isEqualTo("f" + id + ".parquet");
                }
            }
        }
        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("EXPLAIN QUERY PLAN SELECT path FROM ducklake_data_file WHERE data_file_id = 5")) {
            r.next();
            assertThat(r.getString("detail")).contains("sqlite_autoindex_ducklake_data_file_1");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 4096, 65_536})
    void textOfEveryLengthAroundThePageLimitsSurvives(int pageSize) throws Exception {
        Path source = dir.resolve("long.duckdb");
        Catalogs.create(source, CatalogKind.DUCKDB, "/data/");
        // lengths around every limit of a page: local payload (usable - 35), the minimum local
        // part, one and several overflow pages; unicode, NUL, quotes and newlines
        List<Integer> lengths = new ArrayList<>();
        for (int limit : new int[] {pageSize / 16, pageSize - 35, pageSize, 2 * pageSize, 5 * pageSize + 3}) {
            for (int d = -40; d <= 40; d++) {
                if (limit + d > 0) {
                    lengths.add(limit + d);
                }
            }
        }
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, source, "cat", false);
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO cat.main.ducklake_snapshot_changes VALUES (?, ?, NULL, ?, NULL)")) {
                long id = 1;
                for (int length : lengths) {
                    ps.setLong(1, id++);
                    ps.setString(2, "x".repeat(length));
                    ps.setString(3, ("ü\"\n\u0000" + "a".repeat(length)).substring(0, length));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }

        Path direct = toSqlite(source, "direct.sqlite", true, pageSize);
        Path inserted = toSqlite(source, "inserted.sqlite", false, pageSize);

        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
        assertThat(SqliteFiles.dump(direct)).isEqualTo(SqliteFiles.dump(inserted));
        Path back = dir.resolve("back.duckdb");
        CatalogConverter.convert(direct, back, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(CatalogCompare.differences(source, back)).isEmpty();
    }

    @Test
    void integersOfEveryWidthAndNullsKeepTheirValueAndClass() throws Exception {
        Path source = dir.resolve("ints.duckdb");
        Catalogs.create(source, CatalogKind.DUCKDB, "/data/");
        long[] values = {0, 1, -1, 2, 127, 128, -128, -129, 32_767, 32_768, -32_768, -32_769, 8_388_607, 8_388_608,
                -8_388_608, -8_388_609, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE, Integer.MIN_VALUE - 1L,
                140_737_488_355_327L, 140_737_488_355_328L, -140_737_488_355_328L, -140_737_488_355_329L,
                Long.MAX_VALUE, Long.MIN_VALUE};
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, source, "cat", false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO cat.main.ducklake_snapshot VALUES (?, NULL, ?, ?, NULL)")) {
                for (int i = 0; i < values.length; i++) {
                    ps.setLong(1, values[i] == 0 ? 1_000 : values[i]); // snapshot 0 exists
                    ps.setLong(2, values[i]);
                    ps.setLong(3, values[values.length - 1 - i]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }

        Path direct = toSqlite(source, "direct.sqlite", true, 0);
        Path inserted = toSqlite(source, "inserted.sqlite", false, 0);

        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
        assertThat(SqliteFiles.dump(direct)).isEqualTo(SqliteFiles.dump(inserted));
        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT snapshot_id FROM ducklake_snapshot ORDER BY snapshot_id")) {
            // in key order through the index, Long.MIN_VALUE first
            assertThat(r.next()).isTrue();
            assertThat(r.getLong(1)).isEqualTo(Long.MIN_VALUE);
        }
    }

    @Test
    void tableWithoutRowsStaysAnEmptyTable() throws Exception {
        Path source = Fixtures.catalog("empty", dir);
        Path direct = toSqlite(source, "direct.sqlite", true, 0);
        try (Connection c = Sql.sqlite(direct, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM ducklake_data_file")) {
            r.next();
            assertThat(r.getLong(1)).isZero();
        }
        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
    }

    @Test
    void sqliteCanWriteToADirectlyWrittenFileAfterwards() throws Exception {
        Path direct = toSqlite(generated(20_000), "direct.sqlite", true, 0);
        try (Connection c = Sql.sqlite(direct, false); Statement s = c.createStatement()) {
            s.execute("INSERT INTO ducklake_data_file (data_file_id, table_id, path) VALUES (1000000, 1, 'new.parquet')");
            s.execute("DELETE FROM ducklake_file_column_stats WHERE data_file_id % 3 = 0");
            s.execute("UPDATE ducklake_snapshot_changes SET commit_message = 'changed ' || snapshot_id WHERE snapshot_id % 2 = 0");
        }
        assertThat(SqliteFiles.integrity(direct)).isEqualTo("ok");
    }

    // ------------------------------------------------------------------ helpers

    private Path toSqlite(Path source, String name, boolean direct, int pageSize) {
        Path target = dir.resolve(name);
        CatalogConverter.convert(source, target, CatalogKind.SQLITE, ProgressListener.NONE, true, direct, pageSize);
        return target;
    }

    /** A DuckDB catalog with {@code files} data files, two stats rows each, and that many snapshots. */
    private Path generated(int files) throws Exception {
        Path source = dir.resolve("gen.duckdb");
        Catalogs.create(source, CatalogKind.DUCKDB, "/data/");
        try (Connection c = Sql.duckDbMemory()) {
            Sql.attach(c, source, "cat", false);
            // inserted out of key order: the direct writer must order rows by primary key
            Sql.exec(c, "INSERT INTO cat.main.ducklake_data_file (data_file_id, table_id, begin_snapshot, path, path_is_relative,"
                    + " file_format, record_count, file_size_bytes) SELECT i, 1, i, 'f' || i || '.parquet', true, 'parquet', i * 7, i * 1000"
                    + " FROM range(" + files + ") t(i) ORDER BY hash(i)");
            Sql.exec(c, "INSERT INTO cat.main.ducklake_file_column_stats SELECT i // 2, 1, i % 2, i, i, NULL,"
                    + " CASE WHEN i % 5 = 0 THEN NULL ELSE 'min ' || i END, repeat('m', (i % 300)::INT), i % 3 = 0, NULL FROM range(" + (2 * files) + ") t(i)");
            Sql.exec(c, "INSERT INTO cat.main.ducklake_snapshot_changes SELECT i + 1, 'inserted_into_table:1', 'me', 'commit ' || i, NULL FROM range("
                    + files + ") t(i)");
        }
        return source;
    }
}
