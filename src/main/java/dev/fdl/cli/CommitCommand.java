package dev.fdl.cli;

import dev.fdl.util.Plural;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.check.ChangeGuards;
import dev.fdl.check.RepoChecks;
import dev.fdl.workingcopy.Authors;
import dev.fdl.retention.Expire;
import dev.fdl.retention.RetentionPolicy;
import dev.fdl.workingcopy.Commit;
import dev.fdl.workingcopy.Merge;
import dev.fdl.workingcopy.CommitPulling;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.site.Site;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.trust.Sealing;
import dev.fdl.trust.SshSigner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.function.Supplier;

/** {@code fdl commit}: the nine steps of SPEC.md section 4. */
@Command(name = "commit", mixinStandardHelpOptions = true,
        description = {"Publish the working copy's new snapshots and edited dataset.json as a new version of its branch.",
                "A version always adds a snapshot: when none was made since checkout (only dataset.json or the DuckLake format changed, "
                        + "or --allow-empty), the commit adds one that changes no data.",
                "Before uploading anything it runs fdl check --working (constraints and checks of dataset.json, change guards, hooks): "
                        + "a failed check refuses the commit, warnings are printed and recorded in version.json.",
                "Exit 1 when there is nothing to commit or a check failed, exit 3 when the branch moved since checkout (conflict)."})
