package dev.fdl.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Plain writes in parts: the parts of one object go up together, several objects at once, and each reads back whole. */
@UsesS3Mock
class S3StoreParallelPartsTest {
    @TempDir
    Path tmp;

    @Test
    void objectsWrittenInPartsConcurrentlyReadBackWholeWithTheirMultipartEtagsAndLeaveNoUploadBehind() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        try (S3Store store = s3.store(s3.newRoot(), s3.config().withMultipart(5L << 20, 5L << 20))) {
            List<Path> files = new ArrayList<>();
            List<String> sums = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Path f = tmp.resolve("big-" + i + ".bin");
                // more parts than the store sends at once, the last one short
                sums.add(ObjectStoreContract.writeRandom(f, (S3Parts.THREADS + 1) * (5L << 20) + 7 + i));
                files.add(f);
            }
            ExecutorService callers = Executors.newFixedThreadPool(files.size());
            try {
                List<Future<WriteResult>> writes = new ArrayList<>();
                for (int i = 0; i < files.size(); i++) {
                    Path f = files.get(i);
                    String key = "data/t/f" + i + ".parquet";
                    writes.add(callers.submit(() -> store.put(key, Payload.of(f))));
                }
                for (int i = 0; i < files.size(); i++) {
                    WriteResult w = writes.get(i).get();
                    assertThat(w.isWritten()).isTrue();
                    assertThat(w.etag()).isEqualTo(S3Parts.multipartEtag(files.get(i), 5L << 20))
                            .endsWith("-" + (S3Parts.THREADS + 2));
                    Path back = tmp.resolve("back-" + i + ".bin");
                    store.download("data/t/f" + i + ".parquet", back).orElseThrow();
                    assertThat(ObjectStoreContract.sha256(back)).isEqualTo(sums.get(i));
                }
            } finally {
                callers.shutdownNow();
            }
            assertThat(store.client().listMultipartUploads(b -> b.bucket(store.s3Location().bucket())).uploads()).isEmpty();
        }
    }
}
