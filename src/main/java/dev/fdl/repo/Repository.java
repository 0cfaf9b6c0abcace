package dev.fdl.repo;

import dev.fdl.util.ShellQuote;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.WriteResult;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An fdl repository on an {@link ObjectStore}: its identity (fdl.json) and the parts that read and
 * write it as SPEC.md sections 1, 3 and 4 say, in the manner of JGit's {@code Repository}: the
 * refs ({@link RefDatabase}), the versions ({@link VersionDatabase}), revision parsing
 * ({@link RevisionResolver}) and the one walk of history ({@link HistoryWalk}). The methods below
 * that only hand a call on keep callers short. Normal outcomes of conditional writes come back as
 * results or {@link FdlException}s with SPEC.md section 6 exit codes; store I/O failures stay
 * {@link dev.fdl.store.StoreException}s.
 */
public final class Repository {
    private final ObjectStore store;
    private final RefDatabase refs;
    private final VersionDatabase versions;
    private final RevisionResolver revisions;
    private final RepoConfig config;
    /** The ETag fdl.json was read or written at; asked only when the configuration is saved. */
    private final java.util.function.Supplier<String> configEtag;

    private Repository(ObjectStore store, RepoConfig config, String configEtag) {
        this(store, config, () -> configEtag);
    }

    private Repository(ObjectStore store, RepoConfig config, java.util.function.Supplier<String> configEtag) {
        this.store = store;
        this.refs = new RefDatabase(store);
        this.versions = new VersionDatabase(store);
        this.revisions = new RevisionResolver(store, refs, versions);
        this.config = config;
        this.configEtag = configEtag;
    }

    /**
     * Opens the repository at the store's root.
     *
     * @throws FdlException exit 4 when no fdl.json is there (or its bucket does not exist); exit 1 when it is corrupt or of an unknown format
     */
    public static Repository open(ObjectStore store) {
        Optional<ObjectBytes> cfg;
        try {
            cfg = store.get(RepoLayout.CONFIG);
        } catch (dev.fdl.store.NoSuchBucketException e) { // as a missing prefix: no such repository (SPEC.md section 6)
            throw FdlException.notFound("no fdl repository at " + store.root() + ": " + e.getMessage());
        }
        if (cfg.isEmpty())
            throw FdlException.notFound("no fdl repository at " + store.root() + " (no " + RepoLayout.CONFIG + "); "
                    + (store.readOnly() ? "an HTTP(S) root is read-only, so fdl cannot create one there: check the URL, or publish "
                    + "a repository made elsewhere (a folder or s3:// root) at it"
                    : "create one with: fdl init " + ShellQuote.word(store.root())));
        ObjectBytes read = cfg.get();
        return new Repository(store, RepoConfig.parse(read.bytes()), read::etag);
    }

    /**
     * Creates a repository: fdl.json with {@code If-None-Match: *}, then HEAD naming {@code branch}
     * (SPEC.md section 4, init). No branch exists afterwards.
     *
     * @throws FdlException exit 3 when a repository already exists there (nothing is changed)
     * @throws dev.fdl.store.StoreException when a store that needs the probe ignores conditional writes (ConditionalWriteProbe)
     */
    public static Repository init(ObjectStore store, RefName branch) {
        return init(store, branch, RepoConfig.fresh());
    }

    /** {@link #init(ObjectStore, RefName)} writing {@code config} (a fresh identity, e.g. with a catalog storage) as fdl.json. */
    public static Repository init(ObjectStore store, RefName branch, RepoConfig config) {
        // A store that ignores If-None-Match would let two writers both win: refuse it first.
        if (store.conditionalWritesNeedProbe()) dev.fdl.store.ConditionalWriteProbe.check(store);
        WriteResult r = store.putIfAbsent(RepoLayout.CONFIG, config.toBytes());
        if (!r.isWritten())
            throw FdlException.conflict("a repository already exists at " + store.root()
                    + " (fdl.json is there); nothing was changed");
        store.put(RepoLayout.HEAD, RepoLayout.headBytes(branch));
        return new Repository(store, config, r.etag());
    }

