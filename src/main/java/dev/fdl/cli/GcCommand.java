package dev.fdl.cli;

import dev.fdl.util.Plural;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.retention.Gc;
import dev.fdl.site.Site;
import dev.fdl.util.Json;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.Consumer;

/** {@code fdl gc}: deletes what no live version needs (SPEC.md section 5). */
@Command(name = "gc", mixinStandardHelpOptions = true,
        description = {"Delete data files no live version names (in any snapshot), versions no ref reaches (e.g. commits that lost a race, "
                + "the history of a deleted branch) once they were marked unreachable for the grace period, "
                + "unfinished version folders, the leftover catalogs of expired versions and leftovers of interrupted uploads, "
                + "keeping anything younger than the grace period.",
                "Live catalogs are cached in $FDL_CACHE_DIR (default ~/.cache/fdl). Safe to interrupt and re-run."})
final class GcCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    /** Below this, gc may delete what a working copy imported but has not committed (warned about). */
    static final Duration SHORT_GRACE = Duration.ofHours(1);

    @Option(names = "--grace", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "7d",
            description = "Keep data files and unfinished folders younger than this, and versions no ref reaches until this long after gc "
                    + "marked them unreachable (default: ${DEFAULT-VALUE}; 0s marks and deletes them in one run).")
    Duration grace;
    @Option(names = "--dry-run", description = "Report what would be deleted; delete nothing.") boolean dryRun;
    @Option(names = "--cache-dir", paramLabel = "<folder>",
            description = "Where live catalogs are cached (default: $FDL_CACHE_DIR, else $XDG_CACHE_HOME/fdl, else ~/.cache/fdl).")
    java.nio.file.Path cacheDir;
    @Option(names = "--json", description = "Print the report as JSON.") boolean json;
    @Option(names = {"-q", "--quiet"}, description = "No progress on the terminal.") boolean quiet;
    @Option(names = "--threads", paramLabel = "N", defaultValue = "8", description = "Concurrent deletions (default: ${DEFAULT-VALUE}).")
    int threads;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        boolean progress = Out.interactive(quiet);
        if (grace.compareTo(SHORT_GRACE) < 0) {
            // the grace period is what keeps an import that is not yet committed (in any working copy,
            // on any machine) from losing its data files; say so when it is too short to do that
            PrintWriter err = spec.commandLine().getErr();
            err.printf("warning: a grace period of %s %s the data files of imports that are not committed yet, in every working copy "
                    + "of this repository on any machine: a later commit of such a working copy fails and its import must be run again. "
                    + "Keep the default (7d) unless no one is importing.%n", DurationConverter.format(grace), dryRun ? "would delete" : "deletes");
            err.flush();
        }
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            Gc gc = new Gc(repo, CommandContext.of(spec).cache(cacheDir), CatalogFiles.duckLake(), CommandContext.of(spec).clock());
            Consumer<Gc.Progress> p = progress ? this::showProgress : x -> {};
            Gc.Report r = gc.run(new Gc.Options(grace, dryRun, Math.max(1, threads)), p);
            if (progress) System.err.print("\r\033[K");
            // pages of deleted versions (and their links) must go
            Site.SiteResult site = r.dryRun() || r.unreachableVersions().count() == 0 ? null
                    : SiteUpkeep.afterChange(repo, CommandContext.of(spec), false, r.unreachableVersions().count() + " unreachable version(s) were deleted", false,
                            spec.commandLine().getErr());
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("dry_run", r.dryRun());
                o.put("grace_seconds", grace.getSeconds());
                o.put("cutoff", r.cutoff().toString());
                o.put("live_versions", r.liveVersions());
                o.put("live_file_names", r.liveNames());
                o.put("catalogs_downloaded", r.catalogsDownloaded());
                o.put("catalogs_cached", r.catalogsCached());
                o.put("data_files_listed", r.dataListed());
                tally(o.putObject("data_files"), r.dataFiles());
                tally(o.putObject("young_unreferenced_data_files"), r.youngUnreferenced());
                tally(o.putObject("unfinished_version_folders"), r.unfinishedFolders());
                tally(o.putObject("expired_version_catalogs"), r.expiredLeftovers());
                tally(o.putObject("unreachable_versions"), r.unreachableVersions());
                ObjectNode marked = o.putObject("marked_versions");
                marked.put("count", r.marked().size());
                r.marked().forEach(marked.putArray("ids")::add);
                o.putObject("unmarked_versions").put("count", r.unmarked());
                o.put("unreachable_versions_kept", r.unreachableKept());
                if (r.firstUnreachableDue() != null) o.put("first_unreachable_due", r.firstUnreachableDue().toString());
                o.put("incomplete_uploads", r.incompleteUploads());
                if (site != null) o.put("site_pages_written", site.written());
                Out.json(out, o);
                return;
            }
            String verb = r.dryRun() ? "Would delete" : "Deleted";
            out.printf("Read %d live version(s) (%d catalog(s) downloaded, %d cached), %s; listed %s.%n",
                    r.liveVersions(), r.catalogsDownloaded(), r.catalogsCached(), Plural.grouped(r.liveNames(), "file name"),
                    Plural.grouped(r.dataListed(), "data file"));
            out.printf("%s %,d unreferenced data file(s), %s%n", verb, r.dataFiles().count(), bytes(r.dataFiles().bytes()));
            out.printf("%s %,d unreachable version(s) (marked more than %s ago), %s%n", verb, r.unreachableVersions().count(),
                    DurationConverter.format(grace), bytes(r.unreachableVersions().bytes()));
            printMarks(out, r);
            out.printf("%s %,d unfinished version folder(s), %s%n", verb, r.unfinishedFolders().count(), bytes(r.unfinishedFolders().bytes()));
            out.printf("%s %,d catalog object(s) of expired versions, %s%n", verb, r.expiredLeftovers().count(), bytes(r.expiredLeftovers().bytes()));
            if (r.incompleteUploads() > 0)
                out.printf("Removed %,d leftover(s) of interrupted uploads%n", r.incompleteUploads());
            if (r.youngUnreferenced().count() > 0)
                out.printf("Kept %,d unreferenced data file(s) younger than %s (%s)%n", r.youngUnreferenced().count(),
                        DurationConverter.format(grace), bytes(r.youngUnreferenced().bytes()));
            if (site != null) out.println(SiteUpkeep.summary(site));
            out.flush();
        }
    }

    /** Shown ids of newly marked versions; the rest are counted (all are in --json). */
    static final int SHOWN_MARKS = 20;

    /**
     * What gc marked and unmarked, and, as git does when commits are left behind, how to keep a
     * marked version (SPEC.md section 5: the grace period runs from the mark).
     */
    private void printMarks(PrintWriter out, Gc.Report r) {
        if (!r.marked().isEmpty()) {
            out.printf("%s %,d version(s) unreachable: no branch or tag reaches them any more:%n",
                    r.dryRun() ? "Would mark" : "Marked", r.marked().size());
            for (String id : r.marked().subList(0, Math.min(SHOWN_MARKS, r.marked().size()))) out.printf("  %s%n", id);
            if (r.marked().size() > SHOWN_MARKS)
                out.printf("  ... and %,d more (each has a versions/<id>/unreachable.json)%n",
                        r.marked().size() - SHOWN_MARKS);
        }
        if (r.unreachableKept() > 0) {
            out.printf("%s %,d unreachable version(s) and the data only they name: a gc deletes each once it has been marked for %s "
                            + "(the first after %s).%n", r.dryRun() ? "Would keep" : "Kept", r.unreachableKept(), DurationConverter.format(grace),
                    r.firstUnreachableDue().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            out.printf("If you want to keep one, this may be a good time to do so with:%n  fdl tag <name> <version-id>%n");
        }
        if (r.unmarked() > 0)
            out.printf("%s the mark of %,d version(s) a branch or tag reaches again%n", r.dryRun() ? "Would remove" : "Removed", r.unmarked());
    }

    private static void tally(ObjectNode o, Gc.Tally t) {
        o.put("count", t.count());
        o.put("bytes", t.bytes());
    }

    private void showProgress(Gc.Progress p) {
        System.err.printf("\r\033[Kgc: %s: %,d seen, %,d chosen", p.phase(), p.seen(), p.chosen());
        System.err.flush();
    }

    /** {@code 1234567 bytes (1.2 MB)}. */
    static String bytes(long b) {
        return b < 1000 ? b + " bytes" : String.format("%,d bytes (%s)", b, Out.size(b));
    }
}
