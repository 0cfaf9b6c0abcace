package dev.fdl.workingcopy;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The commit protocol on a local folder. */
class CommitOnLocalStoreTest extends CommitProtocolContract {
    @Override
    ObjectStore newStore(Path dir) {
        return new LocalStore(dir.resolve("repo"));
    }

    @Override
    Map<String, String> childEnvironment() {
        return Map.of();
    }

    /**
     * Compact catalogs: history truncation deletes rows and frees blocks inside the
     * DuckDB file; the committed catalog is a fresh copy, so it has no free block and copying it
     * again does not make it smaller.
     */
    @Test
    void aCatalogWhoseHistoryWasTruncatedIsCommittedWithoutFreeBlocks() throws Exception {
        WorkingCopy wc = checkout("wc", null);
        addTable(wc, "a");
        commit(repo, wc, "one");
        for (String t : new String[] {"b", "c", "d"}) addTable(wc, t);
        VersionInfo v = commit(repo, wc, "two").version();
        assertThat(v.ducklake().firstSnapshot()).isPositive(); // the parent's snapshots were truncated away
        Path committed = dir.resolve("committed.duckdb");
        store.download("versions/" + v.id() + "/ducklake.duckdb", committed);
        try (dev.fdl.ducklake.catalog.CatalogInspector cat = dev.fdl.ducklake.catalog.CatalogInspector.open(committed)) {
            // the catalog itself holds only this version's snapshots (commit truncates before it converts)
            assertThat(cat.firstSnapshotId()).as("first snapshot in the catalog").isEqualTo(v.ducklake().firstSnapshot());
            assertThat(cat.lastSnapshotId()).isEqualTo(v.ducklake().lastSnapshot());
        }

        try (Connection c = dev.fdl.ducklake.engine.DuckDbPool.connect(); Statement s = c.createStatement()) {
            s.execute("ATTACH '" + committed + "' AS cat (READ_ONLY)");
            try (ResultSet r = s.executeQuery("SELECT free_blocks, block_size FROM pragma_database_size() WHERE database_name = 'cat'")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getLong(1)).as("free blocks").isZero();
                assertThat(r.getLong(2)).as("block size").isEqualTo(16_384);
            }
        }
        Path again = dir.resolve("again.duckdb");
        CatalogConverter.convert(committed, again, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(Files.size(committed)).as("committed catalog bytes").isLessThanOrEqualTo(Files.size(again));
    }
}
