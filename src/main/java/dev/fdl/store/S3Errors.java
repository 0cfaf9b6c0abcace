package dev.fdl.store;

import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/**
 * Turns AWS SDK failures into one clear line each ({@link StoreException}): no such bucket,
 * access denied, endpoint unreachable, missing credentials. The SDK's messages name neither
 * access keys nor secrets; the endpoint is shown without user info.
 */
final class S3Errors {
    private final S3Location location;
    private final String endpoint;

    S3Errors(S3Location location, String endpoint) {
        this.location = location;
        this.endpoint = endpoint;
    }

    /** True when the SDK says the key does not exist (404 NoSuchKey, or a HEAD's bodiless 404). */
    static boolean isNoSuchKey(SdkException e) {
        if (e instanceof NoSuchKeyException) return true;
        return e instanceof S3Exception s && s.statusCode() == 404 && !"NoSuchBucket".equals(code(s));
    }

    /** The S3 error code, or null when the response had no body (HEAD). */
    static String code(S3Exception e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }

    /** True for failures whose request may or may not have reached the store (I/O, timeouts). */
    static boolean isIo(SdkException e) {
        if (!(e instanceof SdkClientException)) return false;
        for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof IOException) return true;
        return false;
    }

    /** A short description of a failure for a message: "HTTP 409 ConditionalRequestConflict". */
    static String brief(SdkException e) {
        if (e == null) return "no answer";
        if (e instanceof S3Exception s) return "HTTP " + s.statusCode() + (code(s) == null ? "" : " " + code(s));
        Throwable root = e;
        while (root.getCause() != null) root = root.getCause();
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    /** The one-line StoreException for a failed {@code op} ("read", "write", …) on {@code key} (may be null). */
    StoreException fail(String op, String key, SdkException e) {
        String where = key == null ? location.root() : location.root() + key;
        if (e instanceof S3Exception s) {
            String code = code(s);
            int status = s.statusCode();
            if ("NoSuchBucket".equals(code))
                return new NoSuchBucketException(key, "no such bucket '" + location.bucket() + "' at " + endpoint
                        + " (create it, or check the root and AWS_ENDPOINT_URL)", e);
            if (status == 403 || "AccessDenied".equals(code) || "InvalidAccessKeyId".equals(code)
                    || "SignatureDoesNotMatch".equals(code) || "ExpiredToken".equals(code))
                return new StoreException(key, "access denied to " + location.root() + " at " + endpoint
                        + (code == null ? "" : " (" + code + ")") + ": check credentials and bucket policy", e);
            if (status == 301 || "PermanentRedirect".equals(code) || "AuthorizationHeaderMalformed".equals(code))
                return new StoreException(key, "bucket '" + location.bucket() + "' is in another region than the one configured;"
                        + " set AWS_REGION to the bucket's region", e);
            return new StoreException(key, "cannot " + op + " " + where + " at " + endpoint + ": HTTP " + status
                    + (code == null ? "" : " " + code) + (s.awsErrorDetails() != null && s.awsErrorDetails().errorMessage() != null
                    ? " (" + s.awsErrorDetails().errorMessage() + ")" : ""), e);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException || t instanceof ConnectException || t instanceof NoRouteToHostException)
                return new StoreException(key, "cannot reach endpoint " + endpoint + " (" + t.getClass().getSimpleName()
                        + (t.getMessage() == null ? "" : ": " + t.getMessage()) + "); check AWS_ENDPOINT_URL and the network", e);
            if (t instanceof SocketTimeoutException)
                return new StoreException(key, "endpoint " + endpoint + " did not answer in time while trying to " + op
                        + " " + where + "; check the network and try again", e);
        }
        String msg = e.getMessage() == null ? "" : e.getMessage();
        if (msg.contains("credentials"))
            return new StoreException(key, "no usable AWS credentials for " + location.root()
                    + ": set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run on a machine with a role", e);
        return new StoreException(key, "cannot " + op + " " + where + " at " + endpoint + ": " + firstLine(msg), e);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
