package dev.fdl.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.cache.CatalogCache;
import dev.fdl.dataset.DatasetDescriptor;
import dev.fdl.dataset.TableFacts;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.workingcopy.Commit;
import dev.fdl.workingcopy.Description;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.util.JsonRead;
import dev.fdl.store.ObjectBytes;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks of a repository's versions and working copies (docs/checks.md): a committed version
 * against its first parent ({@code fdl check <ref>}), the working copy against its base version
 * ({@code fdl check --working}), and the commit's own step 3a ({@link #preCommit()}). The data files are
 * read where they are, or, for a remote repository, from the local mirror ({@link ReadableCatalog}).
 * Hooks run for the working copy and the commit only: the working copy's {@code .fdl/hooks/pre-commit},
 * then the repository's hook that fdl.json names under {@code hooks.pre-commit}, when this machine trusts them.
 */
public final class RepoChecks {
    /** fdl.json's key naming the repository-wide pre-commit hook (a key of the repository, {@code {"hooks": {"pre-commit": "hooks/pre-commit"}}}). */
    public static final String REPO_HOOKS_KEY = "hooks";

    /**
     * @param pool            DuckDB instances
     * @param cache           where versions' catalogs and a remote repository's data files are cached
     * @param options         the run's options
     * @param trustRepoHooks  whether the user opted in to repository hooks on this machine ({@code fdl config hooks.trust true})
     * @param out             where hook output and notes go
     */
    public record Env(DuckDbPool pool, CatalogCache cache, Checks.Options options, boolean trustRepoHooks, PrintWriter out) {}

    private final Env env;

    public RepoChecks(Env env) {
        this.env = env;
    }

    /**
     * Checks a committed version against its first parent (no hooks).
     *
     * @throws FdlException as {@link Checks#run}
     */
    public CheckReport version(Repository repo, VersionInfo v) {
        Path catalog = env.cache().versionCatalog(repo, v);
        ObjectNode descriptor = JsonRead.parseObject(Description.read(repo, v), "dataset.json of version " + v.id());
        Checks.Parent parent = null;
        if (!v.parents().isEmpty()) {
            Optional<VersionInfo> p = repo.readVersion(v.parents().get(0));
            if (p.isPresent() && repo.readExpired(p.get().id()).isEmpty())
                parent = parent(repo, p.get(), v.ducklake().firstSnapshot(), v.parents().size() > 1 ? v.parents().get(1) : null,
                        v.parents().size() > 1);
        }
        return Checks.run(env.pool(), new Checks.Target(catalog, dataPath(repo, catalog), descriptor, "dataset.json of version " + v.id()),
                parent, env.options(), List.of(), env.out());
    }

    /**
     * Checks the working copy, uncommitted snapshots and edited dataset.json included, against its
     * base version, with its hooks.
     */
    public CheckReport working(Repository repo, WorkingCopy wc) {
        try (ReadableCatalog copy = ReadableCatalog.working(wc.catalog(), wc.tmp().resolve("check-" + ProcessHandle.current().pid() + ".duckdb"))) {
            Path scratch = copy.catalog();
            Path described = wc.datasetFile();
            ObjectNode raw = null;
            String name = described == null ? "dataset.json" : described.getFileName().toString();
            if (described != null) raw = JsonRead.parseUserObject(read(described), described.toString());
            ObjectNode filled = DatasetDescriptor.checkAndFill(raw, name, facts(scratch), wc.dir().getFileName().toString());
            return forWorkingCopy(repo, wc, scratch, filled, name);
        }
    }

    /**
     * Step 3a of commit: every check on the commit's catalog and filled description; a failed check
     * refuses the commit (exit 1, every failure named with its count and first rows) before anything is uploaded.
     */
    public Commit.PreCommit preCommit() {
        return (repo, wc, catalog, dataset) -> {
            ObjectNode filled = JsonRead.parseObject(read(dataset), dataset.toString());
            CheckReport report = forWorkingCopy(repo, wc, catalog, filled, "dataset.json");
            if (!report.failed().isEmpty()) throw new FdlException(FdlException.Kind.FAILURE, "commit refused: " + report.failureMessage());
            return report.toVersionJson();
        };
    }

