package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.util.List;

/** {@code fdl show}: one version's description (version.json), expired ones included. */
final class ShowCommand implements Runnable {
    private CommandSpec spec;

    /** The picocli model of {@code fdl show}, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec spec() {
        ShowCommand c = new ShowCommand();
        c.spec = Specs.command("show", c,
                "Show a version: id, parents, author, message, catalog and DuckLake snapshots; marks it if expired.");
        c.spec.addPositional(Specs.optionalPositional(0, "<ref-or-version>",
                "Default: inside a working copy its branch, else HEAD. Takes <ref>~N, <ref>^N, <ref>@{YYYY-MM-DD}."));
        c.spec.addOption(Specs.flag("Print version.json (plus expired_at when expired) as JSON.", "--json"));
        c.spec.addOption(Specs.flag("After the message, per table the rows added and removed over the first parent (a changed row "
                + "counts as both), as git show --stat lists files and fdl log --stat tables; from the catalogs alone: no data file is read. "
                + "With --json: stat, as in fdl log --stat --json.", "--stat"));
        c.spec.addOption(RepoOption.spec());
        return c.spec;
    }

    @Override
    public void run() {
        ParseResult given = spec.commandLine().getParseResult();
        String target = given.matchedPositionalValue(0, null);
        boolean json = given.hasMatchedOption("--json");
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = RepoOption.of(given).openStore()) {
            Repository repo = Repository.open(store);
            DefaultRef which = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, target, spec.commandLine().getErr());
            Resolved r = repo.resolveAllowingExpired(which.spec());
            VersionInfo v = r.version();
            // an expired version's catalog is deleted: it has no change to count
            List<dev.fdl.repo.ParentStat.TableStat> stat = !given.hasMatchedOption("--stat") || r.isExpired() ? null
                    : new dev.fdl.repo.ParentStat(repo, CommandContext.of(spec).cache()).of(v);
            if (json) {
                ObjectNode o = v.toJson();
                if (r.isExpired()) o.put("expired_at", r.expired().expiredAt().toString());
                if (stat != null) dev.fdl.repo.ParentStat.TableStat.toJson(o.putArray("stat"), stat);
                Out.json(out, o);
                return;
            }
            if (which.description() != null) Out.context(spec.commandLine().getErr(), which.description());
            String deco = LogCommand.decoration(LogCommand.decorations(repo, r, spec.commandLine().getErr()).getOrDefault(v.id(), List.of()),
                    DefaultRef.checkedOutBranch(CommandContext.of(spec).cwd().get(), repo));
            out.println("version " + v.id() + deco + (r.isExpired() ? " [expired " + r.expired().expiredAt() + "]" : ""));
            if (v.parents().size() > 1) out.println("Merge:     " + LogCommand.mergeLine(v)); // as git show prints a merge
            out.println("Author:    " + v.author());
            out.println("Date:      " + v.createdAt());
            new dev.fdl.trust.SignatureLine(repo).of(v.id()).ifPresent(line -> out.println("Signed:    " + line));
            out.println("Seq:       " + v.seq());
            out.println("Parents:   " + (v.parents().isEmpty() ? "(none)" : String.join(", ", v.parents())));
            out.println("Catalog:   " + RepoLayout.versionFile(v.id(), v.catalog().path()) + "  " + v.catalog().bytes()
                    + " bytes  " + v.catalog().storage() + "  sha256 " + v.catalog().sha256()
                    + (r.isExpired() ? "  (deleted on expiry)" : ""));
            out.println("Dataset:   " + RepoLayout.versionFile(v.id(), v.dataset().path()) + "  " + v.dataset().bytes() + " bytes");
            out.println("DuckLake:  format " + v.ducklake().format() + ", snapshots " + v.ducklake().firstSnapshot()
                    + ".." + v.ducklake().lastSnapshot() + " (newest " + v.ducklake().snapshotId() + ")");
            v.checks().ifPresent(c -> out.println("Checks:    " + c.path("checked").asLong() + " checked (" + c.path("mode").asText()
                    + "): " + c.path("passed").asLong() + " passed, " + c.path("warned").asLong() + " warned"));
            for (String w : v.checkWarnings()) out.println("  warning: " + w);
            out.println();
            for (String line : v.message().split("\n", -1)) out.println("    " + line);
            if (stat != null) {
                out.println();
                LogCommand.statLines(stat).forEach(out::println);
            }
            out.flush();
        }
    }
}
