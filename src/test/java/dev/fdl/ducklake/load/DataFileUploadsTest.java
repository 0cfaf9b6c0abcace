package dev.fdl.ducklake.load;

import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.store.ForwardingStore;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.store.StoreException;
import dev.fdl.store.WriteResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Data files uploaded while DuckDB writes the next ones, on a folder: all of them, once each, and none left after a failure. */
class DataFileUploadsTest {
    /** Small enough that the rows below make three files (DuckDB cuts a file after a row group of 122,880 rows). */
    static final long TARGET = 1L << 20;
    static final int ROWS = 300_000;

    @TempDir
    Path tmp;

    /** A Parquet source of {@code rows} rows whose values are hard to compress, so each row group passes {@link #TARGET}. */
    static Path source(Path dir, int rows) throws Exception {
        Path src = dir.resolve("big.parquet");
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h FROM range(" + rows + ")) TO '" + src + "'");
        }
        return src;
    }

    /** A store that counts the puts of each key and fails the {@code failAt}-th put (0: none). */
    static class CountingPuts extends ForwardingStore {
        final Map<String, AtomicInteger> puts = new ConcurrentHashMap<>();
        final AtomicInteger count = new AtomicInteger();
        final int failAt;

        CountingPuts(ObjectStore delegate, int failAt) {
            super(delegate);
            this.failAt = failAt;
        }

        @Override
        public WriteResult put(String key, Payload body) {
            if (count.incrementAndGet() == failAt) throw new StoreException(key, "put number " + failAt + " fails (test)");
            puts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            return super.put(key, body);
        }
    }

    static List<String> keys(ObjectStore store, String prefix) {
        try (Stream<ObjectMeta> s = store.list(prefix)) {
            return s.map(ObjectMeta::key).sorted().toList();
        }
    }

    @Test
    void anImportSplitIntoSeveralFilesUploadsEachOnceAndRecordsEveryFile() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        CountingPuts store = new CountingPuts(wc.store, 0);
        ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(wc.catalog, store, "data/", source(tmp, ROWS),
                "t", ImportMode.CREATE).withTargetFileSize(TARGET));

        assertThat(r.dataFileKeys()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(keys(wc.store, "data/")).containsExactlyInAnyOrderElementsOf(r.dataFileKeys());
        // each file put once: none was taken before DuckDB had finished it
        assertThat(store.puts.keySet()).containsExactlyInAnyOrderElementsOf(r.dataFileKeys());
        assertThat(store.puts.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        // the catalog names every file, at its size
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + wc.catalog); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT path, file_size_bytes FROM ducklake_data_file ORDER BY row_id_start")) {
            List<String> named = new ArrayList<>();
            while (rs.next()) {
                named.add("data/main/t/" + rs.getString(1));
                assertThat(wc.store.head("data/main/t/" + rs.getString(1)).orElseThrow().size()).isEqualTo(rs.getLong(2));
            }
            assertThat(named).containsExactlyElementsOf(r.dataFileKeys());
        }
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT CAST(count(*) AS VARCHAR), CAST(sum(id) AS VARCHAR), "
                    + "CAST(count(*) FILTER (WHERE h <> md5(CAST(id AS VARCHAR))) AS VARCHAR) FROM t").rows())
                    .containsExactly(List.of(Integer.toString(ROWS), Long.toString((long) ROWS * (ROWS - 1) / 2), "0"));
        }
    }

    @Test
    void aFailedUploadLeavesNoKeyAndTheCatalogUnchanged() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path src = source(tmp, ROWS);
        String before = wc.dump();
        for (int failAt : new int[]{1, 3}) {
            CountingPuts store = new CountingPuts(wc.store, failAt);
            assertThatThrownBy(() -> new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(wc.catalog, store, "data/", src,
                    "t", ImportMode.CREATE).withTargetFileSize(TARGET)))
                    .as("put %d fails", failAt).isInstanceOf(StoreException.class).hasMessageContaining("fails (test)");
            assertThat(keys(wc.store, "")).as("put %d fails", failAt).isEmpty();
            assertThat(wc.dump()).isEqualTo(before);
        }
    }

    @Test
    void aSyncWritingSeveralFilesUploadsThemAllAndAFailedOneLeavesNothing() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path first = tmp.resolve("first.parquet");
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id, 'x' AS h FROM range(10)) TO '" + first + "'");
        }
        wc.importFile(first, "t", ImportMode.CREATE);
        Path src = source(tmp, ROWS);
        List<String> before = keys(wc.store, "data/");
        String dump = wc.dump();

        CountingPuts failing = new CountingPuts(wc.store, 2);
        assertThatThrownBy(() -> new dev.fdl.ducklake.load.sync.Syncer(DuckDbPool.shared()).sync(ImportRequest.of(wc.catalog, failing,
                "data/", src, "t", ImportMode.SYNC).withKeys(List.of("id")).withCacheDir(tmp.resolve("cache")).withTargetFileSize(TARGET)))
                .isInstanceOf(StoreException.class);
        assertThat(keys(wc.store, "data/")).isEqualTo(before);
        assertThat(wc.dump()).isEqualTo(dump);

        CountingPuts store = new CountingPuts(wc.store, 0);
        SyncResult r = new dev.fdl.ducklake.load.sync.Syncer(DuckDbPool.shared()).sync(ImportRequest.of(wc.catalog, store,
                "data/", src, "t", ImportMode.SYNC).withKeys(List.of("id")).withCacheDir(tmp.resolve("cache")).withTargetFileSize(TARGET));
        assertThat(store.puts.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(store.puts.keySet().stream().filter(k -> !k.endsWith("-delete.parquet")).count()).isGreaterThanOrEqualTo(3);
        try (BuiltInReader reader = wc.read(r.snapshot())) {
            assertThat(reader.query("SELECT CAST(count(*) AS VARCHAR), CAST(count(*) FILTER (WHERE h <> md5(CAST(id AS VARCHAR))) "
                    + "AS VARCHAR) FROM t").rows()).containsExactly(List.of(Integer.toString(ROWS), "0"));
        }
    }

    @Test
    void aFileIsUploadedOnceClosedWhileTheWriteGoesOnAndAnOpenOneIsNot() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "the finished-file signal needs /proc/self/fd");
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path out = Files.createDirectories(tmp.resolve("out"));
        CountDownLatch secondPut = new CountDownLatch(1);
        List<String> putWhileWriting = new ArrayList<>();
        ObjectStore store = new ForwardingStore(wc.store) {
            @Override
            public WriteResult put(String key, Payload body) {
                WriteResult w = super.put(key, body);
                synchronized (putWhileWriting) {
                    putWhileWriting.add(body.file().getFileName().toString());
                }
                secondPut.countDown();
                return w;
            }
        };
        Path first = out.resolve("data_0.parquet"), second = out.resolve("data_1.parquet");
        List<DataFileUploads.Uploaded> up = DataFileUploads.run(store, "data/t/", out, DataProgress.NONE, () -> {
            try (OutputStream a = Files.newOutputStream(first)) {
                a.write("first, still being written".getBytes());
                Files.writeString(second, "second, finished");
                assertThat(secondPut.await(120, TimeUnit.SECONDS)).as("the finished file is uploaded during the write").isTrue();
                synchronized (putWhileWriting) {
                    assertThat(putWhileWriting).containsExactly("data_1.parquet");
                }
                a.write(" and now finished".getBytes());
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return List.of(first, second);
        });

        assertThat(up).extracting(DataFileUploads.Uploaded::file).containsExactly(first, second);
        assertThat(up.get(0).fileName().compareTo(up.get(1).fileName())).as("names in row order").isNegative();
        assertThat(new String(wc.store.get(up.get(0).key()).orElseThrow().bytes())).isEqualTo("first, still being written and now finished");
        assertThat(new String(wc.store.get(up.get(1).key()).orElseThrow().bytes())).isEqualTo("second, finished");
        assertThat(putWhileWriting).containsExactly("data_1.parquet", "data_0.parquet");
    }

    @Test
    void aFileThatGrewAfterItsUploadIsUploadedAgainWithItsFinalContent() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "the finished-file signal needs /proc/self/fd");
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path f = out.resolve("data_0.parquet");
        CountDownLatch put = new CountDownLatch(1);
        CountingPuts store = new CountingPuts(wc.store, 0) {
            @Override
            public WriteResult put(String key, Payload body) {
                WriteResult w = super.put(key, body);
                put.countDown();
                return w;
            }
        };
        List<DataFileUploads.Uploaded> up = DataFileUploads.run(store, "data/t/", out, DataProgress.NONE, () -> {
            try {
                Files.writeString(f, "closed once");
                assertThat(put.await(120, TimeUnit.SECONDS)).isTrue();
                Files.writeString(f, ", then written again", StandardOpenOption.APPEND);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return List.of(f);
        });
        assertThat(new String(wc.store.get(up.get(0).key()).orElseThrow().bytes())).isEqualTo("closed once, then written again");
        assertThat(store.puts.get(up.get(0).key()).get()).isGreaterThanOrEqualTo(2);
        assertThat(up.get(0).bytes()).isEqualTo(Files.size(f));
    }

    @Test
    void aFailedWriteLeavesNothingUploaded() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path f = out.resolve("data_0.parquet");
        CountDownLatch put = new CountDownLatch(1);
        CountingPuts store = new CountingPuts(wc.store, 0) {
            @Override
            public WriteResult put(String key, Payload body) {
                WriteResult w = super.put(key, body);
                put.countDown();
                return w;
            }
        };
        boolean signal = Files.isDirectory(Path.of("/proc/self/fd"));
        assertThatThrownBy(() -> DataFileUploads.run(store, "data/t/", out, DataProgress.NONE, () -> {
            try {
                Files.writeString(f, "complete");
                if (signal) assertThat(put.await(120, TimeUnit.SECONDS)).isTrue();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            throw new java.sql.SQLException("the statement failed (test)");
        })).isInstanceOf(java.sql.SQLException.class);
        assertThat(store.puts).hasSize(signal ? 1 : 0);
        assertThat(keys(wc.store, "")).isEmpty();
    }

    @Test
    void anUploadStillUnderWayWhenAnotherFailsIsWaitedForAndDeleted() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp);
        Path out = Files.createDirectories(tmp.resolve("out"));
        CountDownLatch deleted = new CountDownLatch(1);
        ObjectStore store = new ForwardingStore(wc.store) {
            @Override
            public WriteResult put(String key, Payload body) {
                if (body.file().endsWith("data_0.parquet")) throw new StoreException(key, "the first upload fails (test)");
                try {
                    // lands after the cleanup's deletes unless the cleanup waits for it (then this waits in vain)
                    deleted.await(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return super.put(key, body);
            }

            @Override
            public void delete(String key) {
                super.delete(key);
                deleted.countDown();
            }
        };
        assertThatThrownBy(() -> DataFileUploads.run(store, "data/t/", out, DataProgress.NONE, () -> {
            try {
                return List.of(Files.writeString(out.resolve("data_0.parquet"), "first"), Files.writeString(out.resolve("data_1.parquet"), "second"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        })).isInstanceOf(StoreException.class).hasMessageContaining("fails (test)");
        assertThat(keys(wc.store, "")).isEmpty();
    }

    @Test
    void openFilesNamesTheFilesOfAFolderThatADescriptorHoldsOpen() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "the finished-file signal needs /proc/self/fd");
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("data_0.parquet"), "closed");
        try (FileChannel ch = FileChannel.open(out.resolve("data_1.parquet"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            assertThat(DataFileUploads.openFiles(out.toRealPath())).containsExactly(Path.of("data_1.parquet"));
        }
        assertThat(DataFileUploads.openFiles(out.toRealPath())).isEmpty();
    }
}
