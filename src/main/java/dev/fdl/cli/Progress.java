package dev.fdl.cli;
import dev.fdl.ducklake.ProgressListener;


import java.io.PrintWriter;

/** Progress on a terminal (one rewritten line on stderr); nothing when not on one or with --quiet. */
final class Progress {
    private Progress() {}

    /** A catalog-conversion listener for a command. */
    static ProgressListener listener(boolean quiet, PrintWriter err) {
        if (!Out.interactive(quiet)) return ProgressListener.NONE;
        return (table, rows, done, total) -> {
            err.print("\rconverting catalog: " + done + "/" + total + " tables (" + table + ", " + rows + " rows)\u001b[K");
            if (done == total) err.print("\r\u001b[K");
            err.flush();
        };
    }
}
