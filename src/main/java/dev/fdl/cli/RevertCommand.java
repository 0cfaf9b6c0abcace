package dev.fdl.cli;

import dev.fdl.workingcopy.Authors;
import dev.fdl.workingcopy.Merge;
import dev.fdl.workingcopy.Revert;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fdl revert <version>}: one snapshot undoing a version's changes, as {@code git revert} (docs/SPEC.md section 7). */
@Command(name = "revert", mixinStandardHelpOptions = true,
        description = {"Undo the changes one version made, as one new snapshot in the working catalog (a three-way merge whose base is the "
                + "version and whose other side is its first parent); publish it with fdl commit.",
                "Conflicts (later changes to the same rows) write nothing: exit 1, listed as for fdl merge."})
final class RevertCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Parameters(paramLabel = "<version>", description = "The version to undo: a tag, branch, version id or unique prefix.") String version;
    @Option(names = {"-m", "--message"}, paramLabel = "<message>", description = "The snapshot's message (default: Revert version <id> (<its message>)).") String message;
    @Option(names = "--author", paramLabel = "\"Name <email>\"", description = "Recorded in the snapshot; default as for fdl commit.") String author;
    @Option(names = {"-q", "--quiet"}, description = "No progress output.") boolean quiet;
    @Option(names = "--json", description = "Print the result as JSON.") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            Merge.MergeOutcome r = Revert.revert(repo, wc, version, message, Authors.resolve(author),
                    MergeCommand.services(CommandContext.of(spec), repo, quiet, spec));
            MergePrinter.print(spec.commandLine().getOut(), spec.commandLine().getErr(), r, json, null);
        }
    }
}
