package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.ducklake.load.DataFileDigests;
import dev.fdl.ducklake.merge.MergeRequest;
import dev.fdl.ducklake.merge.MergeResult;
import dev.fdl.ducklake.merge.ThreeWayMerge;
import dev.fdl.ducklake.rewrite.DataPath;
import dev.fdl.util.AtomicFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code fdl merge}, {@code fdl merge --abort}, {@code fdl pull} and {@code fdl revert} on a
 * working copy (docs/SPEC.md section 7): the merge base from {@link HistoryWalk}, the three-way
 * merge from {@link ThreeWayMerge}, and the working copy's switch to the merged catalog.
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
     * @param message the next commit's default message (null: {@code Merge version <id> (<its message>)})
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
     */
    public record Result(Kind kind, VersionInfo other, VersionInfo base, boolean baseAmbiguous, MergeResult merge) {}

    /** The nearest common ancestor of two versions, following every parent; {@code ambiguous} when another was as near. */
    public record Base(VersionInfo version, boolean ambiguous) {}

    private Merge() {}

    /**
     * The merge base of {@code a} and {@code b}: of the versions both reach through every parent,
     * the one with the largest {@code seq} (no other common ancestor can descend from it), and
     * whether another common ancestor has the same {@code seq}. Empty when they share no history.
     */
    public static Optional<Base> base(Repository repo, String a, String b) {
        Set<String> ours = HistoryWalk.reachable(List.of(a), repo::readVersion, id -> false);
        HistoryWalk walk = HistoryWalk.over(repo.versions(), HistoryWalk.Parents.ALL);
        walk.start(b);
        while (walk.peek() != null) {
            VersionInfo v = walk.take();
            if (!ours.contains(v.id())) continue;
            boolean ambiguous = false;
            while (walk.peek() != null && walk.peek().seq() == v.seq()) {
                if (ours.contains(walk.take().id())) ambiguous = true;
            }
            return Optional.of(new Base(v, ambiguous));
        }
        return Optional.empty();
    }

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
    public static Result merge(Repository repo, WorkingCopy wc, Request request, VersionInfo.Author author, Services s) {
        return merge(repo, wc, request, author, s, WorkingCopy.Steps.NONE);
    }

    static Result merge(Repository repo, WorkingCopy wc, Request request, VersionInfo.Author author, Services s, WorkingCopy.Steps steps) {
        WorkingCopy.State st = checked(repo, wc, "merge");
        VersionInfo other = repo.resolve(request.spec()).version();
        String ours = st.baseVersion();
        if (ours != null && (ours.equals(other.id()) || HistoryWalk.reachable(List.of(ours), repo::readVersion, id -> false).contains(other.id())))
            return new Result(Kind.UP_TO_DATE, other, null, false, null);
        boolean canFastForward = (ours == null || HistoryWalk.reachable(List.of(other.id()), repo::readVersion, id -> false).contains(ours))
                && Checkout.pendingSnapshots(wc) == 0;
        if (canFastForward && !request.noFf()) return fastForward(repo, wc, st, other, s);
        if (request.ffOnly())
            throw new FdlException("cannot fast-forward branch '" + st.branch() + "' to version " + other.id() + (canFastForward ? "" :
                    ": the histories diverged or the working copy has uncommitted snapshots") + "; merge without --ff-only");
        if (ours == null) throw new FdlException("branch '" + st.branch() + "' has no version yet to merge into; check out " + request.spec() + " instead");
        Base base = base(repo, ours, other.id()).orElseThrow(() -> new FdlException("version " + other.id()
                + " shares no history with the working copy's version " + ours + "; nothing to merge from"));
        requireSettledTablesExist(request.options(), List.of(new At(wc.catalog(), null),
                new At(s.catalogs().versionCatalog(repo, other), other.ducklake().lastSnapshot()),
                new At(s.catalogs().versionCatalog(repo, base.version()), base.version().ducklake().lastSnapshot())));
        String message = request.message() != null && !request.message().isBlank() ? request.message()
                : "Merge version " + other.id() + " (" + other.message().lines().findFirst().orElse("") + ")";
        Written w = write(repo, wc, new Job(new Sides(wc.catalog(), other, base.version()), request.options(), author, message), s, steps);
        if (w.result().conflicted()) return new Result(Kind.CONFLICTS, other, base.version(), base.ambiguous(), w.result());
        wc.save(st.withCatalog(w.catalog(), new WorkingCopy.State.PendingMerge(other.id(), st.catalog(), message)), steps);
        steps.reached("state-switched");
        return new Result(Kind.MERGED, other, base.version(), base.ambiguous(), w.result());
    }

    /**
     * {@code fdl merge --abort}: the working catalog as it was before the pending merge, in one
     * atomic save of the state; the merged catalog file is deleted afterwards.
     *
     * @throws FdlException exit 1 when no merge is pending
     */
    public static Result abort(WorkingCopy wc) {
        WorkingCopy.State st = wc.state();
        WorkingCopy.State.PendingMerge m = st.merging();
        if (m == null) throw new FdlException("no merge is pending in " + wc.dir() + "; nothing to abort");
        wc.save(st.withCatalog(m.previousCatalog(), null));
        wc.deleteOtherCatalogs();
        return new Result(Kind.ABORTED, null, null, false, null);
    }

    /**
     * {@code fdl pull}: the branch moved since checkout; its new version becomes the working copy's
     * base, with the working copy's pending snapshots replayed on top of it, as a rebase does: each
     * pending snapshot's change (from the snapshot before it) is merged three-way onto the result
     * so far as one snapshot with that snapshot's author and message, oldest first (the next commit
     * has the branch's version as its single parent). The first step with conflicts stops the pull
     * and nothing is written. Without pending snapshots it checks the
     * branch out. {@code options} speak of the working copy as ours, the branch as theirs.
     *
     * @throws FdlException exit 1: a merge pending, detached, no common history; exit 4: the branch is gone
     */
    public static Result pull(Repository repo, WorkingCopy wc, MergeOptions options, VersionInfo.Author author, Services s) {
        return pull(repo, wc, options, author, s, WorkingCopy.Steps.NONE);
    }

    static Result pull(Repository repo, WorkingCopy wc, MergeOptions options, VersionInfo.Author author, Services s, WorkingCopy.Steps steps) {
        WorkingCopy.State st = checked(repo, wc, "pull");
        RefValue ref = repo.readBranch(new RefName(st.branch())).orElseThrow(() -> FdlException.notFound("branch '" + st.branch()
                + "' does not exist in " + repo.root() + (st.baseVersion() == null ? " yet: nothing to pull" : " any more")));
        VersionInfo branchVersion = repo.readVersion(ref.versionId()).orElseThrow(() -> new FdlException("branch '" + st.branch()
                + "' points at version " + ref.versionId() + ", which has no version.json"));
        if (branchVersion.id().equals(st.baseVersion())) {
            if (!ref.etag().equals(st.refEtag())) wc.save(st.rebased(st.baseVersion(), ref.etag(), st.baseSnapshot(), st.catalog()));
            return new Result(Kind.UP_TO_DATE, branchVersion, null, false, null);
        }
        if (Checkout.pendingSnapshots(wc) == 0) {
            Checkout.run(repo, s.catalogs(), wc, st.branch(), null, false, s.progress());
            return new Result(Kind.FAST_FORWARD, branchVersion, null, false, null);
        }
        if (st.baseVersion() == null) throw new FdlException("the working copy started branch '" + st.branch()
                + "' before it had a version; commit it to another branch (fdl checkout -b <new-branch>)");
        Base base = base(repo, st.baseVersion(), branchVersion.id()).orElseThrow(() -> new FdlException("branch '" + st.branch()
                + "' now points at version " + branchVersion.id() + ", which shares no history with the working copy's base"));
        List<Step> replay = replaySteps(repo, wc, st, base.version(), branchVersion);
        List<At> named = new ArrayList<>(List.of(new At(s.catalogs().versionCatalog(repo, branchVersion), branchVersion.ducklake().lastSnapshot()),
                new At(s.catalogs().versionCatalog(repo, base.version()), base.version().ducklake().lastSnapshot())));
        for (Step step : replay) named.add(new At(step.to().catalog(), step.to().snapshot()));
        named.add(new At(wc.catalog(), st.baseSnapshot()));
        requireSettledTablesExist(options, named);
        List<Path> scratch = new ArrayList<>();
        Path ours = wc.tmp().resolve("pull-" + branchVersion.id() + "-" + java.util.UUID.randomUUID() + ".sqlite");
        scratch.add(ours);
        try {
            CatalogConverter.convert(s.catalogs().versionCatalog(repo, branchVersion), ours, CatalogKind.SQLITE, s.progress());
            DataPath.set(ours, repo.dataLocation());
            steps.reached("branch-catalog-converted");
            Replayed done = replay(repo, wc, new Replay(ours, replay, swap(options), author), s, steps, scratch);
            if (done.conflicts() != null) return new Result(Kind.CONFLICTS, branchVersion, base.version(), base.ambiguous(), done.conflicts().sidesSwapped());
            wc.save(st.rebased(branchVersion.id(), ref.etag(), branchVersion.ducklake().lastSnapshot(), done.catalog()), steps);
            steps.reached("state-switched");
            wc.deleteOtherCatalogs();
            return new Result(Kind.PULLED, branchVersion, base.version(), base.ambiguous(), done.result().sidesSwapped());
        } finally {
            scratch.forEach(AtomicFile::deleteQuietly);
        }
    }

    /**
     * One snapshot a pull replays onto the branch's version: the change from {@code from} to
     * {@code to} (each a catalog at a snapshot), recorded with {@code author} and {@code message}
     * (each may be null, as the pending snapshot had none); {@code from} null: from version
     * {@code fromVersion}'s catalog, recorded with the pull's author.
     */
    private record Step(MergeRequest.Side from, VersionInfo fromVersion, MergeRequest.Side to, String author, String message) {}

    /** What a pull replays: onto {@code branch} (a SQLite catalog), the {@code steps} in order. */
    private record Replay(Path branch, List<Step> steps, MergeOptions options, VersionInfo.Author author) {}

    /** A replay's end: the new working catalog's file name and the combined result, or the conflicts of the step that stopped it. */
    private record Replayed(String catalog, MergeResult result, MergeResult conflicts) {}

    /**
     * The working copy's pending snapshots, oldest first, each the change from the snapshot before
     * it (the first: from the checkout's snapshot). When the branch's new version does not descend
     * from the working copy's base (the branch was moved elsewhere), a first step carries what the
     * base holds beyond the merge base, so nothing the working copy showed at checkout is lost.
     */
    private static List<Step> replaySteps(Repository repo, WorkingCopy wc, WorkingCopy.State st, VersionInfo mergeBase, VersionInfo branch) {
        List<Step> out = new ArrayList<>();
        Path working = wc.catalog();
        long from = st.baseSnapshot();
        if (!mergeBase.id().equals(st.baseVersion()))
            out.add(new Step(null, mergeBase, new MergeRequest.Side(working, from), null, "Pull: version " + st.baseVersion()
                    + "'s changes that branch version " + branch.id() + " does not hold"));
        try (dev.fdl.ducklake.catalog.CatalogInspector c = dev.fdl.ducklake.catalog.CatalogInspector.open(working)) {
            for (dev.fdl.ducklake.SnapshotInfo snap : c.snapshots()) {
                if (snap.id() <= st.baseSnapshot()) continue;
                out.add(new Step(new MergeRequest.Side(working, from), null, new MergeRequest.Side(working, snap.id()), snap.author(), snap.message()));
                from = snap.id();
            }
        }
        return out;
    }

    /**
     * Replays {@code r.steps()} onto {@code r.branch()}, one three-way merge and one snapshot each
     * (ours: the catalog so far; theirs: the step's newer snapshot; base: its older one, or the
     * merge base's catalog). Intermediate catalogs go to the scratch folder; only the last is
     * written as a working catalog and forced to disk. The first step with conflicts stops it and
     * nothing remains.
     */
    private static Replayed replay(Repository repo, WorkingCopy wc, Replay r, Services s, WorkingCopy.Steps steps, List<Path> scratch) {
        Path current = r.branch();
        java.util.Map<String, MergeResult.TableOutcome> outcomes = new java.util.LinkedHashMap<>();
        List<MergeResult.TableConflict> warnings = new ArrayList<>();
        Long snapshot = null;
        String name = WorkingCopy.newCatalogName();
        Path output = wc.catalogFile(name);
        try {
            for (int i = 0; i < r.steps().size(); i++) {
                Step step = r.steps().get(i);
                boolean last = i == r.steps().size() - 1;
                Path next = last ? output : wc.tmp().resolve("pull-step-" + i + "-" + java.util.UUID.randomUUID() + ".sqlite");
                if (!last) scratch.add(next);
                MergeRequest.Side from = step.from() != null ? step.from()
                        : new MergeRequest.Side(sqlite(repo, wc, step.fromVersion(), s, scratch), step.fromVersion().ducklake().lastSnapshot());
                steps.reached("catalogs-converted");
                String author = step.from() != null ? step.author() : r.author().toString(); // a pending snapshot keeps its own, even none
                MergeResult m = new ThreeWayMerge(s.pool()).merge(new MergeRequest(current, step.to(), from, r.options(), next,
                        new MergeRequest.Writer(repo.store(), repo.dataDir(), wc.tmp(), s.dataCache(), author, step.message(),
                                DataFileDigests.beside(wc.catalog()))));
                if (m.conflicted()) {
                    AtomicFile.deleteQuietly(output);
                    return new Replayed(null, null, m);
                }
                for (MergeResult.TableOutcome t : m.tables()) {
                    MergeResult.TableOutcome had = outcomes.get(t.table());
                    if (had == null || had.action() == MergeResult.Action.KEPT && t.action() != MergeResult.Action.KEPT) outcomes.put(t.table(), t);
                }
                warnings.addAll(m.warnings());
                snapshot = m.snapshot();
                current = next;
            }
            steps.reached("catalog-written");
            AtomicFile.sync(output);
            AtomicFile.syncDirectory(output.getParent());
            steps.reached("catalog-synced");
            return new Replayed(name, new MergeResult(List.copyOf(outcomes.values()), List.of(), snapshot, 0, warnings), null);
        } catch (IOException e) {
            AtomicFile.deleteQuietly(output);
            throw new FdlException("cannot write the pulled working catalog " + output + ": " + e.getMessage());
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(output); // never current: the state still names the catalog as it was
            throw e;
        }
    }

    /**
     * {@code fdl revert <version>}: one new snapshot undoing that version's changes, a three-way
     * merge into the working catalog whose base is the version and whose other side is its first parent.
     * The state notes the revert ({@link WorkingCopy.State#reverting}: the next commit's change guards
     * also compare against that parent) and proposes its message for the next commit.
     *
     * @throws FdlException exit 1: a version without parents (nothing to undo to), a merge pending,
     *                      conflicts (reported in the result, nothing written); exit 4: no such version
     */
    public static Result revert(Repository repo, WorkingCopy wc, String spec, String message, VersionInfo.Author author, Services s) {
        WorkingCopy.State st = checked(repo, wc, "revert");
        VersionInfo v = repo.resolve(spec).version();
        if (v.parents().isEmpty()) throw new FdlException("version " + v.id() + " is the first of its history: there is no earlier state to revert to");
        VersionInfo parent = repo.resolve(v.parents().get(0)).version();
        String msg = message != null && !message.isBlank() ? message
                : "Revert version " + v.id() + " (" + v.message().lines().findFirst().orElse("") + ")";
        Written w = write(repo, wc, new Job(new Sides(wc.catalog(), parent, v), MergeOptions.NONE, author, msg), s, WorkingCopy.Steps.NONE);
        if (w.result().conflicted()) return new Result(Kind.CONFLICTS, parent, v, false, w.result());
        wc.save(st.withCatalog(w.catalog(), st.merging()).withReverting(new WorkingCopy.State.Reverting(v.id(), parent.id()), msg));
        wc.deleteOtherCatalogs();
        return new Result(Kind.REVERTED, parent, v, false, w.result());
    }

    /** A catalog file (SQLite or DuckDB) at a snapshot (null: its newest). */
    private record At(Path catalog, Long snapshot) {}

    /**
     * Refuses {@code --ours T} / {@code --theirs T} naming a table or view that none of the merge's
     * catalogs shows (at the snapshots the merge reads), before anything is merged: a misspelt name
     * would otherwise settle nothing.
     *
     * @throws FdlException usage (exit 2) naming the table and listing those there are
     */
    private static void requireSettledTablesExist(MergeOptions options, List<At> sides) {
        if (options.perTable().isEmpty()) return;
        java.util.Set<String> known = new java.util.TreeSet<>();
        for (At at : sides) {
            try (dev.fdl.ducklake.catalog.CatalogInspector c = dev.fdl.ducklake.catalog.CatalogInspector.open(at.catalog())) {
                for (dev.fdl.ducklake.TableInfo t : c.tables(at.snapshot() != null ? at.snapshot() : c.lastSnapshotId()))
                    known.add(t.schema().equals("main") ? t.name() : t.schema() + "." + t.name());
                known.addAll(c.names().views().values().stream().map(v -> v.startsWith("main.") ? v.substring(5) : v).toList());
            }
        }
        java.util.Set<String> folded = new java.util.HashSet<>();
        for (String k : known) {
            folded.add(k.toLowerCase(java.util.Locale.ROOT));
            if (!k.contains(".")) folded.add("main." + k.toLowerCase(java.util.Locale.ROOT));
        }
        for (String t : new java.util.TreeSet<>(options.perTable().keySet())) {
            if (!folded.contains(t))
                throw FdlException.usage("--ours/--theirs " + t + ": there is no table " + t + " on either side of the merge or in its base "
                        + "(tables: " + (known.isEmpty() ? "none" : String.join(", ", known)) + "); nothing was merged");
        }
    }

    private static WorkingCopy.State checked(Repository repo, WorkingCopy wc, String what) {
        Commit.reconcile(repo, wc);
        WorkingCopy.State st = wc.state();
        st.requireBelongsTo(repo);
        if (st.branch() == null && !what.equals("revert"))
            throw new FdlException("the working copy is not on a branch (checked out from version " + st.baseVersion()
                    + "); create one first: fdl checkout -b <new-branch>");
        if (st.merging() != null)
            throw new FdlException("a merge of version " + st.merging().version() + " is pending in the working copy; commit it "
                    + "(fdl commit) or abort it (fdl merge --abort) before the " + what);
        return st;
    }

    private static Result fastForward(Repository repo, WorkingCopy wc, WorkingCopy.State st, VersionInfo other, Services s) {
        RefUpdate update = repo.updateRef(RefValue.Kind.BRANCH, new RefName(st.branch()));
        RefUpdate.Outcome o = st.refEtag() == null ? update.create(other.id()) : update.move(st.refEtag(), other.id());
        if (!o.result().changed())
            throw FdlException.conflict("cannot fast-forward branch '" + st.branch() + "': " + (o.message() != null ? o.message()
                    : "it moved since checkout") + "; nothing changed. Bring the working copy up to date with fdl pull, then merge again");
        Checkout.run(repo, s.catalogs(), wc, st.branch(), null, false, s.progress());
        return new Result(Kind.FAST_FORWARD, other, null, false, null);
    }

    /** Ours (a SQLite catalog at its newest snapshot), theirs and the base. */
    private record Sides(Path ours, VersionInfo theirs, VersionInfo base) {}

    /** The engine's result and, when it wrote one, the new working catalog's file name. */
    private record Written(MergeResult result, String catalog) {}

    /** What one merge writes: its sides, how conflicts are settled, and the snapshot's author and message. */
    private record Job(Sides sides, MergeOptions options, VersionInfo.Author author, String message) {}

    private static Written write(Repository repo, WorkingCopy wc, Job job, Services s, WorkingCopy.Steps steps) {
        Sides sides = job.sides();
        MergeOptions options = job.options();
        VersionInfo.Author author = job.author();
        String message = job.message();
        List<Path> scratch = new ArrayList<>();
        String name = WorkingCopy.newCatalogName();
        Path output = wc.catalogFile(name);
        try {
            Path base = sqlite(repo, wc, sides.base(), s, scratch);
            Path theirs = sqlite(repo, wc, sides.theirs(), s, scratch);
            long theirsSnapshot = sides.theirs().ducklake().lastSnapshot();
            steps.reached("catalogs-converted");
            MergeResult r = new ThreeWayMerge(s.pool()).merge(new MergeRequest(sides.ours(), new MergeRequest.Side(theirs, theirsSnapshot),
                    new MergeRequest.Side(base, sides.base().ducklake().lastSnapshot()), options, output,
                    new MergeRequest.Writer(repo.store(), repo.dataDir(), wc.tmp(), s.dataCache(), author.toString(), message,
                            DataFileDigests.beside(wc.catalog()))));
            if (r.conflicted()) return new Written(r, null);
            steps.reached("catalog-written");
            AtomicFile.sync(output);
            AtomicFile.syncDirectory(output.getParent());
            steps.reached("catalog-synced");
            return new Written(r, name);
        } catch (IOException e) {
            AtomicFile.deleteQuietly(output);
            throw new FdlException("cannot write the merged working catalog " + output + ": " + e.getMessage());
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(output); // never current: the state still names the catalog as it was
            throw e;
        } finally {
            scratch.forEach(AtomicFile::deleteQuietly);
        }
    }

    private static Path sqlite(Repository repo, WorkingCopy wc, VersionInfo v, Services s, List<Path> scratch) {
        Path p = wc.tmp().resolve("merge-" + v.id() + "-" + java.util.UUID.randomUUID() + ".sqlite");
        scratch.add(p);
        CatalogConverter.convert(s.catalogs().versionCatalog(repo, v), p, CatalogKind.SQLITE, s.progress()); // size and sha256 checked
        return p;
    }

    /** A pull merges the working copy (the user's ours) into the branch's version (the engine's ours): sides swap. */
    private static MergeOptions swap(MergeOptions o) {
        java.util.Map<String, MergeOptions.Side> per = new java.util.HashMap<>();
        o.perTable().forEach((k, v) -> per.put(k, flip(v)));
        return new MergeOptions(flip(o.strategy()), per, o.key(), o.strict());
    }

    private static MergeOptions.Side flip(MergeOptions.Side s) {
        return s == null ? null : s == MergeOptions.Side.OURS ? MergeOptions.Side.THEIRS : MergeOptions.Side.OURS;
    }

    /**
     * {@code fdl commit --pull}: runs {@code commit}; when the branch moved since checkout (a refused
     * step 9, exit 3) and a {@link #pull} merges without conflicts, commits again, at most
     * {@code attempts} times in all (for scheduled jobs writing into one branch). Each pull's result
     * goes to {@code pulled} before the next attempt.
     *
     * @throws FdlException the commit's own failure; exit 1 when the pull meets conflicts (nothing
     *                      written; {@code fdl pull} lists them); exit 3 when the branch kept moving
     */
    public static Commit.Result commitPulling(Repository repo, WorkingCopy wc, java.util.function.Supplier<Commit.Result> commit,
                                              VersionInfo.Author author, Services s, int attempts,
                                              java.util.function.Consumer<Result> pulled) {
        for (int attempt = 1; ; attempt++) {
            try {
                return commit.get();
            } catch (FdlException e) {
                if (e.kind() != FdlException.Kind.CONFLICT || attempt >= attempts) throw e;
                WorkingCopy.State st = wc.state();
                Optional<RefValue> ref = st.branch() == null ? Optional.empty() : repo.readBranch(new RefName(st.branch()));
                if (ref.isEmpty() || ref.get().etag().equals(st.refEtag())) throw e; // not a branch that moved
                Result r = pull(repo, wc, MergeOptions.NONE, author, s);
                if (r.kind() == Kind.CONFLICTS)
                    throw new FdlException(FdlException.Kind.FAILURE, "branch '" + st.branch() + "' moved to version " + r.other().id() + ", whose changes conflict "
                            + "with the working copy's in " + r.merge().conflicts().size() + " table(s); nothing was committed. See them with "
                            + "fdl pull, settle them (--strategy, --ours, --theirs) and commit again", e);
                pulled.accept(r);
            }
        }
    }
}
