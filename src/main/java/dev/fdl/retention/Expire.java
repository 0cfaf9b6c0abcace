package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.ExpiredInfo;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionFolder;
import dev.fdl.repo.VersionInfo;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.WriteResult;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Takes versions out of retention (SPEC.md section 5, expire).
 *
 * <p><b>Which versions.</b> Only <em>reachable</em> versions are candidates: those a ref points
 * at or leads to through {@code parents} ({@link HistoryWalk}). An unreachable version (a commit
 * that lost the race for its branch, the history of a deleted branch) is gc's business: it
 * neither uses up a count of the policy nor is expired here. Which reachable versions stay is
 * {@link RetentionPlan}'s decision on the {@link RetentionPolicy} (fdl's original {@code --keep N
 * --older-than D}: the newest N by version id and those younger than D; restic-style rules per
 * branch); every version a ref (branch or tag) points at stays. Already expired versions do not count.
 *
 * <p><b>Order of writes</b>, per version, oldest first: put {@code expired.json}
 * ({@code If-None-Match: *}, so a concurrent or earlier expiry keeps its date), then delete
 * {@code ducklake.duckdb} and everything under {@code catalogs/}. Data files are never deleted
 * (gc does that). A version marked before but still holding catalog objects (a run that stopped
 * half-way) is finished first, so re-running after a crash completes the job; because expired
 * versions are not counted, the re-run chooses no other versions than the first would have.
 *
 * <p>Refs are read again just before marking, and a version a ref now points at is skipped. A ref
 * created at the very moment its version is marked can still end up on an expired version (the
 * store offers no transaction across keys): run expire while nobody tags old versions.
 */
public final class Expire {
    private final Repository repo;
    private final Clock clock;
    private final CatalogCache cache;

    /** Expire reading every version.json it needs from the store (one GET per reachable version). */
    public Expire(Repository repo, Clock clock) {
        this(repo, clock, null);
    }

    /**
     * Expire reading version.json through {@code cache} (immutable once written: no GET for a
     * version read before by gc, expire or verify).
     */
    public Expire(Repository repo, Clock clock, CatalogCache cache) {
        this.repo = Objects.requireNonNull(repo);
        this.clock = Objects.requireNonNull(clock);
        this.cache = cache;
    }

    private java.util.Optional<VersionInfo> version(String id) {
        return cache != null ? cache.version(repo, id) : repo.readVersion(id);
    }

    /**
     * What to expire.
     *
     * @param policy which versions stay in retention ({@link RetentionPlan} decides)
     * @param dryRun report the choice, write and delete nothing
     */
    public record Options(RetentionPolicy policy, boolean dryRun) {
        public Options {
            Objects.requireNonNull(policy, "policy");
        }

        /**
         * fdl's original options: keep the newest {@code keep} versions, and with {@code olderThan}
         * every version younger than that.
         */
        public Options(int keep, Duration olderThan, boolean dryRun) {
            this(RetentionPolicy.legacy(keep, olderThan), dryRun);
        }
    }

    /**
     * One version taken out of retention.
     *
     * @param expiredAt     the date in its expired.json (an earlier one when it was already marked)
     * @param catalogDeleted catalog objects deleted (or, in a dry run, that would be)
     * @param resumed       true when expired.json was already there (finishing an earlier run)
     */
    public record Expired(String id, Instant createdAt, Instant expiredAt, int catalogDeleted, boolean resumed) {}

    /**
     * The outcome.
     *
     * @param expired   versions taken out of retention by this run, oldest first, then versions whose
     *                  expiry an earlier run left unfinished
     * @param kept      reachable finished versions still in retention (unreachable ones are not counted)
     * @param decisions the policy's decision on every reachable version that was in retention, newest
     *                  first, with the rules that keep it (what {@code --dry-run} prints)
     */
    public record Report(boolean dryRun, List<Expired> expired, int kept, List<RetentionPlan.Decision> decisions) {
        public Report {
            expired = List.copyOf(expired);
            decisions = List.copyOf(decisions);
        }
    }

