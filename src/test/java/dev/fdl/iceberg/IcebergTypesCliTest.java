package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Temporal, decimal, binary and UUID types, a table registered with add-files (no field ids: Iceberg's name
 * mapping), file pruning by the bounds fdl records, and a mirror's copy: each read through Iceberg
 * as fdl query reads it.
 */
class IcebergTypesCliTest {
    @TempDir Path dir;

    static void duck(String sql) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void typesAddFilesBoundsAndAMirrorReadAsFdlQueryDoes() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo");
        String repo = root.toString();
        Path nested = dir.resolve("nested.parquet");
        duck("COPY (SELECT i::BIGINT AS id, i::SMALLINT AS small, 'x' || i AS s, i % 2 = 0 AS even, ('b' || i)::BLOB AS bl, uuid() AS u,"
                + " TIME '00:00:00' + INTERVAL (i) SECOND AS tm, TIMESTAMPTZ '2020-01-01 00:00:00+00' + INTERVAL (i) HOUR AS tstz, DATE '2024-01-01' + i::INTEGER AS d, TIMESTAMP '2024-01-01 10:00:00' + INTERVAL (i) MINUTE AS ts,"
                + " (i / 4)::DECIMAL(10,2) AS dec, CASE WHEN i % 3 = 0 THEN NULL ELSE i * 0.5 END AS f"
                + " FROM range(0, 500) t(i)) TO '" + nested + "' (FORMAT parquet)");
        Cli.ok(wc, "import", nested.toString(), "--table", "nested");
        // two files without field ids inside the data folder, as a Spark job writes them
        Path jobs = Files.createDirectories(root.resolve("data/jobs/run-1"));
        duck("COPY (SELECT i::BIGINT AS id, 'low' AS label FROM range(0, 100) t(i)) TO '" + jobs.resolve("part-0.parquet") + "' (FORMAT parquet)");
        duck("COPY (SELECT i::BIGINT AS id, 'high' AS label FROM range(1000, 1100) t(i)) TO '" + jobs.resolve("part-1.parquet") + "' (FORMAT parquet)");
        Cli.ok(wc, "add-files", "jobs/run-1/", "--table", "events", "--create");
        Cli.ok(wc, "commit", "-m", "nested and add-files");
        Cli.Result r = Cli.ok(wc, "iceberg");
        String id = r.out().split(" ")[1];

        Path nestedMeta = root.resolve(IcebergMetadataWriter.metadataKey(id, "main", "nested"));
        Path eventsMeta = root.resolve(IcebergMetadataWriter.metadataKey(id, "main", "events"));
        IcebergRows.assertSame(nestedMeta, wc, repo, "main", "nested");
        IcebergRows.assertSame(eventsMeta, wc, repo, "main", "events");
        Table events = IcebergRows.table(eventsMeta);
        assertThat(events.properties()).containsKey("schema.name-mapping.default");
        // bounds: a filter on id prunes the file whose ids are all below it
        try (CloseableIterable<FileScanTask> tasks = events.newScan().filter(Expressions.greaterThan("id", 500L)).planFiles()) {
            assertThat(tasks).hasSize(1).allMatch(t -> t.file().location().endsWith("part-1.parquet"));
        }
        Table typed = IcebergRows.table(nestedMeta);
        assertThat(typed.schema().findField("id").fieldId()).isEqualTo(1);
        try (CloseableIterable<FileScanTask> tasks = typed.newScan().filter(Expressions.lessThan("d", "2023-01-01")).planFiles()) {
            assertThat(tasks).isEmpty(); // every date is from 2024 on: the bounds prune the one file
        }

        // a mirror's copy names files under its own root
        Path out = dir.resolve("mirror-meta");
        Cli.ok(wc, "iceberg", "--location", "https://data.example.org/cities/", "--out", out.toString());
        String json = Files.readString(out.resolve(IcebergMetadataWriter.metadataKey(id, "main", "events")));
        assertThat(json).contains("\"location\":\"https://data.example.org/cities/versions/" + id + "/iceberg/main/events\"");
        assertThat(root.resolve(IcebergMetadataWriter.metadataKey(id, "main", "events"))).exists();
    }
}
