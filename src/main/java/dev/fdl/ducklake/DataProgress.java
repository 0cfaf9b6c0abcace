package dev.fdl.ducklake;

/**
 * Told how far a long data step has come (writing data files, uploading them, registering files, the
 * phases of a sync: reading the table, comparing);
 * for terminal output only, never for results. Called from the working thread or a watcher thread,
 * at most a few times a second.
 */
@FunctionalInterface
public interface DataProgress {
    /** Ignores all progress. */
    DataProgress NONE = (phase, done, total, unit) -> { };

    /**
     * The step {@code phase} ("writing data files", "uploading") has done {@code done} of
     * {@code total} {@code unit}s ({@code rows}, {@code bytes}, {@code files}); {@code total} is -1
     * when unknown. A call with {@code done == total} ends the step.
     */
    void update(String phase, long done, long total, String unit);

    /** Whether progress is shown at all (a caller may then skip the work of measuring it). */
    default boolean shown() {
        return this != NONE;
    }
}
