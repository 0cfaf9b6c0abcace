package dev.fdl.store;

import dev.fdl.FdlException;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * How fdl reaches an S3-compatible store, configured the AWS way (docs/stores.md).
 *
 * <ul>
 *   <li>endpoint: {@code AWS_ENDPOINT_URL_S3}, else {@code AWS_ENDPOINT_URL} (the AWS SDKs'
 *       variables), else the system properties {@code aws.endpointUrlS3} / {@code aws.endpointUrl};
 *       null means AWS S3 itself.</li>
 *   <li>region: null lets the SDK's default region chain decide ({@code AWS_REGION}, profile…),
 *       falling back to {@code us-east-1}.</li>
 *   <li>path-style addressing ({@code https://endpoint/bucket/key}): on when an endpoint is set
 *       or {@code FDL_S3_PATH_STYLE=true}; {@code FDL_S3_PATH_STYLE=false} turns it off.</li>
 * </ul>
 * Credentials are never part of this record: they come from the SDK's default credential chain.
 *
 * @param endpoint           S3 endpoint, or null for AWS
 * @param region             region name, or null for the SDK default chain
 * @param pathStyle          path-style bucket addressing
 * @param multipartThreshold objects larger than this many bytes upload in parts
 * @param partSize           bytes per part of a multipart upload (S3 minimum 5 MiB)
 * @param listPageSize       keys per LIST request (S3 maximum 1000)
 */
public record S3Config(URI endpoint, String region, boolean pathStyle, long multipartThreshold, long partSize,
                       int listPageSize) {
    /** 64 MiB: catalogs are usually far smaller, so most writes are a single PutObject. */
    public static final long DEFAULT_MULTIPART_THRESHOLD = 64L << 20;
    /** 16 MiB parts: at most 10,000 parts gives objects up to 156 GiB. */
    public static final long DEFAULT_PART_SIZE = 16L << 20;
    static final long MIN_PART_SIZE = 5L << 20;

    public S3Config {
        if (endpoint != null) {
            String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || endpoint.getHost() == null)
                throw FdlException.usage("invalid S3 endpoint '" + redacted(endpoint)
                        + "': expected http(s)://host[:port] (AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_S3)");
            if (endpoint.getUserInfo() != null)
                throw FdlException.usage("the S3 endpoint must not carry credentials; use AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY");
        }
        if (partSize < MIN_PART_SIZE) throw new IllegalArgumentException("partSize below the S3 minimum of 5 MiB: " + partSize);
        if (multipartThreshold < partSize) throw new IllegalArgumentException("multipartThreshold below partSize");
        if (listPageSize < 1 || listPageSize > 1000) throw new IllegalArgumentException("listPageSize must be 1..1000: " + listPageSize);
    }

    /** AWS S3 itself, region from the default chain, virtual-hosted addressing, default sizes. */
    public static S3Config aws() {
        return new S3Config(null, null, false, DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, 1000);
    }

    /** An S3-compatible endpoint with path-style addressing and default sizes. */
    public static S3Config endpoint(URI endpoint, String region) {
        return new S3Config(endpoint, region, true, DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, 1000);
    }

    /** The configuration of this process's environment and system properties. */
    public static S3Config fromEnvironment() {
        return from(System.getenv(), System.getProperties());
    }

    /**
     * The configuration the given environment and system properties describe (see the class comment).
     *
     * @throws FdlException exit 2 for a malformed endpoint or FDL_S3_PATH_STYLE value
     */
    static S3Config from(Map<String, String> env, Properties props) {
        String ep = firstNonBlank(env.get("AWS_ENDPOINT_URL_S3"), env.get("AWS_ENDPOINT_URL"),
                props.getProperty("aws.endpointUrlS3"), props.getProperty("aws.endpointUrl"));
        URI endpoint = null;
        if (ep != null) {
            try {
                endpoint = URI.create(ep.trim());
            } catch (IllegalArgumentException e) {
                throw FdlException.usage("invalid S3 endpoint in AWS_ENDPOINT_URL(_S3): expected http(s)://host[:port]");
            }
        }
        String ps = firstNonBlank(env.get("FDL_S3_PATH_STYLE"), props.getProperty("fdl.s3.pathStyle"));
        boolean pathStyle = endpoint != null;
        if (ps != null) {
            String v = ps.trim().toLowerCase(Locale.ROOT);
            if (v.equals("true")) pathStyle = true;
            else if (v.equals("false")) pathStyle = false;
            else throw FdlException.usage("FDL_S3_PATH_STYLE must be 'true' or 'false', not '" + ps + "'");
        }
        return new S3Config(endpoint, null, pathStyle, DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, 1000);
    }

    /** A copy with other multipart sizes (tests use small ones). */
    public S3Config withMultipart(long threshold, long part) {
        return new S3Config(endpoint, region, pathStyle, threshold, part, listPageSize);
    }

    /** A copy with another LIST page size (tests use small ones to exercise pagination). */
    public S3Config withListPageSize(int keys) {
        return new S3Config(endpoint, region, pathStyle, multipartThreshold, partSize, keys);
    }

    /** A copy with an explicit region. */
    public S3Config withRegion(String regionName) {
        return new S3Config(endpoint, regionName, pathStyle, multipartThreshold, partSize, listPageSize);
    }

    /** The endpoint as it may be shown to users (no user info, no query), or "AWS S3". */
    String describeEndpoint() {
        return endpoint == null ? "AWS S3" : redacted(endpoint);
    }

    private static String redacted(URI u) {
        return u.getScheme() == null ? (u.getHost() == null ? "?" : u.getHost()) : dev.fdl.util.Redacted.location(u.toString());
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) if (v != null && !v.isBlank()) return v;
        return null;
    }
}
