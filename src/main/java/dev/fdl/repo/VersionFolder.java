package dev.fdl.repo;

import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One folder under {@code versions/} as a listing shows it (SPEC.md section 1): which of
 * version.json, expired.json and the catalog objects it holds. Retention reads the whole
 * {@code versions/} prefix once, streamed, and works from these.
 *
 * @param id      the folder name (a version id)
 * @param objects every object in the folder (a handful per version)
 */
public record VersionFolder(String id, List<ObjectMeta> objects) {
    public VersionFolder {
        Objects.requireNonNull(id, "id");
        objects = List.copyOf(objects);
    }

    /** The folder's key prefix, {@code versions/<id>/}. */
    public String prefix() {
        return RepoLayout.versionFolder(id);
    }

    /** True when version.json is there: the version is finished (SPEC.md section 4, Reading). */
    public boolean finished() {
        return has(RepoLayout.VERSION_JSON);
    }

    /** True when expired.json is there: the version is out of retention. */
    public boolean expired() {
        return has(RepoLayout.EXPIRED_JSON);
    }

    /** True when gc's mark unreachable.json is there: gc found no ref reaching the version (SPEC.md section 5). */
    public boolean marked() {
        return has(RepoLayout.UNREACHABLE_JSON);
    }

    /**
     * The last-modified time (UTC) of gc's mark, from which the version's grace period runs
     * (SPEC.md section 5); null when there is no mark or the store gave no time.
     */
    public Instant markedAt() {
        return lastModified(RepoLayout.unreachableJson(id));
    }

    /** Finished and not expired: a version whose catalog gc must read (SPEC.md section 5). */
    public boolean live() {
        return finished() && !expired();
    }

    /**
     * The catalog objects expiry deletes: {@code ducklake.duckdb}, everything under {@code catalogs/}
     * and the version's Iceberg metadata under {@code iceberg/} (it names data files gc may delete once the version is expired).
     */
    public List<ObjectMeta> catalogObjects() {
        List<ObjectMeta> out = new ArrayList<>();
        for (ObjectMeta m : objects) {
            String rel = m.key().substring(prefix().length());
            if (rel.equals(RepoLayout.CATALOG) || rel.startsWith(RepoLayout.EXTRA_CATALOGS) || rel.startsWith(RepoLayout.ICEBERG)) out.add(m);
        }
        return out;
    }

    /**
     * The last-modified time (UTC) of the folder's newest object that a commit writes, so neither
     * expired.json nor gc's mark: a folder gc left without version.json half-way through deleting
     * an unreachable version is as old as its commit, and a re-run removes it. A folder holding
     * nothing a commit writes (only a mark or expired.json left) is {@link Instant#MIN}.
     */
    public Instant newest() {
        Instant t = Instant.MIN;
        for (ObjectMeta m : objects)
            if (m.lastModified() != null && m.lastModified().isAfter(t) && !RepoLayout.isMutableVersionObject(m.key()))
                t = m.lastModified();
        return t;
    }

    /**
     * The last-modified time (UTC) of version.json, when the commit finished its uploads (SPEC.md
     * section 4, step 8); null when the folder is unfinished or the store gave no time.
     */
    public Instant finishedAt() {
        return lastModified(RepoLayout.versionJson(id));
    }

    private Instant lastModified(String key) {
        for (ObjectMeta m : objects) if (m.key().equals(key)) return m.lastModified();
        return null;
    }

    /** The total size of the folder's objects, in bytes. */
    public long bytes() {
        long b = 0;
        for (ObjectMeta m : objects) b += m.size();
        return b;
    }

    private boolean has(String name) {
        String key = prefix() + name;
        for (ObjectMeta m : objects) if (m.key().equals(key)) return true;
        return false;
    }

    /** What one listing of {@code versions/} found: the folders by id, and keys that are not in a version folder. */
    public record Listing(SortedMap<String, VersionFolder> folders, List<String> strays) {
        /** The folder of {@code id}, or null. */
        public VersionFolder get(String id) {
            return folders.get(id);
        }
    }

    /**
     * Lists {@code versions/} once (streamed) and groups the objects by version folder, sorted by
     * id (UUIDv7 order is creation order). Keys not of the form {@code versions/<uuid>/…} are strays.
     */
    public static Listing list(ObjectStore store) {
        SortedMap<String, List<ObjectMeta>> byId = new TreeMap<>();
        List<String> strays = new ArrayList<>();
        try (Stream<ObjectMeta> s = store.list(RepoLayout.VERSIONS)) {
            s.forEach(m -> {
                String id = RepoLayout.versionIdOf(m.key());
                if (id == null) strays.add(m.key());
                else byId.computeIfAbsent(id, k -> new ArrayList<>()).add(m);
            });
        }
        SortedMap<String, VersionFolder> folders = new TreeMap<>();
        byId.forEach((id, objs) -> folders.put(id, new VersionFolder(id, objs)));
        return new Listing(folders, strays);
    }
}