    public ObjectStore store() {
        return store;
    }

    public RepoConfig config() {
        return config;
    }

    /**
     * Replaces fdl.json with {@code updated} ({@code If-Match}: the ETag fdl.json had when this
     * repository was opened; SPEC.md section 2), so that of two writers who read the same fdl.json
     * only the first succeeds and neither loses the other's change unseen. The identity keys
     * ({@code fdl}, {@code id}, {@code data_dir}) never change; unknown keys are kept as
     * {@code updated} carries them.
     *
     * @return the repository as it is now (the new configuration and its ETag)
     * @throws FdlException exit 3 when fdl.json changed since it was read (nothing was written)
     */
    public Repository saveConfig(RepoConfig updated) {
        if (!updated.id().equals(config.id()) || !updated.dataDir().equals(config.dataDir()) || !updated.fdl().equals(config.fdl()))
            throw new IllegalArgumentException("fdl.json's identity (fdl, id, data_dir) never changes");
        String etag = configEtag.get();
        WriteResult w = etag == null ? WriteResult.preconditionFailed() : store.putIfMatch(RepoLayout.CONFIG, updated.toBytes(), etag);
        if (!w.isWritten())
            throw FdlException.conflict(RepoLayout.CONFIG + " in " + store.root() + " changed since it was read (another writer saved it "
                    + "meanwhile); nothing was written: run the command again to apply your change on top of theirs");
        return new Repository(store, updated, w.etag());
    }

    /** The root as users write it. */
    public String root() {
        return store.root();
    }

    /** The data folder's key prefix, e.g. {@code data/}. */
    public String dataDir() {
        return config.dataDir();
    }

    /**
     * Refuses a writing command on a read-only root before it reads or writes anything else
     * (SPEC.md section 2: an HTTP(S) root is read-only).
     *
     * @param action what the command would do, e.g. {@code "create tag 'v1'"}
     * @throws FdlException exit 1 saying the root is read-only and where writing works
     */
    public void requireWritable(String action) {
        if (store.readOnly())
            throw new FdlException("cannot " + action + ": the repository at " + store.root() + " is read-only (an HTTP(S) "
                    + "root serves readers); run it on the repository's folder or s3:// root");
    }

    /** The data folder's absolute location as DuckLake addresses it ({@code /abs/root/data/}, {@code s3://b/p/data/}). */
    public String dataLocation() {
        return store.location(config.dataDir());
    }

    /** HEAD, branches and tags ({@link RefDatabase}). */
    public RefDatabase refs() {
        return refs;
    }

    /** version.json, expired.json and gc's marks by id ({@link VersionDatabase}). */
    public VersionDatabase versions() {
        return versions;
    }

    /** What a ref-or-version argument names ({@link RevisionResolver}). */
    public RevisionResolver revisions() {
        return revisions;
    }

    /** The branch HEAD names ({@link RefDatabase#head}). */
    public RefName headBranch() {
        return refs.head();
    }

    /** {@code refs/heads/<name>}, or empty ({@link RefDatabase#read}). */
    public Optional<RefValue> readBranch(RefName name) {
        return refs.read(RefValue.Kind.BRANCH, name);
    }

    /** {@code refs/tags/<name>}, or empty ({@link RefDatabase#read}). */
    public Optional<RefValue> readTag(RefName name) {
        return refs.read(RefValue.Kind.TAG, name);
    }

    /** A ref of either kind, or empty ({@link RefDatabase#read}). */
    public Optional<RefValue> readRef(RefValue.Kind kind, RefName name) {
        return refs.read(kind, name);
    }

    /** The version id a ref file holds ({@link RefDatabase#parse}). */
    public static String parseRef(String key, byte[] bytes) {
        return RefDatabase.parse(key, bytes);
    }

    /** The content of a ref file pointing at {@code versionId} ({@link RefDatabase#bytes}). */
    public static byte[] refBytes(String versionId) {
        return RefDatabase.bytes(versionId);
    }

    /** Every branch and tag; a corrupt ref throws ({@link RefDatabase#list()}). */
    public List<RefValue> listRefs() {
        return refs.list();
    }

