package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.working.CatalogMatch;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code fdl restore <version>} (docs/retention.md, "Restoring an old version"): one new
 * snapshot in the working catalog at which its tables are those of an old version
 * ({@link CatalogMatch}: no data file is copied, the snapshot names the old files), so that the
 * next commit publishes the old content as a new version of the branch. The working copy's state
 * remembers the restored version; commit's message names it.
 */
public final class Restore {
    /** What was restored: the version, the new snapshot, its DuckLake changes and the message the next commit gets by default. */
    public record RestoreResult(VersionInfo version, long snapshot, java.util.List<String> changes, String message) {}

    private Restore() {}

    /**
     * Restores {@code spec} (a ref, version id or unique prefix) into {@code wc}.
     *
     * @param catalogs where version catalogs come from (the CLI passes the catalog cache)
     * @param message the snapshot's message and the next commit's default; null for
     *                {@code Restore version <id> (<created_at>: <its message's first line>)}
     * @throws FdlException exit 4 for an expired version (naming it and its expiry date) or one
     *                      that does not resolve; exit 1 when the working copy belongs to another
     *                      repository, the catalog does not match version.json, the working
     *                      catalog already shows that version's tables, or a catalog feature restore
     *                      does not handle is in use (the working catalog is then unchanged)
     */
    public static RestoreResult run(Repository repo, CatalogSource catalogs, WorkingCopy wc, String spec, String message, VersionInfo.Author author,
                             ProgressListener progress) {
        Commit.reconcile(repo, wc);
        WorkingCopy.State state = wc.state();
        state.requireBelongsTo(repo);
        VersionInfo v = repo.resolve(spec).version(); // refuses an expired version, naming it
        String msg = message != null && !message.isBlank() ? message
                : "Restore version " + v.id() + " (" + v.createdAt() + ": " + v.message().lines().findFirst().orElse("") + ")";
        Path source = wc.tmp().resolve("restore-" + v.id() + ".sqlite");
        try {
            Files.deleteIfExists(source);
            CatalogConverter.convert(catalogs.versionCatalog(repo, v), source, CatalogKind.SQLITE, progress); // size and sha256 checked
            CatalogMatch.MatchResult r = CatalogMatch.run(CatalogMatch.Request.restore(wc.catalog(), source, v.ducklake().snapshotId(), author.toString(), msg));
            wc.save(state.withRestored(v.id(), msg));
            return new RestoreResult(v, r.snapshot(), r.changes(), msg);
        } catch (IOException e) {
            throw new FdlException("cannot write " + source + ": " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(source);
            } catch (IOException ignored) {
                // a leftover scratch file in .fdl/tmp is harmless
            }
        }
    }
}
