package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

/** {@code fdl revert} (docs/SPEC.md section 7): one snapshot undoing a version's changes, a three-way merge into the working catalog. */
public final class Revert {
    private Revert() {}

    /**
     * {@code fdl revert <version>}: one new snapshot undoing that version's changes, a three-way
     * merge into the working catalog whose base is the version and whose other side is its first parent.
     * The state notes the revert ({@link WorkingCopy.State#reverting}: the next commit's change guards
     * also compare against that parent) and proposes its message for the next commit.
     *
     * @throws FdlException exit 1: a version without parents (nothing to undo to), a merge pending,
     *                      conflicts (reported in the result, nothing written); exit 4: no such version
     */
    public static Merge.MergeOutcome revert(Repository repo, WorkingCopy wc, String spec, String message, VersionInfo.Author author, Merge.Services s) {
        WorkingCopy.State st = WorkingMerge.checked(repo, wc, "revert");
        VersionInfo v = repo.resolve(spec).version();
        if (v.parents().isEmpty()) throw new FdlException("version " + v.id() + " is the first of its history: there is no earlier state to revert to");
        VersionInfo parent = repo.resolve(v.parents().get(0)).version();
        String msg = message != null && !message.isBlank() ? message
                : "Revert version " + v.id() + " (" + v.message().lines().findFirst().orElse("") + ")";
        WorkingMerge.Written w = WorkingMerge.write(repo, wc, new WorkingMerge.Job(new WorkingMerge.Sides(wc.catalog(), parent, v), MergeOptions.NONE, author, msg), s, WorkingCopy.Steps.NONE);
        if (w.result().conflicted()) return new Merge.MergeOutcome(Merge.Kind.CONFLICTS, parent, v, false, w.result());
        wc.save(st.withCatalog(w.catalog(), st.merging()).withReverting(new WorkingCopy.State.Reverting(v.id(), parent.id()), msg));
        wc.deleteOtherCatalogs();
        return new Merge.MergeOutcome(Merge.Kind.REVERTED, parent, v, false, w.result());
    }
}
