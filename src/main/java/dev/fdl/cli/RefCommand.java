package dev.fdl.cli;

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
        c.spec.addOption(Specs.flag("Delete it.", "-d", "--delete"));
        c.spec.addOption(Specs.flag("Print as JSON.", "--json"));
        c.spec.addOption(RepoOption.spec());
        return c.spec;
    }

    @Override
    public void run() {
        ParseResult given = spec.commandLine().getParseResult();
        String name = given.matchedPositionalValue(0, null);
        String target = given.matchedPositionalValue(1, null);
        boolean delete = given.hasMatchedOption("--delete");
        boolean json = given.hasMatchedOption("--json");
        String word = kind == RefValue.Kind.BRANCH ? "branch" : "tag";
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = RepoOption.of(given).openStore()) {
            Repository repo = Repository.open(store);
            if (name == null) {
                if (delete) throw FdlException.usage("fdl " + word + " -d needs a " + word + " name");
                RefsCommand.print(out, spec.commandLine().getErr(), repo, r -> r.kind() == kind, json);
                return;
            }
            repo.requireWritable((delete ? "delete " : "create ") + word + " '" + name + "'");
            RefName n = new RefName(name);
            if (delete) {
                if (target != null) throw FdlException.usage("fdl " + word + " -d takes one name");
                RefCommandOutput.print(out, json, "deleted", RefUpdateRefused.require(repo.deleteRef(kind, n)).ref());
            } else {
                // as git branch/tag: the start point defaults to what is checked out
                String at = DefaultRef.forArgument(repo, target).spec();
                RefUpdate.Outcome r = kind == RefValue.Kind.BRANCH ? repo.createBranch(n, at) : repo.createTag(n, at);
                RefCommandOutput.print(out, json, "created", RefUpdateRefused.require(r).ref());
            }
        }
    }
}
