package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/** {@code fdl branch}: list, create (create-only) or delete branches (SPEC.md section 4). */
@Command(name = "branch", mixinStandardHelpOptions = true,
        description = {"List branches, create one at a version (default: HEAD's), or delete one with -d.",
                "A branch is created with If-None-Match: * and only at a finished, unexpired version; HEAD's branch cannot be deleted."})
final class BranchCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<name>") String name;
    @Parameters(index = "1", arity = "0..1", paramLabel = "<ref-or-version>", description = "Start point (default: HEAD).") String target;
    @Option(names = {"-d", "--delete"}, description = "Delete the branch.") boolean delete;
    @Option(names = "--json", description = "Print as JSON.") boolean json;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            if (name == null) {
                if (delete) throw FdlException.usage("fdl branch -d needs a branch name");
                RefsCommand.print(out, repo, r -> r.kind() == RefValue.Kind.BRANCH, json);
                return;
            }
            RefName n = new RefName(name);
            if (delete) {
                if (target != null) throw FdlException.usage("fdl branch -d takes one name");
                RefValue r = repo.deleteRef(RefValue.Kind.BRANCH, n);
                RefCommandOutput.print(out, json, "deleted", r);
            } else {
                RefValue r = repo.createBranch(n, target == null ? "HEAD" : target);
                RefCommandOutput.print(out, json, "created", r);
            }
        }
    }
}
