package dev.fdl.ducklake.load;

import dev.fdl.ducklake.DataProgress;
import dev.fdl.store.ForwardingStore;
import dev.fdl.store.LocalStore;
import dev.fdl.store.Payload;
import dev.fdl.store.StoreException;
import dev.fdl.store.WriteResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upload line counts the bytes of a file as the store sends them: while the one upload of a
 * big file is half done, the progress already says so (a line that counted finished files stays
 * at 0 until the end), and it ends at the total once the upload has returned.
 */
class DataFileUploadsProgressTest {
    static final int SIZE = 3 << 20;

    @TempDir Path tmp;

    /** A store that sends the first half of a file, then waits until the progress has told that half, then sends the rest. */
    static final class HalfThenWait extends ForwardingStore {
        final CountDownLatch halfTold = new CountDownLatch(1);
        final Path scratch;

        HalfThenWait(LocalStore delegate, Path scratch) {
            super(delegate);
            this.scratch = scratch;
        }

        @Override
        public WriteResult put(String key, Payload body) {
            Path copy = scratch.resolve("sent-" + key.replace('/', '-'));
            try (InputStream in = body.open(); OutputStream out = Files.newOutputStream(copy)) {
                out.write(in.readNBytes(SIZE / 2));
                out.flush();
                if (!halfTold.await(120, TimeUnit.SECONDS)) throw new StoreException(key, "the progress never told the half sent (test)");
                in.transferTo(out);
            } catch (IOException | InterruptedException e) {
                throw new StoreException(key, "cannot send (test): " + e.getMessage(), e);
            }
            return super.put(key, Payload.of(copy));
        }
    }

    @Test
    void theUploadLineTellsTheBytesOfOneBigFileAsTheyAreSent() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        HalfThenWait store = new HalfThenWait(new LocalStore(tmp.resolve("repo")), Files.createDirectories(tmp.resolve("scratch")));
        List<long[]> told = new CopyOnWriteArrayList<>();
        DataProgress progress = (phase, done, total, unit) -> {
            if (!phase.equals("uploading")) return;
            told.add(new long[]{done, total});
            if (done > 0 && done < total) store.halfTold.countDown();
        };
        Path f = out.resolve("data_0.parquet");
        List<DataFileUploads.Uploaded> up = DataFileUploads.run(store, "data/t/", out, progress, () -> {
            byte[] bytes = new byte[SIZE];
            new Random(7).nextBytes(bytes);
            try {
                Files.write(f, bytes);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return List.of(f);
        });
        assertThat(told).anySatisfy(t -> assertThat(t[0]).isEqualTo(SIZE / 2).isLessThan(t[1]));
        assertThat(told.get(told.size() - 1)).containsExactly(SIZE, SIZE);
        assertThat(told.subList(0, told.size() - 1)).allSatisfy(t -> assertThat(t[0]).isLessThan(SIZE));
        assertThat(up).singleElement().satisfies(u -> assertThat(u.bytes()).isEqualTo(SIZE));
        assertThat(Files.readAllBytes(tmp.resolve("repo").resolve(up.get(0).key()))).isEqualTo(Files.readAllBytes(f));
    }
}
