package dev.fdl.ducklake.load;

import dev.fdl.ducklake.DataProgress;

/**
 * Passes progress on and remembers the phase the work is in: the last phase reported other than
 * {@code uploading} (uploads run beside DuckDB's work and use no DuckDB memory), so that an error of
 * DuckDB can say what it was doing ("comparing", "writing delete files").
 */
public final class PhaseTracker implements DataProgress {
    private static final String UPLOADING = "uploading";
    private final DataProgress next;
    private volatile String phase;

    /**
     * @param next  where progress goes on to
     * @param start the phase before any is reported
     */
    public PhaseTracker(DataProgress next, String start) {
        this.next = next;
        this.phase = start;
    }

    @Override
    public void update(String phase, long done, long total, String unit) {
        if (!UPLOADING.equals(phase)) this.phase = phase;
        next.update(phase, done, total, unit);
    }

    @Override
    public boolean shown() {
        return next.shown();
    }

    /** The phase the work is in now. */
    public String phase() {
        return phase;
    }

    /** The phase {@code progress} is in when it is a tracker, else null (not known). */
    public static String phaseOf(DataProgress progress) {
        return progress instanceof PhaseTracker t ? t.phase() : null;
    }
}
