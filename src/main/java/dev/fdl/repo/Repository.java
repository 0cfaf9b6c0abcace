package dev.fdl.repo;

import dev.fdl.util.ShellQuote;
import dev.fdl.util.VersionIds;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.WriteResult;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * An fdl repository on an {@link ObjectStore}: identity, HEAD, refs and versions, read and
 * written as SPEC.md sections 1, 3 and 4 say. Normal outcomes of conditional writes come back as
 * results or {@link FdlException}s with SPEC.md section 6 exit codes; store I/O failures stay
 * {@link dev.fdl.store.StoreException}s.
 */
public final class Repository {
    private final ObjectStore store;
    private final RepoConfig config;
    /** The ETag fdl.json was read or written at; asked only when the configuration is saved. */
    private final java.util.function.Supplier<String> configEtag;

    private Repository(ObjectStore store, RepoConfig config, String configEtag) {
        this(store, config, () -> configEtag);
    }

    private Repository(ObjectStore store, RepoConfig config, java.util.function.Supplier<String> configEtag) {
        this.store = store;
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
        // A store that ignores If-None-Match would let two writers both win (issue #6): refuse it first.
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

    /**
     * The branch HEAD names (SPEC.md section 3).
     *
     * @throws FdlException exit 1 when HEAD is missing or not {@code ref: refs/heads/<valid name>\n}
     */
    public RefName headBranch() {
        ObjectBytes head = store.get(RepoLayout.HEAD).orElseThrow(() -> FdlException.corrupt(RepoLayout.HEAD,
                "missing in " + store.root() + " (init writes it)"));
        String text = new String(head.bytes(), StandardCharsets.UTF_8);
        String prefix = RepoLayout.HEAD_REF;
        if (!text.startsWith(prefix) || !text.endsWith("\n") || text.indexOf('\n') != text.length() - 1)
            throw FdlException.corrupt(RepoLayout.HEAD, "expected '" + prefix + "<branch>' and a newline, found \"" + abbreviate(text) + "\"");
        String name = text.substring(prefix.length(), text.length() - 1);
        String why = RefName.problem(name);
        if (why != null) throw FdlException.corrupt(RepoLayout.HEAD, "invalid branch name '" + name + "': " + why);
        return new RefName(name);
    }

    /** Reads {@code refs/heads/<name>}, or empty when the branch does not exist. Throws exit 1 on a corrupt ref. */
    public Optional<RefValue> readBranch(RefName name) {
        return readRef(RefValue.Kind.BRANCH, name);
    }

    /** Reads {@code refs/tags/<name>}, or empty when the tag does not exist. Throws exit 1 on a corrupt ref. */
    public Optional<RefValue> readTag(RefName name) {
        return readRef(RefValue.Kind.TAG, name);
    }

    /** Reads a ref of either kind, or empty when it does not exist. Throws exit 1 on a corrupt ref. */
    public Optional<RefValue> readRef(RefValue.Kind kind, RefName name) {
        String key = RepoLayout.refKey(kind, name);
        return store.get(key).map(b -> new RefValue(kind, name, parseRef(key, b.bytes()), b::etag));
    }

    /** The version id a ref file holds: one lower-case UUID and a newline, else a corrupt ref (exit 1). */
    public static String parseRef(String key, byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.endsWith("\n") || !VersionIds.isValid(text.substring(0, text.length() - 1)))
            throw FdlException.corrupt(key, "corrupt ref: expected one version id and a newline, found \"" + abbreviate(text) + "\"");
        return text.substring(0, text.length() - 1);
    }

