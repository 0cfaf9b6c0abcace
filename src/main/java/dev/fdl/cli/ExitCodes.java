package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.repo.RefUpdate;

/**
 * The exit codes of SPEC.md section 6, and the one place where failures and ref-update results
 * become them: 0 success, 1 failure, 2 usage error, 3 conflict, 4 not found.
 */
final class ExitCodes {
    static final int OK = 0, FAILURE = 1, USAGE = 2, CONFLICT = 3, NOT_FOUND = 4;
    /** {@code fdl diff --exit-code} (or {@code --quiet}): the sides differ, as {@code git diff --exit-code} and diff(1) exit 1. */
    static final int DIFFERS = 1;

    private ExitCodes() {}

    /** The exit code of a failure of {@code kind}. */
    static int of(FdlException.Kind kind) {
        return switch (kind) {
            case FAILURE -> FAILURE;
            case USAGE -> USAGE;
            case CONFLICT -> CONFLICT;
            case NOT_FOUND -> NOT_FOUND;
        };
    }

    /** The exit code of a ref update's result: a refused update is a conflict, a missing ref not found, a broken rule a failure. */
    static int of(RefUpdate.Result result) {
        return switch (result) {
            case CREATED, MOVED, DELETED -> OK;
            case CONFLICT -> CONFLICT;
            case NOT_FOUND -> NOT_FOUND;
            case REJECTED -> FAILURE;
        };
    }
}
