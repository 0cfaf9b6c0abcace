package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.RevisionResolver;
import dev.fdl.workingcopy.WorkingCopy;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a reading command (log, show, query, attach, diff) reads when no ref is given, as
 * {@code git log} follows the checked-out branch: inside a working copy of the same repository
 * its branch (its base version while the branch has no commit yet, or when detached); outside
 * one, HEAD. {@code @{<date>}} alone is applied to the same default, and inside a working copy a
 * ref starting with {@code HEAD} means what is checked out ({@code HEAD~1}: its branch's parent).
 * Which specs name HEAD, and where their suffixes start, is {@link RevisionResolver}'s rule.
 *
 * @param spec        what to resolve (a ref, {@code HEAD} or a version id)
 * @param description what that is, for the first line of human output
 */
record DefaultRef(String spec, String description) {
    /**
     * The default for {@code repo}, seen from the folder {@code here} (the run's, {@link CommandContext#cwd()}).
     *
     * @throws FdlException exit 4 when the working copy's branch has no version yet and no base
     */
    static DefaultRef of(Path here, Repository repo) {
        Optional<WorkingCopy> wc = WorkingCopy.find(here);
        if (wc.isPresent()) {
            WorkingCopy.State st = wc.get().state();
            if (st.belongsTo(repo)) {
                if (st.branch() != null && repo.readBranch(new RefName(st.branch())).isPresent())
                    return new DefaultRef(RepoLayout.BRANCHES + st.branch(), "branch '" + st.branch() + "' (the working copy's branch)");
                if (st.baseVersion() != null)
                    return new DefaultRef(st.baseVersion(), "version " + st.baseVersion() + (st.branch() == null
                            ? " (the working copy's base, detached)"
                            : " (the working copy's base: its branch '" + st.branch() + "' has no version yet)"));
                throw FdlException.notFound("branch '" + st.branch() + "' (the working copy's branch) has no version yet: "
                        + "commit first, or name a ref (e.g. HEAD)");
            }
        }
        return new DefaultRef("HEAD", "HEAD (branch '" + repo.headBranch() + "')");
    }

    /**
     * The branch {@code HEAD ->} decorates, as git's decoration follows the checked-out branch:
     * inside a working copy of {@code repo} on a branch, that branch; otherwise (outside one, or
     * detached) the repository's HEAD.
     */
    static RefName checkedOutBranch(Path here, Repository repo) {
        return checkedOut(here, repo).branch();
    }

    /**
     * What {@code fdl branch} and {@code fdl refs} mark as checked out, seen from the folder {@code here}.
     *
     * @param branch        the branch {@code *} marks ({@link #checkedOutBranch})
     * @param newBranchFrom when {@code branch} is a working copy's branch that its first commit
     *                      creates ({@link WorkingCopy.State#commitCreatesBranch}) and it starts
     *                      from a version (git's {@code checkout -b} from a commit), that version;
     *                      null otherwise, and for an empty repository's first branch, which git's
     *                      {@code branch} lists no more than an unborn one
     */
    record CheckedOut(RefName branch, String newBranchFrom) {
        /** The branch its first commit creates, as a ref at its start version, when {@code refs} (just listed) lack it; else empty. */
        Optional<RefValue> toCreate(java.util.List<RefValue> refs) {
            if (newBranchFrom == null || refs.stream().anyMatch(r -> r.kind() == RefValue.Kind.BRANCH && r.name().equals(branch)))
                return Optional.empty();
            return Optional.of(new RefValue(RefValue.Kind.BRANCH, branch, newBranchFrom, (String) null));
        }
    }

    /** {@link CheckedOut} for {@code repo} seen from the folder {@code here}. */
    static CheckedOut checkedOut(Path here, Repository repo) {
        Optional<WorkingCopy> wc = WorkingCopy.find(here);
        if (wc.isPresent()) {
            WorkingCopy.State st = wc.get().state();
            if (st.belongsTo(repo) && st.branch() != null)
                return new CheckedOut(new RefName(st.branch()), st.commitCreatesBranch(false) ? st.baseVersion() : null);
        }
        return new CheckedOut(repo.headBranch(), null);
    }

    /**
     * What to resolve for the argument {@code given}: the default when null, the default with the
     * date suffix for {@code @{<date>}} alone, else {@code given} itself.
     *
     * @return the spec, and the line to print first (null when the user named the ref)
     */
    static DefaultRef forArgument(Path here, Repository repo, String given, PrintWriter err) {
        if (given != null && !RevisionResolver.isDateAlone(given)) {
            warnIfAmbiguous(repo, given, err);
            String rest = RevisionResolver.afterHead(given);
            if (rest == null) return new DefaultRef(given, null);
            DefaultRef d = of(here, repo);
            if (RevisionResolver.isHead(d.spec())) return new DefaultRef(given, null);
            return new DefaultRef(d.spec() + rest, "HEAD" + rest + ": " + d.description() + rest);
        }
        DefaultRef d = of(here, repo);
        if (given == null) return d;
        return new DefaultRef(d.spec() + given, d.description() + " " + given);
    }

    /**
     * {@code spec} as seen from the folder {@code here}: inside a working copy of {@code repo}, a
     * leading {@code HEAD} means what is checked out (its branch, or its base version), as in
     * git; elsewhere HEAD is the repository's default branch. Any other spec is returned as given.
     *
     * @throws FdlException exit 4 when HEAD is the working copy's branch and it has no version yet
     */
    static String resolveHead(Path here, Repository repo, String spec, PrintWriter err) {
        return spec == null ? null : forArgument(here, repo, spec, err).spec();
    }

    /**
     * Warns on {@code err}, as git's "refname is ambiguous", when the bare name {@code spec} starts
     * with is a ref and also a prefix of another version's id: the ref wins, as in git.
     */
    static void warnIfAmbiguous(Repository repo, String spec, PrintWriter err) {
        // only a name of hex characters can also start a version id: any other name costs no ref read
        // here (this runs for every ref argument, before the resolution reads the ref itself)
        String base = RevisionResolver.baseName(spec);
        if (base == null || !dev.fdl.util.VersionIds.isPrefix(base)) return;
        Optional<RefValue> ref = repo.bareRef(spec);
        if (ref.isPresent()) warnIfAmbiguous(repo, ref.get().name(), ref.get().versionId(), err);
    }

    /** {@link #warnIfAmbiguous(Repository, String, PrintWriter)} for the ref {@code name} at {@code versionId} (null: none yet), e.g. one just created. */
    static void warnIfAmbiguous(Repository repo, RefName name, String versionId, PrintWriter err) {
        Optional<String> hidden = repo.versionHiddenBy(name, versionId);
        if (hidden.isEmpty()) return;
        err.println("warning: refname '" + name + "' is ambiguous. '" + name + "' means the ref; version " + hidden.get()
                + " starts with it too: name that version by more characters.");
        err.flush();
    }

    /**
     * How a first line names the version {@code r} resolved to after {@code version <id>}: this
     * default's description, or the ref or expression the user gave ({@code  (v1)},
     * {@code  (main~2)}); for a version named by its id (or a prefix of it), the refs at it as
     * {@code fdl log} decorates it ({@code  (HEAD -> main, tag: v1)}, nothing when none), never
     * the id a second time.
     */
    String label(Path here, Repository repo, dev.fdl.repo.Resolved r, PrintWriter err) {
        if (description != null) return " (" + description + ")";
        if (!r.version().id().startsWith(r.spec())) return " (" + r.spec() + ")";
        java.util.Map<String, java.util.List<RefValue>> refs = repo.refsByVersion(RefsCommand.warnBroken(err));
        return LogCommand.decoration(refs.getOrDefault(r.version().id(), java.util.List.of()), checkedOutBranch(here, repo));
    }
}
