package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.working.TableDrop;
import dev.fdl.workingcopy.Remove;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.Json;
import dev.fdl.util.ShellQuote;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code fdl rm <table>…}: drops tables from the working copy, as git rm; the next commit publishes it. */
@Command(name = "rm", mixinStandardHelpOptions = true,
        description = {"Remove tables from the working copy (DuckLake DROP TABLE, as one snapshot); the next fdl commit publishes it, "
                + "as with git rm. Older versions keep the tables.",
                "No data file is deleted: older snapshots and versions still name them; fdl gc removes them once no live version does. "
                + "dataset.json loses the tables' resources unless they hold words no version has (then remove those yourself before committing)."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:success", "1:failure (the working catalog could not be changed)", "2:usage error (a bad table name)",
                "4:a named table does not exist in the working catalog; nothing was removed"})
final class RmCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "[schema.]table", description = "The tables to remove: name (schema main) or schema.name.")
    List<String> tables;
    @Option(names = {"-m", "--message"}, paramLabel = "<text>", description = "Recorded as the snapshot's commit message.") String message;
    @Option(names = "--json", description = "Print the result as JSON (snapshot, tables, dataset).") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        Remove.RemoveResult r;
        try (ObjectStore store = Stores.open(wc.state().root())) {
            r = Remove.run(Repository.open(store), wc, tables, message);
        }
        PrintWriter out = spec.commandLine().getOut();
        String file = r.description() == null ? "dataset.json" : r.description().getFileName().toString();
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("snapshot", r.drop().snapshot());
            ArrayNode a = o.putArray("tables");
            for (TableDrop.Dropped d : r.drop().tables()) a.addObject().put("table", d.table().toString()).put("table_id", d.tableId());
            ObjectNode ds = o.putObject("dataset");
            if (r.description() == null) ds.putNull("file");
            else ds.put("file", file);
            r.removed().forEach(ds.putArray("removed_resources")::add);
            r.kept().forEach(ds.putArray("kept_resources")::add);
            if (r.unreadable() != null) ds.put("unreadable", r.unreadable());
            Out.json(out, o);
        } else {
            List<String> names = new ArrayList<>();
            for (TableDrop.Dropped d : r.drop().tables()) names.add(d.table().toString());
            out.println("Removed " + String.join(", ", names) + " from the working copy (snapshot " + r.drop().snapshot()
                    + "); fdl commit --allow-drop -m " + ShellQuote.word(message != null ? message : "Remove " + String.join(", ", names))
                    + " publishes it. No data file was deleted.");
            if (!r.removed().isEmpty())
                out.println("Removed resource(s) " + quoted(r.removed()) + " from " + file + ".");
            out.flush();
        }
        PrintWriter err = spec.commandLine().getErr();
        if (!r.kept().isEmpty())
            err.println("fdl: warning: " + file + " still describes " + quoted(r.kept()) + " with words no version has, so they were kept; "
                    + "remove those resources from " + file + " before fdl commit, which refuses to describe a table that does not exist");
        if (r.unreadable() != null)
            err.println("fdl: warning: " + file + " was left as it is: " + r.unreadable());
        err.flush();
    }

    private static String quoted(List<String> names) {
        List<String> q = new ArrayList<>();
        for (String n : names) q.add("'" + n + "'");
        return String.join(", ", q);
    }
}
