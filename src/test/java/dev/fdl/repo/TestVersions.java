package dev.fdl.repo;

import dev.fdl.util.VersionIds;

import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Builds repository states directly through the store, for tests that need versions without commits. */
public final class TestVersions {
    private TestVersions() {}

    /** Writes a finished version (version.json only, no real catalog) and returns its id. */
    public static String addVersion(ObjectStore store, List<String> parents, long seq, String message) {
        String id = VersionIds.next();
        VersionInfo v = new VersionInfo(FormatVersion.CURRENT, id, seq, parents, Instant.parse("2026-10-15T09:00:00Z"),
                new VersionInfo.Author("bob", "bob@example.org"), message,
                new VersionInfo.FileRef("ducklake.duckdb", "duckdb-v1.5.0", 3, "00"),
                new VersionInfo.FileRef("dataset.json", null, 2, "00"),
                new VersionInfo.DuckLakeInfo("1.0", seq, seq, seq), Map.of());
        store.put("versions/" + id + "/ducklake.duckdb", "abc".getBytes(StandardCharsets.UTF_8));
        store.put(RepoLayout.versionJson(id), v.toBytes());
        return id;
    }

    /**
     * Writes a finished version whose catalog and dataset.json are copies of {@code from}'s and
     * whose {@code parents} are given (a merge version when there are two: what a merge that took
     * {@code from}'s tables would publish); seq follows SPEC.md section 3. Returns its id.
     */
    public static String copyWithParents(ObjectStore store, VersionInfo from, List<String> parents, String message) {
        String id = VersionIds.next();
        Repository repo = Repository.open(store);
        long seq = 1;
        for (String p : parents) seq = Math.max(seq, repo.readVersion(p).orElseThrow().seq() + 1);
        for (String f : List.of(from.catalog().path(), from.dataset().path()))
            store.put(RepoLayout.versionFile(id, f), store.get(RepoLayout.versionFile(from.id(), f)).orElseThrow().bytes());
        VersionInfo v = new VersionInfo(from.fdl(), id, seq, parents, Instant.now(), from.author(), message,
                from.catalog(), from.dataset(), from.ducklake(), from.extra());
        store.put(RepoLayout.versionJson(id), v.toBytes());
        return id;
    }

    /** Points a branch at a version (plain write). */
    public static void setBranch(ObjectStore store, String branch, String id) {
        store.put("refs/heads/" + branch, Repository.refBytes(id));
    }

    /** Marks a version expired. */
    public static void expire(ObjectStore store, String id) {
        store.put(RepoLayout.expiredJson(id), new ExpiredInfo(Instant.parse("2026-12-01T00:00:00Z"), "retention", Map.of()).toBytes());
    }

    /** Every key with its content, to show that nothing changed. */
    public static Map<String, String> snapshot(ObjectStore store) {
        Map<String, String> m = new TreeMap<>();
        try (Stream<ObjectMeta> s = store.list("")) {
            s.forEach(o -> m.put(o.key(), new String(store.get(o.key()).orElseThrow().bytes(), StandardCharsets.ISO_8859_1)));
        }
        return m;
    }
}
