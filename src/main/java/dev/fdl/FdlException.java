package dev.fdl;

/**
 * A failure fdl reports to the user: a message that says what happened, to which object, and
 * what to do next, plus its {@link Kind} (SPEC.md section 6). The CLI turns kinds into exit codes
 * in one place ({@code dev.fdl.cli.ExitCodes}).
 */
public class FdlException extends RuntimeException {
    /** What kind of failure it is; each has its own exit code (SPEC.md section 6). */
    public enum Kind {
        /** I/O, bad input, a corrupt file; also a merge stopped on conflicting rows, as {@code git merge} exits 1. */
        FAILURE,
        /** The command line itself is wrong, or it was run where it cannot act (outside a working copy, no repository named). */
        USAGE,
        /** A conditional write was refused: branch moved, a ref or repository of that name exists, a file changed meanwhile. */
        CONFLICT,
        /** No such repository, ref, version, table or input file; no version yet; version expired. */
        NOT_FOUND
    }

    private final Kind kind;

    public FdlException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public FdlException(Kind kind, String message) {
        this(kind, message, null);
    }

    /** A plain failure: I/O, bad input, corrupt file. */
    public FdlException(String message) {
        this(Kind.FAILURE, message, null);
    }

    public Kind kind() {
        return kind;
    }

    /** Not found: no such repository, ref or version; no version yet; version expired. */
    public static FdlException notFound(String message) {
        return new FdlException(Kind.NOT_FOUND, message);
    }

    /** Conflict: a conditional write was refused. */
    public static FdlException conflict(String message) {
        return new FdlException(Kind.CONFLICT, message);
    }

    /** Usage error: the command line itself is wrong. */
    public static FdlException usage(String message) {
        return new FdlException(Kind.USAGE, message);
    }

    /** A repository file that does not parse or lacks a key (a failure), naming the file. */
    public static FdlException corrupt(String file, String what) {
        return new FdlException(Kind.FAILURE, "corrupt repository file " + file + ": " + what);
    }
}
