package dev.fdl;

/**
 * A failure fdl reports to the user: a message that says what happened, to which object, and
 * what to do next, plus the exit code of SPEC.md section 6. The CLI maps these to exit codes
 * in one place ({@code dev.fdl.cli.Main}).
 */
public class FdlException extends RuntimeException {
    /** Exit codes of SPEC.md section 6. */
    public static final int FAILURE = 1, USAGE = 2, CONFLICT = 3, NOT_FOUND = 4;

    private final int exitCode;

    public FdlException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public FdlException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    /** A plain failure (exit 1): I/O, bad input, corrupt file. */
    public FdlException(String message) {
        this(FAILURE, message, null);
    }

    public int exitCode() {
        return exitCode;
    }

    /** Not found (exit 4): no such repository, ref or version; no version yet; version expired. */
    public static FdlException notFound(String message) {
        return new FdlException(NOT_FOUND, message);
    }

    /** Conflict (exit 3): a conditional write was refused. */
    public static FdlException conflict(String message) {
        return new FdlException(CONFLICT, message);
    }

    /** Usage error (exit 2): the command line itself is wrong. */
    public static FdlException usage(String message) {
        return new FdlException(USAGE, message);
    }

    /** A repository file that does not parse or lacks a key (exit 1), naming the file. */
    public static FdlException corrupt(String file, String what) {
        return new FdlException(FAILURE, "corrupt repository file " + file + ": " + what);
    }
}
