package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.store.StoreException;
import dev.fdl.ducklake.engine.RunScope;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code fdl} command line. Subcommands are thin: they parse, call the domain packages and
 * print. This class catches every failure and exits with its code from {@link ExitCodes}. The
 * subcommands are {@link #SUBCOMMANDS}, registered when the command line is built (a run registers
 * only the one it runs). The models of fdl itself and of the everyday commands are built in code
 * ({@link Specs}); the other commands are annotated classes, which picocli reads by reflection.
 */
public final class Main implements java.util.concurrent.Callable<Integer> {
    /**
     * A subcommand: a model built in code under {@code name}, or an annotated class whose name is in
     * its {@code @Command} (read only when needed: reading an annotation is what a quick start avoids).
     */
    record Subcommand(String builtName, Supplier<CommandSpec> built, Class<?> annotated) {
        static Subcommand built(String name, Supplier<CommandSpec> spec) {
            return new Subcommand(name, spec, null);
        }

        static Subcommand annotated(Class<?> type) {
            return new Subcommand(null, null, type);
        }

        String name() {
            return built != null ? builtName : annotated.getAnnotation(Command.class).name();
        }

        /** What picocli's {@code addSubcommand} takes: a fresh model, or the class to reflect over. */
        Object model() {
            return built != null ? built.get() : annotated;
        }
    }

    /** Every subcommand, in the order {@code fdl --help} lists them. */
    static final List<Subcommand> SUBCOMMANDS = List.of(
        Subcommand.annotated(InitCommand.class),
        Subcommand.annotated(CheckoutCommand.class),
        Subcommand.built("status", StatusCommand::spec),
        Subcommand.annotated(ImportCommand.class),
        Subcommand.annotated(AddFilesCommand.class),
        Subcommand.annotated(RmCommand.class),
        Subcommand.annotated(CheckCommand.class),
        Subcommand.annotated(CommitCommand.class),
        Subcommand.built("log", LogCommand::spec),
        Subcommand.annotated(DiffCommand.class),
        Subcommand.annotated(BlameCommand.class),
        Subcommand.annotated(CompactCommand.class),
        Subcommand.built("show", ShowCommand::spec),
        Subcommand.built("refs", RefsCommand::spec),
        Subcommand.built("branch", RefCommand::branch),
        Subcommand.built("tag", RefCommand::tag),
        Subcommand.annotated(QueryCommand.class),
        Subcommand.annotated(AttachCommand.class),
        Subcommand.annotated(IcebergCommand.class),
        Subcommand.annotated(SqlCommand.class),
        Subcommand.annotated(RunCommand.class),
        Subcommand.annotated(RestoreCommand.class),
        Subcommand.annotated(MergeCommand.class),
        Subcommand.annotated(PullCommand.class),
        Subcommand.annotated(RevertCommand.class),
        Subcommand.annotated(ExpireCommand.class),
        Subcommand.annotated(GcCommand.class),
        Subcommand.annotated(VerifyCommand.class),
        Subcommand.annotated(CacheCommand.class),
        Subcommand.annotated(SiteCommand.class),
        Subcommand.annotated(ServeCommand.class),
        Subcommand.annotated(DemoCommand.class),
        Subcommand.annotated(ConfigCommand.class),
        Subcommand.annotated(CommandLine.HelpCommand.class));

    private CommandSpec spec;
    /** What the commands of this run share (the catalog cache, ...); made here, once per command line. */
    private final CommandContext context = new CommandContext();

    /** The shared services of this run, for the commands below ({@link CommandContext#of}). */
    CommandContext context() {
        return context;
    }

    /** The picocli model of {@code fdl} itself, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec spec() {
        Main m = new Main();
        m.spec = Specs.command("fdl", m, "Version control for DuckLake datasets on plain object storage.");
        m.spec.versionProvider(new Version());
        m.spec.addOption(OptionSpec.builder("-C").type(Path.class).paramLabel("<path>")
                .description("Run as if fdl was started in <path> (like git -C).")
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    public <T> T set(T dir) {
                        m.context.cwd((Path) dir);
                        return null;
                    }
                }).build());
        m.spec.addOption(OptionSpec.builder("--memory").type(String.class).paramLabel("<size>")
                .hidden(true) // documented with the commands' own --memory (MemoryOption); fdl's help lists only commands
                .description(MemoryOption.DESCRIPTION)
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    public <T> T set(T size) {
                        try {
                            m.context.memory((String) size);
                        } catch (dev.fdl.FdlException e) {
                            throw new CommandLine.TypeConversionException(e.getMessage());
                        }
                        return null;
                    }
                }).build());
        return m.spec;
    }

    /** {@code fdl} alone: the usage on stderr and exit 2, as for any incomplete command line. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** Runs fdl and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs fdl with {@code args} and returns the exit code (0 success, 1 failure, 2 usage, 3 conflict, 4 not found). */
    public static int run(String... args) {
        CommandLine cl = null;
        try {
            cl = commandLineFor(args);
            // picocli prints to System.out unless told otherwise, and nothing here tells it
            if (cl.getCommandSpec().userObject() instanceof Main m) m.context.printsToProcessStdout();
            return cl.execute(args);
        } catch (LinkageError e) {
            // picocli passes Errors through; a native library that cannot be loaded is one
            System.err.println("fdl: " + NativeLoadFailure.message(e));
            PrintWriter err = new PrintWriter(System.err, true);
            debugTrace(e, err);
            err.flush();
            return ExitCodes.FAILURE;
        } finally {
            if (cl != null && cl.getCommandSpec().userObject() instanceof Main m) m.context.close();
        }
    }