    /** Every readable branch and tag; broken ones go to {@code broken} ({@link RefDatabase#list(Consumer)}). */
    public List<RefValue> listRefs(Consumer<FdlException> broken) {
        return refs.list(broken);
    }

    /** Version id to the refs pointing at it ({@link RefDatabase#byVersion}). */
    public Map<String, List<RefValue>> refsByVersion(Consumer<FdlException> broken) {
        return refs.byVersion(broken);
    }

    /** A change of one ref ({@link RefDatabase#newUpdate}). */
    public RefUpdate updateRef(RefValue.Kind kind, RefName name) {
        return refs.newUpdate(kind, name);
    }

    /** Refuses a name the other kind of ref has ({@link RefDatabase#refuseAmbiguous}). */
    public void refuseAmbiguous(RefValue.Kind kind, RefName name) {
        refs.refuseAmbiguous(kind, name);
    }

    /** version.json of {@code id}, or empty ({@link VersionDatabase#read}). */
    public Optional<VersionInfo> readVersion(String id) {
        return versions.read(id);
    }

    /** expired.json of {@code id}, or empty ({@link VersionDatabase#readExpired}). */
    public Optional<ExpiredInfo> readExpired(String id) {
        return versions.readExpired(id);
    }

    /** gc's mark on {@code id}, or empty ({@link VersionDatabase#readUnreachableMark}). */
    public Optional<UnreachableMark> readUnreachableMark(String id) {
        return versions.readUnreachableMark(id);
    }

    /** Another version a ref name hides ({@link VersionDatabase#hiddenBy}). */
    public Optional<String> versionHiddenBy(RefName name, String versionId) {
        return versions.hiddenBy(name, versionId);
    }

    /** A version for a reader, refusing an expired one ({@link RevisionResolver#resolve}). */
    public Resolved resolve(String spec) {
        return revisions.resolve(spec);
    }

    /** A version, expired ones included ({@link RevisionResolver#resolveAllowingExpired}). */
    public Resolved resolveAllowingExpired(String spec) {
        return revisions.resolveAllowingExpired(spec);
    }

    /** The ref a bare name at the start of {@code spec} means ({@link RevisionResolver#bareRef}). */
    public Optional<RefValue> bareRef(String spec) {
        return revisions.bareRef(spec);
    }

