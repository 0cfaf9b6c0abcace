package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.VersionIds;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The versions of a repository (SPEC.md section 3): version.json, expired.json and gc's
 * unreachable.json marks read by id, and ids found by prefix. A version is finished once its
 * version.json exists; a folder without one is not a version. Corrupt files are
 * {@link FdlException}s of exit 1; store I/O failures stay {@link dev.fdl.store.StoreException}s.
 */
public final class VersionDatabase {
    private final ObjectStore store;

    VersionDatabase(ObjectStore store) {
        this.store = store;
    }

    /** Reads version.json of {@code id}, or empty when the version is absent, unfinished or {@code id} is not a version id. */
    public Optional<VersionInfo> read(String id) {
        if (!VersionIds.isValid(id)) return Optional.empty();
        String key = RepoLayout.versionJson(id);
        return store.get(key).map(b -> {
            VersionInfo v = VersionInfo.parse(b.bytes(), key);
            if (!v.id().equals(id)) throw FdlException.corrupt(key, "key 'id' is " + v.id() + " but the folder is " + id);
            return v;
        });
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
     * A ref now reaches version {@code id}: gc's mark on it (SPEC.md section 5) goes at once, so that
     * deleting the ref again before gc runs starts a fresh grace period instead of inheriting the
     * old mark. Best effort: a mark left behind is removed by the next gc, which sees the ref.
     */
    void forgetUnreachableMark(String id) {
        try {
            store.delete(RepoLayout.unreachableJson(id));
        } catch (RuntimeException e) {
            // the next gc removes it
        }
    }

    /**
     * Whether the store lists version.json of {@code id}: the version is finished even if its
     * version.json cannot be read now (being deleted, or damaged). False on a store that cannot list.
     */
    public boolean listsVersionJson(String id) {
        if (!store.canList() || !VersionIds.isValid(id)) return false;
        String key = RepoLayout.versionJson(id);
        try (Stream<ObjectMeta> s = store.list(RepoLayout.versionFolder(id))) {
            return s.anyMatch(m -> m.key().equals(key));
        }
    }

    /** Whether the store lists anything under the version's folder (false on a store that cannot list). */
    boolean hasFolder(String id) {
        if (!store.canList()) return false;
        try (Stream<ObjectMeta> s = store.list(RepoLayout.versionFolder(id))) {
            return s.findAny().isPresent();
        }
    }

    /**
     * The full id of the finished version whose id starts with {@code prefix}, or null when none
     * does.
     *
     * @throws FdlException usage error (exit 2) naming the candidates when several do, as git's
     */
    String expand(String prefix) {
        Set<String> ids = startingWith(prefix);
        if (ids.size() > 1)
            throw new FdlException(FdlException.Kind.USAGE, "version prefix '" + prefix + "' is ambiguous: "
                    + String.join(", ", ids) + "; give more characters");
        return ids.isEmpty() ? null : ids.iterator().next();
    }

    /**
     * The ids of the finished versions starting with {@code prefix} (a version id or a prefix of one),
     * sorted; a store that cannot list (an HTTP mirror) answers only for a full id.
     */
    Set<String> startingWith(String prefix) {
        Set<String> ids = new TreeSet<>();
        if (VersionIds.isValid(prefix)) {
            if (read(prefix).isPresent()) ids.add(prefix);
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
     * A finished version, other than {@code versionId} (the one the ref points at; may be null),
     * whose id starts with {@code name} (a name of 4+ hex characters is a version-id prefix). A bare
     * name means the ref first, as in git, so that version is then named only by a longer prefix:
     * commands warn, as git's "refname is ambiguous". Empty when there is none (or only a full id
     * could be checked: an HTTP mirror).
     */
    public Optional<String> hiddenBy(RefName name, String versionId) {
        if (!VersionIds.isPrefix(name.name())) return Optional.empty();
        for (String id : startingWith(name.name())) if (!id.equals(versionId)) return Optional.of(id);
        return Optional.empty();
    }
}
