package dev.fdl.cli;

import dev.fdl.util.Plural;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.load.FileRegistration;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code fdl add-files}: Parquet files already in the data folder registered as a table's data files, in one snapshot, not copied. */
@Command(name = "add-files", mixinStandardHelpOptions = true,
        description = {"Register Parquet files already inside the repository's data folder (written there by Spark, Trino, dbt or DuckDB jobs) "
                + "as data files of a table in the working copy, as one DuckLake snapshot, without copying them.",
                "Row counts and column statistics are read from the files' footers. Each file must hold the table's columns with their "
                        + "column ids as Parquet field ids, names and types (--create takes them from the first file). "
                        + "See docs/other-engines.md."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:success", "1:a file was refused (outside the data folder, no field ids, a column that does not match); nothing changed",
                "2:usage error (also: run outside a working copy)", "4:the table does not exist (use --create); a named file is not in the data folder"})
final class AddFilesCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "<key|glob|folder>",
            description = "Files by their path under the data folder (spark/run-7/part-0.parquet; data/… is read from the root), a quoted glob "
                    + "of such paths ('spark/run-7/*.parquet', ** across folders), a folder of them, or, for a repository in a local folder, "
                    + "a file's path inside its data folder.")
    List<String> files;
    @Option(names = {"-t", "--table"}, required = true, paramLabel = "[schema.]name", description = "The table the files become part of.")
    String table;
    @Option(names = "--create", description = "Create the table from the first file's columns (their field ids become the column ids).")
    boolean create;
    @Option(names = {"-m", "--message"}, paramLabel = "<text>", description = "Recorded as the snapshot's commit message.") String message;
    @Option(names = "--no-key", description = "Drop the table's recorded key (import --mode sync --key) instead of refusing files whose rows "
            + "would repeat it or leave it NULL; fdl diff then compares whole rows.") boolean noKey;
    @Option(names = {"-q", "--quiet"}, description = "Show no progress (shown only on a terminal anyway).") boolean quiet;
    @Option(names = "--json", description = "Print the result as one JSON object: table, snapshot, files (their keys), rows, bytes, created_table, columns.")
    boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        CommandContext context = CommandContext.of(spec);
        Path scratch = null;
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            List<String> keys = FileRegistration.keys(store, repo.dataDir(), files, CommandContext.of(spec).cwd().get(), table, create);
            scratch = Files.createTempDirectory("fdl-add-files-");
            FileRegistration.RegistrationResult r = new FileRegistration(context.duckDb()).register(
                    new FileRegistration.Request(wc.catalog(), store, repo.dataDir(), keys, table, create, message,
                            Progress.data(quiet, spec.commandLine().getErr()), noKey), scratch);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("table", r.table().toString());
                o.put("snapshot", r.snapshot());
                ArrayNode f = o.putArray("files");
                r.keys().forEach(f::add);
                o.put("rows", r.rows());
                o.put("bytes", r.bytes());
                o.put("created_table", r.createdTable());
                ArrayNode cols = o.putArray("columns");
                for (ImportResult.Column c : r.columns()) cols.addObject().put("name", c.name()).put("type", c.type());
                Out.json(out, o);
                return;
            }
            out.println("Added " + r.keys().size() + " file(s) of " + Plural.of(r.rows(), "row") + " (" + Out.size(r.bytes()) + ") to " + r.table()
                    + " (snapshot " + r.snapshot() + "); nothing was copied" + (r.createdTable() ? "; created the table" : ""));
            out.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            dev.fdl.ducklake.load.Importer.deleteTree(scratch);
        }
    }
}
