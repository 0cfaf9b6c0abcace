package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.ducklake.load.DataFileDigests;
import dev.fdl.ducklake.merge.MergeRequest;
import dev.fdl.ducklake.merge.MergeResult;
import dev.fdl.ducklake.merge.ThreeWayMerge;
import dev.fdl.ducklake.rewrite.DataPath;
import dev.fdl.repo.MergeBase;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.AtomicFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fdl pull} (docs/SPEC.md section 7): the working copy's pending snapshots replayed onto the
 * branch's new version, one three-way merge each, as a rebase does. Crash safety as {@link Merge}'s.
 */
public final class Pull {
    private Pull() {}

    /**
     * {@code fdl pull}: the branch moved since checkout; its new version becomes the working copy's
     * base, with the working copy's pending snapshots replayed on top of it, as a rebase does: each
     * pending snapshot's change (from the snapshot before it) is merged three-way onto the result
     * so far as one snapshot with that snapshot's author and message, oldest first (the next commit
     * has the branch's version as its single parent). The first step with conflicts stops the pull
     * and nothing is written. Without pending snapshots it checks the
     * branch out. Either way the description follows as a tracked file ({@link Description#merge}):
     * the branch's, with what the working copy changed itself kept. {@code options} speak of the working copy as ours, the branch as theirs.
     *
     * @throws FdlException exit 1: a merge pending, detached, no common history; exit 4: the branch is gone
     */
    public static Merge.MergeOutcome pull(Repository repo, WorkingCopy wc, MergeOptions options, VersionInfo.Author author, Merge.Services s) {
        return pull(repo, wc, options, author, s, WorkingCopy.Steps.NONE);
    }

