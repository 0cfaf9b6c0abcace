package dev.fdl.store;

/** The store contract against a local folder. */
class LocalStoreContractTest extends ObjectStoreContract {
    @Override
    ObjectStore newStore() {
        return new LocalStore(tmp.resolve("repo"));
    }
}
