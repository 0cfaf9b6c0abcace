package dev.fdl.cli;

import dev.fdl.workingcopy.Authors;
import dev.fdl.workingcopy.Merge;
import dev.fdl.workingcopy.Pull;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;

/** {@code fdl pull}: the branch's new version becomes the working copy's base, its pending snapshots replayed on top (docs/SPEC.md section 7). */
@Command(name = "pull", mixinStandardHelpOptions = true,
        description = {"Bring the working copy up to date with its branch, which moved since checkout: the branch's version becomes the "
                + "base and the snapshots the working copy made since checkout are replayed on top of it, one by one with their "
                + "authors and messages (the next commit has a single parent: linear history).",
                "Conflicts write nothing: exit 1, listed as for fdl merge (ours: the working copy, theirs: the branch)."})
final class PullCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Option(names = "--strategy", paramLabel = "ours|theirs", description = "Settle every conflict for one side (ours: the working copy).") String strategy;
    @Option(names = "--ours", paramLabel = "<table>", description = "Settle the conflicts of this table for the working copy (repeatable).") List<String> ours;
    @Option(names = "--theirs", paramLabel = "<table>", description = "Settle the conflicts of this table for the branch (repeatable).") List<String> theirs;
    @Option(names = "--key", paramLabel = "<cols>", description = "Row identity for tables without a recorded key (comma-separated).") String key;
    @Option(names = "--strict", description = "In tables without a key, a row whose count both sides changed differently is a conflict "
            + "(default: merged to max(0, ours + theirs - base) and listed as a warning).") boolean strict;
    @Option(names = "--author", paramLabel = "\"Name <email>\"", description = "Recorded in the snapshot; default as for fdl commit.") String author;
    @Option(names = {"-q", "--quiet"}, description = "No progress output.") boolean quiet;
    @Option(names = "--json", description = "Print the result as JSON.") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            Merge.MergeOutcome r = Pull.pull(repo, wc, MergePrinter.options(strategy, ours, theirs, key).withStrict(strict), Authors.resolve(author),
                    MergeCommand.services(CommandContext.of(spec), repo, quiet, spec));
            List<String> rerun = new java.util.ArrayList<>(List.of("fdl", "pull"));
            if (author != null) rerun.addAll(List.of("--author", author));
            MergePrinter.print(spec.commandLine().getOut(), spec.commandLine().getErr(), r, json,
                    MergePrinter.rerun(rerun, key, strict, ours, theirs));
        }
    }
}
