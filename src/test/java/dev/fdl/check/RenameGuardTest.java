package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.CatalogRenames;
import dev.fdl.ducklake.working.TableRename;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table and a column renamed as {@code ALTER TABLE … RENAME} writes them (same table and column
 * ids) are renames to the change guards, as to {@code fdl diff}: not a dropped table or column.
 */
class RenameGuardTest {
    @TempDir Path dir;

    @Test
    void aRenamedTableAndColumnAreComparedUnderTheirNewNames() throws Exception {
        LocalStore store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        Path catalog = dir.resolve("c.sqlite");
        EmptyCatalog.create(catalog, CatalogKind.SQLITE, store.location("data/"));
        Path csv = dir.resolve("k.csv");
        Files.writeString(csv, "id,v,x\n1,a,1\n2,b,2\n");
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", csv, "k", ImportMode.SYNC)
                .withKeys(List.of("id")).withAuthor("tester").withMessage("k"));
        long parentLast = newest(catalog);
        long table = one(catalog, "SELECT table_id FROM ducklake_table WHERE end_snapshot IS NULL AND table_name = 'k'");
        long v = one(catalog, "SELECT column_id FROM ducklake_column WHERE end_snapshot IS NULL AND column_name = 'v'");
        TableRename.rename(catalog, table, "kk", Map.of(v, "w"), "tester", "rename");

        CatalogRenames renames;
        try (Connection c = Sql.sqlite(catalog, true)) {
            renames = CatalogRenames.between(new MetadataQueries(c, null, catalog.toString()), parentLast, newest(catalog));
        }
        assertThat(renames.tables()).containsExactly(new CatalogRenames.Table("main", "k", "main", "kk", Map.of("v", "w")));

        ObjectNode before = descriptor("k", "v", "varchar"), after = descriptor("kk", "w", "varchar");
        List<CheckResult> guarded = ChangeGuards.check(before, after, Rules.of(after, "dataset.json"), ChangeGuards.Allow.NONE,
                ChangeGuards.Renames.of(renames));
        assertThat(guarded).allSatisfy(r -> assertThat(r.status()).as(r.toString()).isEqualTo(CheckResult.Status.PASSED));

        // a renamed column whose type changed is still retyped, under its new name
        List<CheckResult> retyped = ChangeGuards.check(before, descriptor("kk", "w", "int64"), Rules.of(after, "dataset.json"),
                ChangeGuards.Allow.NONE, ChangeGuards.Renames.of(renames));
        assertThat(retyped).anySatisfy(r -> {
            assertThat(r.status()).isEqualTo(CheckResult.Status.FAILED);
            assertThat(r.detail()).contains("kk.w retyped varchar -> int64").doesNotContain("dropped");
        });
        // without the catalog's renames, by name alone: dropped
        assertThat(ChangeGuards.check(before, after, Rules.of(after, "dataset.json"), ChangeGuards.Allow.NONE))
                .anySatisfy(r -> assertThat(r.status()).isEqualTo(CheckResult.Status.FAILED));
    }

    private static ObjectNode descriptor(String table, String column, String type) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree("{\"resources\": [{\"name\": \"" + table + "\", \"rows\": 2, \"schema\": {\"fields\": ["
                + "{\"name\": \"id\", \"ducklake_type\": \"int64\"}, {\"name\": \"" + column + "\", \"ducklake_type\": \"" + type + "\"},"
                + "{\"name\": \"x\", \"ducklake_type\": \"int64\"}]}}]}");
    }

    private static long newest(Path catalog) throws Exception {
        try (WorkingCatalog c = WorkingCatalog.open(catalog)) {
            return c.newestSnapshot().id();
        }
    }

    private static long one(Path sqlite, String sql) throws Exception {
        try (Connection c = Sql.sqlite(sqlite, true); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getLong(1);
        }
    }
}