    /**
     * Chooses and expires versions.
     *
     * @throws FdlException exit 1 for a read-only store or corrupt repository files; exit 4 when the
     *                      policy names a branch that does not exist
     */
    public Report run(Options options) {
        if (repo.store().readOnly())
            throw new FdlException("cannot expire versions in " + repo.root() + ": the store is read-only");
        Instant now = clock.instant();
        List<RefValue> refs = repo.listRefs();
        Set<String> pointed = new HashSet<>();
        for (RefValue r : refs) pointed.add(r.versionId());
        VersionFolder.Listing listing = VersionFolder.list(repo.store());

        Map<String, VersionInfo> infos = new HashMap<>();
        HistoryWalk.reachable(pointed, id -> {
            java.util.Optional<VersionInfo> v = version(id);
            v.ifPresent(i -> infos.put(id, i));
            return v;
        }, id -> listing.get(id) != null && listing.get(id).finished());
        List<RetentionPlan.Version> graph = new ArrayList<>();
        for (VersionInfo v : infos.values()) {
            VersionFolder f = listing.get(v.id());
            graph.add(new RetentionPlan.Version(v.id(), v.createdAt(), v.parents(), f == null || f.expired()));
        }
        List<RetentionPlan.Ref> planRefs = new ArrayList<>();
        for (RefValue r : refs) planRefs.add(new RetentionPlan.Ref(r.kind() == RefValue.Kind.BRANCH, r.name().name(), r.versionId()));
        List<RetentionPlan.Decision> decisions = RetentionPlan.decide(options.policy(), graph, planRefs, now);

        List<VersionFolder> chosen = new ArrayList<>();
        for (RetentionPlan.Decision d : decisions) {
            VersionFolder f = listing.get(d.id());
            if (!d.kept() && f != null && f.live() && !pointed.contains(d.id())) chosen.add(f);
        }
        chosen.sort(Comparator.comparing(VersionFolder::id)); // oldest first

        List<Expired> out = new ArrayList<>();
        if (!chosen.isEmpty() && !options.dryRun()) {
            Set<String> again = refTargets();
            chosen.removeIf(f -> again.contains(f.id()));
        }
        ExpiredInfo mark = new ExpiredInfo(now, "retention", Map.of());
        for (VersionFolder f : chosen) {
            VersionInfo v = infos.get(f.id());
            Instant created = v == null ? null : v.createdAt();
            Instant at = now;
            boolean resumed = false;
            if (!options.dryRun()) {
                WriteResult w = repo.store().putIfAbsent(RepoLayout.expiredJson(f.id()), mark.toBytes());
                if (!w.isWritten()) {
                    resumed = true;
                    at = repo.readExpired(f.id()).map(ExpiredInfo::expiredAt).orElse(now);
                }
            }
            int n = deleteCatalogs(f, options.dryRun());
            out.add(new Expired(f.id(), created, at, n, resumed));
        }
        for (VersionFolder f : listing.folders().values()) {
            if (!f.finished() || !f.expired() || f.catalogObjects().isEmpty()) continue;
            Instant created = repo.readVersion(f.id()).map(VersionInfo::createdAt).orElse(null);
            Instant at = repo.readExpired(f.id()).map(ExpiredInfo::expiredAt).orElse(null);
            out.add(new Expired(f.id(), created, at, deleteCatalogs(f, options.dryRun()), true));
        }
        return new Report(options.dryRun(), out, decisions.size() - chosen.size(), decisions);
    }

    private int deleteCatalogs(VersionFolder f, boolean dryRun) {
        List<ObjectMeta> objs = f.catalogObjects();
        if (!dryRun) for (ObjectMeta m : objs) repo.store().delete(m.key());
        return objs.size();
    }

    private Set<String> refTargets() {
        Set<String> ids = new HashSet<>();
        for (RefValue r : repo.listRefs()) ids.add(r.versionId());
        return ids;
    }
}
