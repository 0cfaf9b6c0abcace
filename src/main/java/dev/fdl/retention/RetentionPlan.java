package dev.fdl.retention;

import dev.fdl.FdlException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.IsoFields;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which versions a {@link RetentionPolicy} keeps: a pure function from the version graph and the
 * refs to one decision per version, with the rules that keep it (docs/retention.md, "Policies").
 * No store is touched, so every rule is tested on synthetic histories.
 *
 * <p>The bucket rules follow restic's {@code forget} ({@code internal/data/snapshot_policy.go}),
 * with UTC instead of local time and lines of history instead of restic's groups: a branch's
 * history is the versions its ref reaches through first parents (git's
 * {@code log --first-parent}: the versions the branch itself pointed at), ordered newest first
 * by {@code created_at} (then id); {@code keep-last N} keeps the first N; {@code keep-daily N} keeps
 * the first version of each new UTC day met, until N days were kept (so the newest version of
 * each of the N newest days that have a version), likewise per ISO week, calendar month and year;
 * a rule that still has count left when it reaches the oldest version keeps that one too
 * (restic's "oldest" rule, so the history reaches back as far as the counts allow);
 * {@code keep-within D} keeps versions created after the branch's newest version minus D (the
 * newest not in the future). What a merge version's further parents bring in (the merged
 * branch's own versions, down to where they meet a history already judged) is judged as one more
 * history, as if that branch still existed, so a merge neither crowds a branch's own versions out
 * of its counts nor leaves what it merged unjudged; every version a ref reaches through any
 * parent is judged in some history. Versions no branch reaches but a tag does form histories of
 * the tag in the same way. A version in several histories is judged in each, and kept if any
 * keeps it.
 *
 * <p>Expired versions stay in the graph (their version.json is kept, so history continues
 * through them) but are not judged and use up no count. Every version a branch or tag points at
 * is kept. With {@link RetentionPolicy#branch()} only that branch's history is judged; versions
 * another branch or a tag reaches are kept (they answer to their own policies).
 */
public final class RetentionPlan {
    private RetentionPlan() {}

    /** A version of the graph: id (UUIDv7), created_at, parents, and whether it is already expired. */
    public record Version(String id, Instant createdAt, List<String> parents, boolean expired) {
        public Version {
            parents = List.copyOf(parents);
        }
    }

    /** A branch or tag and the version it points at. */
    public record Ref(boolean branch, String name, String versionId) {
        @Override
        public String toString() {
            return (branch ? "branch " : "tag ") + name;
        }
    }

    /** The decision on one version in retention: kept or not, and why (empty reasons: to expire). */
    public record Decision(String id, Instant createdAt, List<String> reasons) {
        public Decision {
            reasons = List.copyOf(reasons);
        }

        public boolean kept() {
            return !reasons.isEmpty();
        }
    }

    private static final Comparator<Version> NEWEST_FIRST =
            Comparator.comparing(Version::createdAt).thenComparing(Version::id).reversed();

    /**
     * Decides on every version in retention (not expired) that a ref reaches.
     *
     * @param versions the finished versions (expired ones too: history runs through them); parents
     *                 missing from it end their line, as in fdl log
     * @param now      the current time: only fdl's {@code --older-than} and the "not in the future"
     *                 cap of {@code keep-within} use it
     * @return one decision per reachable version in retention, newest first
     * @throws FdlException exit 4 when the policy names a branch that does not exist
     */
    public static List<Decision> decide(RetentionPolicy policy, Collection<Version> versions, List<Ref> refs, Instant now) {
        Map<String, Version> byId = new HashMap<>();
        for (Version v : versions) byId.put(v.id(), v);
        Map<String, List<String>> why = new LinkedHashMap<>();
        Function<String, List<String>> reasons = id -> why.computeIfAbsent(id, k -> new ArrayList<>());

        Map<String, Set<String>> branches = new LinkedHashMap<>();
        Set<String> onBranches = new HashSet<>();
        for (Ref r : refs) {
            if (!r.branch()) continue;
            Set<String> h = history(r.versionId(), byId);
            branches.put(r.name(), h);
            onBranches.addAll(h);
        }
        Set<String> reachable = new HashSet<>(onBranches);
        Map<String, Set<String>> groups = new LinkedHashMap<>();
        if (policy.branch() != null) {
            if (!branches.containsKey(policy.branch()))
                throw FdlException.notFound("no branch '" + policy.branch() + "' to apply the retention policy to; list branches with: fdl branch");
        }
        for (Ref r : refs) {
            if (!r.branch() || (policy.branch() != null && !policy.branch().equals(r.name()))) continue;
            lines(r.versionId(), "branch " + r.name(), byId).forEach((label, line) -> groups.merge(label, line, (a, b) -> a));
        }
        for (Ref r : refs) {
            if (r.branch()) continue;
            reachable.addAll(history(r.versionId(), byId));
            if (policy.branch() != null) continue;
            lines(r.versionId(), "tag " + r.name(), byId).forEach((label, line) -> {
                line.removeAll(onBranches);
                if (!line.isEmpty()) groups.merge(label, line, (a, b) -> a);
            });
        }
        for (Ref r : refs) if (byId.containsKey(r.versionId())) reasons.apply(r.versionId()).add("points at: " + r);

        Set<String> judged = new HashSet<>();
        groups.values().forEach(judged::addAll);
        if (policy.branch() != null) {
            for (String id : reachable) {
                if (!judged.contains(id)) reasons.apply(id).add("not on branch " + policy.branch());
                else branches.forEach((name, h) -> {
                    if (!name.equals(policy.branch()) && h.contains(id)) reasons.apply(id).add("also on branch " + name);
                });
            }
        }

        List<Version> scope = live(judged, byId);
        if (policy.keep() != null) {
            List<Version> byIdOrder = new ArrayList<>(scope);
            byIdOrder.sort(Comparator.comparing(Version::id).reversed());
            for (Version v : byIdOrder.subList(0, Math.min(policy.keep(), byIdOrder.size())))
                reasons.apply(v.id()).add("keep " + policy.keep() + " (newest by id)");
        }
        if (policy.olderThan() != null) {
            Instant cutoff = now.minus(policy.olderThan());
            for (Version v : scope) if (!v.createdAt().isBefore(cutoff)) reasons.apply(v.id()).add("younger than --older-than");
        }
        for (Map.Entry<String, Set<String>> g : groups.entrySet())
            judge(policy, live(g.getValue(), byId), g.getKey(), now, reasons);

        List<Version> out = live(reachable, byId);
        List<Decision> decisions = new ArrayList<>();
        for (Version v : out) decisions.add(new Decision(v.id(), v.createdAt(), why.getOrDefault(v.id(), List.of())));
        return decisions;
    }

    /** The bucket rules over one history, newest first (restic's ApplyPolicy). */
    private static void judge(RetentionPolicy p, List<Version> list, String group, Instant now,
                              Function<String, List<String>> reasons) {
        if (list.isEmpty()) return;
        Rule[] rules = {
                new Rule("last", p.keepLast(), v -> v.id()),
                new Rule("daily", p.keepDaily(), v -> day(v).toString()),
                new Rule("weekly", p.keepWeekly(), v -> {
                    LocalDate d = day(v);
                    return String.format("%d-W%02d", d.get(IsoFields.WEEK_BASED_YEAR), d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
                }),
                new Rule("monthly", p.keepMonthly(), v -> day(v).toString().substring(0, 7)),
                new Rule("yearly", p.keepYearly(), v -> String.valueOf(day(v).getYear())),
        };
        Instant latest = null;
        for (Version v : list)
            if (!v.createdAt().isAfter(now) && (latest == null || v.createdAt().isAfter(latest))) latest = v.createdAt();
        Instant withinFrom = p.keepWithin() == null ? null : (latest == null ? now : latest).minus(p.keepWithin());
        for (int i = 0; i < list.size(); i++) {
            Version v = list.get(i);
            boolean oldest = i == list.size() - 1;
            if (withinFrom != null && v.createdAt().isAfter(withinFrom)) reasons.apply(v.id()).add("within [" + group + "]");
            for (Rule r : rules) {
                if (r.left == 0) continue;
                String bucket = r.bucket.apply(v);
                boolean newBucket = !bucket.equals(r.lastBucket);
                if (!newBucket && !oldest) continue;
                r.left--;
                r.lastBucket = bucket;
                String label = r.name.equals("last") ? "last" : r.name + " " + bucket;
                reasons.apply(v.id()).add((newBucket ? "" : "oldest ") + label + " [" + group + "]");
            }
        }
    }

    private static final class Rule {
        final String name;
        final Function<Version, String> bucket;
        int left;
        String lastBucket;

        Rule(String name, int count, Function<Version, String> bucket) {
            this.name = name;
            this.left = count;
            this.bucket = bucket;
        }
    }

    private static LocalDate day(Version v) {
        return LocalDate.ofInstant(v.createdAt(), ZoneOffset.UTC);
    }

    /** The versions of {@code ids} in retention, newest first. */
    private static List<Version> live(Set<String> ids, Map<String, Version> byId) {
        List<Version> out = new ArrayList<>();
        for (String id : ids) {
            Version v = byId.get(id);
            if (v != null && !v.expired()) out.add(v);
        }
        out.sort(NEWEST_FIRST);
        return out;
    }

    /**
     * The history {@code from} reaches through every parent, cut into lines: first {@code label}'s
     * own, {@code from} and its first parents; then, for each version of a line with further
     * parents, the line from each of them through first parents down to the first version
     * already in a line (where the merged branch forked), labelled {@code "<label>, merged by
     * <merge id>"}. Every version of the history is in exactly one line. Expired versions stay in
     * (history runs through them); a parent missing from {@code byId} ends its line.
     */
    private static Map<String, Set<String>> lines(String from, String label, Map<String, Version> byId) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        Deque<String[]> starts = new ArrayDeque<>(); // {first version of a line, its label}
        starts.add(new String[]{from, label});
        while (!starts.isEmpty()) {
            String[] start = starts.poll();
            Set<String> line = new LinkedHashSet<>();
            Version v = byId.get(start[0]);
            while (v != null && seen.add(v.id())) {
                line.add(v.id());
                for (int i = 1; i < v.parents().size(); i++)
                    starts.add(new String[]{v.parents().get(i), label + ", merged by " + shortId(v.id())});
                v = v.parents().isEmpty() ? null : byId.get(v.parents().get(0));
            }
            if (!line.isEmpty()) out.computeIfAbsent(start[1], k -> new LinkedHashSet<>()).addAll(line);
        }
        return out;
    }

    /** A version id as {@code fdl log --oneline} shortens it (13 characters). */
    private static String shortId(String id) {
        return id.length() > 13 ? id.substring(0, 13) : id;
    }

    /** The versions {@code from} reaches through parents (itself included), expired ones too. */
    private static Set<String> history(String from, Map<String, Version> byId) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.push(from);
        while (!todo.isEmpty()) {
            String id = todo.pop();
            Version v = byId.get(id);
            if (v == null || !seen.add(id)) continue;
            v.parents().forEach(todo::push);
        }
        return seen;
    }
}
