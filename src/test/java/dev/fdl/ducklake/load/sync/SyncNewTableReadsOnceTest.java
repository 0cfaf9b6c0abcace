package dev.fdl.ducklake.load.sync;

import dev.fdl.FdlException;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A sync that creates its table with {@code --key} reads the file once: the key is checked on the
 * data files written, and a file whose key is repeated or NULL leaves neither a data file nor a table.
 */
@Isolated("counts the bytes this process reads (/proc/self/io), which other tests would add to")
class SyncNewTableReadsOnceTest {
    @TempDir
    Path tmp;

    @Test
    void aNewTableWithAKeyReadsTheFileOnce() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        // most of the file's bytes are a constant column, which the Parquet files hold in a few bytes: what the sync reads
        // beyond the file's size is the CSV sniffer's samples, not the data files it writes and reads back
        Path big = tmp.resolve("big.csv");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT i AS id, repeat('x', 300) AS pad FROM range(300000) t(i)) TO '" + big + "' (HEADER)");
        }
        wc.sync(Files.writeString(tmp.resolve("warm.csv"), "id\n1\n"), "warm", "id");
        long size = Files.size(big);
        long before = bytesRead();
        SyncResult r = wc.sync(big, "t", "id");
        long read = bytesRead() - before;
        assertThat(r.rows()).isEqualTo(300_000);
        // two reads of the file would be twice its size at least
        assertThat(read).as("bytes read for a file of %,d bytes", size).isLessThan(2 * size);
    }

    @Test
    void aRepeatedKeyInANewTablesFileLeavesNoDataFileAndNoTable() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        String before = wc.dump();
        // 300,000 rows in data files of one row group each (DuckDB's 122,880 rows): the repeated key's first row, data
        // row 200,000, is in the second file, the NULL key in the third
        StringBuilder csv = new StringBuilder("id,name\n");
        for (int i = 1; i <= 300_000; i++) csv.append(i).append(",n").append(i).append('\n');
        csv.append("200000,again\n");
        Path dup = Files.writeString(tmp.resolve("dup.csv"), csv);
        ImportRequest request = ImportRequest.of(wc.catalog, wc.store, "data/", dup, "t", ImportMode.SYNC).withKeys(List.of("id"))
                .withTargetFileSize(4096);
        assertThatThrownBy(() -> new Syncer(DuckDbPool.shared()).sync(request)).isInstanceOf(FdlException.class)
                .hasMessageContaining("dup.csv").hasMessageContaining("key id = 200000 (data row 200000) appears more than once")
                .hasMessageContaining("Nothing was imported");
        Path nul = Files.writeString(tmp.resolve("null.csv"), csv.toString().replace("\n250000,", "\n,"));
        assertThatThrownBy(() -> new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(wc.catalog, wc.store, "data/", nul, "t",
                ImportMode.SYNC).withKeys(List.of("id")).withTargetFileSize(4096)))
                .hasMessageContaining("data row 250000 has a NULL key (id)");
        assertThat(dataFiles(wc)).isEmpty();
        assertThat(wc.dump()).isEqualTo(before);
        // the same file without the repeated row is taken, in more than one data file
        Path ok = Files.writeString(tmp.resolve("ok.csv"), csv.toString().replace("200000,again\n", ""));
        SyncResult r = new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(wc.catalog, wc.store, "data/", ok, "t", ImportMode.SYNC)
                .withKeys(List.of("id")).withTargetFileSize(4096));
        assertThat(r.rows()).isEqualTo(300_000);
        assertThat(dataFiles(wc).size()).isGreaterThan(1);
    }

    /** The Parquet files under the repository's data folder. */
    private static List<Path> dataFiles(WorkingCatalogFixture wc) throws IOException {
        Path data = wc.dir.resolve("repo").resolve("data");
        if (!Files.isDirectory(data)) return List.of();
        try (Stream<Path> s = Files.walk(data)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
        }
    }

    /** The bytes this process has read with read(2) and pread(2) so far (Linux's {@code rchar}). */
    private static long bytesRead() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("rchar:")) return Long.parseLong(line.substring("rchar:".length()).trim());
        }
        throw new IllegalStateException("no rchar in /proc/self/io");
    }
}
