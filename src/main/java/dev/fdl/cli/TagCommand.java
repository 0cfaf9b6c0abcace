package dev.fdl.cli;

import dev.fdl.repo.RefValue;
import picocli.CommandLine.Command;

/** {@code fdl tag}: list, create (never moved) or delete tags. */
@Command(name = "tag", mixinStandardHelpOptions = true,
        description = {"List tags, create one at a version (default: HEAD's), or delete one with -d.",
                "A tag is created with If-None-Match: *: an existing tag is an error (exit 3), never overwritten."})
final class TagCommand extends RefCommand {
    TagCommand() {
        super(RefValue.Kind.TAG);
    }
}
