package dev.fdl.repo;

/**
 * A ref as read from the store: its kind and name, the version id it holds, and the ETag it was
 * read at (for a later {@code If-Match} move, SPEC.md section 4).
 */
public record RefValue(Kind kind, RefName name, String versionId, String etag) {
    /** Branches move; tags never do. */
    public enum Kind { BRANCH, TAG }

    /** The object key: {@code refs/heads/<name>} or {@code refs/tags/<name>}. */
    public String key() {
        return RepoLayout.refKey(kind, name);
    }

    /** How git shows it in decorations: {@code main} or {@code tag: v1}. */
    public String decoration() {
        return kind == Kind.BRANCH ? name.name() : "tag: " + name.name();
    }
}
