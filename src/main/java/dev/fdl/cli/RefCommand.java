package dev.fdl.cli;

import dev.fdl.util.ShellQuote;
import dev.fdl.FdlException;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefUpdate;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;

/** {@code fdl branch} and {@code fdl tag}: list, create (create-only) or delete refs of one kind (SPEC.md section 4). */
final class RefCommand implements Runnable {
    private final RefValue.Kind kind;
    private CommandSpec spec;

    private RefCommand(RefValue.Kind kind) {
        this.kind = kind;
    }

    /** The picocli model of {@code fdl branch}, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec branch() {
        return spec("branch", RefValue.Kind.BRANCH,
                "List branches, create one at a version (default: HEAD's), or delete one with -d.",
                "A branch is created with If-None-Match: * and only at a finished, unexpired version; HEAD's branch cannot be deleted.");
    }

    /** The picocli model of {@code fdl tag}, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec tag() {
        return spec("tag", RefValue.Kind.TAG,
                "List tags, create one at a version (default: HEAD's), or delete one with -d.",
                "A tag is created with If-None-Match: *: an existing tag is an error (exit 3), never overwritten.");
    }

    private static CommandSpec spec(String name, RefValue.Kind kind, String... description) {
        RefCommand c = new RefCommand(kind);
        c.spec = Specs.command(name, c, description);
        c.spec.addPositional(Specs.optionalPositional(0, "<name>"));
        c.spec.addPositional(Specs.optionalPositional(1, "<ref-or-version>", "Where (default: HEAD)."));
        c.spec.addOption(Specs.flag(kind == RefValue.Kind.BRANCH
                ? "Delete it; refused when its version is in no other ref's history or the working copy here is on it." : "Delete it.",
                "-d", "--delete"));
        if (kind == RefValue.Kind.BRANCH)
            c.spec.addOption(Specs.flag("Delete it even then (its versions become unreachable: gc marks them, and deletes them a grace period after its mark).", "-D"));
        if (kind == RefValue.Kind.TAG) {
            c.spec.addOption(Specs.flag("Sign the tag with the SSH key of the user setting signing.key (docs/signing.md).", "-s", "--sign"));
            c.spec.addOption(Specs.option(String.class, "<key>", "Sign the tag with this SSH key (its private key file, or its .pub "
                    + "when an SSH agent holds it).", "-u", "--local-user"));
        }
        c.spec.addOption(Specs.flag("Print as JSON.", "--json"));
        c.spec.addOption(RepoOption.spec());
        return c.spec;
    }

    @Override
    public void run() {
        ParseResult given = spec.commandLine().getParseResult();
        String name = given.matchedPositionalValue(0, null);
        String target = given.matchedPositionalValue(1, null);
        boolean force = kind == RefValue.Kind.BRANCH && given.hasMatchedOption("-D");
        boolean delete = given.hasMatchedOption("--delete") || force;
        boolean json = given.hasMatchedOption("--json");
        String word = kind == RefValue.Kind.BRANCH ? "branch" : "tag";
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = RepoOption.of(given).openStore()) {
            Repository repo = Repository.open(store);
            if (name == null) {
                if (delete) throw FdlException.usage("fdl " + word + " -d needs a " + word + " name");
                RefsCommand.print(out, spec.commandLine().getErr(), repo, DefaultRef.checkedOut(CommandContext.of(spec).cwd().get(), repo),
                        r -> r.kind() == kind, json);
                return;
            }
            repo.requireWritable((delete ? "delete " : "create ") + word + " '" + name + "'");
            RefName n = new RefName(name);
            if (delete) {
                if (target != null) throw FdlException.usage("fdl " + word + " -d takes one name");
                if (kind == RefValue.Kind.BRANCH && !force) refuseUnsafeDelete(repo, n);
                RefCommandOutput.print(out, json, "deleted", RefUpdateRefused.require(repo.deleteRef(kind, n)).ref());
                keepSiteInStep(repo, word + " '" + name + "' was deleted", out, json);
            } else {
                // as git branch/tag: the start point defaults to what is checked out
                String at = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, target, spec.commandLine().getErr()).spec();
                if (kind == RefValue.Kind.TAG) signTag(given, repo, n, at);
                RefUpdate.Outcome r = kind == RefValue.Kind.BRANCH ? repo.createBranch(n, at) : repo.createTag(n, at);
                RefValue created = RefUpdateRefused.require(r).ref();
                DefaultRef.warnIfAmbiguous(repo, n, created.versionId(), spec.commandLine().getErr());
                RefCommandOutput.print(out, json, "created", created);
                keepSiteInStep(repo, word + " '" + name + "' was created", out, json);
            }
        }
    }

    /**
     * {@code fdl tag -s} / {@code -u <key>}: signs the tag before it is created (docs/signing.md). A tag that
     * exists is left to the create to refuse, its signature untouched.
     */
    private void signTag(ParseResult given, Repository repo, RefName n, String at) {
        String key = given.matchedOptionValue("-u", null);
        CommandContext ctx = CommandContext.of(spec);
        if (key == null && given.hasMatchedOption("-s"))
            key = ctx.userConfig().get("signing.key").orElseThrow(() -> FdlException.usage(
                    "fdl tag -s signs with the user setting signing.key, which is not set: fdl config signing.key <file>, or fdl tag -u <key> "
                    + ShellQuote.word(n.name()) + " " + ShellQuote.word(at)));
        if (key == null || repo.readTag(n).isPresent()) return;
        dev.fdl.trust.TagSignature.write(repo, repo.resolve(at).version().id(), n, ctx.signer(key));
    }

