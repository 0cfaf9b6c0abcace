package dev.fdl.ducklake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class RowHandoverTest {
    @TempDir
    Path dir;

    private static final List<CopyColumn> CHANGES = List.of(
            new CopyColumn("snapshot_id", "BIGINT", "BIGINT", false, false),
            new CopyColumn("changes_made", "VARCHAR", "VARCHAR", false, false),
            new CopyColumn("author", "VARCHAR", "VARCHAR", false, false),
            new CopyColumn("commit_message", "VARCHAR", "VARCHAR", false, false),
            new CopyColumn("commit_extra_info", "VARCHAR", "VARCHAR", false, false));

    private Path catalogWithRows() throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        Catalogs.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = Sql.sqlite(sqlite, false)) {
            Sql.exec(c, "INSERT INTO ducklake_snapshot_changes WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)"
                    + " SELECT i, 'x', NULL, 'message ' || i, NULL FROM n");
        }
        return sqlite;
    }

    @Test
    void aRowidRangeIsSplitIntoContiguousPartsThatCoverItExactly() {
        long[][] cases = {{1, 100_000}, {-5, 5}, {7, 10}, {Long.MIN_VALUE, Long.MAX_VALUE}, {Long.MAX_VALUE - 9, Long.MAX_VALUE},
            {Long.MIN_VALUE, Long.MIN_VALUE + 65_535}};
        for (long[] range : cases) {
            for (int asked : new int[] {2, 3, 4, 8}) {
                long[][] split = RowHandover.split(range[0], range[1], asked);
                int parts = (int) Math.min(asked, range[1] - range[0] + 1 > 0 ? range[1] - range[0] + 1 : asked);
                assertThat(split.length).isEqualTo(parts);
                assertThat(split[0][0]).isEqualTo(range[0]);
                assertThat(split[parts - 1][1]).isEqualTo(range[1]);
                for (int i = 0; i < parts; i++) {
                    assertThat(split[i][0]).as("part %d of %s", i, java.util.Arrays.toString(range)).isLessThanOrEqualTo(split[i][1]);
                    if (i > 0) {
                        assertThat(split[i][0]).isEqualTo(split[i - 1][1] + 1);
                    }
                }
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void closingBeforeAnythingIsLoadedReleasesTheWriterAndRemovesThePipes() throws Exception {
        assumeThat(Files.isExecutable(Path.of("/usr/bin/mkfifo")) || Files.isExecutable(Path.of("/bin/mkfifo"))).isTrue();
        Path sqlite = catalogWithRows();
        Map<String, List<CopyColumn>> tables = new LinkedHashMap<>();
        tables.put("ducklake_snapshot_changes", CHANGES);
        Path temp = dir.resolve("target.duckdb.tmp");

        RowHandover handover = new RowHandover(sqlite, temp, tables, true);
        assertThat(handover.usesPipes()).isTrue();
        // the writer now waits to open a pipe nobody will read: close() must not hang
        handover.close();

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("w.sqlite");
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void closingBeforeAnythingIsLoadedRemovesTemporaryFiles() throws Exception {
        Path sqlite = catalogWithRows();
        Map<String, List<CopyColumn>> tables = new LinkedHashMap<>();
        tables.put("ducklake_snapshot_changes", CHANGES);

        RowHandover handover = new RowHandover(sqlite, dir.resolve("target.duckdb.tmp"), tables, false);
        assertThat(handover.usesPipes()).isFalse();
        handover.close();

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("w.sqlite");
        }
    }
}
