package dev.fdl.store;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store contract against S3Store on Adobe's S3Mock (a separate process, {@link S3MockServer}),
 * listing in pages of 100 keys so that thousands of keys take many LIST requests.
 */
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

    @Test
    void rootAndLocationAreS3Urls() {
        S3Store s3 = (S3Store) store;
        assertThat(store.root()).isEqualTo("s3://" + s3.s3Location().bucket() + "/repo/");
        assertThat(store.location("data/")).isEqualTo("s3://" + s3.s3Location().bucket() + "/repo/data/");
    }
}