    /** The content of a ref file pointing at {@code versionId}. */
    public static byte[] refBytes(String versionId) {
        return (versionId + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Reads version.json of {@code id}, or empty when the version is absent or unfinished. */
    public Optional<VersionInfo> readVersion(String id) {
        if (!VersionIds.isValid(id)) return Optional.empty();
        String key = RepoLayout.versionJson(id);
        return store.get(key).map(b -> {
            VersionInfo v = VersionInfo.parse(b.bytes(), key);
            if (!v.id().equals(id)) throw FdlException.corrupt(key, "key 'id' is " + v.id() + " but the folder is " + id);
            return v;
        });
    }

    /**
     * The version whose catalog keeps DuckLake snapshot {@code snapshot} of {@code from}'s history:
     * {@code from} or the first of its first parents whose {@code ducklake.snapshots} range holds it
     * (SPEC.md section 3: a version keeps only the snapshots it added over its first parent). Empty
     * when the history ends (or a parent is missing) before it.
     */
    public Optional<VersionInfo> versionKeepingSnapshot(VersionInfo from, long snapshot) {
        VersionInfo v = from;
        while (v != null) {
            if (v.ducklake().firstSnapshot() <= snapshot && snapshot <= v.ducklake().lastSnapshot()) return Optional.of(v);
            if (snapshot > v.ducklake().lastSnapshot() || v.parents().isEmpty()) return Optional.empty();
            v = readVersion(v.parents().get(0)).orElse(null);
        }
        return Optional.empty();
    }

    /** Reads expired.json of {@code id}, or empty when the version is in retention. */
    public Optional<ExpiredInfo> readExpired(String id) {
        String key = RepoLayout.expiredJson(id);
        return store.get(key).map(b -> ExpiredInfo.parse(b.bytes(), key));
    }

    /** Reads gc's mark unreachable.json of {@code id} (SPEC.md section 5), or empty when there is none. */
    public Optional<UnreachableMark> readUnreachableMark(String id) {
        String key = RepoLayout.unreachableJson(id);
        return store.get(key).map(b -> UnreachableMark.parse(b.bytes(), key));
    }

    /**
     * Resolves what a reader asked for and refuses an expired version (SPEC.md section 4, Reading).
     *
     * @throws FdlException exit 4 for: no repository, no version yet, no such ref or version,
     *                      unfinished version, expired version (naming its date); exit 1 for corrupt files
     */
    public Resolved resolve(String spec) {
        Resolved r = resolveAllowingExpired(spec);
        if (r.isExpired())
            throw FdlException.notFound("version " + r.version().id() + " expired on "
                    + r.expired().expiredAt() + " (" + r.expired().reason() + "): its catalog is gone; "
                    + "use a version that is still in retention (see fdl log)");
        return r;
    }

    /**
     * Resolves {@code spec} like {@link #resolve} but returns expired versions (for log and show).
     * Order, as git's: {@code HEAD}, {@code refs/...} full names, a tag, a branch, a version id or
     * unique prefix of 4+ characters; any of them followed by {@link Revision} suffixes
     * ({@code ~N}, {@code ^N}, {@code @{date}}).
     */
    public Resolved resolveAllowingExpired(String spec) {
        Revision rev = Revision.parse(spec);
        if (rev != null) {
            VersionInfo v = rev.resolve(this, resolveAllowingExpired(rev.base()).version());
            return new Resolved(spec, null, v, readExpired(v.id()).orElse(null));
        }
        if (spec == null || spec.isEmpty() || spec.equals("HEAD") || spec.equals("@")) {
            RefName head = headBranch();
            RefValue ref = readBranch(head).orElseThrow(() -> FdlException.notFound(
                    "the repository at " + store.root() + " has no version yet: branch '" + head
                            + "' (HEAD) has no commit; make one with fdl checkout and fdl commit"));
            return followRef(spec == null || spec.isEmpty() ? "HEAD" : spec, ref);
        }
        Optional<RefValue> ref = Optional.empty();
        if (spec.startsWith(RepoLayout.BRANCHES)) {
            ref = readBranch(nameOf(spec.substring(RepoLayout.BRANCHES.length())));
        } else if (spec.startsWith(RepoLayout.TAGS)) {
            ref = readTag(nameOf(spec.substring(RepoLayout.TAGS.length())));
        } else if (RefName.problem(spec) == null) {
            RefName n = new RefName(spec);
            ref = readTag(n);
            if (ref.isEmpty()) ref = readBranch(n);
        }
        if (ref.isPresent()) return followRef(spec, ref.get());
        if (VersionIds.isPrefix(spec)) {
            String id = expandVersionId(spec);
            if (id != null) {
                VersionInfo v = readVersion(id).orElseThrow();
                return new Resolved(spec, null, v, readExpired(id).orElse(null));
            }
            if (VersionIds.isValid(spec) && hasFolder(spec))
                throw FdlException.notFound("version " + spec + " is unfinished (its folder has no version.json): "
                        + "it was never committed and is not a version");
        }
        throw FdlException.notFound("no ref or version named '" + spec + "' in " + store.root()
                + (store.canList() ? "; list refs with: fdl refs" : " (an HTTP(S) root cannot be listed: name a tag, a branch or a full version id)"));
    }

    private static RefName nameOf(String s) {
        String why = RefName.problem(s);
        if (why != null) throw FdlException.notFound("no such ref 'refs/.../" + s + "' (" + why + ")");
        return new RefName(s);
    }

    private Resolved followRef(String spec, RefValue ref) {
        VersionInfo v = readVersion(ref.versionId()).orElseThrow(() -> FdlException.notFound(
                "ref " + ref.key() + " points at version " + ref.versionId()
                        + ", which is not a finished version (no version.json); run fdl verify"));
        return new Resolved(spec, ref, v, readExpired(ref.versionId()).orElse(null));
    }

    private boolean hasFolder(String id) {
        if (!store.canList()) return false;
        try (Stream<ObjectMeta> s = store.list(RepoLayout.versionFolder(id))) {
            return s.findAny().isPresent();
        }
    }

    /** The full id of the finished version whose id starts with {@code prefix}, or null; a usage error (exit 2, naming the candidates) when ambiguous, as git's. */
    private String expandVersionId(String prefix) {
        Set<String> ids = finishedVersionsStartingWith(prefix);
        if (ids.size() > 1)
            throw new FdlException(FdlException.Kind.USAGE, "version prefix '" + prefix + "' is ambiguous: "
                    + String.join(", ", ids) + "; give more characters");
        return ids.isEmpty() ? null : ids.iterator().next();
    }

    /**
     * The ids of the finished versions starting with {@code prefix} (a version id or a prefix of one),
     * sorted; a store that cannot list (an HTTP mirror) answers only for a full id.
     */
    private Set<String> finishedVersionsStartingWith(String prefix) {
        Set<String> ids = new TreeSet<>();
        if (VersionIds.isValid(prefix)) {
            if (readVersion(prefix).isPresent()) ids.add(prefix);
            return ids;
        }
        if (!store.canList()) return ids;
        try (Stream<ObjectMeta> s = store.list(RepoLayout.VERSIONS + prefix)) {
            s.forEach(m -> {
                String id = RepoLayout.versionIdOf(m.key());
                if (id != null && m.key().equals(RepoLayout.versionJson(id))) ids.add(id);
            });
        }
        return ids;
    }

    /**
     * The ref a bare name at the start of {@code spec} (before any {@link Revision} suffix) resolves
     * to, read as {@link #resolveAllowingExpired} reads it: the tag, else the branch. Empty for
     * {@code HEAD}, a {@code refs/...} path, a name no ref has, or anything that is not a ref name.
     */
    public Optional<RefValue> bareRef(String spec) {
        Revision rev = Revision.parse(spec);
        String name = rev != null ? rev.base() : spec;
        if (name == null || name.equals("HEAD") || RefName.problem(name) != null) return Optional.empty();
        RefName n = new RefName(name);
        Optional<RefValue> ref = readTag(n);
        return ref.isPresent() ? ref : readBranch(n);
    }

    /**
     * A finished version, other than {@code versionId} (the one the ref points at; may be null),
     * whose id starts with {@code name} (a name of 4+ hex characters is a version-id prefix). A bare
     * name means the ref first, as in git, so that version is then named only by a longer prefix:
     * commands warn, as git's "refname is ambiguous". Empty when there is none (or only a full id
     * could be checked: an HTTP mirror).
     */
    public Optional<String> versionHiddenBy(RefName name, String versionId) {
        if (!VersionIds.isPrefix(name.name())) return Optional.empty();
        for (String id : finishedVersionsStartingWith(name.name())) if (!id.equals(versionId)) return Optional.of(id);
        return Optional.empty();
    }

    /**
     * Every branch and tag, branches first, each sorted by name. Corrupt refs throw (exit 1): what
     * decides what is live (gc, expire) must not go on without one. On a store that cannot list (an
     * HTTP mirror) only HEAD's branch can be known.
     */
    public List<RefValue> listRefs() {
        return listRefs(e -> {
            throw e;
        });
    }

    /**
     * Like {@link #listRefs()}, but a ref file that cannot be read (corrupt, or naming no valid
     * version id) is handed to {@code broken} and left out, as git lists the other refs and warns
     * of a broken one: for commands that only show refs ({@code fdl refs}, log's decorations).
     */
    public List<RefValue> listRefs(java.util.function.Consumer<FdlException> broken) {
        List<RefValue> out = new ArrayList<>();
        if (!store.canList()) {
            readBranch(headBranch()).ifPresent(out::add);
            return out;
        }
        for (RefValue.Kind kind : RefValue.Kind.values()) {
            String prefix = RepoLayout.refPrefix(kind);
            TreeSet<String> names = new TreeSet<>();
            try (Stream<ObjectMeta> s = store.list(prefix)) {
                s.forEach(m -> names.add(m.key().substring(prefix.length())));
            }
            for (String n : names) {
                if (RefName.problem(n) != null) continue; // not a ref fdl wrote; verify reports it
                try {
                    readRef(kind, new RefName(n)).ifPresent(out::add);
                } catch (FdlException e) {
                    if (e.kind() != FdlException.Kind.FAILURE) throw e;
                    broken.accept(e);
                }
            }
        }
        return out;
    }

    /** Version id to the refs pointing at it, for decorations; broken refs are handed to {@code broken} and left out. */
    public Map<String, List<RefValue>> refsByVersion(java.util.function.Consumer<FdlException> broken) {
        Map<String, List<RefValue>> m = new LinkedHashMap<>();
        for (RefValue r : listRefs(broken)) m.computeIfAbsent(r.versionId(), k -> new ArrayList<>()).add(r);
        return m;
    }

    /** A change of the ref {@code name} of {@code kind}: every create, move and delete of a ref goes through one. */
    public RefUpdate updateRef(RefValue.Kind kind, RefName name) {
        return new RefUpdate(this, kind, name);
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
        refuseAmbiguous(kind, name);
        String id = resolve(target).version().id();
        RefUpdate.Outcome o = updateRef(kind, name).create(id);
        if (o.result().changed()) forgetUnreachableMark(id);
        return o;
    }

    /**
     * A ref now reaches version {@code id}: gc's mark on it (SPEC.md section 5) goes at once, so that
     * deleting the ref again before gc runs starts a fresh grace period instead of inheriting the
     * old mark. Best effort: a mark left behind is removed by the next gc, which sees the ref.
     */
    private void forgetUnreachableMark(String id) {
        try {
            store.delete(RepoLayout.unreachableJson(id));
        } catch (RuntimeException e) {
            // the next gc removes it
        }
    }

    /**
     * Refuses a new branch or tag whose name the other kind already has: a bare name resolves to
     * the tag first (SPEC.md section 4, as git does), so a tag {@code main} would silently hide
     * branch {@code main} from every read.
     *
     * @throws FdlException exit 3 (conflict) naming the ref in the way
     */
    public void refuseAmbiguous(RefValue.Kind kind, RefName name) {
        RefValue.Kind other = kind == RefValue.Kind.BRANCH ? RefValue.Kind.TAG : RefValue.Kind.BRANCH;
        if (readRef(other, name).isPresent()) {
            String word = kind == RefValue.Kind.BRANCH ? "branch" : "tag";
            String otherWord = other == RefValue.Kind.BRANCH ? "branch" : "tag";
            throw FdlException.conflict("a " + otherWord + " named '" + name + "' exists; a " + word + " of the same name would make '"
                    + name + "' ambiguous (a bare name means the tag); choose another name");
        }
    }

    /**
     * Deletes a branch or tag at the value it has now (SPEC.md section 4: explicit, never the
     * branch HEAD names), conditionally: a commit moving the branch meanwhile is never dropped.
     *
     * @return DELETED (with the ref as it was), NOT_FOUND, CONFLICT (moved meanwhile), or REJECTED for HEAD's branch
     */
    public RefUpdate.Outcome deleteRef(RefValue.Kind kind, RefName name) {
        return updateRef(kind, name).delete();
    }

    /**
     * Whether version {@code id} is in the history of a ref other than {@code except} (its own
     * version or an ancestor of it): deleting {@code except} then leaves the version reachable, and
     * gc keeps it (SPEC.md section 6). Walks parents newest first (by seq) and stops below the
     * version's seq, since an ancestor's seq is always smaller (SPEC.md section 4).
     *
     * @param except the ref not counted (the one about to be deleted)
     * @throws FdlException exit 4 when {@code id} names no version
     */
    public boolean reachableFromOtherRefs(String id, RefValue except) {
        VersionInfo target = readVersion(id).orElseThrow(() -> FdlException.notFound("no version " + id + " in " + store.root()));
        HistoryWalk walk = new HistoryWalk(this);
        for (RefValue r : listRefs()) {
            if (r.kind() != except.kind() || !r.name().equals(except.name())) walk.start(r.versionId());
        }
        while (walk.peek() != null && walk.peek().seq() >= target.seq()) {
            if (walk.take().id().equals(id)) return true;
        }
        return false;
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
        List<LogEntry> out = new ArrayList<>();
        HistoryWalk walk = new HistoryWalk(this);
        walk.start(startId);
        HistoryWalk hiddenWalk = new HistoryWalk(this);
        if (hiddenId != null) hiddenWalk.start(hiddenId);
        Set<String> hidden = new HashSet<>();
        while (walk.peek() != null && (limit < 0 || out.size() < limit)) {
            VersionInfo v = walk.peek();
            // every version the hidden side reaches with a seq >= v's is known once its walk is past v's seq
            while (hiddenWalk.peek() != null && hiddenWalk.peek().seq() >= v.seq()) hidden.add(hiddenWalk.take().id());
            if (hidden.contains(v.id())) {
                walk.skip(); // and so are all its ancestors
                continue;
            }
            List<String> missing = new ArrayList<>();
            walk.take(missing);
            out.add(new LogEntry(v, readExpired(v.id()).orElse(null), missing));
        }
        return out;
    }

    private static String abbreviate(String s) {
        String t = s.replace("\r", "\\r").replace("\n", "\\n");
        return t.length() > 80 ? t.substring(0, 80) + "…" : t;
    }
}
