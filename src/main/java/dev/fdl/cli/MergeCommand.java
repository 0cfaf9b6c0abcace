package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.workingcopy.Authors;
import dev.fdl.workingcopy.Merge;
import dev.fdl.workingcopy.MergeAbort;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;

/** {@code fdl merge}: a three-way merge of another version into the working copy (docs/SPEC.md section 7). */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Merge a branch, tag or version into the working copy. A fast-forward (the working copy's version is an ancestor "
                + "and nothing is pending) moves the branch; otherwise the merged tables are written to the working catalog as one "
                + "snapshot and the next fdl commit publishes a version with two parents.",
                "Conflicts write nothing: exit 1, listing per table the kind, the count and the first 10 keys (--json: all)."})
final class MergeCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Parameters(arity = "0..1", paramLabel = "<ref>", description = "The branch, tag or version to merge in.") String ref;
    @Option(names = "--ff-only", description = "Refuse unless the branch can fast-forward.") boolean ffOnly;
    @Option(names = "--no-ff", description = "Record a merge even when a fast-forward is possible.") boolean noFf;
    @Option(names = "--strategy", paramLabel = "ours|theirs", description = "Settle every conflict for one side.") String strategy;
    @Option(names = "--ours", paramLabel = "<table>", description = "Settle the conflicts of this table for ours (repeatable).") List<String> ours;
    @Option(names = "--theirs", paramLabel = "<table>", description = "Settle the conflicts of this table for theirs (repeatable).") List<String> theirs;
    @Option(names = "--key", paramLabel = "<cols>", description = "Row identity for tables changed on both sides that have no recorded key "
            + "(comma-separated); default: the recorded key, else whole rows as multisets.") String key;
    @Option(names = {"-m", "--message"}, paramLabel = "<message>", description = "The merge snapshot's message and the next commit's default.") String message;
    @Option(names = "--strict", description = "In tables without a key, a row whose count both sides changed differently is a conflict "
            + "(default: merged to max(0, ours + theirs - base) and listed as a warning).") boolean strict;
    @Option(names = "--author", paramLabel = "\"Name <email>\"", description = "Recorded in the snapshot; default as for fdl commit.") String author;
    @Option(names = "--abort", description = "Go back to the working catalog as it was before the pending merge.") boolean abort;
    @Option(names = {"-q", "--quiet"}, description = "Print nothing on success, as git merge -q: no progress, no summary "
            + "(conflicts, warnings and errors are still printed; --json still prints its object).") boolean quiet;
    @Option(names = "--json", description = "Print the result as JSON.") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        if (abort) {
            if (ref != null) throw FdlException.usage("--abort takes no <ref>");
            MergePrinter.print(spec.commandLine().getOut(), spec.commandLine().getErr(), MergeAbort.abort(wc), json, null);
            return;
        }
        if (ref == null) throw FdlException.usage("fdl merge needs the <ref> to merge (or --abort)");
        if (ffOnly && noFf) throw FdlException.usage("--ff-only and --no-ff exclude each other");
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            CommandContext ctx = CommandContext.of(spec);
            Merge.MergeOutcome r = Merge.merge(repo, wc, new Merge.Request(ref, ffOnly, noFf, MergePrinter.options(strategy, ours, theirs, key).withStrict(strict), message),
                    Authors.resolve(author), services(ctx, repo, quiet, spec));
            List<String> rerun = new java.util.ArrayList<>(List.of("fdl", "merge", ref));
            if (message != null) rerun.addAll(List.of("-m", message));
            if (author != null) rerun.addAll(List.of("--author", author));
            java.io.PrintWriter out = quiet && !json && r.kind() != Merge.Kind.CONFLICTS
                    ? new java.io.PrintWriter(java.io.Writer.nullWriter()) : spec.commandLine().getOut();
            MergePrinter.print(out, spec.commandLine().getErr(), r, json, MergePrinter.rerun(rerun, key, strict, ours, theirs));
            if (!quiet && r.kind() == Merge.Kind.MERGED) noKeyHint(r, MergePrinter.rerun(rerun, null, strict, ours, theirs));
        }
    }

    /**
     * Tells, once on stderr, which tables changed on both sides were merged as multisets of whole
     * rows because neither {@code --key} nor a recorded key named their rows' identity
     * (docs/cli.md, fdl merge), and how to merge them by key instead.
     */
    private void noKeyHint(Merge.MergeOutcome r, List<String> rerun) {
        List<String> tables = r.merge().tables().stream().filter(dev.fdl.ducklake.merge.MergeResult.TableOutcome::mergedWholeRows)
                .map(t -> "'" + t.table() + "'").toList();
        if (tables.isEmpty()) return;
        String command = dev.fdl.util.ShellQuote.command(rerun) + " --key <column>";
        Out.hint(spec.commandLine().getErr(),
                (tables.size() == 1 ? "table " + tables.get(0) + " has no key: the merge matched its rows"
                        : "tables " + String.join(", ", tables) + " have no key: the merge matched their rows")
                        + " whole, as multisets (a changed row is one removed and one added)",
                "to merge rows by a key (unique, never NULL) instead: fdl merge --abort, then " + command
                        + "; fdl import --mode sync --key <column> records a key for later merges");
    }

    /** What the merge commands read with. */
    static Merge.Services services(CommandContext ctx, Repository repo, boolean quiet, CommandSpec spec) {
        return new Merge.Services(ctx.cache(), ctx.duckDb(), ctx.cache().dataFolder(repo), Progress.listener(quiet, spec.commandLine().getErr()));
    }
}
