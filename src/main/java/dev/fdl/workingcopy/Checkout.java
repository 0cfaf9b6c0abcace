package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.rewrite.DataPath;
import dev.fdl.ducklake.rewrite.FormatUpgrade;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.util.AtomicFile;
import dev.fdl.util.ShellQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code fdl checkout} (SPEC.md section 4): makes or switches a working copy. From an existing
 * version the catalog is downloaded (expired and unfinished versions are refused), its size and
 * sha256 checked against version.json, converted from DuckDB to SQLite, and its data_path set to
 * the repository's data folder. A branch with no version yet gets a new, empty catalog.
 */
public final class Checkout {
    /**
     * What was checked out. {@code version} is null for a fresh catalog; {@code branch} null when
     * detached; {@code discarded}: the uncommitted snapshots {@code --force} dropped (0 without).
     */
    public record CheckoutResult(WorkingCopy workingCopy, String branch, String version, boolean fresh, long baseSnapshot, long discarded) {}

    /**
     * What to check out.
     *
     * @param spec           a branch, tag or version; null for HEAD's branch
     * @param newBranch      with {@code -b}: create this branch (at commit) starting from {@code spec}
     * @param force          discard snapshots not yet committed when switching
     * @param ducklakeFormat the DuckLake format to move the working catalog to (null: keep the version's)
     */
    public record Request(String spec, String newBranch, boolean force, String ducklakeFormat) {}

    private Checkout() {}

    /**
     * Checks out {@code spec} into {@code wc}.
     *
     * @param catalogs  where version catalogs come from (the CLI passes the catalog cache)
     * @param spec      a branch, tag or version; null for HEAD's branch
     * @param newBranch with {@code -b}: create this branch (at commit) starting from {@code spec}
     * @param force     discard snapshots not yet committed when switching
     * @throws FdlException exit 1 when the working copy has uncommitted snapshots (without force) or the
     *                      catalog does not match version.json; exit 3 when {@code newBranch} exists; exit 4
     *                      when {@code spec} does not resolve
     */
    public static CheckoutResult run(Repository repo, CatalogSource catalogs, WorkingCopy wc, String spec, String newBranch, boolean force,
                             ProgressListener progress) {
        return run(repo, catalogs, wc, new Request(spec, newBranch, force, null), progress, WorkingCopy.Steps.NONE);
    }

    /**
     * {@link #run(Repository, CatalogSource, WorkingCopy, String, String, boolean, ProgressListener)},
     * then moving the working catalog to DuckLake format {@code request.ducklakeFormat()} (null: keep the
     * version's format), the explicit switch of a branch's format (SPEC.md section 4, checkout;
     * {@link FormatUpgrade}). Without {@code spec} and {@code newBranch} inside a working copy, the
     * working catalog is upgraded in place, keeping its uncommitted snapshots. The next commit
     * records the new format in version.json ({@code ducklake.format}).
     *
     * @throws FdlException exit 2 for a format fdl cannot write or a downgrade, before anything changes
     */
    public static CheckoutResult run(Repository repo, CatalogSource catalogs, WorkingCopy wc, Request request, ProgressListener progress) {
        return run(repo, catalogs, wc, request, progress, WorkingCopy.Steps.NONE);
    }

    /** {@link #run}, telling {@code steps} each step it reaches (crash tests stop at each). */
    static CheckoutResult run(Repository repo, CatalogSource catalogs, WorkingCopy wc, Request request, ProgressListener progress,
                      WorkingCopy.Steps steps) {
        String spec = request.spec(), newBranch = request.newBranch(), ducklakeFormat = request.ducklakeFormat();
        if (ducklakeFormat != null && !FormatUpgrade.targets().contains(ducklakeFormat))
            throw FdlException.usage("unknown DuckLake format '" + ducklakeFormat + "' for --ducklake-format: fdl writes "
                    + String.join(" or ", FormatUpgrade.targets()));
        if (ducklakeFormat != null && spec == null && newBranch == null && wc.exists()) {
            Commit.reconcile(repo, wc);
            FormatUpgrade.upgrade(wc.catalog(), ducklakeFormat); // one transaction: the old catalog or the upgraded one
            WorkingCopy.State st = wc.state();
            return new CheckoutResult(wc, st.branch(), st.baseVersion(), false, st.baseSnapshot(), 0);
        }
        return runChecked(repo, catalogs, wc, request, progress, steps);
    }

