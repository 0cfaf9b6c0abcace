package dev.fdl.store;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The store contract against a local folder. */
class LocalStoreContractTest extends ObjectStoreContract {
    @Override
    ObjectStore newStore() {
        return new LocalStore(tmp.resolve("repo"));
    }

    @Test
    void cleanupDeletesOnlyTemporaryFilesOlderThanTheCutoffAndNeverTheLock() throws Exception {
        store.put("data/main/t/real.parquet", new byte[]{1});
        store.putIfAbsent("refs/heads/main", new byte[]{2}); // creates .fdl-lock
        Path root = tmp.resolve("repo");
        Instant old = Instant.now().minus(Duration.ofDays(30));
        Path oldTmp = write(root.resolve("data/main/t/.fdl-tmp-" + java.util.UUID.randomUUID()), old);
        Path oldDl = write(root.resolve("versions/x/.fdl-dl-" + java.util.UUID.randomUUID()), old);
        Path youngTmp = write(root.resolve("data/.fdl-tmp-" + java.util.UUID.randomUUID()), Instant.now());
        Path lock = root.resolve(".fdl-lock");
        Files.setLastModifiedTime(lock, FileTime.from(old));
        Path real = root.resolve("data/main/t/real.parquet");
        Files.setLastModifiedTime(real, FileTime.from(old));

        int removed = store.cleanupIncompleteUploads(Instant.now().minus(Duration.ofHours(1)));

        assertThat(removed).isEqualTo(2);
        assertThat(oldTmp).doesNotExist();
        assertThat(oldDl).doesNotExist();
        assertThat(youngTmp).exists();
        assertThat(lock).exists();
        assertThat(real).exists();
        assertThat(store.cleanupIncompleteUploads(Instant.now().minus(Duration.ofHours(1)))).isZero();
    }

    /** Bytes this process has read through read(2) and friends so far (Linux), or -1 where unknown. */
    private static long bytesReadByThisProcess() throws Exception {
        Path io = Path.of("/proc/self/io");
        if (!Files.isReadable(io)) return -1;
        for (String line : Files.readAllLines(io)) {
            if (line.startsWith("rchar:")) return Long.parseLong(line.substring(6).trim());
        }
        return -1;
    }

