package dev.fdl.store;

/**
 * Outcome of a write. A conditional write the store refused is a normal result
 * ({@link Status#PRECONDITION_FAILED}), never an exception (SPEC.md section 2; JGit's RefUpdate style).
 *
 * @param status what happened
 * @param etag   the new object's ETag (unquoted) when written, else null
 */
public record WriteResult(Status status, String etag) {
    /** What a write did. */
    public enum Status { WRITTEN, PRECONDITION_FAILED }

    public WriteResult {
        etag = ETags.normalize(etag);
    }

    public static WriteResult written(String etag) {
        return new WriteResult(Status.WRITTEN, etag);
    }

    public static WriteResult preconditionFailed() {
        return new WriteResult(Status.PRECONDITION_FAILED, null);
    }

    public boolean isWritten() {
        return status == Status.WRITTEN;
    }
}
