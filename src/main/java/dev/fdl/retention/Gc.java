package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.CatalogFiles;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionFolder;
import dev.fdl.repo.VersionInfo;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Garbage collection (SPEC.md section 5): deletes data files no live catalog names, unreachable
 * versions, unfinished version folders, and the leftover catalogs of expired versions. A mark
 * phase (live catalogs → the set of names) and a sweep phase (listings → deletions), in this order:
 *
 * <ol>
 *   <li>Read every ref, then list {@code versions/} once. Every ref must point at a finished
 *       version of that listing (a commit writes version.json before its ref, so a ref read first
 *       always names a version the later listing shows); otherwise gc stops and deletes nothing.</li>
 *   <li>Reachability ({@link Reachable}): the roots are the refs and every finished version whose
 *       version.json is younger than the grace period; following all parents from them gives the
 *       versions to keep. A finished version (expired or not) they do not reach is
 *       <em>unreachable</em>: a commit that lost the race for its branch (SPEC.md section 4: "gc
 *       removes it"), or the history of a deleted branch. version.json is cached, so a second run
 *       issues no GET for it.</li>
 *   <li>Mark: for every live version (finished, not expired, not unreachable) read the files its
 *       catalog names in any snapshot (from the {@link CatalogCache} when cached: no GET) into a
 *       {@link NameSet}. Any failure here stops gc before it deletes anything.</li>
 *   <li>Sweep version folders. Unreachable versions: the refs are read again and whatever they
 *       now reach is kept (and marked); the rest lose version.json first, then every other object
 *       of their folder. Then the catalogs left in expired folders (an interrupted expire); and
 *       unfinished folders (no version.json) whose newest object is older than the grace period,
 *       after checking once more that version.json has not appeared.</li>
 *   <li>Sweep data: list {@code data_dir} (streamed); a file is a candidate when its name is not
 *       marked and it was last modified before the cutoff (start of the run minus the grace
 *       period). Before each batch of deletions, {@code versions/} is listed again and the
 *       catalog of every version finished since is marked; each candidate is checked again.</li>
 *   <li>{@link ObjectStore#cleanupIncompleteUploads} with the cutoff (not in a dry run).</li>
 * </ol>
 *
 * <p><b>Why a concurrent commit is safe.</b> A commit puts its data files, then its catalog, then
 * version.json, then moves the ref (SPEC.md section 4). A data file is deleted only if (a) it was
 * last modified before the cutoff, and (b) no version finished before the re-listing that
 * precedes its deletion names it; that re-listing happens after the data listing saw the file.
 * A version whose version.json lands before that re-listing is marked. A version finishing later
 * can only name a file that (a) and (b) allow if its working copy wrote that file more than the
 * grace period ago, or inherited it from a base version that was expired meanwhile. The grace
 * period is therefore the longest a working copy may take from writing data to committing it; a
 * commit that still names a deleted file is refused by its own existence check (step 5). Unfinished
 * folders are deleted only when their newest object is older than the cutoff. The same grace
 * period protects a commit between steps 8 and 9: its version.json is young, so it is a root, and
 * its catalog is marked although no ref names it yet.
 *
 * <p><b>Why a ref created during gc is safe.</b> Unreachable versions are deleted before the data
 * sweep, right after the refs are read a second time; once version.json is gone, creating a ref
 * at the version is refused (refs are only created at finished versions), so no version can
 * become reachable after its catalog was left out of the mark. What remains is the instant
 * between that second read and the deletion of version.json: a tag whose creator checked the
 * version before it was deleted and writes the ref after that read would point at a deleted
 * version (the store offers no transaction across keys; {@code fdl verify} reports it). Tagging an
 * old commit nothing reaches while gc runs is the one thing to avoid.
 *
 * <p><b>Interrupted runs.</b> Every deletion is idempotent and gc keeps no state in the store:
 * re-running lists again and deletes what is still unreferenced. An unreachable version stopped
 * half-way has lost version.json, so it is an unfinished folder as old as its commit and goes on
 * the next run. Memory grows with the number of live file names (about 32 bytes each) plus one
 * batch of candidates, never with catalog bytes.
 */
public final class Gc {
    /** Deletion candidates held before they are re-checked and deleted. */
    static final int DEFAULT_BATCH = 50_000;

    private final Repository repo;
    private final CatalogCache cache;
    private final CatalogFiles reader;
    private final Clock clock;
    private int batchSize = DEFAULT_BATCH;

    /**
     * @param cache  where live catalogs (and their file lists) are cached between runs
     * @param reader reads the files a catalog names ({@code dev.fdl.ducklake})
     */
    public Gc(Repository repo, CatalogCache cache, CatalogFiles reader, Clock clock) {
        this.repo = Objects.requireNonNull(repo);
        this.cache = Objects.requireNonNull(cache);
        this.reader = Objects.requireNonNull(reader);
        this.clock = Objects.requireNonNull(clock);
    }

    /** Sets how many candidates are collected before a re-check and a round of deletions (tests). */
    Gc batchSize(int n) {
        if (n < 1) throw new IllegalArgumentException("batch size must be positive");
        this.batchSize = n;
        return this;
    }

    /**
     * What to do.
     *
     * @param grace         data files, unfinished folders and unreachable versions younger than this are kept (SPEC.md default: 7 days)
     * @param dryRun        report what would be deleted, delete nothing
     * @param deleteThreads deletions run concurrently on this many threads (object stores are latency-bound)
     */
    public record Options(Duration grace, boolean dryRun, int deleteThreads) {
        /** The SPEC.md default grace period. */
        public static final Duration DEFAULT_GRACE = Duration.ofDays(7);

        public Options {
            Objects.requireNonNull(grace, "grace");
            if (grace.isNegative()) throw FdlException.usage("the grace period cannot be negative: " + grace);
            if (deleteThreads < 1) throw new IllegalArgumentException("deleteThreads must be positive");
        }

        /** The default: 7 days, deleting, 8 threads. */
        public static Options defaults() {
            return new Options(DEFAULT_GRACE, false, 8);
        }
    }

    /** A count of objects and their total size in bytes. */
    public record Tally(long count, long bytes) {
        static final Tally ZERO = new Tally(0, 0);

        Tally plus(long n, long b) {
            return new Tally(count + n, bytes + b);
        }
    }

    /**
     * What gc did (or, in a dry run, would do).
     *
     * @param cutoff             objects last modified at or after this instant (UTC) were kept
     * @param liveVersions       finished, unexpired versions whose catalogs were read (reachable or young)
     * @param liveNames          distinct file names those catalogs name
     * @param catalogsDownloaded catalogs fetched from the store (one GET each)
     * @param catalogsCached     catalogs served from the local cache
     * @param dataListed         objects listed under data_dir
     * @param dataFiles          unreferenced data files deleted
     * @param youngUnreferenced  unreferenced data files kept because they are younger than the grace period
     * @param unfinishedFolders  unfinished version folders deleted (count of folders, bytes of all their objects)
     * @param expiredLeftovers   catalog objects of expired versions deleted
     * @param unreachableVersions finished versions (expired or not) no ref reaches, older than the
     *                           grace period, deleted whole (count of folders, bytes of all their objects)
     * @param incompleteUploads  leftovers of interrupted uploads removed ({@link ObjectStore#cleanupIncompleteUploads}; 0 in a dry run)
     */
    public record Report(boolean dryRun, Instant cutoff, int liveVersions, long liveNames,
                         long catalogsDownloaded, long catalogsCached, long dataListed, Tally dataFiles,
                         Tally youngUnreferenced, Tally unfinishedFolders, Tally expiredLeftovers,
                         Tally unreachableVersions, int incompleteUploads) {}

    /** Progress of a run, for a terminal: the phase and how many objects it has seen and chosen. */
    public record Progress(String phase, long seen, long chosen) {}

    /** Runs gc with no progress reporting. */
    public Report run(Options options) {
        return run(options, p -> {});
    }

    /**
     * Runs gc.
     *
     * @param progress called now and then (every few thousand objects) on the calling thread
     * @throws FdlException exit 1 when a ref names no finished version, or a live catalog is
     *                      missing, damaged or unreadable: nothing is deleted then
     */
    public Report run(Options options, Consumer<Progress> progress) {
        if (repo.store().readOnly())
            throw new FdlException("cannot gc " + repo.root() + ": the store is read-only");
        Instant cutoff = clock.instant().minus(options.grace());
        List<RefValue> refs = repo.listRefs();
        VersionFolder.Listing listing = VersionFolder.list(repo.store());
        for (RefValue r : refs) {
            VersionFolder f = listing.get(r.versionId());
            if (f == null || !f.finished())
                throw new FdlException("ref " + r.key() + " points at version " + r.versionId()
                        + ", which the listing of versions/ does not show as finished; gc deleted nothing (run fdl verify)");
        }
        // Young versions are roots as well: a commit between steps 8 and 9 (or one that just lost
        // the race) is kept, with its ancestors, exactly as long as its data files are.
        Set<String> young = new HashSet<>();
        for (VersionFolder f : listing.folders().values())
            if (f.finished() && (f.finishedAt() == null || !f.finishedAt().isBefore(cutoff))) young.add(f.id());
        Set<String> unreachable = unreachable(refs, young, listing);

        Mark mark = new Mark();
        long cachedBefore = cache.hits(), downloadedBefore = cache.downloads();
        int live = 0;
        for (VersionFolder f : listing.folders().values()) {
            if (!f.live() || unreachable.contains(f.id())) continue;
            if (mark.read(f.id())) live++;
            progress.accept(new Progress("reading catalogs", live, mark.names.size()));
        }

        try (Deleter deleter = new Deleter(repo.store(), options)) {
            Tally gone = Tally.ZERO, leftovers = Tally.ZERO, unfinished = Tally.ZERO;
            if (!unreachable.isEmpty()) {
                // Refs read again right before deleting: a ref created since the first read (e.g. a
                // tag at a version that was unreachable) keeps that version and its ancestors.
                Set<String> still = unreachable(repo.listRefs(), young, listing);
                for (String id : new ArrayList<>(unreachable)) {
                    if (still.contains(id)) continue;
                    unreachable.remove(id);
                    if (listing.get(id).live() && mark.read(id)) live++;
                }
                // version.json first: from then on the folder is unfinished, so no reader, ref or
                // expire will use it, and if gc stops here the next run deletes the rest as an
                // unfinished folder (its objects are as old as the commit). Deleting it last would
                // leave a "finished" version without its catalog, which readers would fail on.
                for (String id : unreachable) {
                    VersionFolder f = listing.get(id);
                    gone = gone.plus(1, f.bytes());
                    deleter.submit(RepoLayout.versionJson(id));
                }
                deleter.flush();
                for (String id : unreachable)
                    for (ObjectMeta m : listing.get(id).objects())
                        if (!m.key().equals(RepoLayout.versionJson(id))) deleter.submit(m.key());
                deleter.flush();
                progress.accept(new Progress("deleting unreachable versions", listing.folders().size(), gone.count()));
            }
            for (VersionFolder f : listing.folders().values()) {
                if (unreachable.contains(f.id())) continue;
                if (f.finished() && f.expired()) {
                    for (ObjectMeta m : f.catalogObjects()) {
                        leftovers = leftovers.plus(1, m.size());
                        deleter.submit(m.key());
                    }
                } else if (!f.finished() && f.newest().isBefore(cutoff)) {
                    if (!options.dryRun() && repo.store().stat(RepoLayout.versionJson(f.id())).isPresent()) continue;
                    unfinished = unfinished.plus(1, f.bytes());
                    for (ObjectMeta m : f.objects()) deleter.submit(m.key());
                }
            }
            deleter.flush();

            Sweep sweep = new Sweep(mark, deleter, cutoff, options.dryRun(), progress);
            String dataDir = repo.dataDir();
            try (Stream<ObjectMeta> s = repo.store().list(dataDir)) {
                s.forEach(m -> sweep.accept(m, m.key().substring(dataDir.length())));
            }
            sweep.finish();
            int uploads = options.dryRun() ? 0 : repo.store().cleanupIncompleteUploads(cutoff);
            return new Report(options.dryRun(), cutoff, live + mark.lateVersions, mark.names.size(),
                    cache.downloads() - downloadedBefore, cache.hits() - cachedBefore, sweep.listed,
                    sweep.deleted, sweep.young, unfinished, leftovers, gone, uploads);
        }
    }

    /**
     * The finished versions of the listing that neither a ref nor a young version reaches, in id
     * order. They are all older than the cutoff, since young versions are roots themselves.
     */
    private Set<String> unreachable(List<RefValue> refs, Set<String> young, VersionFolder.Listing listing) {
        List<String> roots = new ArrayList<>(young);
        for (RefValue r : refs) roots.add(r.versionId());
        Set<String> reached = Reachable.from(roots, listing, id -> cache.version(repo, id));
        Set<String> out = new TreeSet<>();
        for (VersionFolder f : listing.folders().values())
            if (f.finished() && !reached.contains(f.id())) out.add(f.id());
        return out;
    }

    /** The mark phase: names of files live catalogs name, and which versions were read. */
    private final class Mark {
        final NameSet names = new NameSet(1 << 16);
        final Set<String> versionsRead = new HashSet<>();
        final String dataLocation = repo.dataLocation();
        int lateVersions;

        /**
         * Adds the names of a live version's catalog. Returns false when the version turned out to
         * be expired meanwhile (its catalog deleted by a concurrent expire).
         */
        boolean read(String id) {
            if (!versionsRead.add(id)) return false;
            VersionInfo v = cache.version(repo, id).orElseThrow(() -> new FdlException(
                    "version.json of " + id + " disappeared during gc; gc deleted nothing (run fdl verify)"));
            boolean found = cache.forEachFile(repo, v, reader, false, nf -> {
                String name = nf.nameIn(dataLocation);
                if (name != null) names.add(name);
            });
            if (found) return true;
            if (repo.readExpired(id).isPresent()) return false;
            throw new FdlException("version " + id + " is finished and not expired but its catalog "
                    + CatalogCache.catalogKey(v) + " is missing; gc deleted nothing (run fdl verify)");
        }

        /** Lists versions/ again and reads the catalogs of versions finished since. */
        void refresh() {
            for (VersionFolder f : VersionFolder.list(repo.store()).folders().values())
                if (f.live() && !versionsRead.contains(f.id()) && read(f.id())) lateVersions++;
        }
    }

    /** The data sweep: candidates collected in batches, re-checked after a refresh, then deleted. */
    private final class Sweep {
        final Mark mark;
        final Deleter deleter;
        final Instant cutoff;
        final boolean dryRun;
        final Consumer<Progress> progress;
        final List<ObjectMeta> batch = new ArrayList<>();
        final List<String> batchNames = new ArrayList<>();
        long listed;
        Tally deleted = Tally.ZERO, young = Tally.ZERO;

        Sweep(Mark mark, Deleter deleter, Instant cutoff, boolean dryRun, Consumer<Progress> progress) {
            this.mark = mark;
            this.deleter = deleter;
            this.cutoff = cutoff;
            this.dryRun = dryRun;
            this.progress = progress;
        }

        void accept(ObjectMeta m, String name) {
            listed++;
            if ((listed & 0x3fff) == 0) progress.accept(new Progress("listing data", listed, deleted.count() + batch.size()));
            if (mark.names.contains(name)) return;
            if (m.lastModified() == null || !m.lastModified().isBefore(cutoff)) {
                young = young.plus(1, m.size());
                return;
            }
            batch.add(m);
            batchNames.add(name);
            if (batch.size() >= batchSize) flushBatch();
        }

        void flushBatch() {
            if (batch.isEmpty()) return;
            if (!dryRun) mark.refresh();
            for (int i = 0; i < batch.size(); i++) {
                if (mark.names.contains(batchNames.get(i))) continue;
                ObjectMeta m = batch.get(i);
                deleted = deleted.plus(1, m.size());
                deleter.submit(m.key());
            }
            deleter.flush();
            batch.clear();
            batchNames.clear();
            progress.accept(new Progress("deleting", listed, deleted.count()));
        }

        void finish() {
            flushBatch();
        }
    }

    /** Deletes keys on a few threads; {@link #flush} waits and rethrows the first failure. A dry run deletes nothing. */
    private static final class Deleter implements AutoCloseable {
        /** Keys per deleteAll call: S3's DeleteObjects limit. */
        static final int BATCH = 1000;
        private final ObjectStore store;
        private final boolean dryRun;
        private final ExecutorService pool;
        private final List<Future<?>> pending = new ArrayList<>();

        Deleter(ObjectStore store, Options options) {
            this.store = store;
            this.dryRun = options.dryRun();
            this.pool = options.dryRun() || options.deleteThreads() == 1 ? null
                    : Executors.newFixedThreadPool(options.deleteThreads(), r -> {
                        Thread t = new Thread(r, "fdl-gc-delete");
                        t.setDaemon(true);
                        return t;
                    });
        }

        private List<String> batch = new ArrayList<>();

        /** Queues a key; full batches of {@link #BATCH} keys go to {@link ObjectStore#deleteAll}. */
        void submit(String key) {
            if (dryRun) return;
            batch.add(key);
            if (batch.size() >= BATCH) sendBatch();
        }

        private void sendBatch() {
            if (batch.isEmpty()) return;
            List<String> keys = batch;
            batch = new ArrayList<>();
            if (pool == null) {
                store.deleteAll(keys);
                return;
            }
            pending.add(pool.submit(() -> store.deleteAll(keys)));
            if (pending.size() >= 64) awaitPending();
        }

        /** Sends the last partial batch and waits for every deletion; rethrows the first failure. */
        void flush() {
            sendBatch();
            awaitPending();
        }

        private void awaitPending() {
            RuntimeException first = null;
            for (Future<?> f : pending) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (first == null) first = e.getCause() instanceof RuntimeException re ? re
                            : new FdlException("gc deletion failed: " + e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    if (first == null) first = new FdlException("gc was interrupted; run it again to finish");
                }
            }
            pending.clear();
            if (first != null) throw first;
        }

        @Override
        public void close() {
            if (pool != null) pool.shutdownNow();
        }
    }
}
