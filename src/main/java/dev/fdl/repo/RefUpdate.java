package dev.fdl.repo;

import dev.fdl.util.ShellQuote;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.WriteResult;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * One change of one ref, in the manner of JGit's {@code RefUpdate}: it carries the value the
 * caller expects the ref to hold (absent, or the ETag it was read at) and returns a
 * {@link Result} instead of throwing for the outcomes that are part of normal life (the branch
 * moved, the tag exists, the ref is gone). Every change of a ref goes through here (SPEC.md
 * section 4: create with {@code If-None-Match: *}, move with {@code If-Match}, delete explicit and
 * conditional). I/O failures stay {@link dev.fdl.store.StoreException}s; corrupt refs throw.
 *
 * <p>A delete is as conditional as the store can make it ({@link ObjectStore#deleteIfMatch}):
 * atomic on a local folder and on S3 stores that honour {@code If-Match} on DeleteObject; a
 * read-then-delete elsewhere (docs/stores.md).
 */
public final class RefUpdate {
    /** What an update did. */
    public enum Result {
        /** The ref did not exist and now does. */
        CREATED,
        /** The ref held the expected value and now holds the new one. */
        MOVED,
        /** The ref held the expected value and is gone. */
        DELETED,
        /**
         * The ref holds something else than expected (it exists, moved since it was read, or a ref
         * of its kind is in the way as a folder of it or vice versa); nothing changed.
         */
        CONFLICT,
        /** The ref to move or delete does not exist; nothing changed. */
        NOT_FOUND,
        /** The change breaks a rule (a tag moved, HEAD's branch deleted); nothing changed. */
        REJECTED;

        /** True for the results that changed the ref. */
        public boolean changed() {
            return this == CREATED || this == MOVED || this == DELETED;
        }
    }

    /**
     * The outcome of an update.
     *
     * @param result  what happened
     * @param ref     the ref as written (created, moved), as it was before a delete, else null
     * @param current what the ref holds after a refused update (re-read), or null when it is absent or unknown
     * @param message why nothing changed, for the user (null when the ref changed)
     */
    public record Outcome(Result result, RefValue ref, RefValue current, String message) {}

    private final RefDatabase refs;
    private final RefValue.Kind kind;
    private final RefName name;

    RefUpdate(RefDatabase refs, RefValue.Kind kind, RefName name) {
        this.refs = refs;
        this.kind = kind;
        this.name = name;
    }

    /** The ref's key, {@code refs/heads/<name>} or {@code refs/tags/<name>}. */
    public String key() {
        return RepoLayout.refKey(kind, name);
    }

    private String what() {
        return (kind == RefValue.Kind.BRANCH ? "branch '" : "tag '") + name + "'";
    }

    private ObjectStore store() {
        return refs.store();
    }

    /**
     * Creates the ref at {@code versionId}, expecting it absent ({@code If-None-Match: *}). The
     * caller has checked that the version is finished and unexpired.
     *
     * @return CREATED; CONFLICT when the ref exists, or when the name is also a folder of refs of
     *         its kind or a folder of it is a ref (git's rule: one would have to be a file and a folder at once)
     */
    public Outcome create(String versionId) {
        String blocked = folderConflict();
        if (blocked != null) return refused(Result.CONFLICT, null, blocked);
        WriteResult w = store().putIfAbsent(key(), RefDatabase.bytes(versionId));
        if (w.isWritten()) return new Outcome(Result.CREATED, new RefValue(kind, name, versionId, w.etag()), null, null);
        Optional<RefValue> now = refs.read(kind, name);
        return refused(Result.CONFLICT, now.orElse(null), what() + " already exists (" + key()
                + now.map(r -> " at version " + r.versionId()).orElse("") + "); "
                + (kind == RefValue.Kind.TAG ? "tags are never moved: choose another name or delete it with fdl tag -d " + ShellQuote.word(name)
                : "delete it with fdl branch -d " + ShellQuote.word(name) + " or choose another name"));
    }

    /**
     * Moves a branch from the value read at {@code expectedEtag} to {@code versionId}
     * ({@code If-Match}). Tags never move.
     *
     * @return MOVED; CONFLICT when the branch holds something else now; NOT_FOUND when it is gone; REJECTED for a tag
     */
    public Outcome move(String expectedEtag, String versionId) {
        if (kind == RefValue.Kind.TAG)
            return refused(Result.REJECTED, null, what() + " cannot be moved: tags are never moved (SPEC.md section 1)");
        WriteResult w = store().putIfMatch(key(), RefDatabase.bytes(versionId), expectedEtag);
        if (w.isWritten()) return new Outcome(Result.MOVED, new RefValue(kind, name, versionId, w.etag()), null, null);
        return changedMeanwhile("moved");
    }

    /**
     * Deletes the ref if it still holds {@code expected} (its ETag): a commit that moves the branch
     * after {@code expected} was read is never dropped by the delete.
     *
     * @return DELETED; CONFLICT when the ref moved since it was read; NOT_FOUND when it is gone;
     *         REJECTED for the branch HEAD names
     */
    public Outcome delete(RefValue expected) {
        if (headNamesIt()) return headRefusal(expected);
        if (store().deleteIfMatch(key(), expected.etag())) return new Outcome(Result.DELETED, expected, null, null);
        return changedMeanwhile("deleted");
    }

    /**
     * Deletes the ref as it is now: reads it, then deletes it at the ETag read (a move landing in
     * between makes the delete a CONFLICT, never a lost commit).
     *
     * @return as {@link #delete(RefValue)}
     */
    public Outcome delete() {
        if (headNamesIt()) return headRefusal(null);
        Optional<RefValue> now = refs.read(kind, name);
        if (now.isEmpty()) return refused(Result.NOT_FOUND, null, what() + " not found (" + key() + ")");
        return delete(now.get());
    }

    private boolean headNamesIt() {
        return kind == RefValue.Kind.BRANCH && name.equals(refs.head());
    }

    private Outcome headRefusal(RefValue current) {
        return refused(Result.REJECTED, current, "cannot delete " + what() + ": HEAD names it (readers follow it by default)");
    }

    /** After a refused move or delete: re-read to tell a moved ref from a vanished one. */
    private Outcome changedMeanwhile(String verb) {
        Optional<RefValue> now = refs.read(kind, name);
        if (now.isEmpty()) return refused(Result.NOT_FOUND, null, what() + " not found (" + key() + "); nothing was " + verb);
        return refused(Result.CONFLICT, now.get(), what() + " changed since it was read: it now points at version "
                + now.get().versionId() + "; nothing was " + verb);
    }

    private static Outcome refused(Result result, RefValue current, String message) {
        return new Outcome(result, null, current, message);
    }

    /**
     * As in git, {@code a} and {@code a/b} cannot both be refs of a kind. Returns why the name is
     * blocked, or null.
     */
    private String folderConflict() {
        String prefix = RepoLayout.refPrefix(kind);
        String kindWord = kind == RefValue.Kind.BRANCH ? "branch" : "tag";
        String[] parts = name.name().split("/");
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < parts.length - 1; i++) {
            if (i > 0) p.append('/');
            p.append(parts[i]);
            if (store().head(prefix + p).isPresent())
                return "cannot create " + what() + ": " + kindWord + " '" + p
                        + "' exists, and a ref name cannot also be a folder of ref names; choose another name";
        }
        if (!store().canList()) return null;
        try (Stream<ObjectMeta> under = store().list(key() + "/")) {
            Optional<ObjectMeta> any = under.findFirst();
            if (any.isPresent())
                return "cannot create " + what() + ": " + kindWord + " '" + any.get().key().substring(prefix.length())
                        + "' exists under that name; choose another name";
        }
        return null;
    }
}
