package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.UnreachableMark;
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
 * versions, unfinished version folders, and the leftover catalogs of expired versions. It reads
 * what is live (live catalogs → the set of names), then sweeps (listings → deletions), in this order:
 *
 * <ol>
 *   <li>Read every ref, then list {@code versions/} once. Every ref must point at a finished
 *       version of that listing (a commit writes version.json before its ref, so a ref read first
 *       always names a version the later listing shows); otherwise gc stops and deletes nothing.</li>
 *   <li>Reachability ({@link HistoryWalk}): a finished version (expired or not) that no ref reaches
 *       through parents is <em>unreachable</em>: a commit that lost the race for its branch
 *       (SPEC.md section 4: "gc removes it"), the history of a deleted or reset branch. Its grace
 *       period runs from gc's mark {@code versions/<id>/unreachable.json} (SPEC.md section 5), not
 *       from its own age, so deleting a branch of old versions gives a real window to tag them
 *       again: an unreachable version without a mark, whose version.json is older than the grace
 *       period, gets one (create-only) and is kept; a marked version a ref reaches again loses its
 *       mark. A version is deleted only when its mark is at or before the cutoff and no ref, no
 *       young version (version.json younger than the grace period: a commit between steps 8 and 9)
 *       and no version still inside its own window reaches it. version.json is cached, so a second
 *       run issues no GET for it.</li>
 *   <li>Live names: for every live version (finished, not expired, not to be deleted) read the files its
 *       catalog names in any snapshot (from the {@link CatalogCache} when cached: no GET) into a
 *       {@link NameSet}. Any failure here stops gc before it writes or deletes anything.</li>
 *   <li>Sweep version folders. The refs are read again; whatever they now reach is neither marked
 *       nor deleted (and its catalog is read). Marks are written and stale marks removed. Versions
 *       to delete lose version.json first, then every other object of their folder, the mark last.
 *       Then the catalogs left in expired folders (an interrupted expire); and unfinished folders
 *       (no version.json) whose newest object a commit writes is older than the grace period,
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
 * A version whose version.json lands before that re-listing has its catalog read. A version finishing later
 * can only name a file that (a) and (b) allow if its working copy wrote that file more than the
 * grace period ago, or inherited it from a base version that was expired meanwhile. The grace
 * period is therefore the longest a working copy may take from writing data to committing it; a
 * commit that still names a deleted file is refused by its own existence check (step 5). Unfinished
 * folders are deleted only when their newest object is older than the cutoff. The same grace
 * period protects a commit between steps 8 and 9: its version.json is young, so it is a root, and
 * its catalog is read although no ref names it yet.
 *
 * <p><b>Why a ref created during gc is safe.</b> Unreachable versions are deleted before the data
 * sweep, right after the refs are read a second time; once version.json is gone, creating a ref
 * at the version is refused (refs are only created at finished versions), so no version can
 * become reachable after its catalog was left out of the live names. What remains is the instant
 * between that second read and the deletion of version.json: a tag whose creator checked the
 * version before it was deleted and writes the ref after that read would point at a deleted
 * version (the store offers no transaction across keys; {@code fdl verify} reports it). Tagging an
 * old commit nothing reaches while gc runs is the one thing to avoid.
 *
 * <p><b>Interrupted runs.</b> Every deletion is idempotent and gc's only state in the store is
 * its marks (create-only, so a re-run keeps their time): re-running lists again and deletes what
 * is still unreferenced. An unreachable version stopped half-way has lost version.json, so it is
 * an unfinished folder as old as its commit and goes on the next run (a mark left in it does not
 * count towards its age). Memory grows with the number of live file names (about 32 bytes each)
 * plus one batch of candidates, never with catalog bytes.
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
     * @param grace         data files and unfinished folders younger than this are kept, and an unreachable
     *                      version is kept this long after gc marked it (SPEC.md section 5; default: 7 days)
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
     * @param now                the run's clock time (UTC): marks written by this run let their
     *                           versions be deleted by a gc after {@code now} + the grace period
     * @param cutoff             objects last modified at or after this instant (UTC) were kept
     * @param liveVersions       finished, unexpired versions whose catalogs were read (reachable, young, or unreachable but inside their grace period)
     * @param liveNames          distinct file names those catalogs name
     * @param catalogsDownloaded catalogs fetched from the store (one GET each)
     * @param catalogsCached     catalogs served from the local cache
     * @param dataListed         objects listed under data_dir
     * @param dataFiles          unreferenced data files deleted
     * @param youngUnreferenced  unreferenced data files kept because they are younger than the grace period
     * @param unfinishedFolders  unfinished version folders deleted (count of folders, bytes of all their objects)
     * @param expiredLeftovers   catalog objects of expired versions deleted
     * @param unreachableVersions finished versions (expired or not) no ref reaches, whose mark was
     *                           older than the grace period, deleted whole (count of folders, bytes of all their objects)
     * @param incompleteUploads  leftovers of interrupted uploads removed ({@link ObjectStore#cleanupIncompleteUploads}; 0 in a dry run)
     * @param marked             versions this run marked unreachable (id order; in a dry run: would mark)
     * @param unmarked           marks removed because a ref reaches their version again (in a dry run: would remove)
     * @param unreachableKept    marked versions kept because their grace period is not over (the ones marked now included)
     * @param firstUnreachableDue when the first of those may be deleted: the earliest mark's time plus
     *                           the grace period among those inside their window (UTC; one past its
     *                           window is kept only as the ancestor of one inside); null when none is
     */
    public record Report(boolean dryRun, Instant now, Instant cutoff, int liveVersions, long liveNames,
                         long catalogsDownloaded, long catalogsCached, long dataListed, Tally dataFiles,
                         Tally youngUnreferenced, Tally unfinishedFolders, Tally expiredLeftovers,
                         Tally unreachableVersions, int incompleteUploads,
                         List<String> marked, int unmarked, int unreachableKept, Instant firstUnreachableDue) {
        public Report {
            marked = List.copyOf(marked);
        }
    }

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
     *                      missing, damaged or unreadable: nothing is written or deleted then
     */
    public Report run(Options options, Consumer<Progress> progress) {
        if (repo.store().readOnly())
            throw new FdlException("cannot gc " + repo.root() + ": the store is read-only");
        return new Pass(options, progress).run();
    }

    /**
     * One run of gc, a method per phase in the order they run: check the refs, choose what to mark
     * and delete, read the live catalogs, then (refs read again) mark, unmark, delete unreachable
     * versions, delete leftovers and unfinished folders, sweep the data folder, clean up uploads.
     */
    private final class Pass {
        private final Options options;
        private final Consumer<Progress> progress;
        private final Instant now;
        private final Instant cutoff;
        /** The refs as first read, before the listing (a ref names a version the listing then shows). */
        private final List<RefValue> refs;
        private final VersionFolder.Listing listing;
        private final LiveNames liveNames = new LiveNames();
        /** Young versions (finished within the grace period): roots as well, see {@link #youngVersions}. */
        private Set<String> young;
        private Marks marks;
        private Set<String> toDelete;
        /** Live versions whose catalog names were read. */
        private int live;

        Pass(Options options, Consumer<Progress> progress) {
            this.options = options;
            this.progress = progress;
            this.now = clock.instant();
            this.cutoff = now.minus(options.grace());
            this.refs = repo.listRefs();
            this.listing = VersionFolder.list(repo.store());
        }

        Report run() {
            requireFinishedRefs();
            young = youngVersions();
            marks = marks(refs, young, listing, now, cutoff);
            toDelete = deletable(refs, young, marks.due, listing);
            long cachedBefore = cache.hits(), downloadedBefore = cache.downloads();
            readLiveCatalogs();
            try (Deleter deleter = new Deleter(repo.store(), options)) {
                if (!toDelete.isEmpty() || !marks.toMark.isEmpty()) keepWhatNewRefsReach();
                List<String> marked = writeMarks();
                removeMarks(deleter);
                Tally gone = deleteUnreachable(deleter);
                Waiting waiting = waiting(marked);
                Leftovers left = deleteLeftoversAndUnfinished(deleter);
                Sweep sweep = sweepData(deleter);
                int uploads = options.dryRun() ? 0 : repo.store().cleanupIncompleteUploads(cutoff);
                return new Report(options.dryRun(), now, cutoff, live + liveNames.lateVersions, liveNames.names.size(),
                        cache.downloads() - downloadedBefore, cache.hits() - cachedBefore, sweep.listed,
                        sweep.deleted, sweep.young, left.unfinished(), left.catalogs(), gone, uploads,
                        marked, marks.toUnmark.size(), waiting.count(), waiting.firstDue());
            }
        }

        private void requireFinishedRefs() {
            for (RefValue r : refs) {
                VersionFolder f = listing.get(r.versionId());
                if (f == null || !f.finished())
                    throw new FdlException("ref " + r.key() + " points at version " + r.versionId()
                            + ", which the listing of versions/ does not show as finished; gc deleted nothing (run fdl verify)");
            }
        }

        /**
         * Young versions are roots as well: a commit between steps 8 and 9 (or one that just lost
         * the race) is kept, with its ancestors, exactly as long as its data files are.
         */
        private Set<String> youngVersions() {
            Set<String> out = new HashSet<>();
            for (VersionFolder f : listing.folders().values())
                if (f.finished() && (f.finishedAt() == null || !f.finishedAt().isBefore(cutoff))) out.add(f.id());
            return out;
        }

        private void readLiveCatalogs() {
            for (VersionFolder f : listing.folders().values()) {
                if (!f.live() || toDelete.contains(f.id())) continue;
                if (liveNames.read(f.id())) live++;
                progress.accept(new Progress("reading catalogs", live, liveNames.names.size()));
            }
        }

        /**
         * Refs read again right before marking and deleting: a ref created since the first read
         * (e.g. a tag at a version that was unreachable) keeps that version and its ancestors, and
         * spares them a mark they would only inherit later.
         */
        private void keepWhatNewRefsReach() {
            List<RefValue> again = repo.listRefs();
            marks.toMark.removeAll(reachedFrom(again, List.of(), listing));
            Set<String> still = deletable(again, young, marks.due, listing);
            for (String id : new ArrayList<>(toDelete)) {
                if (still.contains(id)) continue;
                toDelete.remove(id);
                if (listing.get(id).live() && liveNames.read(id)) live++;
            }
        }

        /** Create-only: a mark another gc wrote first keeps its (earlier) time. Returns the versions marked. */
        private List<String> writeMarks() {
            List<String> marked = new ArrayList<>();
            for (String id : marks.toMark)
                if (options.dryRun() || repo.store().putIfAbsent(RepoLayout.unreachableJson(id),
                        UnreachableMark.byGc(now).toBytes()).isWritten()) marked.add(id);
            return marked;
        }

        /**
         * Best effort, no condition: if a ref goes away again meanwhile, the next gc marks the
         * version afresh, so its window restarts (never shortens).
         */
        private void removeMarks(Deleter deleter) {
            for (String id : marks.toUnmark) deleter.submit(RepoLayout.unreachableJson(id));
            deleter.flush();
        }

        /**
         * version.json first: from then on the folder is unfinished, so no reader, ref or expire
         * will use it, and if gc stops here the next run deletes the rest as an unfinished folder
         * (its objects are as old as the commit; the mark does not count). Deleting it last would
         * leave a "finished" version without its catalog, which readers would fail on. The mark goes
         * last, with nothing left to protect.
         */
        private Tally deleteUnreachable(Deleter deleter) {
            Tally gone = Tally.ZERO;
            if (toDelete.isEmpty()) return gone;
            for (String id : toDelete) {
                VersionFolder f = listing.get(id);
                gone = gone.plus(1, f.bytes());
                deleter.submit(RepoLayout.versionJson(id));
            }
            deleter.flush();
            for (String id : toDelete)
                for (ObjectMeta m : listing.get(id).objects())
                    if (!m.key().equals(RepoLayout.versionJson(id)) && !m.key().equals(RepoLayout.unreachableJson(id)))
                        deleter.submit(m.key());
            deleter.flush();
            for (String id : toDelete) deleter.submit(RepoLayout.unreachableJson(id));
            deleter.flush();
            progress.accept(new Progress("deleting unreachable versions", listing.folders().size(), gone.count()));
            return gone;
        }

        /** The marked versions still waiting for their grace period, and the earliest time one is due. */
        private Waiting waiting(List<String> marked) {
            Set<String> markedNow = new HashSet<>(marked);
            int waiting = 0;
            Instant firstDue = null;
            for (VersionFolder f : listing.folders().values()) {
                if (toDelete.contains(f.id())) continue;
                Instant at = markedNow.contains(f.id()) ? now
                        : f.marked() && !marks.toUnmark.contains(f.id()) ? Objects.requireNonNullElse(f.markedAt(), now) : null;
                if (at == null) continue;
                waiting++;
                Instant due = at.plus(options.grace());
                // a version past its own window is kept only as the ancestor of one inside its
                // window (or of a young one): it can go no sooner than that one, so it names no time
                if (due.isAfter(now) && (firstDue == null || due.isBefore(firstDue))) firstDue = due;
            }
            return new Waiting(waiting, firstDue);
        }

        /** Deletes the catalogs expired versions left, and unfinished folders older than the cutoff. */
        private Leftovers deleteLeftoversAndUnfinished(Deleter deleter) {
            Tally leftovers = Tally.ZERO, unfinished = Tally.ZERO;
            for (VersionFolder f : listing.folders().values()) {
                if (toDelete.contains(f.id())) continue;
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
            return new Leftovers(leftovers, unfinished);
        }

        private Sweep sweepData(Deleter deleter) {
            Sweep sweep = new Sweep(liveNames, deleter, cutoff, options.dryRun(), progress);
            String dataDir = repo.dataDir();
            try (Stream<ObjectMeta> s = repo.store().list(dataDir)) {
                s.forEach(m -> sweep.accept(m, m.key().substring(dataDir.length())));
            }
            sweep.finish();
            return sweep;
        }
    }

    /** What {@link Pass#deleteLeftoversAndUnfinished} deleted: expired versions' catalogs, unfinished folders. */
    private record Leftovers(Tally catalogs, Tally unfinished) {}

    /** Marked versions waiting for their grace period, and the earliest time one is due (null: none names one). */
    private record Waiting(int count, Instant firstDue) {}

    /**
     * What to do about marks, from the first read of the refs.
     *
     * @param toMark   finished versions no ref reaches, older than the grace period, without a mark
     *                 (id order)
     * @param toUnmark marked versions a ref reaches again
     * @param due      versions whose grace period is over: a mark at or before the cutoff (with a
     *                 grace period of 0, also the marks this run writes)
     */
    private record Marks(Set<String> toMark, Set<String> toUnmark, Set<String> due) {}

    private Marks marks(List<RefValue> refs, Set<String> young, VersionFolder.Listing listing, Instant now, Instant cutoff) {
        Set<String> fromRefs = reachedFrom(refs, List.of(), listing);
        Set<String> toMark = new TreeSet<>(), toUnmark = new TreeSet<>(), due = new HashSet<>();
        for (VersionFolder f : listing.folders().values()) {
            if (!f.finished()) continue;
            boolean reached = fromRefs.contains(f.id());
            if (f.marked()) {
                if (reached) toUnmark.add(f.id());
                // a store that gives no time: the mark counts as new, so the version is kept
                else if (f.markedAt() != null && !f.markedAt().isAfter(cutoff)) due.add(f.id());
            } else if (!reached && !young.contains(f.id())) {
                toMark.add(f.id());
                if (!now.isAfter(cutoff)) due.add(f.id()); // grace period 0: marked and deleted in one run
            }
        }
        return new Marks(toMark, toUnmark, due);
    }

    /**
     * The finished versions to delete, in id order: those that neither a ref, nor a young version,
     * nor a version whose grace period is not over ({@code due} lists those whose is) reaches. All
     * of them are therefore marked, with a mark older than the cutoff.
     */
    private Set<String> deletable(List<RefValue> refs, Set<String> young, Set<String> due, VersionFolder.Listing listing) {
        List<String> roots = new ArrayList<>(young);
        for (VersionFolder f : listing.folders().values())
            if (f.finished() && !due.contains(f.id())) roots.add(f.id());
        Set<String> reached = reachedFrom(refs, roots, listing);
        Set<String> out = new TreeSet<>();
        for (VersionFolder f : listing.folders().values())
            if (f.finished() && !reached.contains(f.id())) out.add(f.id());
        return out;
    }

    /** The versions the refs and {@code more} reach through parents ({@link HistoryWalk}). */
    private Set<String> reachedFrom(List<RefValue> refs, List<String> more, VersionFolder.Listing listing) {
        List<String> roots = new ArrayList<>(more);
        for (RefValue r : refs) roots.add(r.versionId());
        return HistoryWalk.reachable(roots, id -> cache.version(repo, id), id -> listing.get(id) != null && listing.get(id).finished());
    }

    /** What is live: names of files live catalogs name, and which versions were read. */
    private final class LiveNames {
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
        final LiveNames liveNames;
        final Deleter deleter;
        final Instant cutoff;
        final boolean dryRun;
        final Consumer<Progress> progress;
        final List<ObjectMeta> batch = new ArrayList<>();
        final List<String> batchNames = new ArrayList<>();
        long listed;
        Tally deleted = Tally.ZERO, young = Tally.ZERO;

        Sweep(LiveNames liveNames, Deleter deleter, Instant cutoff, boolean dryRun, Consumer<Progress> progress) {
            this.liveNames = liveNames;
            this.deleter = deleter;
            this.cutoff = cutoff;
            this.dryRun = dryRun;
            this.progress = progress;
        }

        void accept(ObjectMeta m, String name) {
            listed++;
            if ((listed & 0x3fff) == 0) progress.accept(new Progress("listing data", listed, deleted.count() + batch.size()));
            if (liveNames.names.contains(name)) return;
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
            if (!dryRun) liveNames.refresh();
            for (int i = 0; i < batch.size(); i++) {
                if (liveNames.names.contains(batchNames.get(i))) continue;
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
