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