    /**
     * The version whose catalog keeps DuckLake snapshot {@code snapshot} of {@code from}'s history:
     * {@code from} or the first of its first parents whose {@code ducklake.snapshots} range holds it
     * (SPEC.md section 3: a version keeps only the snapshots it added over its first parent). Empty
     * when the history ends (or a parent is missing) before it.
     */
    public Optional<VersionInfo> versionKeepingSnapshot(VersionInfo from, long snapshot) {
        HistoryWalk walk = HistoryWalk.over(versions, HistoryWalk.Parents.FIRST);
        walk.start(from);
        while (walk.peek() != null) {
            VersionInfo v = walk.take();
            if (v.ducklake().firstSnapshot() <= snapshot && snapshot <= v.ducklake().lastSnapshot()) return Optional.of(v);
            if (snapshot > v.ducklake().lastSnapshot()) return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * Creates a tag at a finished, unexpired version ({@code If-None-Match: *}; SPEC.md section 4, tag).
     *
     * @return CREATED, or CONFLICT when the tag exists (never overwritten) or a tag is in the way
     * @throws FdlException exit 4 when the target does not resolve (or is expired), exit 2 for the name HEAD
     */
    public RefUpdate.Outcome createTag(RefName name, String target) {
        return createRef(RefValue.Kind.TAG, name, target);
    }

    /**
     * Creates a branch at a finished, unexpired version ({@code If-None-Match: *}).
     *
     * @return CREATED, or CONFLICT when the branch exists or a branch is in the way
     * @throws FdlException exit 4 when the target does not resolve (or is expired), exit 2 for the name HEAD
     */
    public RefUpdate.Outcome createBranch(RefName name, String target) {
        return createRef(RefValue.Kind.BRANCH, name, target);
    }

    private RefUpdate.Outcome createRef(RefValue.Kind kind, RefName name, String target) {
        if (name.name().equals(RepoLayout.HEAD))
            throw FdlException.usage("'HEAD' cannot be a " + (kind == RefValue.Kind.BRANCH ? "branch" : "tag")
                    + " name: it always means the branch HEAD names");
        refs.refuseAmbiguous(kind, name);
        String id = revisions.resolve(target).version().id();
        RefUpdate.Outcome o = refs.newUpdate(kind, name).create(id);
        if (o.result().changed()) versions.forgetUnreachableMark(id);
        return o;
    }

    /**
     * Deletes a branch or tag at the value it has now (SPEC.md section 4: explicit, never the
     * branch HEAD names), conditionally: a commit moving the branch meanwhile is never dropped.
     *
     * @return DELETED (with the ref as it was), NOT_FOUND, CONFLICT (moved meanwhile), or REJECTED for HEAD's branch
     */
    public RefUpdate.Outcome deleteRef(RefValue.Kind kind, RefName name) {
        return refs.newUpdate(kind, name).delete();
    }

    /**
     * Whether version {@code id} is in the history of a ref other than {@code except} (its own
     * version or an ancestor of it): deleting {@code except} then leaves the version reachable, and
     * gc keeps it (SPEC.md section 6). The walk is gc's ({@link HistoryWalk}), with its rule for a
     * version whose version.json cannot be read.
     *
     * @param except the ref not counted (the one about to be deleted)
     * @throws FdlException exit 4 when {@code id} names no version; exit 1 when a version on the
     *                      way is listed but cannot be read (gc would stop there too)
     */
    public boolean reachableFromOtherRefs(String id, RefValue except) {
        VersionInfo target = versions.read(id).orElseThrow(() -> FdlException.notFound("no version " + id + " in " + store.root()));
        HistoryWalk walk = HistoryWalk.over(versions, HistoryWalk.Parents.ALL);
        for (RefValue r : refs.list()) {
            if (r.kind() != except.kind() || !r.name().equals(except.name())) walk.start(r.versionId());
        }
        return walk.reaches(target);
    }

    /** One entry of {@link #log}: a version, whether it is expired, and parents that are missing (history is cut there). */
    public record LogEntry(VersionInfo version, ExpiredInfo expired, List<String> missingParents) {}

    /**
     * The history from {@code startId}, newest first (by seq, then id), following every parent,
     * including expired versions (SPEC.md section 4, log). A missing parent ends its line of history.
     *
     * @param limit at most this many entries (negative: all)
     */
    public List<LogEntry> log(String startId, int limit) {
        return log(startId, null, limit);
    }

    /**
     * {@link #log(String, int)} without the versions {@code hiddenId} reaches (itself included):
     * git's {@code log hidden..start}. Both walks go by descending {@code seq} (a parent's is
     * smaller than its child's), so the hidden side is read only down to the oldest version the
     * start side lists, and a version the hidden side reaches stops the start side's walk there.
     *
     * @param hiddenId null: nothing hidden
     */
    public List<LogEntry> log(String startId, String hiddenId, int limit) {
        return log(startId, hiddenId, limit, HistoryWalk.Parents.ALL);
    }

    /**
     * {@link #log(String, String, int)} following every parent or, with {@link HistoryWalk.Parents#FIRST},
     * the first only from {@code startId} (git's {@code log --first-parent}: the versions the branch
     * itself pointed at, a merge standing for what it brought in).
     */
    public List<LogEntry> log(String startId, String hiddenId, int limit, HistoryWalk.Parents parents) {
        return HistoryWalk.log(versions, List.of(startId), hiddenId, limit, parents);
    }

    /**
     * {@link #log(String, String, int, HistoryWalk.Parents)} from several versions at once (git's
     * {@code log --all}: every ref's): the versions any of {@code startIds} reaches, newest first, each once.
     */
    public List<LogEntry> log(List<String> startIds, String hiddenId, int limit, HistoryWalk.Parents parents) {
        return HistoryWalk.log(versions, startIds, hiddenId, limit, parents);
    }
}
