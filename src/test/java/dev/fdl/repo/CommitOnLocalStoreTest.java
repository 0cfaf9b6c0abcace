package dev.fdl.repo;

import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;

import java.nio.file.Path;
import java.util.Map;

/** The commit protocol on a local folder. */
class CommitOnLocalStoreTest extends CommitProtocolContract {
    @Override
    ObjectStore newStore(Path dir) {
        return new LocalStore(dir.resolve("repo"));
    }

    @Override
    Map<String, String> childEnvironment() {
        return Map.of();
    }
}
