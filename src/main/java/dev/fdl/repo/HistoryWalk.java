package dev.fdl.repo;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The versions reachable from some starting versions through their parents, newest first (by
 * {@code seq}, then id, descending), each once. A parent's {@code seq} is smaller than its
 * child's (SPEC.md section 4), so once the walk is below a seq it never returns above it: callers
 * stop early ({@link Repository#log}, {@link Repository#reachableFromOtherRefs}).
 */
final class HistoryWalk {
    private final Repository repo;
    private final PriorityQueue<VersionInfo> queue = new PriorityQueue<>(
            Comparator.comparingLong(VersionInfo::seq).thenComparing(VersionInfo::id).reversed());
    private final Set<String> seen = new HashSet<>();

    HistoryWalk(Repository repo) {
        this.repo = repo;
    }

    /** Adds a starting version (once; a missing one is skipped). */
    void start(String id) {
        if (seen.add(id)) repo.readVersion(id).ifPresent(queue::add);
    }

    /** The newest version not yet taken, or null when the walk is done; {@link #take} takes it. */
    VersionInfo peek() {
        return queue.peek();
    }

    /** Takes the newest version without going on to its parents (its history is left out). */
    VersionInfo skip() {
        return queue.poll();
    }

    /**
     * Takes the newest version and adds its parents to the walk.
     *
     * @param missing receives the parents first met here that are not finished versions (history is cut there); may be null
     */
    VersionInfo take(List<String> missing) {
        VersionInfo v = queue.poll();
        for (String p : v.parents()) {
            if (!seen.add(p)) continue;
            Optional<VersionInfo> pv = repo.readVersion(p);
            if (pv.isPresent()) queue.add(pv.get());
            else if (missing != null) missing.add(p);
        }
        return v;
    }

    /** {@link #take} without recording missing parents. */
    VersionInfo take() {
        return take(null);
    }
}
