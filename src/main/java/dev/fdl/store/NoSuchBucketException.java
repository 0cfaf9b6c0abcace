package dev.fdl.store;

/**
 * The bucket of an {@code s3://} root does not exist (S3's {@code NoSuchBucket} error): opening a
 * repository there is "no such repository" (SPEC.md section 6, exit 4), as a missing prefix is.
 */
public final class NoSuchBucketException extends StoreException {
    /** @param message names the bucket and the endpoint, never credentials */
    public NoSuchBucketException(String key, String message, Throwable cause) {
        super(key, message, cause);
    }
}
