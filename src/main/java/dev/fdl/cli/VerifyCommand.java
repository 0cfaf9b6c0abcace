package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.util.Json;
import dev.fdl.repo.Repository;
import dev.fdl.retention.Verify;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** {@code fdl verify}: checks the whole repository and lists every problem (exit 1 if any). */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check the whole repository: refs point at finished, unexpired versions; version.json files parse and their parents exist; "
                + "live catalogs and dataset.json match the sizes and SHA-256 version.json records; every file a live catalog names exists in the data folder.",
                "Lists every problem and exits 1 if there is any."})
final class VerifyCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Option(names = "--cache-dir", paramLabel = "<folder>",
            description = "Where live catalogs are cached (default: $FDL_CACHE_DIR, else $XDG_CACHE_HOME/fdl, else ~/.cache/fdl).")
    java.nio.file.Path cacheDir;
    @Option(names = "--json", description = "Print the report as JSON.") boolean json;
    @Option(names = {"-q", "--quiet"}, description = "No progress on the terminal.") boolean quiet;
    @Option(names = "--signatures", description = "Instead: check versions' signatures against the allowed signers, and every file "
            + "their digest manifests list against the store (docs/signing.md). Works over HTTP(S) too (with a ref).") boolean signatures;
    @Option(names = "--all", description = "With --signatures: every finished version, not only the ref's.") boolean all;
    @Option(names = "--allowed-signers", paramLabel = "<file>", description = "With --signatures: this local allowed-signers file "
            + "(ssh-keygen's format) instead of the one fdl.json's allowed_signers names.") java.nio.file.Path allowedSigners;
    @picocli.CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "<ref>",
            description = "With --signatures: the version to check (default HEAD).") String ref;

    @Override
    public void run() {
        if (!signatures && (all || allowedSigners != null || ref != null))
            throw FdlException.usage("<ref>, --all and --allowed-signers go with --signatures");
        if (all && ref != null) throw FdlException.usage("give a <ref> or --all, not both");
        if (signatures) {
            try (ObjectStore store = repoOption.openStore()) {
                SignatureOutput.verify(Repository.open(store), CommandContext.of(spec).cache(cacheDir), this, spec.commandLine().getOut());
            }
            return;
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean progress = Out.interactive(quiet);
        Verify.Report r;
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            r = new Verify(repo, CommandContext.of(spec).cache(cacheDir), CatalogFiles.duckLake()).run(step -> {
                if (progress) {
                    System.err.print("\r\033[Kverify: " + step);
                    System.err.flush();
                }
            });
            if (progress) System.err.print("\r\033[K");
        }
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("clean", r.clean());
            o.put("versions", r.versions());
            o.put("live_versions", r.live());
            o.put("unfinished_version_folders", r.unfinished());
            o.put("unreachable_versions", r.unreachable());
            o.put("marked_unreachable_versions", r.marked());
            o.put("refs", r.refs());
            o.put("data_files", r.dataFiles());
            o.put("file_names_checked", r.namesChecked());
            ArrayNode a = o.putArray("problems");
            for (Verify.Problem p : r.problems()) a.addObject().put("key", p.key()).put("message", p.message());
            Out.json(out, o);
        } else {
            for (Verify.Problem p : r.problems()) out.println(p);
            out.printf("Checked %d ref(s), %d version(s) (%d live, %d unreachable, %d unfinished folder(s)), %,d file name(s), %,d data file(s): %s%n",
                    r.refs(), r.versions(), r.live(), r.unreachable(), r.unfinished(), r.namesChecked(), r.dataFiles(),
                    r.clean() ? "no problems" : r.problems().size() + " problem(s)");
            out.flush();
        }
        if (!r.clean()) throw new ProblemsFound(r.problems().size());
    }

    /** Exit 1 after the problems were printed; Main prints this short message. */
    static final class ProblemsFound extends FdlException {
        ProblemsFound(int n) {
            super(FdlException.Kind.FAILURE, "verify found " + n + " problem(s) (listed above)");
        }
    }
}
