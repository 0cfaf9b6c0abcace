package dev.fdl.cli;
import dev.fdl.ducklake.DataProgress;
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

    /** A data-step listener for a command: on a terminal unless {@code quiet}, else {@link DataProgress#NONE}. */
    static DataProgress data(boolean quiet, PrintWriter err) {
        return Out.interactive(quiet) ? new DataLine(err, System::nanoTime) : DataProgress.NONE;
    }

    /**
     * One rewritten line on stderr per step: {@code writing data files: 45% (1,234,567 of 2,700,000
     * rows, 310,000 rows/s, 5s left)}, at most four times a second, cleared when the step ends.
     * Rate and time left are measured from the step's first report; a step whose amount is not known
     * shows as {@code reading the table…} until the next replaces it.
     */
    static final class DataLine implements DataProgress {
        private final PrintWriter err;
        private final java.util.function.LongSupplier clock;
        private String phase;
        private long startNanos;
        private long lastNanos;

        DataLine(PrintWriter err, java.util.function.LongSupplier clock) {
            this.err = err;
            this.clock = clock;
        }

        @Override
        public synchronized void update(String step, long done, long total, String unit) {
            long now = clock.getAsLong();
            if (!step.equals(phase)) {
                phase = step;
                startNanos = now;
                lastNanos = 0;
            }
            boolean end = total >= 0 && done >= total;
            if (end) {
                err.print("\r\u001b[K");
                err.flush();
                phase = null;
                return;
            }
            if (lastNanos != 0 && now - lastNanos < 250_000_000L) return;
            lastNanos = now;
            err.print("\r" + line(step, done, total, unit, (now - startNanos) / 1e9) + "\u001b[K");
            err.flush();
        }

        /** The line for {@code done} of {@code total} after {@code seconds}. */
        static String line(String step, long done, long total, String unit, double seconds) {
            if (total < 0 && done == 0) return step + "\u2026"; // a phase under way whose amount is not known
            boolean bytes = unit.equals("bytes");
            String suffix = bytes ? "" : " " + unit;
            StringBuilder b = new StringBuilder(step).append(": ");
            if (total > 0) b.append(Math.min(100, done * 100 / total)).append("% (");
            else b.append('(');
            b.append(amount(done, bytes));
            if (total > 0) b.append(" of ").append(amount(total, bytes));
            b.append(suffix);
            if (seconds >= 1 && done > 0) {
                double rate = done / seconds;
                b.append(", ").append(amount((long) rate, bytes)).append(suffix).append("/s");
                if (total > 0) b.append(", ").append(Math.round((total - done) / rate)).append("s left");
            }
            return b.append(')').toString();
        }

        private static String amount(long n, boolean bytes) {
            return bytes ? Out.size(n) : String.format(java.util.Locale.ROOT, "%,d", n);
        }
    }
}
