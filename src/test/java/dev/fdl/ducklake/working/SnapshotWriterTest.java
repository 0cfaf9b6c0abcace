package dev.fdl.ducklake.working;

import dev.fdl.FdlException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.engine.Sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SnapshotWriter}'s contract on a new working catalog: a conflict writes nothing, a failing
 * operation leaves the catalog as it was, {@code changes_made} is NULL for no change, the schema
 * version goes up once for a schema change, allocated ids are never handed out again, and rows end
 * at the new snapshot only while they have not ended.
 */
class SnapshotWriterTest {
    @TempDir Path tmp;
    private Path catalog;

    @BeforeEach
    void create() {
        catalog = new WorkingCatalogFixture(tmp).catalog;
    }

    @Test
    void anotherSnapshotMeanwhileIsAConflictAndNothingIsWritten() throws SQLException {
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            SnapshotWriter writer = working.newSnapshot(working.newestSnapshot(), "test", "a", "m");
            long other = EmptySnapshot.add(catalog, "b", "meanwhile");
            List<String> before = dump();
            AtomicBoolean ran = new AtomicBoolean();
            assertThatThrownBy(() -> writer.commit(s -> {
                ran.set(true);
                s.change("created_schema:x");
                return s.id();
            })).isInstanceOf(FdlException.class)
                    .satisfies(e -> assertThat(((FdlException) e).kind()).isEqualTo(FdlException.Kind.CONFLICT))
                    .hasMessageContaining("snapshot " + other + " appeared");
            assertThat(ran).as("the operation runs only on the snapshot it planned on").isFalse();
            assertThat(dump()).isEqualTo(before);
        }
    }

    @Test
    void anOperationThatThrowsLeavesTheCatalogUnchanged() throws SQLException {
        List<String> before = dump();
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            SnapshotWriter writer = working.newSnapshot(working.newestSnapshot(), "test", "a", "m");
            assertThatThrownBy(() -> writer.commit(s -> {
                working.update("INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, end_snapshot, schema_name, path, "
                        + "path_is_relative) VALUES (?, 'u', ?, NULL, 'other', 'other/', 1)", s.newCatalogId(), s.id());
                s.endRows("ducklake_schema", "schema_name = ?", "main");
                s.schemaChanged();
                s.change("created_schema:other");
                throw new IllegalStateException("the operation fails");
            })).isInstanceOf(IllegalStateException.class);
            assertThat(dump()).isEqualTo(before);
            // the connection is usable again: the next snapshot commits
            assertThat(working.newSnapshot(working.newestSnapshot(), "test", "a", "m").commit(NewSnapshot::id)).isEqualTo(1);
        }
    }

    @Test
    void noChangeIsChangesMadeNullAndChangesAreJoinedInOrder() throws SQLException {
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            long empty = working.newSnapshot(working.newestSnapshot(), "test", "alice", "nothing").commit(NewSnapshot::id);
            long some = working.newSnapshot(working.newestSnapshot(), "test", "bob", "two").commit(s -> {
                s.change("altered_table:1");
                s.change("inserted_into_table:1");
                return s.id();
            });
            assertThat(row("SELECT changes_made IS NULL, author, commit_message FROM ducklake_snapshot_changes WHERE snapshot_id = " + empty))
                    .containsExactly("1", "alice", "nothing");
            assertThat(row("SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = " + some))
                    .containsExactly("altered_table:1,inserted_into_table:1");
        }
    }

    @Test
    void theSchemaVersionGoesUpOnceWhenTheOperationChangedTheSchemaAndNotOtherwise() throws SQLException {
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            long base = working.newestSnapshot().schemaVersion();
            long ddl = working.newSnapshot(working.newestSnapshot(), "test", "a", "m").commit(s -> {
                assertThat(s.schemaChanged()).isEqualTo(base + 1);
                assertThat(s.schemaChanged()).isEqualTo(base + 1);
                return s.id();
            });
            long data = working.newSnapshot(working.newestSnapshot(), "test", "a", "m").commit(s -> {
                s.change("inserted_into_table:1");
                return s.id();
            });
            assertThat(row("SELECT schema_version FROM ducklake_snapshot WHERE snapshot_id = " + ddl)).containsExactly(Long.toString(base + 1));
            assertThat(row("SELECT schema_version FROM ducklake_snapshot WHERE snapshot_id = " + data)).containsExactly(Long.toString(base + 1));
        }
    }

    @Test
    void allocatedIdsAreRecordedAndNeverHandedOutAgain() throws SQLException {
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            SnapshotRow base = working.newestSnapshot();
            List<Long> first = working.newSnapshot(base, "test", "a", "m").commit(s ->
                    List.of(s.newCatalogId(), s.newCatalogId(), s.newFileId(), s.newFileId(), s.newFileId()));
            assertThat(first).containsExactly(base.nextCatalogId(), base.nextCatalogId() + 1,
                    base.nextFileId(), base.nextFileId() + 1, base.nextFileId() + 2);
            SnapshotRow after = working.newestSnapshot();
            assertThat(after).isEqualTo(new SnapshotRow(base.id() + 1, base.schemaVersion(), base.nextCatalogId() + 2, base.nextFileId() + 3));
            List<Long> second = working.newSnapshot(after, "test", "a", "m").commit(s -> {
                s.reserveIdsBelow(after.nextCatalogId() + 10, 0); // ids copied from elsewhere are taken; lower bounds change nothing
                return List.of(s.newCatalogId(), s.newFileId());
            });
            assertThat(second).containsExactly(after.nextCatalogId() + 10, after.nextFileId());
            assertThat(working.newestSnapshot().nextCatalogId()).isEqualTo(after.nextCatalogId() + 11);
        }
    }

    @Test
    void rowsEndAtTheNewSnapshotOnlyWhileTheyHaveNotEnded() throws SQLException {
        try (WorkingCatalog working = WorkingCatalog.open(catalog)) {
            working.update("INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, end_snapshot, schema_name, path, "
                    + "path_is_relative) VALUES (7, 'u', 0, 0, 'gone', 'gone/', 1)");
            long s1 = working.newSnapshot(working.newestSnapshot(), "test", "a", "m").commit(s ->
                    s.endRows("ducklake_schema", "schema_name IN (?, ?)", "main", "gone") == 1 ? s.id() : -1);
            assertThat(s1).as("only the live row ends").isEqualTo(1);
            assertThat(row("SELECT end_snapshot FROM ducklake_schema WHERE schema_name = 'main'")).containsExactly("1");
            assertThat(row("SELECT end_snapshot FROM ducklake_schema WHERE schema_name = 'gone'")).containsExactly("0");
        }
    }

    /** Every row of every catalog table, as text, in a stable order. */
    private List<String> dump() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = Sql.sqlite(catalog, true)) {
            for (String t : Sql.sqliteTables(c)) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + t + " ORDER BY 1, 2")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder(t);
                        for (int i = 1; i <= n; i++) sb.append('|').append(rs.getString(i));
                        out.add(sb.toString());
                    }
                }
            }
        }
        return out;
    }

    private List<String> row(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = Sql.sqlite(catalog, true); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) out.add(rs.getString(i));
        }
        return out;
    }
}
