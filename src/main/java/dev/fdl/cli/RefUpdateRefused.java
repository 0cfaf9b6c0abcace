package dev.fdl.cli;

import dev.fdl.repo.RefUpdate;

/**
 * A ref update that changed nothing, thrown by a command so that {@link Main} prints its message
 * and exits with the result's code ({@link ExitCodes#of(RefUpdate.Result)}).
 */
final class RefUpdateRefused extends RuntimeException {
    private final RefUpdate.Outcome outcome;

    private RefUpdateRefused(RefUpdate.Outcome outcome) {
        super(outcome.message());
        this.outcome = outcome;
    }

    /** The outcome when it changed the ref; throws when it did not. */
    static RefUpdate.Outcome require(RefUpdate.Outcome outcome) {
        if (!outcome.result().changed()) throw new RefUpdateRefused(outcome);
        return outcome;
    }

    RefUpdate.Result result() {
        return outcome.result();
    }
}