    /** A file payload on either side of the content-ETag limit is stored byte for byte, with the ETag head gives. */
    @Test
    void aFilePayloadIsStoredWholeOnEitherSideOfTheContentEtagLimit() throws Exception {
        for (long size : new long[] {LocalStore.CONTENT_ETAG_LIMIT, LocalStore.CONTENT_ETAG_LIMIT + 1, 3 * LocalStore.CONTENT_ETAG_LIMIT + 7}) {
            java.nio.file.Path f = tmp.resolve("in-" + size + ".bin");
            byte[] content = new byte[(int) size];
            new java.util.Random(size).nextBytes(content);
            java.nio.file.Files.write(f, content);
            String etag = store.put("data/" + size, dev.fdl.store.Payload.of(f)).etag();
            assertThat(store.get("data/" + size).orElseThrow().bytes()).isEqualTo(content);
            assertThat(store.head("data/" + size).orElseThrow().etag()).isEqualTo(etag);
            if (size <= LocalStore.CONTENT_ETAG_LIMIT) {
                assertThat(etag).isEqualTo(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(content)));
            }
        }
    }

    /** open (fdl serve's sends) describes the file as head does, and unchanged notices a replaced or deleted one. */
    @Test
    void anOpenedFileHasTheEtagHeadGivesUntilTheKeyNamesAnotherFile() throws Exception {
        LocalStore local = (LocalStore) store;
        int large = (int) LocalStore.CONTENT_ETAG_LIMIT + 1;
        store.put("small", new byte[] {1, 2, 3});
        store.put("big", new byte[large]);
        for (String key : java.util.List.of("small", "big")) {
            try (LocalFiles.OpenFile f = local.open(key).orElseThrow()) {
                assertThat(f.meta()).isEqualTo(store.head(key).orElseThrow());
                assertThat(f.channel().size()).isEqualTo(f.meta().size());
                assertThat(local.unchanged(f)).isTrue();
                store.put(key, new byte[(int) f.meta().size()]); // same size, another file (a rename)
                assertThat(local.unchanged(f)).as(key).isFalse();
            }
        }
        try (LocalFiles.OpenFile f = local.open("big").orElseThrow()) {
            store.delete("big");
            assertThat(local.unchanged(f)).isFalse();
        }
        assertThat(local.open("big")).isEmpty();
        Files.createDirectories(tmp.resolve("repo/folder"));
        assertThat(local.open("folder")).isEmpty();
    }

    @Test
    void headAndStatOfALargeObjectReadNoContent() throws Exception {
        Path f = tmp.resolve("repo/data/main/t/large.parquet");
        Files.createDirectories(f.getParent());
        try (var raf = new java.io.RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(4L << 30); // 4 GiB, sparse: costs no disk, but reading it reads 4 GiB
        }
        long before = bytesReadByThisProcess();
        org.junit.jupiter.api.Assumptions.assumeTrue(before >= 0, "needs /proc/self/io (Linux) to count bytes read");

        ObjectMeta head = store.head("data/main/t/large.parquet").orElseThrow();
        ObjectMeta stat = store.stat("data/main/t/large.parquet").orElseThrow();

        assertThat(bytesReadByThisProcess() - before).isLessThan(64L << 20); // other threads may read a little; a hash reads 4 GiB
        assertThat(head.size()).isEqualTo(4L << 30);
        assertThat(head.etag()).isNotBlank();
        assertThat(stat.size()).isEqualTo(4L << 30);
        assertThat(stat.etag()).isNull();
        assertThat(store.head("data/main/t/large.parquet").orElseThrow().etag()).isEqualTo(head.etag());
    }

    @Test
    void theEtagOfALargeObjectChangesWithEveryWriteAndAStaleOneIsRefused() {
        int size = (int) LocalStore.CONTENT_ETAG_LIMIT + 1;
        java.util.Set<String> seen = new java.util.HashSet<>();
        String first = store.put("big", new byte[size]).etag();
        seen.add(first);
        for (int i = 1; i <= 40; i++) {
            byte[] body = new byte[size];
            body[i] = (byte) i; // same size, other content, written as fast as the store can
            String etag = store.put("big", body).etag();
            assertThat(seen.add(etag)).as("write %d repeats an earlier ETag", i).isTrue();
            assertThat(store.head("big").orElseThrow().etag()).isEqualTo(etag);
            assertThat(store.get("big").orElseThrow().etag()).isEqualTo(etag);
        }
        assertThat(store.putIfMatch("big", Payload.of(new byte[size]), first).status())
                .isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        String current = store.head("big").orElseThrow().etag();
        assertThat(store.putIfMatch("big", Payload.of(new byte[size]), current).isWritten()).isTrue();
    }

    @Test
    void smallObjectsKeepTheirContentEtag() throws Exception {
        String etag = store.put("refs/heads/main", new byte[]{1, 2, 3}).etag();
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("MD5");
        assertThat(etag).isEqualTo(java.util.HexFormat.of().formatHex(md.digest(new byte[]{1, 2, 3})));
        // rewritten in place by another program, same size: the content ETag still sees it
        Files.write(tmp.resolve("repo/refs/heads/main"), new byte[]{1, 2, 4});
        assertThat(store.head("refs/heads/main").orElseThrow().etag()).isNotEqualTo(etag);
    }

    @Test
    void cleanupOfARootThatDoesNotExistYetRemovesNothing() {
        assertThat(store.cleanupIncompleteUploads(Instant.now())).isZero();
    }

    private static Path write(Path f, Instant mtime) throws Exception {
        Files.createDirectories(f.getParent());
        Files.write(f, new byte[]{7});
        Files.setLastModifiedTime(f, FileTime.from(mtime));
        return f;
    }
}
