package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

import java.util.Optional;

/** {@code fdl commit --pull}: a commit refused because the branch moved, retried after a {@link Pull}. */
public final class CommitPulling {
    private CommitPulling() {}

    /**
     * {@code fdl commit --pull}: runs {@code commit}; when the branch moved since checkout (a refused
     * step 9, exit 3) and a {@link Pull#pull} merges without conflicts, commits again, at most
     * {@code attempts} times in all (for scheduled jobs writing into one branch). Each pull's result
     * goes to {@code pulled} before the next attempt.
     *
     * @throws FdlException the commit's own failure; exit 1 when the pull meets conflicts (nothing
     *                      written; {@code fdl pull} lists them); exit 3 when the branch kept moving
     */
    public static Commit.CommitResult run(Repository repo, WorkingCopy wc, java.util.function.Supplier<Commit.CommitResult> commit,
                                       VersionInfo.Author author, Merge.Services s, int attempts,
                                       java.util.function.Consumer<Merge.MergeOutcome> pulled) {
        for (int attempt = 1; ; attempt++) {
            try {
                return commit.get();
            } catch (FdlException e) {
                if (e.kind() != FdlException.Kind.CONFLICT || attempt >= attempts) throw e;
                WorkingCopy.State st = wc.state();
                Optional<RefValue> ref = st.branch() == null ? Optional.empty() : repo.readBranch(new RefName(st.branch()));
                if (ref.isEmpty() || ref.get().etag().equals(st.refEtag())) throw e; // not a branch that moved
                Merge.MergeOutcome r = Pull.pull(repo, wc, MergeOptions.NONE, author, s);
                if (r.kind() == Merge.Kind.CONFLICTS)
                    throw new FdlException(FdlException.Kind.FAILURE, "branch '" + st.branch() + "' moved to version " + r.other().id() + ", whose changes conflict "
                            + "with the working copy's in " + r.merge().conflicts().size() + " table(s); nothing was committed. See them with "
                            + "fdl pull, settle them (--strategy, --ours, --theirs) and commit again", e);
                pulled.accept(r);
            }
        }
    }
}
