package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefUpdate;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** {@code fdl branch} and {@code fdl tag}: list, create (create-only) or delete refs of one kind (SPEC.md section 4). */
abstract class RefCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<name>") String name;
    @Parameters(index = "1", arity = "0..1", paramLabel = "<ref-or-version>", description = "Where (default: HEAD).") String target;
    @Option(names = {"-d", "--delete"}, description = "Delete it.") boolean delete;
    @Option(names = "--json", description = "Print as JSON.") boolean json;

    private final RefValue.Kind kind;

    RefCommand(RefValue.Kind kind) {
        this.kind = kind;
    }

    @Override
    public void run() {
        String word = kind == RefValue.Kind.BRANCH ? "branch" : "tag";
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
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
                String at = target == null ? "HEAD" : target;
                RefUpdate.Outcome r = kind == RefValue.Kind.BRANCH ? repo.createBranch(n, at) : repo.createTag(n, at);
                RefCommandOutput.print(out, json, "created", RefUpdateRefused.require(r).ref());
            }
        }
    }
}
