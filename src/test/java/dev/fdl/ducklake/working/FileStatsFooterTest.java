package dev.fdl.ducklake.working;

import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Statistics read from a footer equal those measured on the data, for the types whose footer statistics are exact. */
class FileStatsFooterTest {
    @TempDir Path dir;

    @Test
    void footerStatisticsEqualTheMeasuredOnesOverSeveralRowGroups() throws Exception {
        Path f = dir.resolve("f.parquet");
        List<ImportPlan.Column> columns = List.of(
                new ImportPlan.Column(1, "id", "id", "BIGINT", "int64"),
                new ImportPlan.Column(2, "name", "name", "VARCHAR", "varchar"),
                new ImportPlan.Column(3, "d", "d", "DATE", "date"),
                new ImportPlan.Column(4, "b", "b", "BOOLEAN", "boolean"),
                new ImportPlan.Column(5, "m", "m", "DECIMAL(10,2)", "decimal(10,2)"),
                new ImportPlan.Column(6, "ts", "ts", "TIMESTAMP", "timestamp"));
        try (Connection duck = DuckDbPool.shared().connection(); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT range AS id, CASE WHEN range % 7 = 0 THEN NULL ELSE 'n' || (9999 - range) END AS name, "
                    + "DATE '2020-01-01' + CAST(range AS INTEGER) AS d, range % 3 = 0 AS b, CAST(range / 7 AS DECIMAL(10,2)) AS m, "
                    + "TIMESTAMP '2026-01-01 10:00:00' + INTERVAL (range) SECOND AS ts FROM range(10000)) TO '" + f
                    + "' (FORMAT parquet, ROW_GROUP_SIZE 2048, FIELD_IDS {id: 1, name: 2, d: 3, b: 4, m: 5, ts: 6})");
            FileStats measured = FileStats.of(duck, f, columns);
            FileStats footer = FileStats.fromFooter(duck, f, columns);
            assertThat(footer.recordCount()).isEqualTo(10000);
            assertThat(footer.fileSizeBytes()).isEqualTo(measured.fileSizeBytes());
            assertThat(footer.footerSize()).isEqualTo(measured.footerSize());
            assertThat(footer.columns()).isEqualTo(measured.columns());
        }
    }
}