    private static CheckoutResult runChecked(Repository repo, CatalogSource catalogs, WorkingCopy wc, Request request, ProgressListener progress,
                                     WorkingCopy.Steps steps) {
        String spec = request.spec(), newBranch = request.newBranch(), ducklakeFormat = request.ducklakeFormat();
        boolean force = request.force();
        if (repo.store().readOnly())
            throw new FdlException("cannot check out from " + repo.root() + ": an HTTP(S) root is read-only and a working copy "
                    + "commits to its repository; check out the repository's folder or s3:// root (read with fdl query --repo "
                    + ShellQuote.word(repo.root()) + ")");
        if (wc.exists()) Commit.reconcile(repo, wc);
        if (newBranch != null && spec == null && wc.exists()) {
            CheckoutResult kept = keepOnNewBranch(repo, wc, new RefName(newBranch), steps);
            if (ducklakeFormat != null) FormatUpgrade.upgrade(wc.catalog(), ducklakeFormat);
            return kept;
        }
        long pending = wc.exists() ? pendingSnapshots(wc) : 0;
        if (!force) {
            if (pending > 0)
                throw new FdlException("the working copy has " + pending + " snapshot(s) not yet committed; "
                        + "commit them (fdl commit -m \"...\") or discard them with fdl checkout --force"
                        + (newBranch == null ? "" : " -b " + ShellQuote.word(newBranch)) + (spec == null ? "" : " " + ShellQuote.word(spec)));
        }
        String branch;
        String etag = null;
        Resolved base = null;
        if (newBranch != null) {
            RefName nb = new RefName(newBranch);
            if (repo.readBranch(nb).isPresent())
                throw FdlException.conflict("branch '" + nb + "' already exists; check it out with fdl checkout " + ShellQuote.word(nb));
            repo.refuseAmbiguous(RefValue.Kind.BRANCH, nb);
            branch = nb.name();
            String start = spec;
            if (start == null && wc.exists() && wc.state().baseVersion() != null) start = wc.state().baseVersion();
            if (start == null) {
                Optional<RefValue> head = repo.readBranch(repo.headBranch());
                if (head.isPresent()) start = head.get().versionId();
            }
            if (start != null) base = repo.resolve(start);
        } else {
            RefName headBranch = repo.headBranch();
            String name = spec == null ? headBranch.name() : spec.startsWith(RepoLayout.BRANCHES) ? spec.substring(RepoLayout.BRANCHES.length()) : spec;
            Optional<RefValue> ref = RefName.problem(name) == null ? repo.readBranch(new RefName(name)) : Optional.empty();
            if (ref.isPresent()) {
                branch = name;
                etag = ref.get().etag();
                base = repo.resolve(RepoLayout.BRANCHES + name);
                if (!base.version().id().equals(ref.get().versionId())) etag = base.ref().etag(); // moved between reads
            } else if (name.equals(headBranch.name())) {
                branch = name; // HEAD's branch with no version yet: a fresh catalog
            } else {
                try {
                    base = repo.resolve(spec);
                } catch (FdlException e) {
                    if (e.kind() == FdlException.Kind.NOT_FOUND && RefName.problem(name) == null && !e.getMessage().contains("expired"))
                        throw FdlException.notFound("no branch, tag or version named '" + spec + "'; to start a new branch: fdl checkout -b " + ShellQuote.word(spec));
                    throw e;
                }
                branch = null; // a tag or version: detached
            }
        }

        if (base != null && !force) Description.checkCanPlace(repo, wc, base.version());
        byte[] description = base == null ? null : Description.read(repo, base.version()); // checked before anything changes
        return switchTo(repo, catalogs, wc, new Target(branch, etag, base, description, pending), ducklakeFormat, progress, steps);
    }

