package dev.fdl.store;

/**
 * An I/O failure of a store (unreachable endpoint, access denied, disk error). Never used for a
 * refused conditional write, which is a {@link WriteResult}. Messages name the key and never
 * carry credentials.
 */
public class StoreException extends RuntimeException {
    private final String key;

    public StoreException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    public StoreException(String key, String message) {
        this(key, message, null);
    }

    /** The key the failed operation was about, or null for store-wide failures. */
    public String key() {
        return key;
    }
}
