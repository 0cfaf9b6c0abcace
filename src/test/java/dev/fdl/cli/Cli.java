package dev.fdl.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the fdl command line in-process and captures exit code, stdout and stderr. */
public final class Cli {
    /** One run's outcome. */
    public record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private Cli() {}

    /** Runs fdl as if started in {@code cwd} ({@code -C cwd}). */
    public static Result in(java.nio.file.Path cwd, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-C";
        all[1] = cwd.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return run(all);
    }

    /** {@link #in}, asserting exit 0 (the message shows the whole run otherwise). */
    public static Result ok(java.nio.file.Path cwd, String... args) {
        Result r = in(cwd, args);
        org.assertj.core.api.Assertions.assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isZero();
        return r;
    }

    /**
     * A new repository at {@code dir/repo} and a working copy of it at {@code dir/wc}, made through
     * the command line as a user makes them.
     *
     * @return the working copy's folder
     */
    public static java.nio.file.Path newWorkingCopy(java.nio.file.Path dir) {
        java.nio.file.Path root = dir.resolve("repo"), wc = dir.resolve("wc");
        try {
            java.nio.file.Files.createDirectories(wc);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ok(dir, "init", root.toString());
        ok(wc, "checkout", "--repo", root.toString());
        return wc;
    }

    /** Runs fdl with {@code args} as given (no {@code -C}). */
    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }
}
