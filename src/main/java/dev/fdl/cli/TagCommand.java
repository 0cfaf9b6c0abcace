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

/** {@code fdl tag}: list, create (create-only, never moved) or delete tags (SPEC.md section 4). */
@Command(name = "tag", mixinStandardHelpOptions = true,
        description = {"List tags, create one at a version (default: HEAD's), or delete one with -d.",
                "A tag is created with If-None-Match: *: an existing tag is an error (exit 3), never overwritten."})
final class TagCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<name>") String name;
    @Parameters(index = "1", arity = "0..1", paramLabel = "<ref-or-version>", description = "What to tag (default: HEAD).") String target;
    @Option(names = {"-d", "--delete"}, description = "Delete the tag.") boolean delete;
    @Option(names = "--json", description = "Print as JSON.") boolean json;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            if (name == null) {
                if (delete) throw FdlException.usage("fdl tag -d needs a tag name");
                RefsCommand.print(out, repo, r -> r.kind() == RefValue.Kind.TAG, json);
                return;
            }
            RefName n = new RefName(name);
            if (delete) {
                if (target != null) throw FdlException.usage("fdl tag -d takes one name");
                RefCommandOutput.print(out, json, "deleted", repo.deleteRef(RefValue.Kind.TAG, n));
            } else {
                RefCommandOutput.print(out, json, "created", repo.createTag(n, target == null ? "HEAD" : target));
            }
        }
    }
}
