package dev.fdl.cli;

import dev.fdl.util.Plural;
import dev.fdl.util.ShellQuote;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.workingcopy.Checkout;
import dev.fdl.util.Json;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
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
import java.nio.file.Path;
import java.util.Optional;

/** {@code fdl checkout}: create a working copy here, or switch the one around the current folder. */
@Command(name = "checkout", mixinStandardHelpOptions = true,
        description = {"Create a working copy in the current folder (with --repo), or switch the working copy around it.",
                "The version's catalog is downloaded, checked against version.json (sha256) and converted to a SQLite working catalog in .fdl/.",
                "A branch with no version yet gets a new, empty catalog. -b starts a new branch (created at the first commit);",
                "inside a working copy, -b without <ref> keeps the working catalog and its uncommitted snapshots (as git does)."})
final class CheckoutCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<ref>", description = "Branch, tag or version (default: HEAD's branch; with -b: the start point).")
    String ref;
    @Option(names = "-b", paramLabel = "<new-branch>", description = "Start a new branch at <ref> (default: the current base or HEAD).")
    String newBranch;
    @Option(names = {"-f", "--force"}, description = "Discard snapshots not yet committed, and replace a dataset.json that no version has. With --repo in a working copy "
            + "whose .fdl/state.json is damaged: start it over, moving the damaged state and working catalogs into .fdl/damaged-<time>/.")
    boolean force;
    @Option(names = {"-q", "--quiet"}, description = "Print nothing on success, as git's -q: no progress, no summary "
            + "(warnings and errors still go to stderr; --json still prints its object).")
    boolean quiet;
    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;
    @Option(names = "--ducklake-format", paramLabel = "<format>",
            description = {"Move the working catalog to this DuckLake format (1.1); the next commit records it, and DuckDB 1.5 readers",
                    "cannot open versions of format 1.1. Without <ref> inside a working copy: upgrades the working catalog in place."})
    String ducklakeFormat;

    @Override
    public void run() {
        Path here = CommandContext.of(spec).cwd().get();
        Optional<WorkingCopy> existing = WorkingCopy.find(here);
        if (existing.isPresent() && force && repoOption.repo != null && existing.get().dir().equals(here.toAbsolutePath().normalize())
                && existing.get().stateDamaged()) existing = startOverFromDamagedState(existing.get());
        WorkingCopy wc = existing.orElse(null);
        String root;
        if (existing.isPresent()) {
            WorkingCopy enclosing = existing.get();
            root = enclosing.state().root();
            if (repoOption.repo != null) {
                // git's rule: one working copy per tree. --repo asks for a working copy here; inside
                // another one that would silently switch the enclosing one instead.
                if (!enclosing.dir().equals(here.toAbsolutePath().normalize()))
                    throw FdlException.usage("the current folder " + here + " is inside the working copy " + enclosing.dir()
                            + " (of " + root + "); fdl checkout --repo would switch that working copy, not make a new one here. "
                            + "To switch it: fdl -C " + ShellQuote.word(enclosing.dir()) + " checkout <ref>; for another working copy, "
                            + "run fdl checkout --repo in a folder outside " + enclosing.dir());
                String given;
                try (ObjectStore s = Stores.open(CommandContext.of(spec).cwd().root(repoOption.repo))) {
                    given = s.root();
                }
                if (!given.equals(root))
                    throw FdlException.usage("the working copy " + enclosing.dir() + " belongs to " + root + ", not " + given
                            + "; for a working copy of " + given + ", run fdl checkout --repo in a folder outside " + enclosing.dir());
            }
        } else {
            root = repoOption.root();
            wc = WorkingCopy.create(here);
        }
        WorkingCopy.State before = existing.map(WorkingCopy::state).orElse(null);
        try (ObjectStore store = Stores.open(root)) {
            Repository repo = Repository.open(store);
            PrintWriter err = spec.commandLine().getErr();
            ProgressListener progress = Progress.listener(quiet, err);
            if (existing.isEmpty() && ref != null) DefaultRef.warnIfAmbiguous(repo, ref, err); // resolveHead warns inside one
            Checkout.CheckoutResult r = Checkout.run(repo, CommandContext.of(spec).cache(), wc,
                    new Checkout.Request(existing.isPresent() ? DefaultRef.resolveHead(CommandContext.of(spec).cwd().get(), repo, ref, err) : ref, newBranch, force,
                            ducklakeFormat), progress);
            if (newBranch != null) DefaultRef.warnIfAmbiguous(repo, new RefName(newBranch), r.version(), err);
            PrintWriter out = quiet && !json ? new PrintWriter(java.io.Writer.nullWriter()) : spec.commandLine().getOut();
            if (!json && r.discarded() > 0) out.println("Discarded " + Plural.of(r.discarded(), "uncommitted snapshot"));
            if (json) {
                printJson(out, repo.root(), r);
                return;
            }
            String where = existing.isPresent() ? "Switched working copy " + r.workingCopy().dir() + " to " : "Checked out ";
            String what = r.branch() == null ? "version " + r.version() + " (detached: create a branch to commit, fdl checkout -b <name>)"
                    : "branch '" + r.branch() + "'" + (r.version() == null ? " (no version yet: new, empty catalog)" : " at version " + r.version());
            if (ducklakeFormat != null && existing.isPresent() && ref == null && newBranch == null) {
                out.println("Working catalog moved to DuckLake format " + ducklakeFormat + "; the next commit records it (a commit needs a new snapshot: load or change data first)"
                        + " (DuckDB 1.5 readers cannot open versions of format 1.1)");
                out.flush();
                return;
            }
            if (before != null && r.branch() != null && r.branch().equals(before.branch())
                    && java.util.Objects.equals(r.version(), before.baseVersion()) && ducklakeFormat == null) {
                // as git's "Already on 'main'": the working copy was on this branch at this version already
                out.println("Already on '" + r.branch() + "'" + (r.version() == null ? " (no version yet)" : " at version " + r.version())
                        + " in working copy " + r.workingCopy().dir());
                out.flush();
                return;
            }
            out.println(where + what + (existing.isPresent() ? "" : " into " + r.workingCopy().dir())
                    + (ducklakeFormat == null ? "" : ", DuckLake format " + ducklakeFormat));
            out.flush();
        }
    }

    /**
     * The way back from a damaged state: checks {@code --repo} and the ref first (a wrong one fails before anything
     * is moved), then sets the state file and the working catalogs aside, so the checkout starts this working copy over.
     */
    private Optional<WorkingCopy> startOverFromDamagedState(WorkingCopy damaged) {
        // the way back from a damaged state: start this working copy over from --repo, keeping the old files aside
        try (ObjectStore s = Stores.open(CommandContext.of(spec).cwd().root(repoOption.repo))) {
            Repository repo = Repository.open(s); // a wrong --repo or <ref> fails here, before anything is moved
            if (ref != null) repo.resolve(ref);
        }
        Path aside = damaged.setDamagedStateAside();
        spec.commandLine().getErr().println("warning: the working copy's state file was damaged; it and the working catalogs "
                + "were moved to " + aside + " (their uncommitted snapshots are not carried over); checking out afresh");
        spec.commandLine().getErr().flush();
        return Optional.empty();
    }

    /** The checkout's outcome as one JSON object. */
    private void printJson(PrintWriter out, String root, Checkout.CheckoutResult r) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("working_copy", r.workingCopy().dir().toString());
        o.put("root", root);
        o.put("branch", r.branch());
        o.put("version", r.version());
        o.put("base_snapshot", r.baseSnapshot());
        o.put("fresh", r.fresh());
        o.put("discarded_snapshots", r.discarded());
        if (ducklakeFormat != null) o.put("ducklake_format", ducklakeFormat);
        Out.json(out, o);
    }
}
