package dev.fdl.cli;

import dev.fdl.util.Plural;
import dev.fdl.ducklake.load.Compactor;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** {@code fdl compact <table>}: the table's visible rows rewritten into one data file, in a new snapshot; nothing is deleted. */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = {"Rewrite a table of the working copy spread over many data and delete files (after many import --mode sync) "
                + "into one new data file, as one DuckLake snapshot.",
                "No file is deleted: older snapshots and versions still name the old files; fdl gc removes them once no live version does."})
final class CompactCommand implements Runnable {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin MemoryOption memoryOption;

    @Parameters(index = "0", paramLabel = "[schema.]table") String table;
    @Option(names = {"-q", "--quiet"}, description = "Show no progress (shown only on a terminal anyway).") boolean quiet;
    @Option(names = {"-m", "--message"}, paramLabel = "<text>", description = "Recorded as the snapshot's commit message.") String message;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            CommandContext context = CommandContext.of(spec);
            Compactor.CompactionResult r = new Compactor(context.duckDb(), repo.config().targetFileSize(),
                    Progress.data(quiet, spec.commandLine().getErr())).compact(wc.catalog(), store, repo.dataDir(),
                    context.cache().dataFolder(repo), table, null, message);
            PrintWriter out = spec.commandLine().getOut();
            if (r.written() == null) {
                out.println(r.table() + " is in " + r.dataFiles() + " data file(s) without deletes or inlined rows: nothing to compact");
            } else {
                out.println("Compacted " + r.table() + ": " + r.dataFiles() + " data file(s), " + r.deleteFiles() + " delete file(s) and "
                        + r.inlinedTables() + " inlined-data table(s) -> " + r.written().dataFileKeys().size() + " data file(s) of " + Plural.of(r.written().rows(), "row") + " ("
                        + Out.size(r.written().fileSizeBytes()) + ", snapshot " + r.written().snapshot() + "); nothing was deleted");
            }
            out.flush();
        }
    }
}