    private CheckReport forWorkingCopy(Repository repo, WorkingCopy wc, Path catalog, ObjectNode filled, String file) {
        WorkingCopy.State st = wc.state();
        Checks.Parent parent = null;
        if (st.baseVersion() != null) {
            VersionInfo base = repo.readVersion(st.baseVersion()).orElseThrow(() -> new FdlException(
                    "the base version " + st.baseVersion() + " has no version.json in " + repo.root() + "; check out again"));
            String other = st.merging() != null ? st.merging().version() : st.reverting() != null ? st.reverting().parent() : null;
            parent = parent(repo, base, st.baseSnapshot() + 1, other, st.merging() != null);
        }
        return Checks.run(env.pool(), new Checks.Target(catalog, dataPath(repo, catalog), filled, file), parent, env.options(),
                hooks(repo, wc), env.out());
    }

    /**
     * The first parent {@code p}, and the description of {@code other} (null: none): a pending merge's
     * second parent, or the first parent of the version a pending revert undoes, whose state the revert returns to;
     * {@code merge} says which ({@link Checks.Parent#merge()}).
     */
    private Checks.Parent parent(Repository repo, VersionInfo p, long since, String other, boolean merge) {
        ObjectNode descriptor = JsonRead.parseObject(Description.read(repo, p), "dataset.json of version " + p.id());
        Set<String> held = new HashSet<>();
        p.checks().ifPresent(c -> c.path("held").forEach(k -> held.add(k.asText())));
        ObjectNode otherDescriptor = other == null ? null : repo.readVersion(other)
                .map(o -> JsonRead.parseObject(Description.read(repo, o), "dataset.json of version " + o.id())).orElse(null);
        return new Checks.Parent(descriptor, since, held, otherDescriptor, merge);
    }

    /** The working copy's hook, then the repository's when trusted (a note says it was skipped otherwise). */
    private List<Hook> hooks(Repository repo, WorkingCopy wc) {
        List<Hook> hooks = new ArrayList<>();
        Path own = wc.dir().resolve(Hook.WORKING_COPY_HOOK);
        if (Files.exists(own)) hooks.add(new Hook(own, Hook.WORKING_COPY_HOOK, wc.dir(), wc.runVariables(repo)));
        JsonNode named = repo.config().extra().getOrDefault(REPO_HOOKS_KEY, null);
        if (named == null || !named.path("pre-commit").isTextual()) return hooks;
        String key = named.get("pre-commit").asText();
        if (!env.trustRepoHooks()) {
            env.out().println("fdl: note: the repository names a pre-commit hook (" + key + " in fdl.json); it was not run, since this "
                    + "machine does not trust repository hooks: read it, then fdl config hooks.trust true");
            env.out().flush();
            return hooks;
        }
        ObjectBytes b = repo.store().get(key).orElseThrow(() -> new FdlException("fdl.json names the pre-commit hook " + key
                + " but the repository has no such object; nothing was uploaded"));
        Path local = wc.tmp().resolve("repo-pre-commit-" + ProcessHandle.current().pid());
        try {
            Files.write(local, b.bytes());
            if (!local.toFile().setExecutable(true, true)) throw new IOException("cannot make it executable");
        } catch (IOException e) {
            throw new FdlException("cannot place the repository's pre-commit hook at " + local + ": " + e.getMessage());
        }
        local.toFile().deleteOnExit();
        hooks.add(new Hook(local, key + " (repository)", wc.dir(), wc.runVariables(repo)));
        return hooks;
    }

    /**
     * Where the built-in reader finds the catalog's data files: the repository's data folder, or,
     * when remote, a local mirror into which the files of the tables the checks read are fetched
     * (only when a check reads rows; of a table checked on added rows only, the files it added: {@link ReadPlan}).
     */
    private Checks.DataPath dataPath(Repository repo, Path catalog) {
        ReadableCatalog.DataFiles files = new ReadableCatalog.DataFiles(repo.store(), repo.dataDir(), env.cache().dataFolder(repo));
        return new Checks.DataPath() {
            @Override
            public String forTables(java.util.Set<String> tables) {
                return ReadableCatalog.version(catalog).dataPath(env.pool(), files, null, tables);
            }

            @Override
            public void fetch(java.util.Collection<String> locations) {
                files.fetchLocations(locations, "catalog " + catalog);
            }
        };
    }

    /** The tables at the catalog's newest snapshot, as dataset.json's filling needs them (what commit's step 3 reads). */
    private static List<TableFacts> facts(Path catalog) {
        try (CatalogInspector c = CatalogInspector.open(catalog)) {
            return Commit.tableFacts(c, c.lastSnapshotId());
        }
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new FdlException("cannot read " + p + ": " + e.getMessage());
        }
    }
}
