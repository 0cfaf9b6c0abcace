package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.RepoLayout;
import dev.fdl.store.ObjectStore;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * Where Iceberg readers find a repository (docs/iceberg.md, "Locations"): Iceberg metadata names
 * every file by an absolute URL, the repository's root followed by the file's key. By default the
 * root the repository was written at ({@code file:} for a folder, {@code s3://} for S3, the URL of
 * an HTTP(S) root); fdl.json's {@code iceberg_location} for a repository readers reach elsewhere;
 * {@code fdl iceberg --location} for a mirror.
 */
public final class IcebergLocation {
    private IcebergLocation() {}

    /**
     * The root URL Iceberg metadata names files under, ending in {@code /}: {@code explicit} when
     * given, else fdl.json's {@code iceberg_location}, else the store's own root as a URL.
     *
     * @throws FdlException usage (exit 2) when {@code explicit} is not an absolute URL; failure
     *     (exit 1) naming fdl.json and the key when its value is not one
     */
    public static String of(ObjectStore store, RepoConfig config, String explicit) {
        if (explicit != null) {
            check("--location", explicit);
            return withSlash(explicit);
        }
        String configured = config.icebergLocation().orElse(null);
        if (configured != null) {
            String why = problem(configured);
            if (why != null) throw FdlException.corrupt(RepoLayout.CONFIG, "key '" + RepoConfig.ICEBERG_LOCATION + "' (" + configured + ") " + why);
            return withSlash(configured);
        }
        String root = store.root();
        if (dev.fdl.ducklake.format.DuckLakePaths.isRemote(root)) return withSlash(root);
        return withSlash(Path.of(root).toAbsolutePath().normalize().toUri().toString());
    }

    /**
     * The location the table metadata stored at {@code metadataKey} names, when it is not under
     * {@code root}: metadata written before the root changed (fdl.json's {@code iceberg_location}
     * set later), which stays as written since a version's files are never replaced. Empty when it
     * is under {@code root} or there is no such file.
     *
     * @throws org.apache.iceberg.exceptions.RuntimeIOException or {@code IllegalArgumentException} when the file is not Iceberg table metadata
     */
    public static java.util.Optional<String> writtenElsewhere(ObjectStore store, String metadataKey, String root) {
        return store.get(metadataKey).map(b -> org.apache.iceberg.TableMetadataParser.fromJson(root + metadataKey,
                new String(b.bytes(), java.nio.charset.StandardCharsets.UTF_8)).location()).filter(l -> !l.startsWith(root));
    }

    /**
     * Refuses {@code url}, given with the command-line option {@code option}, unless it is a root URL
     * for Iceberg (an absolute URL with a scheme, no query or fragment).
     *
     * @throws FdlException usage (exit 2) naming the option and the value, and what to give instead
     */
    public static void check(String option, String url) {
        String why = problem(url);
        if (why != null) throw FdlException.usage(option + " " + url + " " + why);
    }

    /** Why {@code url} is no root URL for Iceberg, or null when it is one ({@code s3://b/p/}, {@code file:/x/}, {@code https://h/p/}). */
    static String problem(String url) {
        try {
            URI u = new URI(url);
            if (u.getScheme() == null || u.getScheme().length() < 2) {
                return "is not a URL: give the repository's root as Iceberg readers reach it, e.g. s3://bucket/prefix/ or file:///data/repo/";
            }
            if (u.getQuery() != null || u.getFragment() != null) return "has a query or fragment; give the root URL alone";
            return null;
        } catch (URISyntaxException e) {
            return "is not a URL (" + e.getReason() + "): give e.g. s3://bucket/prefix/ or file:///data/repo/";
        }
    }

    private static String withSlash(String url) {
        return url.endsWith("/") ? url : url + "/";
    }
}
