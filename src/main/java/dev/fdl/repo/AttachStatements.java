package dev.fdl.repo;

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
        String opts = "READ_ONLY, DATA_PATH " + SqlQuote.literal(dataUrl) + ", OVERRIDE_DATA_PATH true";
        out.add("ATTACH " + SqlQuote.literal("ducklake:" + catalogUrl) + " AS " + identifier(alias) + " (" + opts + ");");
        out.add("USE " + identifier(alias) + ";");
        return out;
    }

    private static final java.util.regex.Pattern PLAIN_IDENTIFIER = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    static String identifier(String s) {
        return PLAIN_IDENTIFIER.matcher(s).matches() ? s : "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
