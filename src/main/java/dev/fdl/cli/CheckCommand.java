package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.check.ChangeGuards;
import dev.fdl.check.CheckReport;
import dev.fdl.check.CheckResult;
import dev.fdl.check.Checks;
import dev.fdl.check.Hook;
import dev.fdl.check.RepoChecks;
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
import java.time.Duration;

/** {@code fdl check}: the checks of docs/checks.md on a version or the working copy. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Run the checks of dataset.json (constraints, primaryKey, foreignKeys, fdl:checks), the change guards against the parent "
                + "version and, with --working, the pre-commit hooks, on a version (default: inside a working copy its branch, else HEAD) or the working copy.",
                "Reports per check passed, warned or failed, the count and the first 10 offending rows. Exit 1 when a check failed."})
final class CheckCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(arity = "0..1", paramLabel = "<ref-or-version>") String ref;
    @Option(names = "--working", description = "Check the working copy (uncommitted snapshots and dataset.json), as fdl commit would.") boolean working;
    @Option(names = "--full", description = "Check every row, even where the parent version's checks allow checking only the rows added since.") boolean full;
    @Option(names = "--json", description = "Print the report as JSON.") boolean json;
    @Option(names = "--allow-drop", description = "A dropped table is meant (reported as a warning).") boolean allowDrop;
    @Option(names = "--allow-schema-change", description = "A dropped or retyped column is meant.") boolean allowSchemaChange;
    @Option(names = "--allow-shrink", description = "Removing more than a table's share of rows (fdl:max_shrink, default 10%%) is meant.") boolean allowShrink;
    @Option(names = "--hook-timeout", paramLabel = "<duration>", converter = DurationConverter.class,
            description = "How long each hook may run (e.g. 30s, 5m; default 5m).") Duration hookTimeout;

    @Override
    public void run() {
        if (working && ref != null) throw FdlException.usage("give either --working or a ref, not both");
        CommandContext ctx = CommandContext.of(spec);
        PrintWriter err = spec.commandLine().getErr();
        Checks.Options options = options(full, new ChangeGuards.Allow(allowDrop, allowSchemaChange, allowShrink), hookTimeout);
        RepoChecks checks = new RepoChecks(new RepoChecks.Env(ctx.duckDb(), ctx.cache(), options, ctx.userConfig().isTrue("hooks.trust"), err));
        CheckReport report;
        String what;
        if (working) {
            WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
            try (ObjectStore store = Stores.open(wc.state().root())) {
                report = checks.working(Repository.open(store), wc);
                what = "the working copy";
            }
        } else {
            try (ObjectStore store = repoOption.openStore()) {
                Repository repo = Repository.open(store);
                DefaultRef which = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, ref, err);
                Resolved r = repo.resolve(which.spec());
                report = checks.version(repo, r.version());
                what = "version " + r.version().id();
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ObjectNode o = report.toJson();
            Out.json(out, o);
        } else {
            Out.context(err, "checks of " + what);
            print(out, report);
        }
        out.flush();
        if (!report.failed().isEmpty())
            throw new FdlException(report.failed().size() + " check(s) failed" + (json ? "" : " (listed above)"));
    }

    /** The options of a check run, from the flags {@code fdl check} and {@code fdl commit} share. */
    static Checks.Options options(boolean full, ChangeGuards.Allow allow, Duration hookTimeout) {
        return new Checks.Options(full, allow, hookTimeout == null ? Hook.DEFAULT_TIMEOUT : hookTimeout);
    }

    /** One line per check (with its detail and first rows below), then the totals. */
    static void print(PrintWriter out, CheckReport report) {
        for (CheckResult r : report.results()) out.println(r.describe());
        out.println(report.results().size() + " checks: " + (report.results().size() - report.failed().size() - report.warned().size())
                + " passed, " + report.warned().size() + " warned, " + report.failed().size() + " failed"
                + (report.incremental() ? " (row constraints that held at the parent checked on added rows only; --full checks every row)" : ""));
    }
}
