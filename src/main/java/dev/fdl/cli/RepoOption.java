package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Option;

import java.util.Optional;

/**
 * {@code --repo <root>} for every command that acts on a repository: the option, else
 * {@code FDL_REPO}, else the repository of the working copy around the current folder.
 */
public final class RepoOption {
    private static final String DESCRIPTION = "Repository root: a folder, file://, s3://bucket/prefix/ or https:// URL "
            + "(default: $FDL_REPO, else the working copy's repository).";

    @Option(names = "--repo", paramLabel = "<root>", description = DESCRIPTION)
    String repo;

    /** The command this option belongs to, for the run's {@link CommandContext}; null when made by hand. */
    @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec command;

    /** {@code --repo} for a model built in code ({@link Specs}), as the annotation above declares it. */
    static picocli.CommandLine.Model.OptionSpec spec() {
        return Specs.option(String.class, "<root>", DESCRIPTION, "--repo");
    }

    /** The option as given in {@code parsed}, a command whose model has {@link #spec()}. */
    static RepoOption of(picocli.CommandLine.ParseResult parsed) {
        RepoOption o = new RepoOption();
        o.repo = parsed.matchedOptionValue("--repo", null);
        o.command = parsed.commandSpec();
        return o;
    }

    /** The root the user named, or the working copy's, or a usage error (exit 2). */
    public String root() {
        if (repo != null && !repo.isBlank()) return CommandContext.of(command).cwd().root(repo);
        String env = environment();
        if (env != null) {
            String root = CommandContext.of(command).cwd().root(env);
            warnIfInsideAnotherRepository(root);
            return root;
        }
        Optional<String> wc = WorkingCopyRoot.find(CommandContext.of(command).cwd().get());
        if (wc.isPresent()) return wc.get();
        throw FdlException.usage("no repository given: use --repo <root>, set FDL_REPO, or run inside a working copy");
    }

    /**
     * FDL_REPO comes before the working copy around the current folder (a cron job's default), so
     * inside a working copy of another repository a command silently answers about FDL_REPO's:
     * one line on stderr says which repository is used and how to use the other.
     */
    private void warnIfInsideAnotherRepository(String envRoot) {
        Optional<String> wc = WorkingCopyRoot.find(CommandContext.of(command).cwd().get());
        if (wc.isEmpty() || stripSlash(wc.get()).equals(stripSlash(envRoot))) return;
        if (!CommandContext.of(command).firstRepoWarning()) return; // once per run: a command may ask for its root several times
        System.err.println("fdl: using FDL_REPO=" + dev.fdl.util.Redacted.location(envRoot) + ", not the repository of the working copy here ("
                + dev.fdl.util.Redacted.location(wc.get()) + "); unset FDL_REPO to use the working copy's");
        System.err.flush();
    }

    private static String stripSlash(String root) {
        return root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    }

    /**
     * The words an {@code fdl} command printed for the user needs to act on {@code store}'s
     * repository when pasted in any folder: {@code --repo <root> } (shell-quoted, credentials left
     * out: {@link dev.fdl.util.Redacted}) when the root was named by {@code --repo} or
     * {@code FDL_REPO}; nothing when it is the working copy's around the current folder, as a
     * command pasted there finds it again (git's hints name no {@code -C} either).
     */
    public String pastedWords(ObjectStore store) {
        boolean named = repo != null && !repo.isBlank() || environment() != null;
        return named ? "--repo " + dev.fdl.util.ShellQuote.word(dev.fdl.util.Redacted.location(store.root())) + " " : "";
    }

    /** {@code FDL_REPO}, or null when unset or blank. */
    private static String environment() {
        String env = System.getenv("FDL_REPO");
        return env == null || env.isBlank() ? null : env;
    }

    /** Opens the store for {@link #root()}; the caller closes it. */
    public ObjectStore openStore() {
        return Stores.open(root());
    }

    /** Opens the repository (exit 4 when there is none). */
    public Repository open(ObjectStore store) {
        return Repository.open(store);
    }
}
