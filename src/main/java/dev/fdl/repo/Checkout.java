package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.ducklake.Catalog;
import dev.fdl.ducklake.CatalogConverter;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.Catalogs;
import dev.fdl.ducklake.DataPath;
import dev.fdl.ducklake.ProgressListener;

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
    /** What was checked out. {@code version} is null for a fresh catalog; {@code branch} null when detached. */
    public record Result(WorkingCopy workingCopy, String branch, String version, boolean fresh, long baseSnapshot) {}

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
    public static Result run(Repository repo, CatalogSource catalogs, WorkingCopy wc, String spec, String newBranch, boolean force,
                             ProgressListener progress) {
        if (repo.store().readOnly())
            throw new FdlException("cannot check out from " + repo.root() + ": an HTTP(S) root is read-only and a working copy "
                    + "commits to its repository; check out the repository's folder or s3:// root (read with fdl query --repo "
                    + repo.root() + ")");
        if (wc.exists()) Commit.reconcile(repo, wc);
        if (newBranch != null && spec == null && wc.exists()) return keepOnNewBranch(repo, wc, new RefName(newBranch));
        if (wc.exists() && !force) {
            long pending = pendingSnapshots(wc);
            if (pending > 0)
                throw new FdlException("the working copy has " + pending + " snapshot(s) not yet committed; "
                        + "commit them (fdl commit -m ...) or discard them with fdl checkout --force");
        }
        String branch;
        String etag = null;
        Resolved base = null;
        if (newBranch != null) {
            RefName nb = new RefName(newBranch);
            if (repo.readBranch(nb).isPresent())
                throw FdlException.conflict("branch '" + nb + "' already exists; check it out with fdl checkout " + nb);
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
            String name = spec == null ? headBranch.name() : spec.startsWith("refs/heads/") ? spec.substring(11) : spec;
            Optional<RefValue> ref = RefName.problem(name) == null ? repo.readBranch(new RefName(name)) : Optional.empty();
            if (ref.isPresent()) {
                branch = name;
                etag = ref.get().etag();
                base = repo.resolve("refs/heads/" + name);
                if (!base.version().id().equals(ref.get().versionId())) etag = base.ref().etag(); // moved between reads
            } else if (name.equals(headBranch.name())) {
                branch = name; // HEAD's branch with no version yet: a fresh catalog
            } else {
                try {
                    base = repo.resolve(spec);
                } catch (FdlException e) {
                    if (e.kind() == FdlException.Kind.NOT_FOUND && RefName.problem(name) == null && !e.getMessage().contains("expired"))
                        throw FdlException.notFound("no branch, tag or version named '" + spec + "'; to start a new branch: fdl checkout -b " + spec);
                    throw e;
                }
                branch = null; // a tag or version: detached
            }
        }

        if (base != null && !force) Description.checkCanPlace(repo, wc, base.version());
        byte[] description = base == null ? null : Description.read(repo, base.version()); // checked before anything changes
        long baseSnapshot;
        try {
            Files.createDirectories(wc.catalog().getParent());
            if (base == null) {
                Path tmp = wc.tmp().resolve("fresh.sqlite");
                Files.deleteIfExists(tmp);
                Catalogs.create(tmp, CatalogKind.SQLITE, repo.dataLocation());
                Files.move(tmp, wc.catalog(), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                baseSnapshot = 0;
            } else {
                Path downloaded = catalogs.versionCatalog(repo, base.version()); // size and sha256 checked
                CatalogConverter.convert(downloaded, wc.catalog(), CatalogKind.SQLITE, progress);
                DataPath.set(wc.catalog(), repo.dataLocation());
                try (Catalog c = Catalog.open(wc.catalog())) {
                    baseSnapshot = c.lastSnapshotId();
                }
            }
        } catch (IOException e) {
            throw new FdlException("cannot write the working catalog " + wc.catalog() + ": " + e.getMessage());
        }
        if (description != null) Description.place(wc, description);
        String baseId = base == null ? null : base.version().id();
        wc.save(new WorkingCopy.State(repo.root(), repo.config().id(), branch, baseId, etag, baseSnapshot, Map.of()));
        return new Result(wc, branch, baseId, base == null, baseSnapshot);
    }

    /**
     * {@code checkout -b <new>} inside a working copy, as git does: the working catalog and its
     * uncommitted snapshots stay; the next commit creates the new branch (If-None-Match: *)
     * with the current base as parent. The way to keep work after a conflict.
     */
    private static Result keepOnNewBranch(Repository repo, WorkingCopy wc, RefName branch) {
        if (repo.readBranch(branch).isPresent())
            throw FdlException.conflict("branch '" + branch + "' already exists; check it out with fdl checkout " + branch);
        WorkingCopy.State st = wc.state();
        wc.save(new WorkingCopy.State(st.root(), st.repositoryId(), branch.name(), st.baseVersion(), null, st.baseSnapshot(), st.extra()));
        return new Result(wc, branch.name(), st.baseVersion(), false, st.baseSnapshot());
    }

    /** Snapshots in the working catalog newer than its base. */
    public static long pendingSnapshots(WorkingCopy wc) {
        try (Catalog c = Catalog.open(wc.catalog())) {
            return Math.max(0, c.lastSnapshotId() - wc.state().baseSnapshot());
        }
    }
}
