package dev.fdl.ducklake.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.catalog.CatalogInspector;

import static org.assertj.core.api.Assertions.assertThat;

/** DuckLake's change lists in words, with the names a catalog gives its ids (dropped tables included). */
class SnapshotChangesTest {
    @TempDir Path tmp;

    @Test
    void everyKindIsPutInWordsWithNamesForIds() {
        SnapshotChanges.Names names = new SnapshotChanges.Names(Map.of(1L, "main.towns", 2L, "geo.rivers"), Map.of(3L, "main.big"), Map.of(4L, "geo"));
        assertThat(SnapshotChanges.describe("created_schema:\"geo\"", names)).isEqualTo("created schema geo");
        assertThat(SnapshotChanges.describe("created_table:\"main\".\"scratch, \"\"x\"\"\",inserted_into_table:1", names))
                .isEqualTo("created table main.scratch, \"x\", inserted into main.towns");
        assertThat(SnapshotChanges.describe("inlined_insert:2,inlined_delete:1", names))
                .isEqualTo("inserted into geo.rivers (inlined), deleted from main.towns (inlined)");
        assertThat(SnapshotChanges.describe("deleted_from_table:1,altered_table:2,compacted_table:1,dropped_table:2", names))
                .isEqualTo("deleted from main.towns, altered geo.rivers, compacted main.towns, dropped table geo.rivers");
        assertThat(SnapshotChanges.describe("altered_view:3,dropped_view:3,dropped_schema:4", names))
                .isEqualTo("altered view main.big, dropped view main.big, dropped schema geo");
        // an id the catalog does not name, and a kind a newer DuckLake may add, stay readable
        assertThat(SnapshotChanges.describe("inserted_into_table:9,merged_adjacent:1", names)).isEqualTo("inserted into table 9, merged_adjacent:1");
        assertThat(SnapshotChanges.describe(null, names)).isEmpty();
    }

    @Test
    void theTownsFixtureNamesEveryTableItChangedEvenDroppedOnes() {
        try (CatalogInspector c = CatalogInspector.open(Fixtures.catalog("towns", tmp))) {
            SnapshotChanges.Names names = c.names();
            List<String> described = c.snapshots().stream().map(s -> SnapshotChanges.describe(s.changes(), names)).toList();
            assertThat(described).contains("created schema main", "created table main.towns", "inserted into main.towns (inlined)")
                    .anySatisfy(d -> assertThat(d).startsWith("dropped table main."));
            assertThat(String.join("\n", described)).doesNotContainPattern("[a-z]+_[a-z_]+:\\d");
        }
    }
}
