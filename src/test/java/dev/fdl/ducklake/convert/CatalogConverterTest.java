package dev.fdl.ducklake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.fdl.ducklake.CatalogCompare;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.ducklake.engine.Sql;

class CatalogConverterTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"empty", "towns", "types", "towns_expired_before_8", "duckdb2-ducklake1.0/empty", "duckdb2-ducklake1.0/towns", "duckdb2-ducklake1.0/types",
            "duckdb2-ducklake1.1-dev/empty", "duckdb2-ducklake1.1-dev/towns", "duckdb2-ducklake1.1-dev/types"})
    void duckDbToSqliteToDuckDbKeepsEveryTableEqual(String fixture) throws Exception {
        Path original = Fixtures.catalog(fixture, dir);
        Path sqlite = dir.resolve("work.sqlite");
        Path back = dir.resolve("back.duckdb");

        ConversionResult out = CatalogConverter.convert(original, sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
        ConversionResult in = CatalogConverter.convert(sqlite, back, CatalogKind.DUCKDB, ProgressListener.NONE);

        assertThat(CatalogKind.detect(sqlite)).isEqualTo(CatalogKind.SQLITE);
        assertThat(out.rows()).isEqualTo(in.rows()).isPositive();
        assertThat(in.storage()).isEqualTo("duckdb-v1.5.0");
        assertThat(CatalogCompare.differences(original, back)).isEmpty();
    }

    @Test
    void sqliteSideUsesTheEncodingsOfDuckDbsSqliteExtension() throws Exception {
        Path sqlite = dir.resolve("types.sqlite");
        CatalogConverter.convert(Fixtures.catalog("types", dir), sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
        try (Connection c = Sql.sqlite(sqlite, true); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT typeof(snapshot_time), snapshot_time FROM ducklake_snapshot WHERE snapshot_id = 0")) {
                r.next();
                assertThat(r.getString(1)).isEqualTo("text");
                assertThat(r.getString(2)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)?\\+00");
            }
            try (ResultSet r = s.executeQuery("SELECT typeof(path_is_relative), path_is_relative, typeof(schema_uuid), length(schema_uuid) FROM ducklake_schema")) {
                r.next();
                assertThat(r.getString(1)).isEqualTo("integer");
                assertThat(r.getLong(2)).isEqualTo(1);
                assertThat(r.getString(3)).isEqualTo("text");
                assertThat(r.getInt(4)).isEqualTo(36);
            }
            try (ResultSet r = s.executeQuery("SELECT f, d, tstz, l, st, m, typeof(bl), typeof(i), hi FROM ducklake_inlined_data_1_1 ORDER BY row_id")) {
                r.next();
                assertThat(r.getString(1)).isEqualTo("nan");
                assertThat(r.getString(2)).isEqualTo("inf");
                assertThat(r.getString(3)).isEqualTo("2026-10-15 07:00:00+00");
                assertThat(r.getString(4)).isEqualTo("[1, NULL, 3]");
                assertThat(r.getString(5)).isEqualTo("{'a': 1, 'b': x}");
                assertThat(r.getString(6)).isEqualTo("{k=1}");
                assertThat(r.getString(7)).isEqualTo("blob");
                assertThat(r.getString(8)).isEqualTo("integer");
                assertThat(r.getString(9)).isEqualTo("170141183460469231731687303715884105727");
            }
            try (ResultSet r = s.executeQuery("SELECT sql FROM sqlite_master WHERE name = 'ducklake_inlined_data_1_1'")) {
                r.next();
                assertThat(r.getString(1)).contains("\"f\" VARCHAR", "\"d\" VARCHAR", "\"tstz\" VARCHAR", "\"i\" BIGINT", "\"bl\" BLOB", "\"hi\" VARCHAR");
            }
        }
    }

    @Test
    void duckDbTargetIsWrittenWithStorageVersion150() throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        Path duck = dir.resolve("c.duckdb");
        ConversionResult result = CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(result.storage()).isEqualTo("duckdb-v1.5.0");
        assertThat(CatalogConverter.duckDbStorage(duck)).isEqualTo("duckdb-v1.5.0");
    }

    /**
     * The block size rule (DuckDbStorage.forCatalog): 16 KiB blocks below LARGE_TABLE_ROWS rows in
     * the largest table, 64 KiB from there on, whether the source is SQLite (commit) or DuckDB.
     */
    @Test
    void aCatalogWhoseLargestTableHasManyRowsIsWrittenWithLargerBlocks() throws Exception {
        Path below = statsCatalog("below.sqlite", DuckDbStorage.LARGE_TABLE_ROWS - 1);
        Path at = statsCatalog("at.sqlite", DuckDbStorage.LARGE_TABLE_ROWS);

        Path small = dir.resolve("small.duckdb");
        Path large = dir.resolve("large.duckdb");
        CatalogConverter.convert(below, small, CatalogKind.DUCKDB, ProgressListener.NONE);
        CatalogConverter.convert(at, large, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(blockSize(small)).isEqualTo(DuckDbStorage.SMALLEST_BLOCK_SIZE);
        assertThat(blockSize(large)).isEqualTo(DuckDbStorage.LARGE_BLOCK_SIZE).isEqualTo(65_536);

        Path again = dir.resolve("again.duckdb");
        CatalogConverter.convert(large, again, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(blockSize(again)).isEqualTo(DuckDbStorage.LARGE_BLOCK_SIZE);
        Path v200 = dir.resolve("v200.duckdb");
        ConversionResult opted = CatalogConverter.toDuckDb(at, v200, new DuckDbStorage("v2.0.0", DuckDbStorage.SMALLEST_BLOCK_SIZE), ProgressListener.NONE);
        assertThat(opted.storage()).isEqualTo("duckdb-v2.0.0");
        assertThat(blockSize(v200)).isEqualTo(DuckDbStorage.LARGE_BLOCK_SIZE);
        assertThat(CatalogCompare.differences(large, again)).isEmpty();
    }

    /** A new SQLite catalog whose {@code ducklake_file_column_stats} holds {@code rows} rows. */
    private Path statsCatalog(String name, long rows) throws Exception {
        Path sqlite = dir.resolve(name);
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "INSERT INTO ducklake_file_column_stats (data_file_id, table_id, column_id, value_count, min_value)"
                    + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + rows + ")"
                    + " SELECT i, 1, i % 7, i * 3, 'v' || i FROM n");
        }
        return sqlite;
    }

    static long blockSize(Path duckdb) throws Exception {
        try (Connection c = Sql.duckDbMemory(); Statement s = c.createStatement()) {
            Sql.attach(c, duckdb, "cat", true);
            try (ResultSet r = s.executeQuery("SELECT block_size FROM pragma_database_size() WHERE database_name = 'cat'")) {
                assertThat(r.next()).isTrue();
                return r.getLong(1);
            }
        }
    }

    @Test
    void failedConversionLeavesTheTargetAndNoTemporaryFile() throws Exception {
        Path good = dir.resolve("good.duckdb");
        EmptyCatalog.create(good, CatalogKind.DUCKDB, "/data/");
        byte[] before = Files.readAllBytes(good);
        Path bad = dir.resolve("bad.sqlite");
        EmptyCatalog.create(bad, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(bad, false)) {
            // an inlined-data table whose schema version the catalog does not record
            Sql.exec(c, "CREATE TABLE ducklake_inlined_data_7_99(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, x BIGINT)");
        }

        assertThatThrownBy(() -> CatalogConverter.convert(bad, good, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("ducklake_inlined_data_7_99");

        assertThat(Files.readAllBytes(good)).isEqualTo(before);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("good.duckdb", "bad.sqlite");
        }
    }

    @Test
    void failureWhileReadingALargeTableLeavesNoTemporaryFile() throws Exception {
        Path bad = dir.resolve("bad.sqlite");
        EmptyCatalog.create(bad, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(bad, false)) {
            // more rows than one temporary file holds, then a value the JSON rendering refuses (a BLOB in a text column)
            Sql.exec(c, "INSERT INTO ducklake_snapshot_changes WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)"
                    + " SELECT i, 'x', NULL, 'message ' || i, NULL FROM n");
            Sql.exec(c, "INSERT INTO ducklake_snapshot_changes VALUES (300001, 'x', NULL, X'00ff', NULL)");
        }
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(bad, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("bad.sqlite");

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("bad.sqlite");
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void valueDuckDbRefusesWhileRowsStreamFailsCleanly() throws Exception {
        Path bad = dir.resolve("bad.sqlite");
        EmptyCatalog.create(bad, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(bad, false)) {
            // the first row has a time DuckDB cannot read; far more rows follow than a pipe buffers
            Sql.exec(c, "INSERT INTO ducklake_snapshot VALUES (1, 'not a time', 0, 1, 0)");
            Sql.exec(c, "INSERT INTO ducklake_snapshot WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)"
                    + " SELECT i, '2026-01-01 00:00:00+00', 0, 1, 0 FROM n");
        }
        Path target = dir.resolve("c.duckdb");

        assertThatThrownBy(() -> CatalogConverter.convert(bad, target, CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("not a time");

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("bad.sqlite");
        }
    }

    @Test
    void rowsLongerThanACsvLineAreCopiedToo() throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        String longText = "\"quoted\"\n" + "ü".repeat(DuckDbTableLoad.DEFAULT_MAX_LINE); // twice the limit in UTF-8 bytes
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "INSERT INTO ducklake_snapshot_changes WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)"
                    + " SELECT i, 'x', NULL, 'm' || i, NULL FROM n");
            try (java.sql.PreparedStatement ps = c.prepareStatement("UPDATE ducklake_snapshot_changes SET commit_message = ? WHERE snapshot_id IN (7, 150000)")) {
                ps.setString(1, longText);
                ps.executeUpdate();
            }
        }
        Path duck = dir.resolve("c.duckdb");

        ConversionResult result = CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);

        assertThat(result.rows()).isGreaterThanOrEqualTo(200_000);
        try (CatalogInspector catalog = CatalogInspector.open(duck); Statement s = catalog.connection().createStatement();
             ResultSet r = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE commit_message = 'm8'),"
                     + " list(snapshot_id ORDER BY snapshot_id) FILTER (WHERE length(commit_message) > 1000),"
                     + " max(length(commit_message)) FROM ducklake_snapshot_changes WHERE snapshot_id > 0")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(200_000);
            assertThat(r.getLong(2)).isEqualTo(1);
            assertThat(r.getString(3)).isEqualTo("[7, 150000]");
            assertThat(r.getLong(4)).isEqualTo(longText.length());
        }
        try (CatalogInspector catalog = CatalogInspector.open(duck); Statement s = catalog.connection().createStatement();
             ResultSet r = s.executeQuery("SELECT commit_message FROM ducklake_snapshot_changes WHERE snapshot_id = 150000")) {
            r.next();
            assertThat(r.getString(1)).isEqualTo(longText);
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("w.sqlite", "c.duckdb");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowid BIGINT, v VARCHAR", "rowid BIGINT, _rowid_ BIGINT, oid BIGINT, v VARCHAR"})
    void aColumnNamedRowidDoesNotHideRows(String columns) throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "CREATE TABLE ducklake_future(" + columns + ")");
            // more rows than one rendering part, and a "rowid" column that is NULL or repeats
            String values = columns.contains("oid") ? "NULL, 7, 7, 'v' || i" : "CASE WHEN i % 3 = 0 THEN NULL ELSE i % 5 END, 'v' || i";
            Sql.exec(c, "INSERT INTO ducklake_future WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)"
                    + " SELECT " + values + " FROM n");
        }
        Path duck = dir.resolve("c.duckdb");

        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);

        try (CatalogInspector catalog = CatalogInspector.open(duck); Statement s = catalog.connection().createStatement();
             ResultSet r = s.executeQuery("SELECT count(*), count(DISTINCT v) FROM ducklake_future")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(100_000);
            assertThat(r.getLong(2)).isEqualTo(100_000);
        }
    }

    @Test
    void unknownDucklakeTablesAreCopiedToo() throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "CREATE TABLE ducklake_future(id BIGINT NOT NULL, note VARCHAR, score DOUBLE)");
            Sql.exec(c, "INSERT INTO ducklake_future VALUES (1, 'a''b', 0.5), (2, NULL, NULL)");
        }
        Path duck = dir.resolve("c.duckdb");
        Path lite2 = dir.resolve("again.sqlite");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        CatalogConverter.convert(duck, lite2, CatalogKind.SQLITE, ProgressListener.NONE);
        try (Connection c = Sql.sqlite(lite2, true); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT id, note, score FROM ducklake_future ORDER BY id")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(1);
            assertThat(r.getString(2)).isEqualTo("a'b");
            assertThat(r.getDouble(3)).isEqualTo(0.5);
            r.next();
            assertThat(r.getString(2)).isNull();
        }
    }

    @Test
    void textSurvivesSqliteToDuckDbExactly() throws Exception {
        String[] messages = {"line one\nline two", "crlf\r\nend", "it's \"quoted\", with commas", "NULL", "", "ünïcødé ✓ 🦆",
            "'", "''", ",", "\\N", " leading and trailing ", null,
            "tab\there", "\\t", "\\x01", "\u0001 control", "null", "[1, \"json\"]", "{\"a\": null}", "back\\slash\\"};
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(sqlite, false);
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO ducklake_snapshot_changes VALUES (?, 'x', 'bob', ?, NULL)")) {
            for (int i = 0; i < messages.length; i++) {
                ps.setLong(1, i + 1);
                ps.setString(2, messages[i]);
                ps.executeUpdate();
            }
        }
        Path duck = dir.resolve("c.duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        try (CatalogInspector catalog = CatalogInspector.open(duck)) {
            // snapshot rows for 1.. are absent, so read the changes table directly
            try (Statement s = catalog.connection().createStatement();
                 ResultSet r = s.executeQuery("SELECT commit_message FROM ducklake_snapshot_changes WHERE snapshot_id > 0 ORDER BY snapshot_id")) {
                java.util.List<String> read = new java.util.ArrayList<>();
                while (r.next()) {
                    read.add(r.getString(1));
                }
                assertThat(read).containsExactly(messages);
            }
        }
    }

    @Test
    void refusesAFileThatIsNotACatalog() throws Exception {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello, this is not a database");
        assertThatThrownBy(() -> CatalogConverter.convert(text, dir.resolve("x.duckdb"), CatalogKind.DUCKDB, ProgressListener.NONE))
                .isInstanceOf(FdlException.class).hasMessageContaining("notes.txt").hasMessageContaining("not a DuckLake catalog");
        assertThat(dir.resolve("x.duckdb")).doesNotExist();
    }
}
