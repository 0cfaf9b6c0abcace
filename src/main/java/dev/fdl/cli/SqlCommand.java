package dev.fdl.cli;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.ducklake.read.WorkingCopySql;

import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/** {@code fdl sql}: SQL on the working copy with DuckDB's DuckLake extension. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Run SQL on the working copy with DuckDB's DuckLake extension (attached as 'lake', data going to the repository).",
                "Needs the ducklake and sqlite extensions installed; without them, load data with fdl import. DuckLake's own file cleanup is refused."})
final class SqlCommand implements Runnable {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Parameters(index = "0", paramLabel = "<sql>") String sql;
    @Option(names = "--csv", description = "Print CSV.") boolean csv;
    @Option(names = "--json", description = "Print JSON.") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            CommandContext context = CommandContext.of(spec);
            QueryResult r = new WorkingCopySql(context.duckDb(), context.extensions()).run(wc.catalog(), repo.dataLocation(), sql);
            PrintWriter out = spec.commandLine().getOut();
            if (r == null) out.println("OK");
            else if (json) ResultPrinter.json(out, r);
            else if (csv) ResultPrinter.csv(out, r);
            else ResultPrinter.table(out, r);
            out.flush();
        }
    }
}