    /** A configured picocli command line with every subcommand (also used by tests to capture output). */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * The command line {@link #run} executes {@code args} with: only the subcommand they name, or
     * every one when they name none. Picocli builds the model of each registered command when the
     * command line is built, which was most of the time {@code fdl log} took to start;
     * a run needs one.
     */
    static CommandLine commandLineFor(String... args) {
        return commandLine(subcommandNamed(args));
    }

    /** A configured picocli command line with only {@code only} as subcommand, or every one when null. */
    private static CommandLine commandLine(Subcommand only) {
        CommandLine cl = new CommandLine(spec(), Specs.FACTORY);
        for (Subcommand c : SUBCOMMANDS)
            if (only == null || c == only) cl.addSubcommand(c.model());
        Failures failures = new Failures();
        cl.setExecutionExceptionHandler(failures);
        cl.setParameterExceptionHandler(failures);
        cl.setExitCodeExceptionMapper(failures);
        cl.setExecutionStrategy(new WithinBudget());
        return cl;
    }

    /**
     * Runs the command picocli chose (as {@link CommandLine.RunLast}) inside the run's DuckDB
     * scope ({@link RunScope}): every DuckDB the command opens, through its context's pool or
     * through a static utility, is lent under the run's memory budget. A class rather than a
     * lambda, as {@link Failures} says.
     */
    private static final class WithinBudget implements CommandLine.IExecutionStrategy {
        @Override
        public int execute(CommandLine.ParseResult parsed) {
            CommandContext context = CommandContext.of(parsed.commandSpec());
            // an anonymous class, not context::duckDb: the archive missed that method reference's
            // class, which each start then generated
            java.util.function.Supplier<dev.fdl.ducklake.engine.DuckDbPool> pool = new java.util.function.Supplier<>() {
                @Override
                public dev.fdl.ducklake.engine.DuckDbPool get() {
                    return context.duckDb();
                }
            };
            try (RunScope.Scope scope = RunScope.enter(pool)) {
                return new CommandLine.RunLast().execute(parsed);
            } finally {
                context.close(); // the spill folder goes with the command, however it was run
            }
        }
    }

    /**
     * The subcommand {@code args} run, or null when they name none (then every subcommand is
     * registered, so that usage, {@code fdl help <command>} and "did you mean" see them all). The
     * subcommand is the first argument that is not an option of {@code fdl} itself: {@code -C}
     * and {@code --memory} take the next argument unless its value is attached ({@code -C<path>}, {@code -C=<path>}).
     * The everyday commands are found by name alone; an annotation is read only for the others.
     */
    static Subcommand subcommandNamed(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-C") || a.equals("--memory")) {
                i++;
            } else if (!a.startsWith("-")) {
                for (Subcommand c : SUBCOMMANDS)
                    if (c.built() != null && c.builtName().equals(a)) return c;
                for (Subcommand c : SUBCOMMANDS)
                    if (c.annotated() != null && c.annotated() != CommandLine.HelpCommand.class && c.name().equals(a)) return c;
                return null;
            } else if (a.equals("--")) {
                return null;
            }
        }
        return null;
    }

    /**
     * How failures become messages and exit codes. A class rather than lambdas: picocli's handler
     * interfaces are Java 5 class files, which the class-data archive keeps only while nothing links
     * them when it is made, as a lambda's class does; left out, they were loaded from the jars at
     * every start, after opening jar after jar of the class path.
     */
    private static final class Failures implements CommandLine.IExecutionExceptionHandler,
            CommandLine.IParameterExceptionHandler, CommandLine.IExitCodeExceptionMapper {
        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            PrintWriter err = ex.getCommandLine().getErr();
            // a check in an option's setter (e.g. -C's folder) is wrapped with picocli's own words; say only ours
            String message = ex.getCause() instanceof CommandLine.TypeConversionException t && t.getMessage() != null
                    ? t.getMessage() : ex.getMessage();
            err.println("fdl: " + message);
            String command = ex.getCommandLine().getCommandName();
            for (String a : args) {
                // SQL read from a file often starts with a comment, which picocli takes for an option
                boolean sql = command.equals("query") || command.equals("sql");
                if (sql && a.startsWith("--") && !a.contains("=") && a.chars().anyMatch(Character::isWhitespace)) {
                    err.println("fdl: '" + a.lines().findFirst().orElse(a) + "…' starts with --, so it was read as an option;"
                            + " put -- before it to pass it as it is (fdl " + command + " -- \"$sql\")");
                    break;
                }
            }
            if (ex instanceof CommandLine.UnmatchedArgumentException && command.equals("status")
                    && java.util.Arrays.stream(args).anyMatch(a -> a.equals("--repo") || a.startsWith("--repo="))) {
                // git status, too, needs a work tree: a repository alone has no status, but its refs and history
                err.println("fdl: status describes a working copy (its branch, base version and uncommitted snapshots); for a repository "
                        + "without one, list its branches and tags with fdl refs --repo <root> and its history with fdl log --repo <root> "
                        + "(fdl log --all --repo <root>: every ref's)");
            } else if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                // picocli's suggestions (names close to the mistyped subcommand or option), in one question
                String prefix = u.isUnknownOption() ? "" : u.getCommandLine().getCommandSpec().qualifiedName() + " ";
                java.util.List<String> names = new java.util.ArrayList<>();
                for (String suggestion : u.getSuggestions()) if (names.size() < 3) names.add(prefix + suggestion);
                err.println("Did you mean: " + String.join(" or ", names) + "?");
            }
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
            return ExitCodes.USAGE;
        }

        @Override
        public int getExitCode(Throwable ex) {
            return ex instanceof FdlException f ? ExitCodes.of(f.kind()) : ExitCodes.FAILURE;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
            PrintWriter err = cl.getErr();
            for (Throwable t = ex; t != null; t = t.getCause()) {
                // an FdlException naming --memory already says what to do (e.g. ParquetRowGroups): its words stand
                if (t instanceof FdlException f && String.valueOf(f.getMessage()).contains("--memory")) break;
                // DuckDB's out-of-memory advice names its own settings: say it with --memory, wherever it was caught
                String memory = dev.fdl.ducklake.engine.DuckDbErrors.outOfMemory(t.getMessage());
                if (memory != null) {
                    err.println("fdl: " + memory);
                    err.flush();
                    return ExitCodes.FAILURE;
                }
                if (t.getCause() == t) break;
            }
            if (ex instanceof FdlException f) {
                err.println("fdl: " + clip(f.getMessage()));
                err.flush();
                return ExitCodes.of(f.kind());
            }
            if (ex instanceof RefUpdateRefused r) {
                err.println("fdl: " + clip(r.getMessage()));
                err.flush();
                return ExitCodes.of(r.result());
            }
            if (ex instanceof dev.fdl.store.ReadOnlyStoreException s) {
                err.println("fdl: " + clip(s.getMessage()));
                err.flush();
                return ExitCodes.FAILURE;
            }
            if (ex instanceof StoreException s) {
                err.println("fdl: store error: " + clip(s.getMessage()));
                err.flush();
                return ExitCodes.FAILURE;
            }
            if (ex instanceof java.nio.file.InvalidPathException p) {
                // a name the locale's file-name encoding cannot hold (LANG unset: ASCII)
                String encoding = System.getProperty("sun.jnu.encoding", "");
                err.println("fdl: cannot use '" + p.getInput() + "' as a file name: " + p.getReason()
                        + (encoding.equalsIgnoreCase("UTF-8") ? "" : "; file names are " + encoding
                        + " in this locale: run fdl with a UTF-8 locale (e.g. LC_ALL=C.UTF-8)"));
                err.flush();
                return ExitCodes.FAILURE;
            }
            err.println("fdl: internal error: " + ex);
            if (!debugTrace(ex, err)) err.println("(set FDL_DEBUG=1 to see where it happened)");
            err.flush();
            return ExitCodes.FAILURE;
        }
    }

    /**
     * Prints where {@code t} happened, only when the user asked for it ({@code FDL_DEBUG} set):
     * otherwise fdl's one-line messages say what happened and what to do.
     *
     * @return whether the trace was printed
     */
    static boolean debugTrace(Throwable t, PrintWriter err) {
        if (System.getenv("FDL_DEBUG") == null) return false;
        t.printStackTrace(err);
        return true;
    }

    /** Messages can quote input (a CSV line, a DuckDB error); keep each line readable. */
    static String clip(String message) {
        StringBuilder b = new StringBuilder();
        for (String line : String.valueOf(message).split("\n", -1)) {
            if (b.length() > 0) b.append('\n');
            b.append(line.length() > 600 ? line.substring(0, 600) + "… (" + (line.length() - 600) + " more characters)" : line);
        }
        return b.toString();
    }

    /** {@code --version}: fdl's version, its repository format and the DuckDB it embeds. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[]{"fdl " + (v == null ? "0.1.0" : v) + " (repository format "
                    + dev.fdl.repo.FormatVersion.CURRENT + ")"};
        }
    }
}
