package dev.fdl.cli;

import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code fdl run -- <cmd>}: runs a command with the working copy's FDL_* variables. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a command (your own DuckDB, dbt, dlt, a script) with the working copy's FDL_* variables set.",
                "FDL_CATALOG_PATH (the SQLite working catalog), FDL_CATALOG_URL (ducklake:sqlite:<path>), FDL_DATA_PATH (the repository's data folder),",
                "FDL_REPO (the repository root), FDL_BRANCH. Exits with the command's exit code. Do not run DuckLake's file cleanup through it."})
final class RunCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "<cmd>") List<String> command;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            Map<String, String> env = pb.environment();
            env.putAll(variables(wc, repo));
            userLocale(env);
        }
        try {
            return pb.start().waitFor();
        } catch (IOException e) {
            // as a shell does: 127 for a command that cannot be found or started
            spec.commandLine().getErr().println("fdl: cannot run " + command.get(0) + ": " + e.getMessage());
            return 127;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /**
     * Gives the command the locale the user had: the launcher runs fdl with {@code LC_ALL=C.UTF-8}
     * when the user's locale names no UTF-8, and passes the user's own {@code LC_ALL} (empty: none)
     * as {@code FDL_USER_LC_ALL}.
     */
    static void userLocale(Map<String, String> env) {
        String user = env.remove("FDL_USER_LC_ALL");
        if (user == null) return;
        if (user.isEmpty()) env.remove("LC_ALL");
        else env.put("LC_ALL", user);
    }

    /** The variables injected for {@code wc}. */
    static Map<String, String> variables(WorkingCopy wc, Repository repo) {
        return wc.runVariables(repo);
    }
}
