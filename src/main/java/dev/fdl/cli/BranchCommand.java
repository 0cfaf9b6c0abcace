package dev.fdl.cli;

import dev.fdl.repo.RefValue;
import picocli.CommandLine.Command;

/** {@code fdl branch}: list, create or delete branches. */
@Command(name = "branch", mixinStandardHelpOptions = true,
        description = {"List branches, create one at a version (default: HEAD's), or delete one with -d.",
                "A branch is created with If-None-Match: * and only at a finished, unexpired version; HEAD's branch cannot be deleted."})
final class BranchCommand extends RefCommand {
    BranchCommand() {
        super(RefValue.Kind.BRANCH);
    }
}