final class CommitCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Option(names = {"-m", "--message"}, paramLabel = "<message>", description = "What this version changes (may be left out after fdl merge, "
            + "revert or restore, or after a commit refused because the branch moved: that message is used).") String message;
    @Option(names = "--author", paramLabel = "\"Name <email>\"", description = "Default: $FDL_AUTHOR_NAME/$FDL_AUTHOR_EMAIL, git's user.name/user.email, the OS user.") String author;
    @Option(names = "--allow-description-loss", description = "Commit even if dataset.json drops the title or license the parent version's description has.") boolean allowDescriptionLoss;
    @Option(names = "--allow-empty", description = "Publish a version even when nothing changed since the base version "
            + "(as git commit --allow-empty): its catalog adds one snapshot that changes nothing.") boolean allowEmpty;
    @Option(names = "--full", description = "Check every row, even where the parent version's checks allow checking only the rows added since.") boolean full;
    @Option(names = "--allow-drop", description = "Commit even though a table of the parent version is dropped.") boolean allowDrop;
    @Option(names = "--allow-schema-change", description = "Commit even though a column of the parent version is dropped or retyped.") boolean allowSchemaChange;
    @Option(names = "--allow-shrink", description = "Commit even though a table loses more than its share of rows (dataset.json fdl:max_shrink, default 10%%).") boolean allowShrink;
    @Option(names = "--hook-timeout", paramLabel = "<duration>", converter = DurationConverter.class,
            description = "How long each pre-commit hook may run (e.g. 30s, 5m; default 5m).") java.time.Duration hookTimeout;
    @Option(names = {"-q", "--quiet"}, description = "Print nothing on success, as git commit -q: no progress, no summary "
            + "(warnings and errors still go to stderr; --json still prints its object).") boolean quiet;
    @Option(names = "--json", description = "Print version.json of the new version.") boolean json;
    @Option(names = "--expire", description = "After a successful commit, apply the retention policy saved in the repository "
            + "(fdl expire --save-policy).") boolean expire;
    @Option(names = "--pull", description = "When the branch moved since checkout, merge its new version under the working copy's "
            + "changes (fdl pull) and commit again, as long as nothing conflicts (at most " + PULL_ATTEMPTS + " attempts).") boolean pull;
    /** How often {@code --pull} commits before giving up on a branch that keeps moving. */
    static final int PULL_ATTEMPTS = 5;
    @Option(names = {"-S", "--sign"}, arity = "0..1", paramLabel = "<key>", fallbackValue = "",
            description = "Sign the version with an SSH key (SSHSIG, namespace fdl; docs/signing.md): the private key file, or its .pub when "
                    + "an SSH agent (SSH_AUTH_SOCK) holds it. Without <key>: the user setting signing.key (fdl config signing.key <file>), "
                    + "which also signs every commit when set.") String sign;
    @Option(names = "--site", description = "Regenerate the repository's site after the commit (also done when fdl.json's site.auto is true).") boolean site;

    /** The warnings the checks recorded in the new version, one line each on stderr. */
    private static void warnings(VersionInfo v, PrintWriter err) {
        v.checks().ifPresent(c -> {
            for (var w : c.path("warnings"))
                err.println("fdl: warning: " + w.path("check").asText() + (w.path("count").asLong() > 0 && !w.has("detail")
                        ? " (" + Plural.of(w.path("count").asLong(), "row") + ")" : "") + (w.has("detail") ? ": " + w.get("detail").asText() : ""));
            err.flush();
        });
    }

    /**
     * The key this commit signs with: {@code --sign=<key>}, else the user setting {@code signing.key}
     * (with or without {@code --sign}); null when neither. Checked before anything is done.
     */
    private SshSigner signer(CommandContext ctx) {
        String key = sign != null && !sign.isEmpty() ? sign : ctx.userConfig().get("signing.key").orElse(null);
        if (key == null && sign != null)
            throw FdlException.usage("--sign needs a key: fdl commit --sign=<private key file>, or set one with fdl config signing.key <file>");
        if (key == null) return null;
        return ctx.signer(key);
    }

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        String ignored = wc.ignoredDescriptionWarning();
        if (ignored != null) spec.commandLine().getErr().println("fdl: warning: " + ignored);
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            // refuse before committing: a commit whose asked-for expiry cannot run is a surprise
            RetentionPolicy policy = !expire ? null : RetentionPolicy.saved(repo.config()).orElseThrow(() -> FdlException.usage(
                    "--expire applies the repository's saved retention policy, but " + repo.root() + " has none; "
                            + "nothing was committed; save one first, for example: " + ExpireCommand.SAVE_POLICY_EXAMPLE));
            CommandContext ctx = CommandContext.of(spec);
            RepoChecks checks = new RepoChecks(new RepoChecks.Env(ctx.duckDb(), ctx.cache(),
                    CheckCommand.options(full, new ChangeGuards.Allow(allowDrop, allowSchemaChange, allowShrink), hookTimeout),
                    ctx.userConfig().isTrue("hooks.trust"), spec.commandLine().getErr()));
            Sealing seal = new Sealing(signer(ctx));
            Supplier<Commit.CommitResult> commit = () -> Commit.run(repo, wc, message, Authors.resolve(author),
                    ctx.clock(), Progress.listener(quiet, spec.commandLine().getErr()),
                    new Commit.Options(allowDescriptionLoss, allowEmpty, checks.preCommit(), seal,
                            dev.fdl.iceberg.IcebergMetadataWriter.atCommit(ctx.duckDb(), wc.tmp())));
            Commit.CommitResult r = !pull ? commit.get() : CommitPulling.run(repo, wc, commit, Authors.resolve(author),
                    MergeCommand.services(ctx, repo, quiet, spec), PULL_ATTEMPTS,
                    pulled -> MergePrinter.pulled(json ? spec.commandLine().getErr() : spec.commandLine().getOut(), pulled));
            warnings(r.version(), spec.commandLine().getErr());
            PrintWriter out = spec.commandLine().getOut();
            Expire.Report expired = policy == null ? null : ExpireCommand.run(repo, CommandContext.of(spec), policy, false);
            Site.SiteResult siteResult = SiteUpkeep.afterChange(repo, CommandContext.of(spec), site, "version " + r.version().id() + " was committed", policy == null,
                    spec.commandLine().getErr());
            if (json) {
                ObjectNode o = r.version().toJson();
                o.put("branch", r.branch());
                if (expired != null) o.set("expire", ExpireCommand.toJson(expired, policy));
                if (siteResult != null) o.put("site_pages_written", siteResult.written());
                Out.json(out, o);
                return;
            }
            if (quiet) return;
            var v = r.version();
            out.println("[" + r.branch() + (r.createdBranch() ? " (new branch)" : "") + " " + v.id() + "] " + RefsCommand.firstLine(v.message()));
            out.println(" seq " + v.seq() + ", snapshots " + v.ducklake().firstSnapshot() + ".." + v.ducklake().lastSnapshot()
                    + ", catalog " + v.catalog().bytes() + " bytes");
            if (expired != null) ExpireCommand.print(out, expired, policy, false);
            if (siteResult != null) out.println(SiteUpkeep.summary(siteResult));
            out.flush();
        }
    }
}
