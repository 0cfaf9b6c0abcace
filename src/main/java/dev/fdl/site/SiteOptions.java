package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.RepoLayout;

/**
 * Where the site goes (docs/site.md).
 *
 * @param prefix   key prefix of the site's pages, ending in {@code /} ({@code site/})
 * @param indexKey key of the dataset page ({@code index.html} at the root)
 * @param pageSize versions per log page
 */
public record SiteOptions(String prefix, String indexKey, int pageSize) {
    /** The fdl.json key of the site setting (SPEC.md section 3: unknown keys are preserved by every writer). */
    public static final String CONFIG_KEY = "site";

    /** @throws FdlException (usage) naming the prefix, index or page size that cannot be used */
    public SiteOptions {
        if (prefix == null || prefix.isEmpty() || !prefix.endsWith("/") || prefix.startsWith("/") || prefix.contains(".."))
            throw FdlException.usage("site prefix must be a relative key prefix ending in '/' (e.g. site/): '" + prefix + "'");
        if (indexKey == null || indexKey.isEmpty() || indexKey.endsWith("/") || indexKey.startsWith("/") || indexKey.contains(".."))
            throw FdlException.usage("site index must be a key such as index.html: '" + indexKey + "'");
        checkOutsideRepositoryKeys(prefix, indexKey, RepoLayout.DEFAULT_DATA_DIR);
        if (indexKey.startsWith(prefix))
            throw FdlException.usage("site index '" + indexKey + "' lies under the site prefix '" + prefix
                    + "', whose keys the site manages (stale pages there are removed); choose a key outside it (e.g. index.html)");
        if (pageSize < 1) throw FdlException.usage("site page size must be at least 1");
    }

    /**
     * Refuses a prefix or index among the repository's own keys ({@link RepoLayout#isRepositoryKey}):
     * the site would overwrite fdl.json, HEAD, a ref or a version.
     *
     * @throws FdlException (usage) naming the key
     */
    static void checkOutsideRepositoryKeys(String prefix, String indexKey, String dataDir) {
        if (RepoLayout.isRepositoryKey(prefix, dataDir))
            throw FdlException.usage("site prefix '" + prefix + "' would write into the repository's own keys; choose another (e.g. site/)");
        if (RepoLayout.isRepositoryKey(indexKey, dataDir))
            throw FdlException.usage("site index '" + indexKey + "' is one of the repository's own keys (fdl.json, HEAD, refs/, versions/, "
                    + dataDir + "); choose another (e.g. index.html)");
    }

    /** {@code site/}, {@code index.html}, 50 versions a log page. */
    public static SiteOptions defaults() {
        return new SiteOptions("site/", "index.html", 50);
    }

    /**
     * The options a repository records in fdl.json under {@value #CONFIG_KEY}
     * ({@code {"auto": true, "prefix": "site/", "index": "index.html"}}), else the defaults.
     */
    public static SiteOptions of(RepoConfig config) {
        JsonNode s = config.extra().get(CONFIG_KEY);
        SiteOptions d = defaults();
        if (s == null || !s.isObject()) return d;
        return new SiteOptions(s.path("prefix").asText(d.prefix()), s.path("index").asText(d.indexKey()), d.pageSize());
    }

    /** The key of the site's manifest ({@link Manifest}). */
    String manifestKey() {
        return prefix + Manifest.FILE;
    }

    /** The key of version {@code id}'s page. */
    String versionKey(String id) {
        return prefix + "versions/" + id + ".html";
    }

    /** The key of log page {@code page} (1-based). */
    String logKey(int page) {
        return prefix + "log/" + page + ".html";
    }
}
