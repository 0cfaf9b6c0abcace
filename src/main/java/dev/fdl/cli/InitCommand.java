package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.util.Json;
import dev.fdl.repo.RepoLayout;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/** {@code fdl init [<root>]}: creates a repository (SPEC.md section 4, init). */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = "Create an empty repository: fdl.json (create-only) then HEAD. A second init on the same root fails (exit 3) and changes nothing.")
final class InitCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<root>", description = "Where: a folder, file://, or s3://bucket/prefix/ (default: --repo or $FDL_REPO).")
    String root;

    @Option(names = {"-b", "--branch"}, paramLabel = "<name>", defaultValue = "main",
            description = "The branch HEAD names (default: ${DEFAULT-VALUE}).")
    String branch;

    @Option(names = "--catalog-storage", paramLabel = "<duckdb-vX.Y.Z>",
            description = "Write version catalogs with this DuckDB storage version (fdl.json catalog_storage), e.g. duckdb-v2.0.0 "
                    + "when every reader runs DuckDB 2.0 (DuckDB 1.5 cannot open those catalogs). Default: duckdb-v1.5.0, read by DuckDB 1.5 and 2.0.")
    String catalogStorage;

    @Option(names = "--iceberg", description = "Every commit also writes the version's Iceberg metadata (fdl.json \"iceberg\": true; docs/iceberg.md).")
    boolean iceberg;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing on success, as git init -q (errors still go to stderr; --json still prints its object).")
    boolean quiet;

    @Override
    public void run() {
        String where = root != null ? root : repoOption.repo != null ? repoOption.repo : System.getenv("FDL_REPO");
        if (where == null || where.isBlank()) throw FdlException.usage("fdl init needs a root: fdl init <folder|s3://bucket/prefix/>");
        RefName head = new RefName(branch);
        RepoConfig config = RepoConfig.fresh();
        if (catalogStorage != null)
            config = config.withExtra(RepoConfig.CATALOG_STORAGE,
                    Json.MAPPER.getNodeFactory().textNode(DuckDbStorage.parse(catalogStorage, "--catalog-storage", FdlException.Kind.USAGE,
                            "use " + DuckDbStorage.acceptedValues() + ", or leave the option out for \""
                                    + DuckDbStorage.DEFAULT.storageString() + "\" (DuckDB 1.5 and 2.0 readers)").storageString()));
        if (iceberg) config = config.withExtra(RepoConfig.ICEBERG, Json.MAPPER.getNodeFactory().booleanNode(true));
        String resolved = CommandContext.of(spec).cwd().root(where);
        if (Stores.localPath(resolved).filter(java.nio.file.Files::isRegularFile).isPresent()) // a folder path or file:// URL
            throw FdlException.usage("cannot init " + where + ": it is a file, not a folder; a repository's root is a folder "
                    + "(fdl init <new or empty folder>) or an s3://bucket/prefix/; to load a file, run fdl import in a working copy");
        try (ObjectStore store = Stores.open(resolved)) {
            if (store.readOnly()) throw new FdlException("cannot init " + where + ": HTTP(S) roots are read-only");
            Repository repo = Repository.init(store, head, config);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("root", store.root());
                o.put("id", repo.config().id());
                o.put("head", RepoLayout.BRANCHES + head);
                Out.json(out, o);
            } else if (!quiet) {
                out.println("Initialized empty fdl repository in " + store.root() + " (HEAD -> " + head + ", no version yet)");
            }
            out.flush();
        }
    }
}
