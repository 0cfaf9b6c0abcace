package dev.fdl.cli;

import dev.fdl.repo.Repository;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;

import java.io.PrintWriter;

/**
 * Keeps the repository's site in step after a command changed what it shows (commit, expire,
 * gc deleting versions, tag and branch creating or deleting a ref): regenerated when asked or when fdl.json's {@code site.auto} is on
 * (docs/site.md), else one line on stderr when a site exists and is now stale. The Iceberg history
 * (docs/iceberg.md, "History"), derived from the same versions and refs, is rewritten first.
 */
final class SiteUpkeep {
    private SiteUpkeep() {}

    /** The line printed when a site exists, is not regenerated automatically, and no longer matches the repository. */
    static final String STALE = "fdl: the site is now stale: run fdl site";

    /**
     * Regenerates the site when {@code asked} or {@code site.auto}; a failure is a warning on
     * {@code err} (what was done stands, only the derived site is behind). Without either, prints
     * {@link #STALE} on {@code err} when the repository has a site.
     *
     * @param context the run's context, whose catalog cache the site's change figures read
     * @param done what the command did, for the warning ({@code version X was committed})
     * @param onlyAdded true when the command only added versions or changed refs (commit, tag, branch):
     *        the Iceberg history is then updated from the one before when it can be, not rebuilt whole
     * @return what the site write did, or null when it did not run or failed
     */
    static Site.SiteResult afterChange(Repository repo, CommandContext context, boolean asked, String done, boolean onlyAdded, PrintWriter err) {
        String icebergWarning = dev.fdl.iceberg.IcebergHistory.afterChange(repo, done, onlyAdded);
        if (icebergWarning != null) {
            err.println(icebergWarning);
            err.flush();
        }
        SiteOptions options = SiteOptions.of(repo.config());
        if (asked || Site.autoUpdate(repo.config())) {
            try {
                return Site.write(repo, options, context.cache(), context.duckDb());
            } catch (RuntimeException e) {
                err.println("fdl: warning: " + done + ", but the site could not be written (" + e.getMessage() + "); run fdl site");
                err.flush();
                return null;
            }
        }
        if (Site.exists(repo, options)) {
            err.println(STALE);
            err.flush();
        }
        return null;
    }

    /** The line commands print after their own report: {@code  site: 3 of 12 pages written}. */
    static String summary(Site.SiteResult r) {
        return " site: " + r.written() + " of " + r.pages() + " pages written";
    }
}
