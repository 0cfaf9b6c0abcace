package dev.fdl.cli;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.DuckLakeExtension;
import dev.fdl.ducklake.engine.MemoryBudget;
import dev.fdl.workingcopy.WorkingCopy;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;

/**
 * What the commands of one run of fdl share, made once by {@link Main} and handed down the
 * command tree (a command reaches it from its picocli model, {@link #of}): the catalog cache,
 * made from the environment on first use (the one place fdl reads {@code FDL_CACHE_DIR}), the
 * pool of DuckDB instances under the run's memory budget ({@code --memory}, else {@code FDL_MEMORY},
 * else half the machine's or cgroup's memory: {@link MemoryBudget}) and whether extensions may load ({@code FDL_NO_EXTENSION}), the clock, and
 * whether the {@code FDL_REPO} warning was printed, and the folder the run acts in ({@code -C}). Nothing below the CLI reads the environment
 * for these; they are passed in.
 */
final class CommandContext {
    private CatalogCache cache;
    private String memory;
    private DuckDbPool pool;
    private Path spill;
    private boolean repoWarningPrinted;
    private Cwd cwd = Cwd.process();
    private boolean processStdout;

    /**
     * The context of the run {@code spec} belongs to: the one {@link Main} made, or a fresh one
     * for a command run on its own (a test building one command line).
     */
    static CommandContext of(CommandSpec spec) {
        Object root = spec == null ? null : spec.root().userObject();
        return root instanceof Main m ? m.context() : new CommandContext();
    }

    /** The folder this run acts in: the process's current folder, or {@code -C <path>}. */
    Cwd cwd() {
        return cwd;
    }

    /** {@code -C dir}: the run acts in {@code dir} (null: the process's current folder). */
    void cwd(Path dir) {
        this.cwd = dir == null ? Cwd.process() : Cwd.of(dir);
    }

    /**
     * The process's standard output (file descriptor 1) when the command line prints to it, as
     * {@link Main#run} runs fdl, for output written as bytes (a file DuckDB wrote: {@link Out#file})
     * after what the command line's writer printed and flushed; null when the command line prints
     * to another writer (a test capturing it, {@code fdl demo}).
     */
    java.nio.channels.WritableByteChannel processStdout() {
        // not closed: closing the channel would close file descriptor 1
        return processStdout ? new java.io.FileOutputStream(java.io.FileDescriptor.out).getChannel() : null;
    }

    /** Marks this run as printing to the process's standard output ({@link #processStdout()}). */
    void printsToProcessStdout() {
        this.processStdout = true;
    }

    /** The clock versions, expiry and gc read the time from (UTC). */
    java.time.Clock clock() {
        return java.time.Clock.systemUTC();
    }

    /**
     * The pool of in-memory DuckDB instances the data commands borrow from: the process-wide one
     * ({@link DuckDbPool#shared()}) with the run's {@link MemoryBudget} applied to every lending,
     * asked for only when a command needs DuckDB, so the light commands never load it.
     */
    synchronized DuckDbPool duckDb() {
        if (pool == null) {
            spill = spillFolder();
            pool = DuckDbPool.shared().within(MemoryBudget.resolve(memory, System.getenv("FDL_MEMORY"), spill));
        }
        return pool;
    }

    /** {@code --memory} as given (null: not given), read by {@link #duckDb()}; checked here so a bad value fails before any work. */
    void memory(String text) {
        if (text != null) MemoryBudget.parse(text, "--memory");
        this.memory = text;
    }

    /**
     * Where this run's DuckDB spills: {@code .fdl/tmp/spill-<pid>-<random>} in the working copy
     * around the current folder (same disk as the data fdl writes), else a folder of the system's
     * temporary folder. DuckDB makes it only when it spills; {@link #close()} removes it.
     */
    private Path spillFolder() {
        String name = "spill-" + ProcessHandle.current().pid() + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        return WorkingCopy.find(cwd.get()).map(w -> w.tmp().resolve(name))
                .orElse(Path.of(System.getProperty("java.io.tmpdir")).resolve("fdl-" + name));
    }

    /** Ends the run: removes the spill folder with whatever DuckDB left in it. */
    void close() {
        if (spill != null) dev.fdl.ducklake.load.Importer.deleteTree(spill);
    }

    /**
     * Whether DuckDB's extensions may be loaded in this run: not when {@code FDL_NO_EXTENSION=1}
     * (the one place fdl reads it), which forces the built-in paths.
     */
    DuckLakeExtension extensions() {
        return "1".equals(System.getenv("FDL_NO_EXTENSION"))
                ? DuckLakeExtension.disabled("disabled by FDL_NO_EXTENSION=1") : DuckLakeExtension.ALLOWED;
    }

    /** The cache folder fdl uses ({@link CatalogCache#fromEnvironment}), made on first use. */
    CatalogCache cache() {
        if (cache == null) cache = CatalogCache.fromEnvironment();
        return cache;
    }

    /** A cache rooted at {@code dir} when a command's {@code --cache-dir} names one, else {@link #cache()}. */
    CatalogCache cache(Path dir) {
        return dir != null ? new CatalogCache(dir) : cache();
    }

    /**
     * This user's settings ({@code fdl config}): the file {@code $FDL_CONFIG} names, else the JVM
     * property {@code fdl.config}, else {@code $XDG_CONFIG_HOME/fdl/config.json}, else
     * {@code ~/.config/fdl/config.json}.
     */
    dev.fdl.util.UserConfig userConfig() {
        String file = System.getenv("FDL_CONFIG");
        if (file == null || file.isEmpty()) file = System.getProperty("fdl.config");
        if (file != null && !file.isEmpty()) return new dev.fdl.util.UserConfig(Path.of(file));
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return new dev.fdl.util.UserConfig(base.resolve("fdl").resolve("config.json"));
    }

    /** The SSH agent's socket ({@code SSH_AUTH_SOCK}, the one place fdl reads it), or null when none is set. */
    Path sshAgent() {
        String sock = System.getenv("SSH_AUTH_SOCK");
        return sock == null || sock.isEmpty() ? null : Path.of(sock);
    }

    /**
     * The SSH signer of a key named by the user ({@code --sign=<key>}, {@code -u <key>}, the user
     * setting {@code signing.key}): {@code ~/} is the home folder, a relative path is from the working
     * folder; the agent at {@code SSH_AUTH_SOCK} signs when it holds the key.
     */
    dev.fdl.trust.SshSigner signer(String key) {
        return dev.fdl.trust.SigningKeys.open(keyFile(key), sshAgent());
    }

    /** The file a key name means: {@code ~/} is the home folder, a relative path is from the working folder. */
    Path keyFile(String key) {
        return key.startsWith("~/") ? Path.of(System.getProperty("user.home"), key.substring(2)) : cwd().get().resolve(key).normalize();
    }

    /** True the first time it is asked: the FDL_REPO warning is printed once per run, however often a root is read. */
    boolean firstRepoWarning() {
        if (repoWarningPrinted) return false;
        repoWarningPrinted = true;
        return true;
    }
}
