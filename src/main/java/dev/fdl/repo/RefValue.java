package dev.fdl.repo;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A ref as read from the store: its kind and name, the version id it holds, and the ETag it was
 * read at (for a later {@code If-Match} move, SPEC.md section 4). A value: equal when all four are.
 *
 * <p>The ETag may be computed on first use (a local folder's is the MD5 of the bytes read,
 * {@code dev.fdl.store.ObjectBytes}): listing refs for decorations never needs it.
 */
public final class RefValue {
    /** Branches move; tags never do. */
    public enum Kind { BRANCH, TAG }

    private final Kind kind;
    private final RefName name;
    private final String versionId;
    private final Supplier<String> etag;

    /** A ref of {@code kind} and {@code name} holding {@code versionId}, read or written at {@code etag}. */
    public RefValue(Kind kind, RefName name, String versionId, String etag) {
        this(kind, name, versionId, () -> etag);
    }

    /** As above, the ETag given by {@code etag} when first asked. */
    RefValue(Kind kind, RefName name, String versionId, Supplier<String> etag) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.name = Objects.requireNonNull(name, "name");
        this.versionId = versionId;
        this.etag = etag;
    }

    public Kind kind() {
        return kind;
    }

    public RefName name() {
        return name;
    }

    /** The version id the ref holds. */
    public String versionId() {
        return versionId;
    }

    /** The ETag the ref was read or written at (unquoted). */
    public String etag() {
        return etag.get();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RefValue r && kind == r.kind && name.equals(r.name) && Objects.equals(versionId, r.versionId)
                && Objects.equals(etag(), r.etag());
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, name, versionId);
    }

    @Override
    public String toString() {
        return "RefValue[kind=" + kind + ", name=" + name + ", versionId=" + versionId + ", etag=" + etag() + "]";
    }

    /** The object key: {@code refs/heads/<name>} or {@code refs/tags/<name>}. */
    public String key() {
        return RepoLayout.refKey(kind, name);
    }

    /** How git shows it in decorations: {@code main} or {@code tag: v1}. */
    public String decoration() {
        return kind == Kind.BRANCH ? name.name() : "tag: " + name.name();
    }
}
