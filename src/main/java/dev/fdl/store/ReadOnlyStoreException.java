package dev.fdl.store;

/** A write was attempted on a read-only store (an HTTP(S) root, SPEC.md section 2). */
public class ReadOnlyStoreException extends StoreException {
    public ReadOnlyStoreException(String root) {
        super(null, "the repository at " + root + " is read-only (an HTTP(S) root): "
                + "writing commands need a folder or an s3:// root");
    }
}
