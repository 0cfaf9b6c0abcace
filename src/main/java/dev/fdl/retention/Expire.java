package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
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
import java.util.Collections;
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
 * at or leads to through {@code parents} ({@link Reachable}). An unreachable version (a commit
 * that lost the race for its branch, the history of a deleted branch) is gc's business: it
 * neither uses up a {@code keep} slot nor is expired here. The reachable, finished, unexpired
 * versions are ordered newest first by version id (UUIDv7: creation order). The newest {@code keep} are kept; so is every version a ref (branch
 * or tag) points at, whether or not it is among them (refs do not use up the {@code keep} count
 * unless they point at one of the newest). With {@code olderThan}, a version is expired only if
 * its {@code created_at} is also older than that. Already expired versions do not count.
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
     * @param keep      how many of the newest finished, unexpired versions stay in retention (0 or more)
     * @param olderThan also require {@code created_at} older than this (null: no age condition)
     * @param dryRun    report the choice, write and delete nothing
     */
    public record Options(int keep, Duration olderThan, boolean dryRun) {
        public Options {
            if (keep < 0) throw FdlException.usage("--keep must be 0 or more, got " + keep);
            if (olderThan != null && olderThan.isNegative()) throw FdlException.usage("--older-than cannot be negative: " + olderThan);
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
     * @param expired versions taken out of retention by this run, oldest first, then versions whose
     *                expiry an earlier run left unfinished
     * @param kept    reachable finished versions still in retention (unreachable ones are not counted)
     */
    public record Report(boolean dryRun, List<Expired> expired, int kept) {}

    /**
     * Chooses and expires versions.
     *
     * @throws FdlException exit 1 for a read-only store or corrupt repository files
     */
    public Report run(Options options) {
        if (repo.store().readOnly())
            throw new FdlException("cannot expire versions in " + repo.root() + ": the store is read-only");
        Instant now = clock.instant();
        Set<String> pointed = refTargets();
        VersionFolder.Listing listing = VersionFolder.list(repo.store());

        Map<String, VersionInfo> infos = new HashMap<>();
        Set<String> reachable = Reachable.from(pointed, listing, id -> {
            java.util.Optional<VersionInfo> v = version(id);
            v.ifPresent(i -> infos.put(id, i));
            return v;
        });
        List<VersionFolder> retained = new ArrayList<>();
        for (VersionFolder f : listing.folders().values()) if (f.live() && reachable.contains(f.id())) retained.add(f);
        List<VersionFolder> chosen = new ArrayList<>();
        // newest first by id: the first `keep` stay
        for (int i = retained.size() - 1 - options.keep(); i >= 0; i--) {
            VersionFolder f = retained.get(i);
            if (pointed.contains(f.id())) continue;
            if (options.olderThan() != null) {
                VersionInfo v = infos.get(f.id());
                if (v == null || !v.createdAt().isBefore(now.minus(options.olderThan()))) continue;
            }
            chosen.add(f);
        }
        Collections.reverse(chosen); // oldest first

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
        return new Report(options.dryRun(), out, retained.size() - chosen.size());
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
