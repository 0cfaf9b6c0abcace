package dev.fdl.store;

import dev.fdl.FdlException;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Opens the store a repository root names: a folder path or {@code file://} URL (LocalStore),
 * {@code s3://bucket/prefix/} (S3Store), or {@code http(s)://…} (HttpStore, read-only).
 */
public final class Stores {
    private Stores() {}

    /**
     * Opens the store for {@code root}.
     *
     * @throws FdlException exit 2 for a root fdl cannot use (unknown scheme, malformed URL)
     */
    public static ObjectStore open(String root) {
        if (root == null || root.isBlank()) throw FdlException.usage("empty repository root; give --repo <folder|s3://bucket/prefix/|https://…>");
        Optional<Path> local = localPath(root);
        if (local.isPresent()) return new LocalStore(local.get());
        String lower = root.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("s3://")) return openS3(root);
        if (lower.startsWith("http://") || lower.startsWith("https://")) return openHttp(root);
        throw FdlException.usage("unsupported repository root '" + root + "': use a folder, file://, s3:// or https:// root");
    }

    /**
     * The local path a root names (a folder path, or a {@code file://} URL), or empty for an
     * {@code s3://}, {@code http(s)://} or other URL.
     *
     * @throws FdlException exit 2 for a malformed {@code file:} URL
     */
    public static Optional<Path> localPath(String root) {
        String lower = root.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("file:")) {
            try {
                return Optional.of(Path.of(URI.create(root)));
            } catch (IllegalArgumentException e) {
                throw FdlException.usage("invalid file URL '" + root + "': " + e.getMessage());
            }
        }
        if (lower.matches("^[a-z][a-z0-9+.-]*://.*")) return Optional.empty();
        return Optional.of(Path.of(root));
    }

    /** {@code s3://bucket/prefix/}: endpoint, region and addressing from the environment ({@link S3Config#fromEnvironment()}). */
    private static ObjectStore openS3(String root) {
        return S3Store.open(root);
    }

    /** {@code http(s)://…}: read-only. */
    private static ObjectStore openHttp(String root) {
        try {
            return new HttpStore(URI.create(root));
        } catch (IllegalArgumentException e) {
            throw FdlException.usage("invalid URL '" + root + "': " + e.getMessage());
        }
    }
}
