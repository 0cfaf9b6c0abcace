package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.cache.CatalogCache;
import dev.fdl.util.Json;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fdl cache}: what the local cache of catalogs and mirrored data files holds, per
 * repository; {@code fdl cache clear} deletes a repository's entries (or all). Everything in the
 * cache is immutable and fetched again when needed, so clearing it loses nothing.
 */
@Command(name = "cache", mixinStandardHelpOptions = true, subcommands = CacheCommand.Clear.class,
        description = {"Show what the local cache holds: version catalogs (read by query, attach, checkout, gc) and data files "
                + "mirrored from remote repositories, per repository id.",
                "The cache is $FDL_CACHE_DIR, else $XDG_CACHE_HOME/fdl, else ~/.cache/fdl. Use 'fdl cache clear' to free the space."})
final class CacheCommand implements Runnable {
    @Spec CommandSpec spec;

    @Option(names = "--cache-dir", paramLabel = "<folder>", description = "The cache folder (default: as above).")
    Path cacheDir;
    @Option(names = "--json", description = "Print as JSON.") boolean json;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        CatalogCache cache = CommandContext.of(spec).cache(cacheDir);
        List<CatalogCache.Usage> usage = cache.usage();
        long total = usage.stream().mapToLong(CatalogCache.Usage::totalBytes).sum();
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("cache_dir", cache.dir().toString());
            o.put("bytes", total);
            ArrayNode a = o.putArray("repositories");
            for (CatalogCache.Usage u : usage) {
                a.addObject().put("id", u.folder()).put("versions", u.versions()).put("catalog_bytes", u.catalogBytes())
                        .put("data_bytes", u.dataBytes()).put("bytes", u.totalBytes());
            }
            Out.json(out, o);
            return;
        }
        out.println("Cache folder: " + cache.dir());
        if (usage.isEmpty()) {
            out.println("Nothing cached.");
        } else {
            out.printf("%-40s %8s %14s %14s%n", "REPOSITORY", "VERSIONS", "CATALOGS", "DATA FILES");
            for (CatalogCache.Usage u : usage) {
                out.printf("%-40s %8d %14s %14s%n", u.folder(), u.versions(), Out.size(u.catalogBytes()), Out.size(u.dataBytes()));
            }
            out.println("Total: " + GcCommand.bytes(total));
        }
        out.flush();
    }

    /** {@code fdl cache clear}: deletes the cached entries of the repository, or of all with {@code --all}. */
    @Command(name = "clear", mixinStandardHelpOptions = true,
            description = {"Delete the cached catalogs and mirrored data files of the repository (--repo, FDL_REPO or the working copy's), "
                    + "or of every repository with --all. Nothing is lost: entries are fetched again when needed."})
    static final class Clear implements Runnable {
        @Spec CommandSpec spec;
        @Mixin RepoOption repoOption;

        @Option(names = "--all", description = "Clear the entries of every repository.") boolean all;
        @Option(names = "--cache-dir", paramLabel = "<folder>", description = "The cache folder (default: $FDL_CACHE_DIR, else $XDG_CACHE_HOME/fdl, else ~/.cache/fdl).")
        Path cacheDir;
        @Option(names = "--json", description = "Print as JSON.") boolean json;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            CatalogCache cache = CommandContext.of(spec).cache(cacheDir);
            long freed;
            String what;
            if (all) {
                if (repoOption.repo != null && !repoOption.repo.isBlank()) {
                    throw FdlException.usage("give either --all or a repository, not both");
                }
                freed = cache.clearAll();
                what = "every repository";
            } else {
                String id;
                try (ObjectStore store = repoOption.openStore()) {
                    id = Repository.open(store).config().id();
                }
                freed = cache.clear(id);
                what = "repository " + id;
            }
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("cache_dir", cache.dir().toString());
                o.put("cleared", all ? "all" : what.substring("repository ".length()));
                o.put("bytes_freed", freed);
                Out.json(out, o);
            } else {
                out.println(freed == 0 ? "Nothing cached for " + what + " in " + cache.dir()
                        : "Freed " + GcCommand.bytes(freed) + " cached for " + what + " in " + cache.dir());
                out.flush();
            }
        }
    }
}
