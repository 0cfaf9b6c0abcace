package dev.fdl.cli;

import dev.fdl.util.ShellQuote;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.SnapshotInfo;
import dev.fdl.util.Json;
import dev.fdl.workingcopy.CatalogSummary;
import dev.fdl.workingcopy.Commit;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@code fdl status}: branch, base version, snapshots since checkout, and whether the branch moved. */
final class StatusCommand implements Runnable {
    private CommandSpec spec;

    /** The picocli model of {@code fdl status}, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec spec() {
        StatusCommand c = new StatusCommand();
        c.spec = Specs.command("status", c,
                "Show the working copy's branch and base version, the DuckLake snapshots made since checkout, and whether the branch has moved in the repository.");
        c.spec.addOption(Specs.flag("Print as JSON.", "--json"));
        return c.spec;
    }

    @Override
    public void run() {
        boolean json = spec.commandLine().getParseResult().hasMatchedOption("--json");
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Commit.reconcile(Repository.open(store), wc);
        }
        WorkingCopy.State st = wc.state();
        CatalogSummary.Facts facts = CatalogSummary.of(wc);
        Since since = since(wc, facts);
        List<SnapshotInfo> pending = since.snapshots();
        dev.fdl.ducklake.format.SnapshotChanges.Names names = since.names();
        String moved; // null: unchanged
        String nowAt = null;
        boolean commitCreatesBranch;
        Commit.Pending toCommit;
        try (ObjectStore store = Stores.open(st.root())) {
            Repository repo = Repository.open(store);
            Optional<RefValue> ref = st.branch() == null ? Optional.empty() : repo.readBranch(new RefName(st.branch()));
            moved = moved(st, ref);
            commitCreatesBranch = st.commitCreatesBranch(ref.isPresent());
            if (ref.isPresent()) nowAt = ref.get().versionId();
            toCommit = Commit.pending(repo, wc, facts);
        }
        String ignored = wc.ignoredDescriptionWarning();
        if (ignored != null) spec.commandLine().getErr().println("fdl: warning: " + ignored);
        Path descFile = wc.datasetFile();
        String descName = descFile == null ? "dataset.json" : descFile.getFileName().toString();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("working_copy", wc.dir().toString());
            o.put("root", st.root());
            o.put("branch", st.branch());
            o.put("base_version", st.baseVersion());
            o.put("base_snapshot", st.baseSnapshot());
            o.put("branch_moved", moved != null);
            o.put("branch_pending", commitCreatesBranch);
            if (moved != null) o.put("branch_now", nowAt);
            if (st.merging() != null) o.put("merging", st.merging().version());
            o.put("description", toCommit.description().name().toLowerCase(java.util.Locale.ROOT));
            if (toCommit.description() != dev.fdl.workingcopy.Description.Change.UNCHANGED)
                o.put("description_invalid", dev.fdl.workingcopy.Description.problem(wc));
            o.put("ducklake_format", toCommit.format());
            if (toCommit.formatChanged()) o.put("ducklake_format_changed_from", toCommit.baseFormat());
            o.put("nothing_to_commit", toCommit.isEmpty());
            o.put("commit_adds_snapshot", toCommit.commitAddsSnapshot());
            ArrayNode a = o.putArray("snapshots");
            addSnapshots(a, pending, names);
            Out.json(out, o);
            return;
        }
        printHeader(out, st, commitCreatesBranch);
        printBranchMoved(out, st, moved, nowAt, toCommit.isEmpty());
        if (st.merging() != null)
            out.println("Merging version " + st.merging().version() + ": fdl commit publishes the merge (two parents), "
                    + "fdl merge --abort puts the working copy back as it was before");
        String invalid = toCommit.description() == dev.fdl.workingcopy.Description.Change.UNCHANGED ? null : dev.fdl.workingcopy.Description.problem(wc);
        if (invalid != null)
            out.println("Description: " + descName + " " + toCommit.description().words() + " but invalid, so the next commit would be refused: "
                    + invalid.replaceFirst("^cannot read \\S+: ", ""));
        else if (toCommit.description() != dev.fdl.workingcopy.Description.Change.UNCHANGED)
            out.println("Description: " + descName + " " + toCommit.description().words() + " (published by the next commit)");
        if (toCommit.formatChanged())
            out.println("DuckLake format: " + toCommit.baseFormat() + " -> " + toCommit.format() + " (published by the next commit)");
        if (toCommit.isEmpty()) {
            out.println("Nothing to commit (no snapshot since checkout)");
        } else if (toCommit.commitAddsSnapshot()) {
            out.println("No snapshot since checkout: the commit adds one that changes no data (a version always adds a snapshot)");
        } else {
            out.println(pending.size() + " snapshot(s) to commit:");
            for (SnapshotInfo s : pending)
                out.println("  snapshot " + s.id() + "  " + describe(s.changes(), names)
                        + (s.message() == null ? "" : "  \"" + s.message() + "\""));
        }
        out.flush();
    }

    /** The first lines: the branch (and, as git's "No commits yet", that the first commit creates it), the repository, the base version. */
    private static void printHeader(PrintWriter out, WorkingCopy.State st, boolean commitCreatesBranch) {
        out.println(st.branch() == null ? "Not on a branch (detached at version " + st.baseVersion() + ")" : "On branch " + st.branch());
        if (commitCreatesBranch) // checkout wrote no ref: commit's step 9 creates it (SPEC.md section 4)
            out.println("No commit yet: the first commit creates branch '" + st.branch() + "' in the repository");
        out.println("Repository: " + st.root());
        out.println(st.baseVersion() == null ? "No version yet (new, empty catalog)" : "Base version: " + st.baseVersion() + " (snapshot " + st.baseSnapshot() + ")");
    }

