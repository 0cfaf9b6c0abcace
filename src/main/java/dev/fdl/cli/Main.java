package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;

/**
 * The {@code fdl} command line. Subcommands are thin: they parse, call the domain packages and
 * print. This class catches every failure and exits with its code from {@link ExitCodes}. The
 * subcommands are {@link #SUBCOMMANDS}, registered when the command line is built (a run registers
 * only the one it runs).
 */
@Command(name = "fdl", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Version control for DuckLake datasets on plain object storage.")
public final class Main implements java.util.concurrent.Callable<Integer> {
    /** Every subcommand, in the order {@code fdl --help} lists them. */
    static final List<Class<?>> SUBCOMMANDS = List.of(
        InitCommand.class,
        CheckoutCommand.class,
        StatusCommand.class,
        ImportCommand.class,
        CommitCommand.class,
        LogCommand.class,
        DiffCommand.class,
        CompactCommand.class,
        ShowCommand.class,
        RefsCommand.class,
        BranchCommand.class,
        TagCommand.class,
        QueryCommand.class,
        AttachCommand.class,
        SqlCommand.class,
        RunCommand.class,
        RestoreCommand.class,
        ExpireCommand.class,
        GcCommand.class,
        VerifyCommand.class,
        CacheCommand.class,
        SiteCommand.class,
        ServeCommand.class,
        DemoCommand.class,
        CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "-C", paramLabel = "<path>", description = "Run as if fdl was started in <path> (like git -C).")
    void setDirectory(java.nio.file.Path dir) {
        Cwd.set(dir);
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
        return commandLine(subcommandNamed(args)).execute(args);
    }

    /** A configured picocli command line with every subcommand (also used by tests to capture output). */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * A configured picocli command line with only {@code only} as subcommand, or every one when
     * null. Picocli reflects over each registered command when the command line is built, which
     * was most of the time {@code fdl log} took to start (issue 17); a run needs one.
     */
    private static CommandLine commandLine(Class<?> only) {
        Cwd.set(null);
        CommandLine cl = new CommandLine(new Main());
        for (Class<?> c : SUBCOMMANDS)
            if (only == null || c == only) cl.addSubcommand(c);
        cl.setExecutionExceptionHandler(Main::handle);
        cl.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            // a check in an option's setter (e.g. -C's folder) is wrapped with picocli's own words; say only ours
            String message = ex.getCause() instanceof CommandLine.TypeConversionException t && t.getMessage() != null
                    ? t.getMessage() : ex.getMessage();
            err.println("fdl: " + message);
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
            return ExitCodes.USAGE;
        });
        cl.setExitCodeExceptionMapper(ex -> ex instanceof FdlException f ? ExitCodes.of(f.kind()) : ExitCodes.FAILURE);
        return cl;
    }

    /**
     * The subcommand {@code args} run, or null when they name none (then every subcommand is
     * registered, so that usage, {@code fdl help <command>} and "did you mean" see them all). The
     * subcommand is the first argument that is not an option of {@code fdl} itself: {@code -C}
     * takes the next argument unless its value is attached ({@code -C<path>}, {@code -C=<path>}).
     */
    static Class<?> subcommandNamed(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-C")) {
                i++;
            } else if (!a.startsWith("-")) {
                for (Class<?> c : SUBCOMMANDS)
                    if (c != CommandLine.HelpCommand.class && c.getAnnotation(Command.class).name().equals(a)) return c;
                return null;
            } else if (a.equals("--")) {
                return null;
            }
        }
        return null;
    }

    private static int handle(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
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
        err.println("fdl: internal error: " + ex);
        if (System.getenv("FDL_DEBUG") != null) ex.printStackTrace(err);
        else err.println("(set FDL_DEBUG=1 to see where it happened)");
        err.flush();
        return ExitCodes.FAILURE;
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
