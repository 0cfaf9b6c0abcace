package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.cache.CatalogCache;
import dev.fdl.retention.Expire;
import dev.fdl.util.Json;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;

/** {@code fdl expire}: takes old versions out of retention (SPEC.md section 5). */
@Command(name = "expire", mixinStandardHelpOptions = true,
        description = {"Take versions out of retention: keep the newest N finished versions and every version a branch or tag points at; "
                + "mark the others expired (expired.json) and delete their catalogs. Data files are left to fdl gc.",
                "Re-running after an interruption finishes the job."})
final class ExpireCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Option(names = "--keep", required = true, paramLabel = "N", description = "How many of the newest versions stay in retention.")
    int keep;
    @Option(names = "--older-than", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Only expire versions created longer ago than this (30d, 12h, 2w).")
    Duration olderThan;
    @Option(names = "--dry-run", description = "Show what would be expired; change nothing.") boolean dryRun;
    @Option(names = "--json", description = "Print the result as JSON.") boolean json;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            Expire.Report r = new Expire(repo, Clock.systemUTC(), CatalogCache.fromEnvironment()).run(new Expire.Options(keep, olderThan, dryRun));
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("dry_run", r.dryRun());
                o.put("kept", r.kept());
                ArrayNode a = o.putArray("expired");
                for (Expire.Expired e : r.expired()) {
                    ObjectNode x = a.addObject();
                    x.put("id", e.id());
                    x.put("created_at", e.createdAt() == null ? null : e.createdAt().toString());
                    x.put("expired_at", e.expiredAt() == null ? null : e.expiredAt().toString());
                    x.put("catalog_objects_deleted", e.catalogDeleted());
                    x.put("resumed", e.resumed());
                }
                Out.json(out, o);
                return;
            }
            String verb = r.dryRun() ? "Would expire " : "Expired ";
            for (Expire.Expired e : r.expired())
                out.println(verb + e.id() + (e.createdAt() == null ? "" : " (created " + e.createdAt() + ")")
                        + (e.resumed() ? " [finishing an earlier expire]" : ""));
            out.println((r.dryRun() ? "Would expire " : "Expired ") + r.expired().size() + " version(s); "
                    + r.kept() + " in retention. Data files are deleted by fdl gc after the grace period.");
            out.flush();
        }
    }
}