    /** The working catalog's snapshots since the base, and the names their changes refer to (null without any). */
    private record Since(List<SnapshotInfo> snapshots, dev.fdl.ducklake.format.SnapshotChanges.Names names) {}

    /** {@link Since} of {@code wc}: the catalog is opened only when its newest snapshot ({@code facts}) is past the base. */
    private static Since since(WorkingCopy wc, CatalogSummary.Facts facts) {
        long base = wc.state().baseSnapshot();
        if (facts.lastSnapshot() <= base) return new Since(List.of(), null);
        try (CatalogInspector c = CatalogInspector.open(wc.catalog())) {
            List<SnapshotInfo> pending = c.snapshots().stream().filter(s -> s.id() > base).toList();
            return new Since(pending, pending.isEmpty() ? null : c.names());
        }
    }

    /** How the branch changed in the repository since checkout ("been deleted", "been created", "moved"); null: unchanged or detached. */
    private static String moved(WorkingCopy.State st, Optional<RefValue> ref) {
        String moved;
        if (st.branch() == null) moved = null;
        else if (ref.isEmpty()) moved = st.refEtag() == null ? null : "been deleted";
        else if (st.refEtag() == null) moved = "been created";
        else if (!dev.fdl.store.ETags.same(ref.get().etag(), st.refEtag())) moved = "moved";
        else moved = null;
        return moved;
    }

    /** The pending snapshots as JSON objects added to {@code a}. */
    private static void addSnapshots(ArrayNode a, List<SnapshotInfo> pending, dev.fdl.ducklake.format.SnapshotChanges.Names names) {
        for (SnapshotInfo s : pending) {
            ObjectNode so = a.addObject();
            so.put("id", s.id());
            so.put("time", s.time() == null ? null : s.time().toString());
            so.put("changes", s.changes());
            so.put("changes_described", describe(s.changes(), names));
            so.put("author", s.author());
            so.put("message", s.message());
        }
    }

    /** What a branch that changed since checkout means for the next commit, and what to do. */
    private static void printBranchMoved(PrintWriter out, WorkingCopy.State st, String moved, String nowAt, boolean nothingToCommit) {
        if (moved != null && nowAt != null && nothingToCommit) // nothing of the working copy's own to keep
            out.println("The branch has " + moved + " in the repository since checkout: it now points at " + nowAt
                    + "; nothing to commit here, so move to it with: fdl checkout " + ShellQuote.word(st.branch()));
        else if (moved != null)
            out.println("The branch has " + moved + " in the repository since checkout" + (nowAt == null ? "" : ": it now points at " + nowAt)
                    + "; a commit would conflict (" + (nowAt == null
                    ? "fdl checkout -b " + ShellQuote.word(st.branch()) + " to commit your snapshots on a branch of that name again"
                    : "fdl pull to merge its new version under your snapshots, fdl checkout -b <new-branch> to keep them on a new branch, "
                            + "or fdl checkout --force " + ShellQuote.word(st.branch()) + " to start from it, dropping them") + ")");
    }

    /** A snapshot's changes in words; one that changes nothing (a commit's for a description, left by a crash) says so. */
    private static String describe(String changes, dev.fdl.ducklake.format.SnapshotChanges.Names names) {
        String words = dev.fdl.ducklake.format.SnapshotChanges.describe(changes, names);
        return words.isEmpty() ? "(no data change)" : words;
    }
}
