package dev.fdl.repo;

import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The DuckDB statements a reader runs to attach a version with the DuckLake extension
 * (SPEC.md section 4, Reading): {@code ATTACH 'ducklake:<catalog url>'}, read-only, with
 * {@code DATA_PATH} and {@code OVERRIDE_DATA_PATH} when the repository is reached under another
 * root than the one the catalog's data_path names (e.g. a public HTTPS mirror).
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
        String dataUrl = root == null ? null : root + repo.dataDir();
        List<String> out = new ArrayList<>();
        out.add("INSTALL ducklake;");
        out.add("LOAD ducklake;");
        String lower = catalogUrl.toLowerCase(Locale.ROOT);
        if (lower.startsWith("s3://") || lower.startsWith("http://") || lower.startsWith("https://")) {
            out.add("INSTALL httpfs;");
            out.add("LOAD httpfs;");
        }
        String opts = "READ_ONLY" + (dataUrl == null ? "" : ", DATA_PATH " + SqlQuote.literal(dataUrl) + ", OVERRIDE_DATA_PATH true");
        out.add("ATTACH " + SqlQuote.literal("ducklake:" + catalogUrl) + " AS " + identifier(alias) + " (" + opts + ");");
        out.add("USE " + identifier(alias) + ";");
        return out;
    }

    static String identifier(String s) {
        return s.matches("[A-Za-z_][A-Za-z0-9_]*") ? s : "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
