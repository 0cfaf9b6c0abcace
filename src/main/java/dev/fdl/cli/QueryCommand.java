package dev.fdl.cli;

import dev.fdl.util.ShellQuote;
import dev.fdl.FdlException;
import dev.fdl.ducklake.read.CatalogQuery;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** {@code fdl query}: read-only SQL over a version (or the working copy) at a snapshot. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Run read-only SQL over a version (default: inside a working copy its branch, else HEAD) or the working copy, at its newest snapshot or --snapshot N.",
                "Each table is a view (schema.table; main's tables also bare). Uses DuckDB's DuckLake extension when it can be loaded, else fdl's built-in reader."})
final class QueryCommand implements Runnable {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Mixin RepoOption repoOption;

    @Parameters(arity = "1..2", paramLabel = "[<ref-or-version>] <sql>") List<String> args;
    @Option(names = "--working", description = "Query the working copy's catalog, uncommitted snapshots included.") boolean working;
    @Option(names = "--snapshot", paramLabel = "N", description = "Time travel to DuckLake snapshot N of the catalog.") Long snapshot;
    @Option(names = "--csv", description = "Print CSV (RFC 4180 quoting, \\n line ends).") boolean csv;
    @Option(names = "--crlf", description = "With --csv: end lines with \\r\\n (RFC 4180's CRLF) instead of \\n.") boolean crlf;
    @Option(names = "--json", description = "Print JSON (an array of objects).") boolean json;

    @Override
    public void run() {
        if (json && csv) throw FdlException.usage("give either --json or --csv, not both");
        if (crlf && !csv) throw FdlException.usage("--crlf goes with --csv");
        if (snapshot != null && snapshot < 0)
            throw FdlException.usage("invalid --snapshot " + snapshot + ": DuckLake snapshot ids are 0 or more (fdl show names the snapshots of a version)");
        String ref = args.size() == 2 ? args.get(0) : null;
        String sql = args.get(args.size() - 1);
        if (working && ref != null) throw FdlException.usage("give either --working or a ref, not both");
        CatalogQuery.Answer answer;
        String header = null;
        if (working) {
            WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
            Path tmp = wc.tmp().resolve("query-" + ProcessHandle.current().pid() + ".duckdb");
            try (ObjectStore store = Stores.open(wc.state().root())) {
                Repository repo = Repository.open(store);
                try (ReadableCatalog catalog = ReadableCatalog.working(wc.catalog(), tmp)) {
                    answer = query().run(new CatalogQuery.Request(catalog.catalog(), store, repo.dataDir(),
                            CommandContext.of(spec).cache().dataFolder(repo), snapshot, sql));
                }
            } catch (FdlException e) {
                // the scratch copy is fdl's business: name what the user queried
                String file = "\\S*" + java.util.regex.Pattern.quote(tmp.getFileName().toString());
                throw new FdlException(e.kind(), e.getMessage().replaceAll("catalog " + file, "the working copy")
                        .replaceAll(file, "the working copy's catalog"), e);
            }
        } else {
            try (ObjectStore store = repoOption.openStore()) {
                Repository repo = Repository.open(store);
                DefaultRef which = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, ref, spec.commandLine().getErr());
                if (which.description() != null) header = which.description() + ", version ";
                Resolved r = repo.resolve(which.spec());
                if (header != null) header += r.version().id();
                Path catalog = CommandContext.of(spec).cache().versionCatalog(repo, r.version());
                try {
                    answer = query().run(new CatalogQuery.Request(catalog, store, repo.dataDir(), CommandContext.of(spec).cache().dataFolder(repo), snapshot,
                            sql));
                } catch (FdlException e) {
                    throw aboutVersion(e, repo, r.version(), catalog);
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) ResultPrinter.json(out, answer.result());
        else if (csv) ResultPrinter.csv(out, answer.result(), crlf ? "\r\n" : "\n");
        else {
            if (header != null) Out.context(spec.commandLine().getErr(), header);
            ResultPrinter.table(out, answer.result());
        }
        out.flush();
    }

    /** The reader's error, worded for the version the user named rather than the cached file. */
    /** The query runner of this run's DuckDB pool and extension setting. */
    private CatalogQuery query() {
        CommandContext context = CommandContext.of(spec);
        return new CatalogQuery(context.duckDb(), context.extensions());
    }

    private FdlException aboutVersion(FdlException e, Repository repo, dev.fdl.repo.VersionInfo v, Path catalog) {
        String msg = e.getMessage().replace("catalog " + catalog, "version " + v.id())
                .replace(catalog.toString(), "the catalog of version " + v.id());
        if (snapshot != null && snapshot < v.ducklake().firstSnapshot()) {
            // each version keeps only its own snapshots: name the one that keeps this snapshot
            java.util.Optional<dev.fdl.repo.VersionInfo> holder = repo.versionKeepingSnapshot(v, snapshot);
            java.util.Optional<dev.fdl.repo.ExpiredInfo> expired = holder.flatMap(h -> repo.readExpired(h.id()));
            if (holder.isEmpty())
                msg += "; no version of its history keeps snapshot " + snapshot;
            else if (expired.isPresent())
                msg += "; snapshot " + snapshot + " is kept by version " + holder.get().id() + ", which expired at "
                        + expired.get().expiredAt() + " (its catalog is deleted)";
            else
                msg += "; snapshot " + snapshot + " is kept by version " + holder.get().id() + ": fdl query --snapshot " + snapshot
                        + " " + ShellQuote.word(holder.get().id()) + " \"...\"";
        }
        return new FdlException(e.kind(), msg, e);
    }
}
