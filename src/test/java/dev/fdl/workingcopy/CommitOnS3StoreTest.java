package dev.fdl.workingcopy;

import dev.fdl.store.ObjectStore;
import dev.fdl.store.S3MockServer;

import java.nio.file.Path;
import java.util.Map;

/** The commit protocol on S3 (Adobe's S3Mock, a separate process on 127.0.0.1). */
@dev.fdl.store.UsesS3Mock
class CommitOnS3StoreTest extends CommitProtocolContract {
    @Override
    ObjectStore newStore(Path dir) {
        return S3MockServer.shared().newStore();
    }

    @Override
    Map<String, String> childEnvironment() {
        return S3MockServer.shared().environment();
    }
}
