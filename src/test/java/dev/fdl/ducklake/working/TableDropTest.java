package dev.fdl.ducklake.working;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.read.BuiltInReader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code fdl rm}'s catalog change ({@link TableDrop}) against what the DuckLake extension wrote for
 * {@code DROP TABLE lake.scratch} (snapshot 9 of the towns fixtures, DuckDB 1.5 and 2.0, formats
 * 1.0 and 1.1-dev1), row for row, and its rules on fdl's own catalogs.
 */
class TableDropTest {
    @TempDir Path tmp;

    /**
     * The fixture's catalog as it stood at snapshot {@code n}: later snapshots, and rows they began,
     * removed; ends they wrote undone. Rows without a snapshot range (statistics) stay as they are.
     */
    private static void asOf(Path sqlite, long n) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ducklake%'")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            for (String t : tables) {
                List<String> cols = Sql.sqliteColumns(c, t);
                String q = SqlQuote.ident(t);
                if (cols.contains("snapshot_id")) st.execute("DELETE FROM " + q + " WHERE snapshot_id > " + n);
                for (String prefix : new String[]{"", "_ducklake_"}) {
                    if (cols.contains(prefix + "begin_snapshot")) st.execute("DELETE FROM " + q + " WHERE " + prefix + "begin_snapshot > " + n);
                    if (cols.contains(prefix + "end_snapshot"))
                        st.execute("UPDATE " + q + " SET " + prefix + "end_snapshot = NULL WHERE " + prefix + "end_snapshot > " + n);
                }
            }
            st.execute("UPDATE ducklake_snapshot SET snapshot_time = NULL"); // the one value a second drop cannot repeat
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"towns", "duckdb2-ducklake1.0/towns", "duckdb2-ducklake1.1-dev/towns"})
    void droppingScratchWritesEveryRowTheExtensionWrote(String fixture) throws Exception {
        Path ours = Fixtures.catalogAs(fixture, "sqlite", tmp.resolve("ours"));
        Path theirs = Fixtures.catalogAs(fixture, "sqlite", tmp.resolve("theirs"));
        asOf(ours, 8);
        asOf(theirs, 9);
        assertThat(WorkingCatalogFixture.dump(ours)).as("the story up to the drop").isNotEqualTo(WorkingCatalogFixture.dump(theirs));

        TableDrop.DropResult r = TableDrop.drop(ours, List.of("scratch"), null, null);

        assertThat(r.snapshot()).isEqualTo(9);
        assertThat(r.tables()).containsExactly(new TableDrop.Dropped(new TableName("main", "scratch"), 2));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ours); Statement st = c.createStatement()) {
            st.execute("UPDATE ducklake_snapshot SET snapshot_time = NULL");
        }
        assertThat(WorkingCatalogFixture.dump(ours)).isEqualTo(WorkingCatalogFixture.dump(theirs));
    }

    @Test
    void aRecordedKeyAndEveryFileOfTheTableEndWhileAnotherTableStays() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path a = Files.writeString(tmp.resolve("a.csv"), "id,v\n1,x\n2,y\n");
        Path b = Files.writeString(tmp.resolve("b.csv"), "id,v\n1,x\n2,z\n3,w\n");
        wc.sync(a, "t", "id");
        wc.sync(b, "t", "id"); // a delete file and a second data file
        wc.importFile(a, "other", ImportMode.CREATE);
        long before;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT schema_version FROM ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 1")) {
            rs.next();
            before = rs.getLong(1);
        }

        TableDrop.DropResult r = TableDrop.drop(wc.catalog, List.of("main.t"), "bob", "no more t");

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement()) {
            assertThat(rows(st, "SELECT schema_version, changes_made, author, commit_message FROM ducklake_snapshot "
                    + "JOIN ducklake_snapshot_changes USING (snapshot_id) WHERE snapshot_id = " + r.snapshot()))
                    .containsExactly((before + 1) + "|dropped_table:1|bob|no more t");
            for (String t : List.of("ducklake_table", "ducklake_column", "ducklake_data_file", "ducklake_delete_file")) {
                assertThat(rows(st, "SELECT count(*) FROM " + t + " WHERE table_id = 1 AND end_snapshot IS NULL")).as(t).containsExactly("0");
                assertThat(rows(st, "SELECT count(*) FROM " + t + " WHERE table_id <> 1 AND end_snapshot = " + r.snapshot())).as(t)
                        .containsExactly("0");
            }
            assertThat(rows(st, "SELECT count(*) FROM ducklake_delete_file WHERE table_id = 1 AND end_snapshot = " + r.snapshot()))
                    .containsExactly("1");
            assertThat(rows(st, "SELECT key, end_snapshot FROM ducklake_tag WHERE object_id = 1"))
                    .containsExactly(RowKey.TAG + "|" + r.snapshot());
        }
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.tables()).containsExactly("main.other");
        }
        try (BuiltInReader reader = wc.read(r.snapshot() - 1)) {
            assertThat(reader.tables()).contains("main.t");
        }

        // the same name again is a new table
        ImportResult again = wc.importFile(a, "t", ImportMode.CREATE);
        assertThat(again.createdTable()).isTrue();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement()) {
            assertThat(rows(st, "SELECT table_id FROM ducklake_table WHERE table_name = 't' AND end_snapshot IS NULL"))
                    .doesNotContain("1").hasSize(1);
        }
    }

    @Test
    void twoTablesAreOneSnapshotAndAMissingOneChangesNothing() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path a = Files.writeString(tmp.resolve("a.csv"), "id\n1\n");
        wc.importFile(a, "sales.orders", ImportMode.CREATE);
        wc.importFile(a, "b", ImportMode.CREATE);
        wc.importFile(a, "c", ImportMode.CREATE);
        String dump = wc.dump();

        assertThatThrownBy(() -> TableDrop.drop(wc.catalog, List.of("b", "nope", "sales.gone"), null, null))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.NOT_FOUND))
                .hasMessageContaining("tables main.nope, sales.gone do not exist in the working catalog")
                .hasMessageContaining("main.b, main.c, sales.orders");
        assertThatThrownBy(() -> TableDrop.drop(wc.catalog, List.of("orders"), null, null)).hasMessageContaining("main.orders");
        assertThatThrownBy(() -> TableDrop.drop(wc.catalog, List.of("a.b.c"), null, null))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.USAGE));
        assertThat(wc.dump()).as("nothing changed").isEqualTo(dump);

        TableDrop.DropResult r = TableDrop.drop(wc.catalog, List.of("c", "sales.orders", "c"), null, null);
        assertThat(r.tables()).extracting(d -> d.table().toString()).containsExactly("main.c", "sales.orders");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement()) {
            assertThat(rows(st, "SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = " + r.snapshot()))
                    .containsExactly("dropped_table:" + r.tables().get(1).tableId() + ",dropped_table:" + r.tables().get(0).tableId());
            assertThat(rows(st, "SELECT count(*) FROM ducklake_snapshot")).containsExactly(String.valueOf(r.snapshot() + 1));
            assertThat(rows(st, "SELECT schema_name, end_snapshot FROM ducklake_schema WHERE schema_name = 'sales'"))
                    .as("the schema stays, as DROP TABLE leaves it").containsExactly("sales|null");
        }
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.tables()).containsExactly("main.b");
        }
    }

    /** DuckDB's own DuckLake extension reads the drop as its own (skipped where it cannot be loaded: fdl never downloads it). */
    @Test
    void theDuckLakeExtensionNoLongerShowsADroppedTable() throws Exception {
        WorkingCatalogFixture.assumeDuckLakeExtension("a dropped table");
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path a = Files.writeString(tmp.resolve("a.csv"), "id\n1\n2\n");
        long created = wc.importFile(a, "t", ImportMode.CREATE).snapshot();
        TableDrop.drop(wc.catalog, List.of("t"), null, null);
        try (Connection duck = wc.attachedByExtension(); Statement st = duck.createStatement()) {
            assertThat(rows(st, "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake'")).containsExactly("0");
            assertThat(rows(st, "SELECT count(*) FROM lake.t AT (VERSION => " + created + ")")).containsExactly("2");
        }
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) b.append(i > 1 ? "|" : "").append(rs.getString(i));
                out.add(b.toString());
            }
        }
        return out;
    }
}