    static Merge.MergeOutcome pull(Repository repo, WorkingCopy wc, MergeOptions options, VersionInfo.Author author, Merge.Services s, WorkingCopy.Steps steps) {
        WorkingCopy.State st = WorkingMerge.checked(repo, wc, "pull");
        RefValue ref = repo.readBranch(new RefName(st.branch())).orElseThrow(() -> FdlException.notFound("branch '" + st.branch()
                + "' does not exist in " + repo.root() + (st.baseVersion() == null ? " yet: nothing to pull" : " any more")));
        VersionInfo branchVersion = repo.readVersion(ref.versionId()).orElseThrow(() -> new FdlException("branch '" + st.branch()
                + "' points at version " + ref.versionId() + ", which has no version.json"));
        if (branchVersion.id().equals(st.baseVersion())) {
            if (!ref.etag().equals(st.refEtag())) wc.save(st.rebased(st.baseVersion(), ref.etag(), st.baseSnapshot(), st.catalog()));
            return new Merge.MergeOutcome(Merge.Kind.UP_TO_DATE, branchVersion, null, false, null);
        }
        if (Checkout.pendingSnapshots(wc) == 0) {
            // the working copy's own edits of the description go through the pull as they do through a replay
            VersionInfo placedFrom = st.baseVersion() == null ? null : repo.readVersion(st.baseVersion()).orElse(null);
            byte[] mine = placedFrom == null ? null : Description.edited(wc, placedFrom);
            Checkout.run(repo, s.catalogs(), wc, st.branch(), null, mine != null, s.progress());
            List<String> kept = mine == null ? List.of() : Description.merge(repo, wc, placedFrom, branchVersion, mine);
            return new Merge.MergeOutcome(Merge.Kind.FAST_FORWARD, branchVersion, null, false, null, kept);
        }
        if (st.baseVersion() == null) throw new FdlException("the working copy started branch '" + st.branch()
                + "' before it had a version; commit it to another branch (fdl checkout -b <new-branch>)");
        MergeBase base = MergeBase.of(repo, st.baseVersion(), branchVersion.id()).orElseThrow(() -> new FdlException("branch '" + st.branch()
                + "' now points at version " + branchVersion.id() + ", which shares no history with the working copy's base"));
        List<Step> replay = replaySteps(repo, wc, st, base.version(), branchVersion);
        List<WorkingMerge.At> named = new ArrayList<>(List.of(new WorkingMerge.At(s.catalogs().versionCatalog(repo, branchVersion), branchVersion.ducklake().lastSnapshot()),
                new WorkingMerge.At(s.catalogs().versionCatalog(repo, base.version()), base.version().ducklake().lastSnapshot())));
        for (Step step : replay) named.add(new WorkingMerge.At(step.to().catalog(), step.to().snapshot()));
        named.add(new WorkingMerge.At(wc.catalog(), st.baseSnapshot()));
        WorkingMerge.requireSettledTablesExist(options, named);
        List<Path> scratch = new ArrayList<>();
        Path ours = wc.tmp().resolve("pull-" + branchVersion.id() + "-" + java.util.UUID.randomUUID() + ".sqlite");
        scratch.add(ours);
        try {
            CatalogConverter.convert(s.catalogs().versionCatalog(repo, branchVersion), ours, CatalogKind.SQLITE, s.progress());
            DataPath.set(ours, repo.dataLocation());
            steps.reached("branch-catalog-converted");
            Replayed done = replay(repo, wc, new Replay(ours, replay, swap(options), author), s, steps, scratch);
            if (done.conflicts() != null) return new Merge.MergeOutcome(Merge.Kind.CONFLICTS, branchVersion, base.version(), base.ambiguous(), done.conflicts().sidesSwapped());
            VersionInfo placedFrom = repo.readVersion(st.baseVersion()).orElse(base.version());
            wc.save(st.rebased(branchVersion.id(), ref.etag(), branchVersion.ducklake().lastSnapshot(), done.catalog()), steps);
            steps.reached("state-switched");
            wc.deleteOtherCatalogs();
            // the description follows the branch as the catalog does: status then shows only the working copy's own edits
            List<String> kept = Description.merge(repo, wc, placedFrom, branchVersion);
            return new Merge.MergeOutcome(Merge.Kind.PULLED, branchVersion, base.version(), base.ambiguous(), done.result().sidesSwapped(), kept);
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
    private record Step(MergeRequest.CatalogSnapshot from, VersionInfo fromVersion, MergeRequest.CatalogSnapshot to, String author, String message) {}

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
            out.add(new Step(null, mergeBase, new MergeRequest.CatalogSnapshot(working, from), null, "Pull: version " + st.baseVersion()
                    + "'s changes that branch version " + branch.id() + " does not hold"));
        try (dev.fdl.ducklake.catalog.CatalogInspector c = dev.fdl.ducklake.catalog.CatalogInspector.open(working)) {
            for (dev.fdl.ducklake.SnapshotInfo snap : c.snapshots()) {
                if (snap.id() <= st.baseSnapshot()) continue;
                out.add(new Step(new MergeRequest.CatalogSnapshot(working, from), null, new MergeRequest.CatalogSnapshot(working, snap.id()), snap.author(), snap.message()));
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
    private static Replayed replay(Repository repo, WorkingCopy wc, Replay r, Merge.Services s, WorkingCopy.Steps steps, List<Path> scratch) {
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
                MergeRequest.CatalogSnapshot from = step.from() != null ? step.from()
                        : new MergeRequest.CatalogSnapshot(WorkingMerge.sqlite(repo, wc, step.fromVersion(), s, scratch), step.fromVersion().ducklake().lastSnapshot());
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

    /** A pull merges the working copy (the user's ours) into the branch's version (the engine's ours): sides swap. */
    private static MergeOptions swap(MergeOptions o) {
        java.util.Map<String, MergeOptions.MergeSide> per = new java.util.HashMap<>();
        o.perTable().forEach((k, v) -> per.put(k, flip(v)));
        return new MergeOptions(flip(o.strategy()), per, o.key(), o.strict());
    }

    private static MergeOptions.MergeSide flip(MergeOptions.MergeSide s) {
        return s == null ? null : s == MergeOptions.MergeSide.OURS ? MergeOptions.MergeSide.THEIRS : MergeOptions.MergeSide.OURS;
    }
}
