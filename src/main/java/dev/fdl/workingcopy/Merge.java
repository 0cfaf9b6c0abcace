package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.ducklake.merge.MergeResult;
import dev.fdl.ducklake.merge.ThreeWayMerge;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.MergeBase;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefUpdate;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.repo.VersionInfo;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code fdl merge} on a working copy (docs/SPEC.md section 7): the merge base from {@link MergeBase},
 * the three-way merge from {@link ThreeWayMerge} (through {@link WorkingMerge}), and the working
 * copy's switch to the merged catalog. Its {@link MergeOutcome} is also what {@link MergeAbort},
 * {@link Pull}, {@link Revert} and {@link CommitPulling} report.
 *
 * <p>Crash safety: the merged catalog is written under a new file name and forced to disk; only
 * then does one atomic save of the state ({@link WorkingCopy#save}) name it, with the pending merge
 * (the other version, and the catalog file as it was, which {@code --abort} goes back to). A crash
 * before that save leaves the working copy as it was (a stray catalog file, deleted at the next
 * checkout); after it, merged. Conflicts write nothing.
 */
public final class Merge {
    /**
     * A merge of {@code spec} into the working copy.
     *
     * @param ffOnly  refuse unless the branch can fast-forward
     * @param noFf    record a merge even when it could fast-forward
     * @param message the next commit's default message (null: {@link #defaultMessage})
     */
    public record Request(String spec, boolean ffOnly, boolean noFf, MergeOptions options, String message) {}

    /** What merges read with: version catalogs, DuckDB, where remote data files are mirrored, progress. */
    public record Services(CatalogSource catalogs, DuckDbPool pool, Path dataCache, ProgressListener progress) {}

    /** What happened. */
    public enum Kind { UP_TO_DATE, FAST_FORWARD, MERGED, CONFLICTS, ABORTED, PULLED, REVERTED }

    /**
     * A merge's outcome.
     *
     * @param kind          what happened
     * @param other         the version merged in (the branch's new version for a pull, the parent for a revert)
     * @param base          the merge base used (null for up to date, fast-forward and abort)
     * @param baseAmbiguous several common ancestors were equally near; the newest by seq was used
     * @param merge         the engine's result (null where no three-way merge ran)
     * @param descriptionKept what of the description kept the working copy's value although {@code other}
     *                      changed it too ({@link Description#merge}): its keys, or {@code the file}
     */
    public record MergeOutcome(Kind kind, VersionInfo other, VersionInfo base, boolean baseAmbiguous, MergeResult merge,
                               List<String> descriptionKept) {
        public MergeOutcome {
            descriptionKept = List.copyOf(descriptionKept);
        }

        /** An outcome that left the description alone. */
        public MergeOutcome(Kind kind, VersionInfo other, VersionInfo base, boolean baseAmbiguous, MergeResult merge) {
            this(kind, other, base, baseAmbiguous, merge, List.of());
        }
    }

    private Merge() {}

    /**
     * Merges {@code request.spec()} into the working copy: up to date when the working copy's
     * version already reaches it; a fast-forward (the branch moved with {@code If-Match}, the
     * working copy checked out there) when the working copy's version is an ancestor of it and
     * nothing is pending, unless {@code noFf}; else the three-way merge written to the working
     * catalog as one snapshot, with the other version recorded as the next commit's second parent.
     *
     * @throws FdlException exit 1: a merge already pending, a detached working copy, no common history,
     *                      {@code ffOnly} and no fast-forward possible; exit 3: the branch moved (fast-forward);
     *                      exit 4: {@code spec} does not resolve or is expired
     */
    public static MergeOutcome merge(Repository repo, WorkingCopy wc, Request request, VersionInfo.Author author, Services s) {
        return merge(repo, wc, request, author, s, WorkingCopy.Steps.NONE);
    }

    /**
     * git's default merge message: {@code Merge branch 'side' into topic} (or {@code tag 'v1'}) when
     * the spec resolved to a branch or tag at its version, else {@code Merge version <id> (<its subject>)}.
     */
    static String defaultMessage(Resolved theirs, String into) {
        RefValue ref = theirs.ref();
        VersionInfo other = theirs.version();
        if (ref == null || !ref.versionId().equals(other.id()))
            return "Merge version " + other.id() + " (" + other.message().lines().findFirst().orElse("") + ")";
        return "Merge " + (ref.kind() == RefValue.Kind.BRANCH ? "branch '" : "tag '") + ref.name().name() + "'" + (into == null ? "" : " into " + into);
    }

    static MergeOutcome merge(Repository repo, WorkingCopy wc, Request request, VersionInfo.Author author, Services s, WorkingCopy.Steps steps) {
        WorkingCopy.State st = WorkingMerge.checked(repo, wc, "merge");
        Resolved theirs = repo.resolve(request.spec());
        VersionInfo other = theirs.version();
        String ours = st.baseVersion();
        if (ours != null && (ours.equals(other.id()) || HistoryWalk.reachable(List.of(ours), repo::readVersion, id -> false).contains(other.id())))
            return new MergeOutcome(Kind.UP_TO_DATE, other, null, false, null);
        boolean canFastForward = (ours == null || HistoryWalk.reachable(List.of(other.id()), repo::readVersion, id -> false).contains(ours))
                && Checkout.pendingSnapshots(wc) == 0;
        if (canFastForward && !request.noFf()) return fastForward(repo, wc, st, other, s);
        if (request.ffOnly())
            throw new FdlException("cannot fast-forward branch '" + st.branch() + "' to version " + other.id() + (canFastForward ? "" :
                    ": the histories diverged or the working copy has uncommitted snapshots") + "; merge without --ff-only");
        if (ours == null) throw new FdlException("branch '" + st.branch() + "' has no version yet to merge into; check out " + request.spec() + " instead");
        MergeBase base = MergeBase.of(repo, ours, other.id()).orElseThrow(() -> new FdlException("version " + other.id()
                + " shares no history with the working copy's version " + ours + "; nothing to merge from"));
        WorkingMerge.requireSettledTablesExist(request.options(), List.of(new WorkingMerge.At(wc.catalog(), null),
                new WorkingMerge.At(s.catalogs().versionCatalog(repo, other), other.ducklake().lastSnapshot()),
                new WorkingMerge.At(s.catalogs().versionCatalog(repo, base.version()), base.version().ducklake().lastSnapshot())));
        String message = request.message() != null && !request.message().isBlank() ? request.message()
                : defaultMessage(theirs, st.branch());
        WorkingMerge.Written w = WorkingMerge.write(repo, wc, new WorkingMerge.Job(new WorkingMerge.Sides(wc.catalog(), other, base.version()), request.options(), author, message), s, steps);
        if (w.result().conflicted()) return new MergeOutcome(Kind.CONFLICTS, other, base.version(), base.ambiguous(), w.result());
        wc.save(st.withCatalog(w.catalog(), new WorkingCopy.State.PendingMerge(other.id(), st.catalog(), message)), steps);
        steps.reached("state-switched");
        // the merged description is staged as the merged catalog is: the next commit publishes it
        List<String> kept = Description.mergeKeepingOriginal(repo, wc, base.version(), other);
        return new MergeOutcome(Kind.MERGED, other, base.version(), base.ambiguous(), w.result(), kept);
    }

    /**
     * Moves the branch to {@code other} and the working copy with it. The working copy's own edits
     * of the description go through, merged per key with {@code other}'s as a pull merges them
     * ({@link Description#merge}); a description it cannot carry (written before the branch had a
     * version) is refused before the branch moves, so nothing changes.
     */
    private static MergeOutcome fastForward(Repository repo, WorkingCopy wc, WorkingCopy.State st, VersionInfo other, Services s) {
        VersionInfo placedFrom = st.baseVersion() == null ? null : repo.readVersion(st.baseVersion()).orElse(null);
        byte[] mine = placedFrom == null ? null : Description.edited(wc, placedFrom);
        if (mine == null) Description.checkCanPlace(repo, wc, other);
        RefUpdate update = repo.updateRef(RefValue.Kind.BRANCH, new RefName(st.branch()));
        RefUpdate.Outcome o = st.refEtag() == null ? update.create(other.id()) : update.move(st.refEtag(), other.id());
        if (!o.result().changed())
            throw FdlException.conflict("cannot fast-forward branch '" + st.branch() + "': " + (o.message() != null ? o.message()
                    : "it moved since checkout") + "; nothing changed. Bring the working copy up to date with fdl pull, then merge again");
        Checkout.run(repo, s.catalogs(), wc, st.branch(), null, mine != null, s.progress());
        List<String> kept = mine == null ? List.of() : Description.merge(repo, wc, placedFrom, other, mine);
        return new MergeOutcome(Kind.FAST_FORWARD, other, null, false, null, kept);
    }
}
