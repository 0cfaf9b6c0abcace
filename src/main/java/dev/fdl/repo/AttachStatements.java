package dev.fdl.repo;

import dev.fdl.ducklake.engine.DuckLakeExtension;
import dev.fdl.store.S3ReaderEndpoint;
import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The DuckDB statements a reader runs to attach a version with the DuckLake extension
 * (SPEC.md section 4, Reading): {@code ATTACH 'ducklake:<catalog url>'}, read-only, always with
 * {@code DATA_PATH} (the data folder under the root the reader is given) and
 * {@code OVERRIDE_DATA_PATH true}: the data_path a catalog records is where the repository was at
 * commit, and a repository that was moved, copied or mirrored since must read from where it is now.
 * For an {@code s3://} root behind a custom endpoint (MinIO, R2), an S3 secret naming that
 * endpoint comes first ({@link #s3Secret}): httpfs otherwise goes to AWS.
 */
public final class AttachStatements {
    private AttachStatements() {}

    /**
     * @param repo    the repository
     * @param version the version to attach
     * @param rootUrl another root readers use (ends with {@code /} added if missing), or null for the repository's own
     * @param alias   the database name in DuckDB
     */
    public static List<String> of(Repository repo, VersionInfo version, String rootUrl, String alias) {
        checkRootUrl(rootUrl);
        String key = RepoLayout.versionFile(version.id(), version.catalog().path());
        String root = rootUrl == null ? null : rootUrl.endsWith("/") ? rootUrl : rootUrl + "/";
        String catalogUrl = root == null ? repo.store().location(key) : root + key;
        String dataUrl = root == null ? repo.store().location(repo.dataDir()) : root + repo.dataDir();
        List<String> out = new ArrayList<>();
        out.add("INSTALL ducklake;");
        out.add("LOAD ducklake;");
        String lower = catalogUrl.toLowerCase(Locale.ROOT);
        if (lower.startsWith("s3://") || lower.startsWith("http://") || lower.startsWith("https://")) {
            out.add("INSTALL httpfs;");
            out.add("LOAD httpfs;");
        }
        if (root == null && lower.startsWith("s3://")) // another root given: its endpoint is not this store's
            repo.store().customS3Endpoint().ifPresent(e -> {
                // the credential_chain provider is the aws extension's: installed and loaded here
                // so that a reader without extension autoloading gets it too
                out.add("INSTALL aws;");
                out.add("LOAD aws;");
                out.add(s3Secret(e, repo.store().location(""), alias));
            });
        String opts = DuckLakeExtension.readerAttachOptions(dataUrl, null);
        out.add("ATTACH " + SqlQuote.literal("ducklake:" + catalogUrl) + " AS " + identifier(alias) + " (" + opts + ");");
        out.add("USE " + identifier(alias) + ";");
        return out;
    }

    /**
     * The statement that points DuckDB's httpfs at a custom S3 endpoint for the repository's root
     * (DuckDB docs, httpfs S3 API: an S3 secret with ENDPOINT, URL_STYLE, USE_SSL, SCOPE):
     * {@code CREATE OR REPLACE SECRET <alias>_s3 (TYPE s3, PROVIDER credential_chain, ...)}. The
     * credential chain lets the reader's DuckDB find its own credentials (environment, profile),
     * so no key material is ever written.
     *
     * @param scope the repository root ({@code s3://bucket/prefix/}): the secret applies to it only
     */
    public static String s3Secret(S3ReaderEndpoint e, String scope, String alias) {
        return "CREATE OR REPLACE SECRET " + identifier(alias + "_s3") + " (TYPE s3, PROVIDER credential_chain, ENDPOINT "
                + SqlQuote.literal(e.hostPort()) + ", URL_STYLE " + (e.pathStyle() ? "'path'" : "'vhost'")
                + ", USE_SSL " + e.useSsl() + (e.region() == null ? "" : ", REGION " + SqlQuote.literal(e.region()))
                + ", SCOPE " + SqlQuote.literal(scope) + ");";
    }

    /** URL schemes DuckDB's file systems read (core, httpfs, azure, the Hugging Face file system). */
    private static final java.util.Set<String> READABLE_SCHEMES = java.util.Set.of(
            "http", "https", "s3", "s3a", "s3n", "gs", "gcs", "r2", "az", "azure", "abfss", "hf", "file");

    /**
     * Refuses a root URL DuckDB cannot read from (e.g. {@code ftp://}): the statements would fail
     * only in the reader's DuckDB. A path without a scheme is taken as a local folder.
     *
     * @throws dev.fdl.FdlException usage error (exit 2) naming the URL and the schemes accepted
     */
    public static void checkRootUrl(String rootUrl) {
        if (rootUrl == null) return;
        int colon = rootUrl.indexOf("://");
        if (rootUrl.isBlank() || colon == 0)
            throw dev.fdl.FdlException.usage("--root-url '" + rootUrl + "' names no root; give e.g. https://example.org/data/ or s3://bucket/prefix/");
        if (colon > 0 && !READABLE_SCHEMES.contains(rootUrl.substring(0, colon).toLowerCase(Locale.ROOT)))
            throw dev.fdl.FdlException.usage("--root-url '" + rootUrl + "': DuckDB cannot read from '" + rootUrl.substring(0, colon)
                    + "://'; use one of " + new java.util.TreeSet<>(READABLE_SCHEMES).stream().map(x -> x + "://").toList()
                    + " or a local folder");
    }

    private static final java.util.regex.Pattern PLAIN_IDENTIFIER = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    static String identifier(String s) {
        return PLAIN_IDENTIFIER.matcher(s).matches() ? s : "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
