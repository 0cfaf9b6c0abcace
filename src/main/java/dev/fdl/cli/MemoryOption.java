package dev.fdl.cli;

import dev.fdl.FdlException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --memory <size>} for the commands that run DuckDB over data or catalogs (import,
 * add-files, query, diff, sql, compact, demo, checkout, commit, check, restore, rm, merge, pull,
 * revert, site, serve, verify, gc, expire): the run's memory budget ({@link CommandContext#duckDb()},
 * applied to every DuckDB the command opens through {@link dev.fdl.ducklake.engine.RunScope};
 * docs/data.md "Memory"). {@code fdl --memory <size> <command>} sets the same for any command.
 */
public final class MemoryOption {
    static final String DESCRIPTION = "Memory budget of DuckDB, e.g. 512MB or 2GB (default: $FDL_MEMORY, else half of the "
            + "machine's or cgroup's memory); what does not fit spills to .fdl/tmp/.";

    /** The command this option belongs to, for the run's {@link CommandContext}. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--memory", paramLabel = "<size>", description = DESCRIPTION)
    void memory(String size) {
        try {
            CommandContext.of(command).memory(size);
        } catch (FdlException e) {
            throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
