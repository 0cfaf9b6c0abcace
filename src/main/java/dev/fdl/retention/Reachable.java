package dev.fdl.retention;

import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.VersionFolder;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.VersionIds;

import dev.fdl.FdlException;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Which versions are reachable: a ref (branch or tag) points at them, or at a version whose
 * {@code parents} chain leads to them (SPEC.md section 3, version.json; section 4: a refused
 * commit leaves a finished folder nothing reaches). Every parent is followed, not only the first;
 * a parent with no version.json ends that line of history, as in {@code fdl log}.
 */
final class Reachable {
    private Reachable() {}

    /**
     * The ids reachable from {@code roots} (themselves included when they are versions).
     *
     * @param listing versions/ as listed once; an id it shows as finished must still have a
     *                readable version.json (null: no such check, unreadable versions just end a line)
     * @param read    version.json of an id, or empty when it has none (a cached reader is fine:
     *                version.json never changes)
     * @throws FdlException exit 1 when a version the listing shows as finished has lost its
     *                      version.json (something deletes versions concurrently): deciding on a
     *                      partial graph could drop a version that is still reachable
     */
    static Set<String> from(Collection<String> roots, VersionFolder.Listing listing,
                            Function<String, Optional<VersionInfo>> read) {
        Set<String> seen = new HashSet<>();
        Set<String> reached = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String id = todo.pop();
            if (!seen.add(id) || !VersionIds.isValid(id)) continue;
            Optional<VersionInfo> v = read.apply(id);
            if (v.isEmpty()) {
                if (listing != null && listing.get(id) != null && listing.get(id).finished())
                    throw new FdlException(RepoLayout.versionJson(id) + " was listed but is gone; stopped before deciding which "
                            + "versions are unreachable (is another gc running? run fdl verify)");
                continue; // a missing parent ends its line
            }
            reached.add(id);
            todo.addAll(v.get().parents());
        }
        return reached;
    }
}
