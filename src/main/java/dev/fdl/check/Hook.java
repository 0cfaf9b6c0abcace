package dev.fdl.check;

import dev.fdl.FdlException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A pre-commit hook as git runs one: an executable file run in the working copy's folder with
 * the variables of {@code fdl run} ({@code FDL_*}); a non-zero exit refuses the commit. Its output
 * (stdout and stderr together) is shown line by line as {@code hook: …}.
 *
 * @param script the file to run
 * @param name   how reports name it ({@code .fdl/hooks/pre-commit}, or the repository's hook key)
 * @param cwd    where it runs
 * @param env    variables added to fdl's own environment
 */
public record Hook(Path script, String name, Path cwd, Map<String, String> env) {
    /** The working copy's own hook, relative to its folder. */
    public static final String WORKING_COPY_HOOK = ".fdl/hooks/pre-commit";
    /** How long a hook may run unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    public Hook {
        env = Map.copyOf(env);
    }

    /**
     * Runs the hook, its output printed to {@code out} as it comes.
     *
     * @return passed, or failed with the exit code
     * @throws FdlException exit 1 when the file is not executable, cannot start, or runs longer than
     *                      {@code timeout} (it is stopped, with every process it started)
     */
    public CheckResult run(Duration timeout, PrintWriter out) {
        String what = "hook " + name;
        if (!Files.isExecutable(script))
            throw new FdlException(FdlException.Kind.FAILURE, what + " (" + script + ") is not executable; make it so (chmod +x "
                    + script + ") or remove it; nothing was uploaded");
        ProcessBuilder pb = new ProcessBuilder(script.toAbsolutePath().toString()).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, what + " cannot start: " + e.getMessage() + "; nothing was uploaded");
        }
        try {
            p.getOutputStream().close(); // a hook reads no input from fdl
        } catch (IOException ignored) {
            // it may have exited already
        }
        Thread copier = new Thread(() -> copy(p, out), "fdl-hook-output");
        copier.setDaemon(true);
        copier.start();
        boolean finished;
        try {
            finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new FdlException(FdlException.Kind.FAILURE, what + " did not finish within " + timeout.toSeconds() + "s (" + timeout
                    + ") and was stopped; nothing was uploaded. Give it longer with --hook-timeout <duration>, or fix the hook");
        }
        try {
            copier.join(TimeUnit.SECONDS.toMillis(5)); // its output is read to the end once it exits
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int exit = p.exitValue();
        return exit == 0 ? CheckResult.verdict(what, null, CheckResult.Status.PASSED, null)
                : CheckResult.verdict(what, null, CheckResult.Status.FAILED, "exited with " + exit);
    }

    private static void copy(Process p, PrintWriter out) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                synchronized (out) {
                    out.println("hook: " + line);
                    out.flush();
                }
            }
        } catch (IOException ignored) {
            // the process was stopped; what it printed so far is shown
        }
    }
}
