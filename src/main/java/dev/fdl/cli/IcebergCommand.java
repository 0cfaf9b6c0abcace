package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fdl.FdlException;
import dev.fdl.iceberg.IcebergHistory;
import dev.fdl.iceberg.IcebergLocation;
import dev.fdl.iceberg.IcebergMetadataWriter;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code fdl iceberg}: Iceberg metadata for existing versions, and the repository's Iceberg keys (docs/iceberg.md). */
@Command(name = "iceberg", mixinStandardHelpOptions = true,
        description = {"Write Iceberg metadata (format 2) for versions, beside them: one Iceberg table per DuckLake table over the same Parquet files.",
                "A version's existing files are never changed; a table already described is left as it is.",
                "With --enable, every later fdl commit writes it too (fdl.json \"iceberg\": true).",
                "Then rewrites each table's Iceberg history (iceberg/<schema>/<table>/): every retained version as a snapshot, branches and tags as refs."})
final class IcebergCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(arity = "0..*", paramLabel = "<ref-or-version>",
            description = "Versions to describe. Default: inside a working copy its branch, else HEAD.") List<String> targets;
    @Option(names = "--all", description = "Describe every retained version a branch or tag reaches (through every parent), oldest first; expired versions are left out.") boolean all;
    @Option(names = "--enable", description = "Set fdl.json \"iceberg\": true: fdl commit writes each new version's Iceberg metadata.") boolean enable;
    @Option(names = "--disable", description = "Set fdl.json \"iceberg\": false.") boolean disable;
    @Option(names = "--published-at", paramLabel = "<url>",
            description = "Set fdl.json \"iceberg_location\": the root URL readers reach the repository at (default: its own root).") String publishedAt;
    @Option(names = "--location", paramLabel = "<url>", description = "With --out: the root URL of a mirror the copy's metadata names files under.") String location;
    @Option(names = "--out", paramLabel = "<folder>", description = "Write a copy of the metadata into this folder (laid out as the repository), for a mirror at --location.") Path out;

    @Override
    public void run() {
        if (enable && disable) throw FdlException.usage("give either --enable or --disable, not both");
        if (all && targets != null && !targets.isEmpty()) throw FdlException.usage("give either --all or versions to describe, not both");
        if ((location == null) != (out == null)) throw FdlException.usage("--location and --out go together: the copy in --out names files under --location");
        PrintWriter w = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            boolean configOnly = (enable || disable || publishedAt != null) && (targets == null || targets.isEmpty()) && !all;
            if (enable || disable || publishedAt != null) repo = configure(repo, w);
            if (configOnly) return;
            String root = IcebergLocation.of(store, repo.config(), location);
            if (out == null) repo.requireWritable("write Iceberg metadata");
            try (ObjectStore target = out == null ? null : Stores.open(createFolder(out).toString())) {
                IcebergMetadataWriter.Target where = new IcebergMetadataWriter.Target(target == null ? store : target, "", root);
                List<String> which = all ? retained(repo) : targets == null || targets.isEmpty() ? java.util.Collections.singletonList(null) : targets;
                for (String t : which) write(repo, t, where, w);
            }
            if (out == null) history(repo, w);
        }
    }

    /** The ids of every finished, unexpired version a ref reaches through every parent, oldest first (created time, then seq). */
    private static List<String> retained(Repository repo) {
        List<String> ids = new ArrayList<>();
        for (VersionInfo v : IcebergHistory.reachedOldestFirst(repo, new java.util.HashMap<>())) {
            if (repo.readExpired(v.id()).isEmpty()) ids.add(v.id());
        }
        return ids;
    }

    private Repository configure(Repository repo, PrintWriter w) {
        repo.requireWritable("change fdl.json");
        RepoConfig c = repo.config();
        boolean already = (enable || disable) && c.iceberg() == enable;
        if (enable || disable) c = c.withExtra(RepoConfig.ICEBERG, BooleanNode.valueOf(enable));
        if (publishedAt != null) {
            IcebergLocation.check("--published-at", publishedAt); // before anything is written
            c = c.withExtra(RepoConfig.ICEBERG_LOCATION, TextNode.valueOf(publishedAt));
        }
        Repository saved = repo.saveConfig(c);
        if (enable || disable) w.println("fdl commit " + (already ? "already " : "") + (enable ? "writes" : (already ? "writes no" : "no longer writes"))
                + " Iceberg metadata for new versions (fdl.json \"iceberg\": " + enable + ")");
        if (enable && !already && !all && (targets == null || targets.isEmpty())) w.println("  to describe the versions already there: fdl iceberg --all");
        if (publishedAt != null) w.println("Iceberg metadata written from now on names files under " + publishedAt
                + " (fdl.json \"iceberg_location\"); versions already described keep the root they were written with");
        w.flush();
        return saved;
    }

    private void write(Repository repo, String target, IcebergMetadataWriter.Target where, PrintWriter w) {
        CommandContext ctx = CommandContext.of(spec);
        DefaultRef which = DefaultRef.forArgument(ctx.cwd().get(), repo, target, spec.commandLine().getErr());
        Resolved r = repo.resolve(which.spec());
        Path catalog = ctx.cache().versionCatalog(repo, r.version());
        Path scratch = createFolder(ctx.cache().dir().resolve("tmp"));
        List<IcebergMetadataWriter.TableWritten> tables = new IcebergMetadataWriter(ctx.duckDb(), repo)
                .write(r.version().id(), catalog, where, scratch);
        List<String> lines = new ArrayList<>();
        for (IcebergMetadataWriter.TableWritten t : tables) {
            String elsewhere = t.skipped() ? IcebergLocation.writtenElsewhere(where.store(), t.metadataKey(), where.location()).orElse(null) : null;
            lines.add("  " + t.table() + ": " + t.metadataKey() + (elsewhere != null ? " (there already, naming its files under "
                    + elsewhere + "/ as written then; a version's files are not rewritten: for readers at " + where.location()
                    + ", write a copy with fdl iceberg " + repoOption.pastedWords(repo.store()) + "--location "
                    + dev.fdl.util.ShellQuote.word(where.location()) + " --out <folder> " + r.version().id() + ")"
                    : t.skipped() ? " (there already)"
                    : t.extraBytes() > 0 ? " (delete and inlined-row files: " + t.extraBytes() + " bytes)" : ""));
        }
        w.println("Version " + r.version().id() + which.label(ctx.cwd().get(), repo, r, spec.commandLine().getErr()) + ": "
                + tables.size() + " Iceberg table(s)" + (where.location().isEmpty() ? "" : " under " + where.location()));
        lines.forEach(w::println);
        w.flush();
    }

    /** Rewrites the history of every table (docs/iceberg.md, "History") and prints one line per table. */
    private static void history(Repository repo, PrintWriter w) {
        List<IcebergHistory.Written> tables = new IcebergHistory(repo).rewrite();
        w.println("Iceberg history: " + tables.size() + " table(s)");
        for (IcebergHistory.Written t : tables)
            w.println("  " + t.table() + ": " + t.metadataKey() + " (" + t.snapshots() + " snapshot(s), " + t.refs() + " ref(s))");
        w.flush();
    }

    private static Path createFolder(Path p) {
        try {
            return Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create folder " + p, e);
        }
    }
}