    /** The site shows refs: regenerated with site.auto, else said to be stale when there is one ({@link SiteUpkeep}). */
    private void keepSiteInStep(Repository repo, String done, PrintWriter out, boolean json) {
        dev.fdl.site.Site.SiteResult site = SiteUpkeep.afterChange(repo, CommandContext.of(spec), false, done, true, spec.commandLine().getErr());
        if (site != null && !json) {
            out.println(SiteUpkeep.summary(site));
            out.flush();
        }
    }

    /**
     * git's rule for {@code branch -d}: refuses to delete the branch the working copy here is on,
     * or one whose version is in no other ref's history (its versions would become unreachable and
     * gc would delete them a grace period after marking them). {@code -D} skips this.
     *
     * @throws FdlException naming the branch, its version and the ways on
     */
    private void refuseUnsafeDelete(Repository repo, RefName n) {
        if (n.equals(repo.headBranch())) return; // deleteRef refuses it: HEAD names it
        java.util.Optional<dev.fdl.workingcopy.WorkingCopy> wc = dev.fdl.workingcopy.WorkingCopy.find(CommandContext.of(spec).cwd().get());
        if (wc.isPresent() && wc.get().state().belongsTo(repo) && n.name().equals(wc.get().state().branch()))
            throw new FdlException("cannot delete branch '" + n.name() + "': the working copy " + wc.get().dir()
                    + " is on it; switch it first (fdl checkout <other-branch>), or delete anyway with fdl branch -D " + ShellQuote.word(n.name()));
        java.util.Optional<RefValue> ref = repo.readBranch(n);
        if (ref.isEmpty()) return; // deleteRef names the missing branch
        if (!repo.reachableFromOtherRefs(ref.get().versionId(), ref.get()))
            throw new FdlException("branch '" + n.name() + "' is not merged: its version " + ref.get().versionId()
                    + " is in no other branch's or tag's history, so after deleting it gc would mark that version and delete it (and its data) a grace "
                    + "period later. Keep it with a tag first (fdl tag <name> " + ShellQuote.word(n.name()) + "), or delete anyway with fdl branch -D " + ShellQuote.word(n.name()));
    }
}
