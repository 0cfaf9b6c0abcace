package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.repo.AttachStatements;
import dev.fdl.iceberg.IcebergLocation;
import dev.fdl.iceberg.IcebergReaders;
import dev.fdl.util.Json;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.List;

/** {@code fdl attach}: the DuckDB statements that attach a version with the DuckLake extension. */
@Command(name = "attach", mixinStandardHelpOptions = true,
        description = {"Print the DuckDB statements a reader runs to attach a version (read-only) with the DuckLake extension.",
                "DATA_PATH/OVERRIDE_DATA_PATH name the data folder under the repository's root as given (a moved or copied repository reads from where it is),",
                "or with --root-url (e.g. a public HTTPS mirror of the repository) the catalog and data are read there."})
final class AttachCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<ref-or-version>",
            description = "Default: inside a working copy its branch, else HEAD. Takes <ref>~N, <ref>^N, <ref>@{YYYY-MM-DD}.") String target;
    @Option(names = "--root-url", paramLabel = "<url>", description = "The root readers reach the repository at, if not --repo.") String rootUrl;
    @Option(names = "--as", paramLabel = "<name>", defaultValue = "lake", description = "Database name (default: ${DEFAULT-VALUE}).") String alias;
    @Option(names = "--json", description = "Print as JSON.") boolean json;
    @Option(names = "--iceberg", description = "Print what Spark, Trino, DuckDB (iceberg_scan), pyiceberg and Snowflake run to read the version's Iceberg tables (fdl iceberg writes them).") boolean iceberg;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            DefaultRef which = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, target, spec.commandLine().getErr());
            Resolved r = repo.resolve(which.spec());
            List<String> sql = iceberg ? icebergStatements(repo, r) : AttachStatements.of(repo, r.version(), rootUrl, alias);
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("version", r.version().id());
                ArrayNode a = o.putArray("statements");
                sql.stream().filter(l -> !l.isEmpty()).forEach(a::add); // the empty lines only part the readers' groups
                Out.json(out, o);
                return;
            }
            // the heading is a comment in the language of the lines after it: the shell's, before Spark's spark-sql line
            out.println((iceberg ? "# version " : "-- version ") + r.version().id()
                    + which.label(CommandContext.of(spec).cwd().get(), repo, r, spec.commandLine().getErr())
                    + (iceberg ? ", its Iceberg tables:" : ", DuckDB with the DuckLake extension:"));
            sql.forEach(out::println);
            out.flush();
        }
    }

    /** The readers' lines for the version's Iceberg tables; a warning for each table whose metadata names its files under another root. */
    private List<String> icebergStatements(Repository repo, Resolved r) {
        if (rootUrl != null) IcebergLocation.check("--root-url", rootUrl);
        String root = IcebergLocation.of(repo.store(), repo.config(), rootUrl);
        String pasted = repoOption.pastedWords(repo.store());
        List<IcebergReaders.Table> tables = IcebergReaders.tables(repo, r.version(), root,
                () -> CommandContext.of(spec).cache().versionCatalog(repo, r.version()), pasted);
        PrintWriter err = spec.commandLine().getErr();
        for (IcebergReaders.Table t : tables) {
            IcebergLocation.writtenElsewhere(repo.store(), t.metadataKey(), root).ifPresent(l -> err.println("warning: the Iceberg metadata of "
                    + t.schema() + "." + t.table() + " names its files under " + l + "/ (the root it was written for), not under " + root
                    + "; for readers that cannot reach it, write a copy with fdl iceberg " + pasted + "--location "
                    + dev.fdl.util.ShellQuote.word(root) + " --out <folder> "
                    + r.version().id()));
        }
        err.flush();
        return IcebergReaders.statements(tables);
    }
}
