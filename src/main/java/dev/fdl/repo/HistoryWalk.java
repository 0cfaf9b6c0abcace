package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.util.VersionIds;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one walk of history: the versions reachable from some starting versions through their
 * {@code parents} (every parent, or the first only), newest first (by {@code seq}, then id,
 * descending), each once. A parent's {@code seq} is smaller than its child's (SPEC.md section 4),
 * so once the walk is below a seq it never returns above it and callers stop early. log, gc,
 * expire, verify, {@code branch -d} and the site all walk here (every parent: a version only a
 * merge's second parent reaches is reachable); {@code log --first-parent} follows first parents only.
 *
 * <p>The rule for a version with no readable version.json (a ref's version or a parent), the same
 * for every caller: when the store still lists its version.json, the version is finished but
 * being deleted or damaged, and the walk stops with exit 1, because deciding on a partial graph
 * could let gc delete a version it still reaches; otherwise its line of history ends there (log
 * shows the missing parent).
 */
public final class HistoryWalk {
    /** Which parents a walk follows: all of them, or the first only (git's {@code --first-parent}). */
    public enum Parents { ALL, FIRST }

    private final Function<String, Optional<VersionInfo>> read;
    private final Predicate<String> listedAsFinished;
    private final Parents parents;
    private final PriorityQueue<VersionInfo> queue = new PriorityQueue<>(NEWEST_FIRST);

    /**
     * Newest first: by {@code seq}, then id, descending. A class of its own: the lambdas of
     * {@code Comparator.comparingLong(..).thenComparing(..)} are made inside the JDK's
     * {@code Comparator}, which the class-data archive does not hold, so each start generated them.
     */
    private static final Comparator<VersionInfo> NEWEST_FIRST = new Comparator<>() {
        @Override
        public int compare(VersionInfo a, VersionInfo b) {
            int bySeq = Long.compare(b.seq(), a.seq());
            return bySeq != 0 ? bySeq : b.id().compareTo(a.id());
        }
    };
    private final Set<String> seen = new HashSet<>();

    private HistoryWalk(Function<String, Optional<VersionInfo>> read, Predicate<String> listedAsFinished, Parents parents) {
        this.read = read;
        this.listedAsFinished = listedAsFinished;
        this.parents = parents;
    }

    /** A walk over {@code versions}, asking the store (one listing of the folder) about a version whose version.json is missing. */
    public static HistoryWalk over(VersionDatabase versions, Parents parents) {
        return new HistoryWalk(versions::read, versions::listsVersionJson, parents);
    }

    /**
     * A walk reading versions through {@code read} (a cached reader is fine: version.json never
     * changes).
     *
     * @param listedAsFinished whether the store listed an id's version.json (gc's listing of versions/);
     *                         {@code id -> false} where the caller reports unreadable versions itself (verify)
     */
    public static HistoryWalk over(Function<String, Optional<VersionInfo>> read, Predicate<String> listedAsFinished, Parents parents) {
        return new HistoryWalk(read, listedAsFinished, parents);
    }

    /**
     * The ids reachable from {@code roots} through every parent (themselves included when they are
     * versions).
     *
     * @throws FdlException exit 1 when a version listed as finished has no readable version.json (the rule above)
     */
    public static Set<String> reachable(Collection<String> roots, Function<String, Optional<VersionInfo>> read,
                                        Predicate<String> listedAsFinished) {
        HistoryWalk walk = over(read, listedAsFinished, Parents.ALL);
        for (String r : roots) walk.start(r);
        Set<String> out = new HashSet<>();
        while (walk.peek() != null) out.add(walk.take().id());
        return out;
    }

    /**
     * Adds a starting version (once; one with no version.json follows the rule above).
     *
     * @throws FdlException exit 1 when it is listed as finished but cannot be read
     */
    public void start(String id) {
        visit(id, null);
    }

    /** Adds a starting version already read. */
    public void start(VersionInfo v) {
        if (seen.add(v.id())) queue.add(v);
    }

    /** The newest version not yet taken, or null when the walk is done; {@link #take} takes it. */
    public VersionInfo peek() {
        return queue.peek();
    }

    /** Takes the newest version without going on to its parents (its history is left out). */
    public VersionInfo skip() {
        return queue.poll();
    }

    /**
     * Takes the newest version and adds its parents (or its first) to the walk.
     *
     * @param missing receives the parents first met here that are not finished versions (history is cut there); may be null
     * @throws FdlException exit 1 when a parent is listed as finished but cannot be read
     */
    public VersionInfo take(List<String> missing) {
        VersionInfo v = queue.poll();
        List<String> ps = v.parents();
        for (int i = 0; i < ps.size() && (i == 0 || parents == Parents.ALL); i++) visit(ps.get(i), missing);
        return v;
    }

    /** {@link #take(List)} without recording missing parents. */
    public VersionInfo take() {
        return take(null);
    }

    /**
     * Whether the walk reaches {@code target} (a started version or an ancestor of one). Takes
     * versions down to the target's seq, where it must be if reachable.
     */
    public boolean reaches(VersionInfo target) {
        while (peek() != null && peek().seq() >= target.seq()) {
            if (take().id().equals(target.id())) return true;
        }
        return false;
    }

    /**
     * The versions any of {@code startIds} reaches and {@code hiddenId} does not (git's {@code log hidden..start}),
     * newest first, with each one's expiry (read beside the walk: {@link ExpiryReads}) and missing parents
     * ({@link Repository#log(String, String, int)}).
     * Both walks go by descending seq, so the hidden side is read only down to the oldest version listed.
     *
     * With {@link Parents#FIRST} the start side follows first parents only (git's
     * {@code log --first-parent}); the hidden side always follows every parent, as in git.
     *
     * @param hiddenId null: nothing hidden
     * @param limit    at most this many entries (negative: all)
     */
    static List<Repository.LogEntry> log(VersionDatabase versions, Collection<String> startIds, String hiddenId, int limit, Parents parents) {
        List<VersionInfo> listed = new ArrayList<>();
        List<List<String>> missingOf = new ArrayList<>();
        HistoryWalk walk = HistoryWalk.over(versions, parents);
        HistoryWalk hiddenWalk = HistoryWalk.over(versions, HistoryWalk.Parents.ALL);
        Set<String> hidden = new HashSet<>();
        Map<String, ExpiredInfo> expired;
        try (ExpiryReads expiries = new ExpiryReads(versions)) {
            for (String id : startIds) walk.start(id);
            if (hiddenId != null) hiddenWalk.start(hiddenId);
            while (walk.peek() != null && (limit < 0 || listed.size() < limit)) {
                VersionInfo v = walk.peek();
                // every version the hidden side reaches with a seq >= v's is known once its walk is past v's seq
                while (hiddenWalk.peek() != null && hiddenWalk.peek().seq() >= v.seq()) hidden.add(hiddenWalk.take().id());
                if (hidden.contains(v.id())) {
                    walk.skip(); // and so are all its ancestors
                    continue;
                }
                expiries.request(v.id());
                List<String> missing = new ArrayList<>();
                walk.take(missing);
                listed.add(v);
                missingOf.add(missing);
            }
            expired = expiries.finish();
        }
        List<Repository.LogEntry> out = new ArrayList<>(listed.size());
        for (int i = 0; i < listed.size(); i++)
            out.add(new Repository.LogEntry(listed.get(i), expired.get(listed.get(i).id()), missingOf.get(i)));
        return out;
    }

    private void visit(String id, List<String> missing) {
        if (!seen.add(id)) return;
        Optional<VersionInfo> v = VersionIds.isValid(id) ? read.apply(id) : Optional.empty();
        if (v.isPresent()) {
            queue.add(v.get());
            return;
        }
        if (listedAsFinished.test(id))
            throw new FdlException(RepoLayout.versionJson(id) + " was listed but is gone; stopped before deciding which "
                    + "versions are unreachable (is another gc running? run fdl verify)");
        if (missing != null) missing.add(id);
    }
}
