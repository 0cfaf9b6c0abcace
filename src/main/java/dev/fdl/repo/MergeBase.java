package dev.fdl.repo;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The merge base of two versions (docs/SPEC.md section 7): their nearest common ancestor, following
 * every parent through {@link HistoryWalk}.
 *
 * @param version   the common ancestor
 * @param ambiguous another common ancestor was as near (the same {@code seq}); this one, the first the walk met, is used
 */
public record MergeBase(VersionInfo version, boolean ambiguous) {
    /**
     * The merge base of {@code a} and {@code b}: of the versions both reach through every parent,
     * the one with the largest {@code seq} (no other common ancestor can descend from it), and
     * whether another common ancestor has the same {@code seq}. Empty when they share no history.
     */
    public static Optional<MergeBase> of(Repository repo, String a, String b) {
        Set<String> ours = HistoryWalk.reachable(List.of(a), repo::readVersion, id -> false);
        HistoryWalk walk = HistoryWalk.over(repo.versions(), HistoryWalk.Parents.ALL);
        walk.start(b);
        while (walk.peek() != null) {
            VersionInfo v = walk.take();
            if (!ours.contains(v.id())) continue;
            boolean ambiguous = false;
            while (walk.peek() != null && walk.peek().seq() == v.seq()) {
                if (ours.contains(walk.take().id())) ambiguous = true;
            }
            return Optional.of(new MergeBase(v, ambiguous));
        }
        return Optional.empty();
    }
}
