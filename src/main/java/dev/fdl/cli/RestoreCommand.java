package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.workingcopy.Authors;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.Restore;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/** {@code fdl restore}: the working catalog's tables become an old version's (docs/retention.md, "Restoring an old version"). */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Make the working catalog's tables equal to an old version's, as one new DuckLake snapshot that names "
                + "the old data files (nothing is copied); the next fdl commit publishes it as a new version of the branch, "
                + "with a message naming the restored version.",
                "Exit 4 for an expired version (its catalog is gone) or one that does not exist."})
final class RestoreCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Parameters(paramLabel = "<ref-or-version>", description = "The version to restore: a tag, branch, version id or unique prefix.") String version;
    @Option(names = {"-m", "--message"}, paramLabel = "<message>",
            description = "The snapshot's message and the next commit's default (default: Restore version <id> (<date>: <its message>)).") String message;
    @Option(names = "--author", paramLabel = "\"Name <email>\"", description = "Recorded in the snapshot; default as for fdl commit.") String author;
    @Option(names = {"-q", "--quiet"}, description = "No progress output.") boolean quiet;
    @Option(names = "--json", description = "Print the result as JSON.") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            Restore.RestoreResult r = Restore.run(repo, CommandContext.of(spec).cache(), wc, DefaultRef.resolveHead(CommandContext.of(spec).cwd().get(), repo, version, spec.commandLine().getErr()), message, Authors.resolve(author),
                    Progress.listener(quiet, spec.commandLine().getErr()));
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("restored", r.version().id());
                o.put("snapshot", r.snapshot());
                o.put("message", r.message());
                var a = o.putArray("changes");
                r.changes().forEach(a::add);
                Out.json(out, o);
                return;
            }
            dev.fdl.ducklake.format.SnapshotChanges.Names names;
            try (dev.fdl.ducklake.catalog.CatalogInspector c = dev.fdl.ducklake.catalog.CatalogInspector.open(wc.catalog())) {
                names = c.names();
            }
            out.println("Restored version " + r.version().id() + " (" + r.version().createdAt() + ") into the working catalog as snapshot "
                    + r.snapshot() + ": " + dev.fdl.ducklake.format.SnapshotChanges.describe(String.join(",", r.changes()), names));
            out.println("No data file was copied. Publish it with: fdl commit (message: \"" + RefsCommand.firstLine(r.message()) + "\")");
            out.flush();
        }
    }
}
