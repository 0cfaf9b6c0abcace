package dev.fdl.repo;

/**
 * What a reader's argument ({@code HEAD}, a branch, a tag, a version id or prefix) resolved to.
 *
 * @param spec    the argument as given
 * @param ref     the ref followed, or null when a version id was given
 * @param version the version's version.json
 * @param expired its expired.json, or null while in retention
 */
public record Resolved(String spec, RefValue ref, VersionInfo version, ExpiredInfo expired) {
    public boolean isExpired() {
        return expired != null;
    }
}
