package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Views merge like tables, matched by {@code view_uuid}: created or redefined on theirs only,
 * taken; redefined differently on both, a {@code view} conflict; created on both under one name
 * with different SQL, a {@code created} conflict; a conflict settled for theirs takes their view.
 */
class ViewMergeTest {
    @TempDir Path dir;
    int files;
    LocalStore store;
    Path base, ours, theirs;

    @BeforeEach
    void sides() throws Exception {
        store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        base = dir.resolve("base.sqlite");
        ours = dir.resolve("ours.sqlite");
        theirs = dir.resolve("theirs.sqlite");
        EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
        sync(base, "k,a\n1,10\n2,20\n");
        view(base, null, "w", "SELECT k FROM kt");
        Files.copy(base, ours);
        Files.copy(base, theirs);
    }

    @Test
    void aViewCreatedOrRedefinedOnTheirsOnlyIsTaken() throws Exception {
        sync(ours, "k,a\n1,11\n2,20\n");
        view(theirs, null, "v", "SELECT a FROM kt");
        view(theirs, "w", "w", "SELECT k, a FROM kt");
        MergeResult r = merge(MergeOptions.NONE, dir.resolve("merged.sqlite"));
        assertThat(r.conflicts()).isEmpty();
        assertThat(views(dir.resolve("merged.sqlite"))).containsExactly("v: SELECT a FROM kt", "w: SELECT k, a FROM kt");
        assertThat(views(ours)).containsExactly("w: SELECT k FROM kt"); // ours is never changed
    }

    @Test
    void viewsChangedDifferentlyOnBothSidesConflictUnlessSettled() throws Exception {
        view(ours, "w", "w", "SELECT a FROM kt");
        view(theirs, "w", "w", "SELECT k, a FROM kt");
        view(ours, null, "v", "SELECT 1");
        view(theirs, null, "v", "SELECT 2");
        MergeResult r = merge(MergeOptions.NONE, dir.resolve("merged.sqlite"));
        assertThat(r.conflicts()).extracting(MergeResult.TableConflict::table, MergeResult.TableConflict::kind)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("view w", "view"), org.assertj.core.groups.Tuple.tuple("view v", "created"));
        assertThat(dir.resolve("merged.sqlite")).doesNotExist();

        MergeResult s = merge(new MergeOptions(MergeOptions.MergeSide.THEIRS, java.util.Map.of(), List.of()), dir.resolve("settled.sqlite"));
        assertThat(s.conflicts()).isEmpty();
        assertThat(views(dir.resolve("settled.sqlite"))).containsExactly("v: SELECT 2", "w: SELECT k, a FROM kt");
    }

    private MergeResult merge(MergeOptions options, Path out) throws Exception {
        return new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                new MergeRequest.CatalogSnapshot(theirs, RandomThreeWayMergeTest.Trio.newest(theirs)),
                new MergeRequest.CatalogSnapshot(base, RandomThreeWayMergeTest.Trio.newest(base)), options, out,
                new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));
    }

    /** The views the catalog shows at its newest snapshot, as "name: sql", by name. */
    private static List<String> views(Path sqlite) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sql.sqlite(sqlite, true); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT view_name || ': ' || sql FROM ducklake_view WHERE end_snapshot IS NULL ORDER BY view_name")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    /**
     * Creates view {@code name} (or, {@code replaces} given, redefines that view keeping its id and
     * uuid) in one snapshot, the rows the DuckLake extension writes for CREATE [OR REPLACE] VIEW.
     */
    private static void view(Path sqlite, String replaces, String name, String sql) throws Exception {
        try (WorkingCatalog catalog = WorkingCatalog.open(sqlite)) {
            catalog.newSnapshot(catalog.newestSnapshot(), "view", "tester", "view").commit(s -> {
                Connection c = s.catalog().connection();
                long id;
                String uuid;
                if (replaces == null) {
                    id = s.newCatalogId();
                    uuid = UUID.randomUUID().toString();
                    s.change("created_view:" + name);
                } else {
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                            "SELECT view_id, view_uuid FROM ducklake_view WHERE end_snapshot IS NULL AND view_name = '" + replaces + "'")) {
                        rs.next();
                        id = rs.getLong(1);
                        uuid = rs.getString(2);
                    }
                    s.endRows("ducklake_view", "view_id = ?", id);
                    s.change("altered_view:" + id);
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO ducklake_view (view_id, view_uuid, begin_snapshot, end_snapshot, "
                        + "schema_id, view_name, dialect, sql, column_aliases) VALUES (?, ?, ?, NULL, "
                        + "(SELECT schema_id FROM ducklake_schema WHERE schema_name = 'main' AND end_snapshot IS NULL), ?, 'duckdb', ?, '')")) {
                    ps.setLong(1, id);
                    ps.setString(2, uuid);
                    ps.setLong(3, s.id());
                    ps.setString(4, name);
                    ps.setString(5, sql);
                    ps.executeUpdate();
                }
                s.schemaChanged();
                return s.id();
            });
        }
    }

    private void sync(Path catalog, String csv) throws Exception {
        Path file = dir.resolve("src-" + (files++) + ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, "kt", ImportMode.SYNC)
                .withKeys(List.of("k")).withAuthor("tester").withMessage("sync"));
    }
}