    /**
     * What a checkout switches to: the branch (null: detached) and the ETag its ref was read at
     * (null: no ref yet), the version (null: a fresh catalog) and its description's bytes (null: none);
     * {@code discarded}: the working copy's uncommitted snapshots the switch drops.
     */
    private record Target(String branch, String refEtag, Resolved base, byte[] description, long discarded) {}

    /**
     * Writes the new working catalog under a new file name (it is not current yet), forces it to
     * disk, then saves the state naming it: that one rename switches catalog and state together
     * (WorkingCopy). Only then is the old catalog deleted. A failure or crash at any step leaves
     * the old working copy whole, or the new one.
     */
    private static CheckoutResult switchTo(Repository repo, CatalogSource catalogs, WorkingCopy wc, Target target, String ducklakeFormat,
                                   ProgressListener progress, WorkingCopy.Steps steps) {
        Resolved base = target.base();
        byte[] description = target.description();
        String name = WorkingCopy.newCatalogName();
        Path catalog = wc.catalogFile(name);
        long baseSnapshot;
        try {
            Files.createDirectories(catalog.getParent());
            if (base == null) {
                EmptyCatalog.create(catalog, CatalogKind.SQLITE, repo.dataLocation());
                steps.reached("catalog-written");
                baseSnapshot = 0;
            } else {
                Path downloaded = catalogs.versionCatalog(repo, base.version()); // size and sha256 checked
                CatalogConverter.convert(downloaded, catalog, CatalogKind.SQLITE, progress);
                steps.reached("catalog-written");
                DataPath.set(catalog, repo.dataLocation());
                steps.reached("data-path-set");
                try (CatalogInspector c = CatalogInspector.open(catalog)) {
                    baseSnapshot = c.lastSnapshotId();
                }
            }
            if (ducklakeFormat != null) FormatUpgrade.upgrade(catalog, ducklakeFormat); // a downgrade fails here: nothing is current yet
            AtomicFile.sync(catalog);
            AtomicFile.syncDirectory(catalog.getParent());
            steps.reached("catalog-synced");
        } catch (IOException e) {
            AtomicFile.deleteQuietly(catalog);
            throw new FdlException("cannot write the working catalog " + catalog + ": " + e.getMessage());
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(catalog); // never current: the state still names the old catalog
            throw e;
        }
        if (description != null) Description.place(wc, description);
        String baseId = base == null ? null : base.version().id();
        wc.save(new WorkingCopy.State(repo.root(), repo.config().id(), target.branch(), baseId, target.refEtag(), baseSnapshot,
                name, Map.of()), steps);
        steps.reached("state-switched");
        wc.deleteOtherCatalogs();
        steps.reached("old-catalog-deleted");
        return new CheckoutResult(wc, target.branch(), baseId, base == null, baseSnapshot, target.discarded());
    }

    /**
     * {@code checkout -b <new>} inside a working copy, as git does: the working catalog and its
     * uncommitted snapshots stay; the next commit creates the new branch (If-None-Match: *)
     * with the current base as parent. The way to keep work after a conflict.
     */
    private static CheckoutResult keepOnNewBranch(Repository repo, WorkingCopy wc, RefName branch, WorkingCopy.Steps steps) {
        if (repo.readBranch(branch).isPresent())
            throw FdlException.conflict("branch '" + branch + "' already exists; check it out with fdl checkout " + ShellQuote.word(branch));
        repo.refuseAmbiguous(RefValue.Kind.BRANCH, branch);
        WorkingCopy.State st = wc.state();
        wc.save(new WorkingCopy.State(st.root(), st.repositoryId(), branch.name(), st.baseVersion(), null, st.baseSnapshot(),
                st.catalog(), st.extra()), steps);
        steps.reached("state-switched");
        return new CheckoutResult(wc, branch.name(), st.baseVersion(), false, st.baseSnapshot(), 0);
    }

    /** Snapshots in the working catalog newer than its base. */
    public static long pendingSnapshots(WorkingCopy wc) {
        try (CatalogInspector c = CatalogInspector.open(wc.catalog())) {
            return Math.max(0, c.lastSnapshotId() - wc.state().baseSnapshot());
        }
    }
}
