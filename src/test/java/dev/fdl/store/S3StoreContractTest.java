package dev.fdl.store;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store contract against S3Store on Adobe's S3Mock (a separate process, {@link S3MockServer}),
 * listing in pages of 100 keys so that thousands of keys take many LIST requests.
 */
@UsesS3Mock
class S3StoreContractTest extends ObjectStoreContract {
    @Override
    ObjectStore newStore() {
        S3MockServer s3 = S3MockServer.shared();
        return s3.store(s3.newRoot(), s3.config().withListPageSize(100));
    }

    @Override
    Map<String, String> childEnvironment() {
        return S3MockServer.shared().environment();
    }

    /**
     * S3Mock stamps an upload's initiated date with the time it was created, and the date cannot be
     * set: an abandoned upload is therefore shown to be kept by a cutoff before that moment and
     * aborted by a cutoff after it (a future one), without waiting.
     */
    @Test
    void cleanupAbortsIncompleteMultipartUploadsInitiatedBeforeTheCutoff() {
        S3Store s3 = (S3Store) store;
        String bucket = s3.s3Location().bucket();
        String key = s3.s3Location().prefix() + "data/main/t/abandoned.parquet";
        String uploadId = s3.client().createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        s3.client().uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
                software.amazon.awssdk.core.sync.RequestBody.fromBytes(new byte[]{1, 2, 3}));

        assertThat(store.cleanupIncompleteUploads(java.time.Instant.now().minus(java.time.Duration.ofHours(1)))).isZero();
        assertThat(uploads(s3)).containsExactly(uploadId);

        assertThat(store.cleanupIncompleteUploads(java.time.Instant.now().plus(java.time.Duration.ofMinutes(5)))).isEqualTo(1);
        assertThat(uploads(s3)).isEmpty();
        assertThat(store.list("data/")).isEmpty();
    }

    @Test
    void cleanupLeavesUploadsOutsideTheRootAlone() {
        S3Store s3 = (S3Store) store;
        String bucket = s3.s3Location().bucket();
        String uploadId = s3.client().createMultipartUpload(b -> b.bucket(bucket).key("other-repo/data/x.parquet")).uploadId();
        assertThat(store.cleanupIncompleteUploads(java.time.Instant.now().plus(java.time.Duration.ofMinutes(5)))).isZero();
        assertThat(s3.client().listMultipartUploads(b -> b.bucket(bucket)).uploads())
                .extracting(software.amazon.awssdk.services.s3.model.MultipartUpload::uploadId).containsExactly(uploadId);
        s3.client().abortMultipartUpload(b -> b.bucket(bucket).key("other-repo/data/x.parquet").uploadId(uploadId));
    }

    private static java.util.List<String> uploads(S3Store s3) {
        return s3.client().listMultipartUploads(b -> b.bucket(s3.s3Location().bucket()).prefix(s3.s3Location().prefix()))
                .uploads().stream().map(software.amazon.awssdk.services.s3.model.MultipartUpload::uploadId).toList();
    }

    @Test
    void rootAndLocationAreS3Urls() {
        S3Store s3 = (S3Store) store;
        assertThat(store.root()).isEqualTo("s3://" + s3.s3Location().bucket() + "/repo/");
        assertThat(store.location("data/")).isEqualTo("s3://" + s3.s3Location().bucket() + "/repo/data/");
    }
}
