package dev.fdl.cli;

import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** Progress of data steps: a rewritten line on a terminal, nothing when piped or quiet. */
class DataProgressCliTest {
    @TempDir Path dir;

    @Test
    void aTerminalLineShowsAmountRateAndTimeLeftAndIsClearedAtTheEnd() {
        StringWriter text = new StringWriter();
        long[] now = {1_000_000_000L};
        Progress.DataLine line = new Progress.DataLine(new PrintWriter(text, true), () -> now[0]);
        line.update("writing data files", 0, 1_000_000, "rows");
        now[0] += 2_000_000_000L;
        line.update("writing data files", 400_000, 1_000_000, "rows");
        now[0] += 100_000_000L;
        line.update("writing data files", 410_000, 1_000_000, "rows"); // within a quarter second: not shown
        line.update("writing data files", 1_000_000, 1_000_000, "rows");
        assertThat(text.toString()).isEqualTo("\rwriting data files: 0% (0 of 1,000,000 rows)\u001b[K"
                + "\rwriting data files: 40% (400,000 of 1,000,000 rows, 200,000 rows/s, 3s left)\u001b[K"
                + "\r\u001b[K");
        assertThat(Progress.DataLine.line("uploading", 5_000_000, 20_000_000, "bytes", 1))
                .isEqualTo("uploading: 25% (5.0 MB of 20.0 MB, 5.0 MB/s, 3s left)");
    }

    @Test
    void aSyncShowsItsPhasesAndAnImportTheSourcesBytes() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        dev.fdl.store.LocalStore store = new dev.fdl.store.LocalStore(repo);
        Path catalog = dir.resolve("catalog.sqlite");
        dev.fdl.ducklake.catalog.EmptyCatalog.create(catalog, dev.fdl.ducklake.CatalogKind.SQLITE, store.location("data/"));
        Path v1 = dir.resolve("v1.csv"), v2 = dir.resolve("v2.csv");
        Files.writeString(v1, "id,name\n1,a\n2,b\n3,c\n");
        Files.writeString(v2, "id,name\n1,a\n2,B\n4,d\n");
        StringWriter imported = new StringWriter();
        long[] now = {1_000_000_000L};
        new dev.fdl.ducklake.load.Importer(DuckDbPool.shared()).importFile(dev.fdl.ducklake.load.ImportRequest.of(catalog, store, "data/", v1, "t",
                dev.fdl.ducklake.ImportMode.CREATE).withProgress(new Progress.DataLine(new PrintWriter(imported, true), () -> now[0] += 300_000_000L)));
        // the rows DuckDB's CSV reader counts are units of its own: import counts the file's bytes
        assertThat(imported.toString()).contains("\rwriting data files: 0% (0 B of " + Files.size(v1) + " B)").doesNotContain(" rows");
        StringWriter synced = new StringWriter();
        new dev.fdl.ducklake.load.sync.Syncer(DuckDbPool.shared()).sync(dev.fdl.ducklake.load.ImportRequest.of(catalog, store, "data/", v2, "t",
                dev.fdl.ducklake.ImportMode.SYNC).withKeys(java.util.List.of("id"))
                .withProgress(new Progress.DataLine(new PrintWriter(synced, true), () -> now[0] += 300_000_000L)));
        String text = synced.toString();
        assertThat(text).contains("\rreading the table\u2026\u001b[K", "\rcomparing: 0% (0 B of " + Files.size(v2) + " B)",
                "\rwriting data files\u2026", "\rwriting delete files: 0% (0 of 1 files)");
        assertThat(text.indexOf("reading the table")).isLessThan(text.indexOf("comparing")); // in the order they run
        assertThat(text.indexOf("comparing")).isLessThan(text.indexOf("writing data files"));
        assertThat(text).endsWith("\r\u001b[K"); // the last step's line is cleared
    }

    @Test
    void quietOrNotATerminalShowsNothing() {
        StringWriter text = new StringWriter();
        assertThat(Progress.data(true, new PrintWriter(text))).isSameAs(DataProgress.NONE);
        assertThat(Progress.data(false, new PrintWriter(text))).isSameAs(DataProgress.NONE); // the tests' stderr is no terminal
    }

    @Test
    void pipedImportAddFilesAndCompactCarryNoProgress() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path src = dir.resolve("rows.parquet");
        Path part = dir.resolve("repo/data/jobs/part-0.parquet");
        Files.createDirectories(part.getParent());
        try (Connection c = DuckDbPool.shared().connection(); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id FROM range(200000)) TO '" + src + "'");
            st.execute("COPY (SELECT range AS id FROM range(10)) TO '" + part + "' (FORMAT parquet, FIELD_IDS {id: 1})");
        }
        for (Cli.Result r : new Cli.Result[] {
                Cli.ok(wc, "import", src.toString(), "--table", "t"),
                Cli.ok(wc, "add-files", "jobs/", "--table", "t"),
                Cli.ok(wc, "compact", "t"),
                Cli.ok(wc, "import", src.toString(), "--table", "t", "--mode", "sync", "--key", "id")}) {
            assertThat(r.err()).doesNotContain("\r").doesNotContain("\u001b").doesNotContain("rows/s");
            assertThat(r.out()).doesNotContain("\r");
        }
    }
}
