package dev.fdl.store;

import java.net.URI;
import java.util.Locale;

/**
 * A custom S3 endpoint (MinIO, R2, S3Mock...) as a reader's DuckDB needs it (httpfs S3 secret
 * parameters ENDPOINT, USE_SSL, URL_STYLE, REGION; DuckDB docs, httpfs S3 API). Holds no
 * credential: S3Config refuses an endpoint with user info, and only host and port are kept.
 *
 * @param hostPort  {@code host[:port]}, no scheme or path (DuckDB's ENDPOINT)
 * @param useSsl    true for an {@code https} endpoint
 * @param pathStyle path-style addressing ({@code https://endpoint/bucket/key}) rather than virtual-host
 * @param region    the configured region, or null
 */
public record S3ReaderEndpoint(String hostPort, boolean useSsl, boolean pathStyle, String region) {
    /** The endpoint of {@code config}, or null when it reaches AWS S3 itself. */
    static S3ReaderEndpoint of(S3Config config) {
        URI e = config.endpoint();
        if (e == null) return null;
        String host = e.getHost() + (e.getPort() > 0 ? ":" + e.getPort() : "");
        return new S3ReaderEndpoint(host, "https".equals(e.getScheme().toLowerCase(Locale.ROOT)), config.pathStyle(), config.region());
    }
}
