package dev.fdl.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A counting payload is told the bytes of one file as the store sends them, not once the file is
 * stored: the folder store's kernel copy, one S3 PutObject and the parts of a multipart upload
 * each report sums below the file's size while the put is still under way, and the whole size at
 * its end (no retries here). What is stored is the file.
 */
@UsesS3Mock
class UploadProgressTest {
    @TempDir Path tmp;

    /** The running sums a counting payload was told during one put, each noted with whether the put had returned. */
    private static final class Sums {
        final List<Long> during = new CopyOnWriteArrayList<>();
        final AtomicLong sum = new AtomicLong();
        final AtomicBoolean returned = new AtomicBoolean();

        Payload of(Path file) {
            return Payload.of(file).counting(n -> {
                long now = sum.addAndGet(n);
                if (!returned.get()) during.add(now);
            });
        }
    }

    private static void assertPartialThenWhole(Sums sums, long size) {
        assertThat(sums.during).as("sums told while the put was under way").anyMatch(v -> v > 0 && v < size);
        assertThat(sums.during).allMatch(v -> v <= size); // parts are sent by several threads: sums may be noted out of order
        assertThat(sums.sum.get()).isEqualTo(size);
    }

    private void putAndCheck(ObjectStore store, long size, String key) throws Exception {
        Path f = tmp.resolve(key.replace('/', '-'));
        String sha = ObjectStoreContract.writeRandom(f, size);
        Sums sums = new Sums();
        assertThat(store.put(key, sums.of(f)).isWritten()).isTrue();
        sums.returned.set(true);
        assertPartialThenWhole(sums, size);
        Path back = tmp.resolve("back-" + key.replace('/', '-'));
        store.download(key, back).orElseThrow();
        assertThat(ObjectStoreContract.sha256(back)).isEqualTo(sha);
    }

    @Test
    void theFolderStoreTellsTheBytesOfABigFileChunkByChunk() throws Exception {
        putAndCheck(new LocalStore(tmp.resolve("repo")), 2 * LocalStore.COPY_CHUNK + 12345, "data/t/big.parquet");
    }

    @Test
    void theFolderStoreTellsTheBytesOfASmallFileItDigestsAsItCopiesThem() throws Exception {
        Path f = tmp.resolve("small.bin");
        ObjectStoreContract.writeRandom(f, 300_000);
        Sums sums = new Sums();
        new LocalStore(tmp.resolve("repo")).put("data/t/small.parquet", sums.of(f));
        sums.returned.set(true);
        assertThat(sums.sum.get()).isEqualTo(300_000);
    }

    @Test
    void s3TellsTheBytesOfOnePutObjectAsTheSdkSendsThem() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        try (S3Store store = s3.store(s3.newRoot(), s3.config().withMultipart(64L << 20, 8L << 20))) {
            putAndCheck(store, (3L << 20) + 5, "data/t/one.parquet");
        }
    }

    @Test
    void s3TellsTheBytesOfEveryPartOfAMultipartUpload() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        try (S3Store store = s3.store(s3.newRoot(), s3.config().withMultipart(5L << 20, 5L << 20))) {
            putAndCheck(store, 3 * (5L << 20) + 77, "data/t/parts.parquet");
        }
    }

    @Test
    void aPayloadNotCountingTellsNothingAndAPartOfOneIsCountedAsRead() throws Exception {
        Path f = tmp.resolve("f.bin");
        ObjectStoreContract.writeRandom(f, 1000);
        assertThat(Payload.of(f).isCounting()).isFalse();
        AtomicLong told = new AtomicLong();
        Payload p = Payload.of(f).counting(told::addAndGet);
        try (var in = p.open(100, 250)) {
            assertThat(in.readAllBytes()).hasSize(250);
        }
        assertThat(told.get()).isEqualTo(250);
        p.sent(0);
        p.sent(7);
        assertThat(told.get()).isEqualTo(257);
    }
}
