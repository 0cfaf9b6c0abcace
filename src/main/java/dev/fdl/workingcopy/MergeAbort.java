package dev.fdl.workingcopy;

import dev.fdl.FdlException;

/** {@code fdl merge --abort}: the working copy as it was before the pending merge (docs/SPEC.md section 7). */
public final class MergeAbort {
    private MergeAbort() {}

    /**
     * {@code fdl merge --abort}: the working catalog as it was before the pending merge, in one
     * atomic save of the state; the merged catalog file is deleted afterwards, and the description
     * put back as it was.
     *
     * @throws FdlException exit 1 when no merge is pending
     */
    public static Merge.MergeOutcome abort(WorkingCopy wc) {
        WorkingCopy.State st = wc.state();
        WorkingCopy.State.PendingMerge m = st.merging();
        if (m == null) throw new FdlException("no merge is pending in " + wc.dir() + "; nothing to abort");
        wc.save(st.withCatalog(m.previousCatalog(), null));
        wc.deleteOtherCatalogs();
        Description.restoreBeforeMerge(wc);
        return new Merge.MergeOutcome(Merge.Kind.ABORTED, null, null, false, null);
    }
}
