package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.repo.Repository;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** {@code fdl site}: writes the repository's static site into the repository (see {@link Site}). */
@Command(name = "site", mixinStandardHelpOptions = true,
        description = {"Write a static, self-contained site into the repository: the dataset page (index.html at the root), "
                + "a paginated log and a page per version with its tables, columns, rows and the DuckDB statements that attach it. "
                + "Works from any HTTP server, a bucket website or file://. Only pages whose content changed are written.",
                "The site is derived data: gc never deletes it, verify ignores it."})
final class SiteCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Option(names = "--out", paramLabel = "<key prefix>", description = "Key prefix of the site's pages (default: fdl.json's site.prefix, else site/).")
    String out;
    @Option(names = "--index", paramLabel = "<key>", description = "Key of the dataset page (default: fdl.json's site.index, else index.html).")
    String index;
    @Option(names = "--page-size", paramLabel = "N", defaultValue = "50", description = "Versions per log page (default: ${DEFAULT-VALUE}).")
    int pageSize;
    @Option(names = "--auto", arity = "1", paramLabel = "true|false",
            description = "Also record in fdl.json whether every fdl commit regenerates the site (and with which --out/--index).")
    Boolean auto;
    @Option(names = "--no-stat", description = "Leave out each version's change over its parent: no catalog is read "
            + "(its first run on a long history otherwise reads every live version's catalog, as fdl log --stat).")
    boolean noStat;
    @Option(names = "--json", description = "Print what was written as JSON.") boolean json;

    @Override
    public void run() {
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = repoOption.open(store);
            SiteOptions configured = SiteOptions.of(repo.config());
            SiteOptions options = new SiteOptions(out == null ? configured.prefix() : out,
                    index == null ? configured.indexKey() : index, pageSize);
            if (auto != null) repo = Site.saveSetting(repo, auto, options);
            Site.SiteResult r = Site.write(repo, options, noStat ? null : CommandContext.of(spec).cache(), CommandContext.of(spec).duckDb());
            PrintWriter pw = spec.commandLine().getOut();
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("index", store.location(options.indexKey()));
                o.put("prefix", options.prefix());
                o.put("pages", r.pages());
                o.put("written", r.written());
                o.put("unchanged", r.unchanged());
                o.put("removed", r.removed());
                if (auto != null) o.put("auto", auto);
                Out.json(pw, o);
                return;
            }
            pw.println("site: " + r.pages() + " pages, " + r.written() + " written, " + r.unchanged() + " unchanged"
                    + (r.removed() > 0 ? ", " + r.removed() + " removed" : "") + "; open " + store.location(options.indexKey()));
            if (auto != null)
                pw.println(auto ? "every fdl commit now regenerates the site (fdl.json site.auto)" : "fdl commit no longer regenerates the site");
            pw.flush();
        }
    }
}
