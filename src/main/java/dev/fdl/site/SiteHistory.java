package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ParallelCalls;
import dev.fdl.util.Json;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the site shows of a repository, read from it: the refs, every version reachable from one
 * (with its expiry), HEAD's branch and the versions' dataset.json; reads of many small objects go
 * 8 at a time ({@link dev.fdl.store.ParallelCalls}).
 */
final class SiteHistory {
    private final Repository repo;
    final List<RefValue> refs;
    final Map<String, List<RefValue>> refsByVersion = new HashMap<>();
    /** Every version reachable from a ref, newest first (seq, then id). */
    final List<VersionEntry> entries;
    final Map<String, VersionEntry> byId = new HashMap<>();
    /** HEAD's branch; null when HEAD cannot be read. */
    final RefName head;
    /** The newest version on HEAD's branch, else the newest of all; null in an empty repository. */
    final VersionEntry newest;

    /** Reads the refs, versions and HEAD of {@code repo}. */
    SiteHistory(Repository repo) {
        this.repo = repo;
        this.refs = repo.listRefs();
        for (RefValue r : refs) refsByVersion.computeIfAbsent(r.versionId(), k -> new ArrayList<>()).add(r);
        this.entries = entries();
        for (VersionEntry e : entries) byId.put(e.id(), e);
        this.head = headBranch();
        this.newest = newestOnHead();
    }

    /** The refs at version {@code id}; empty when none. */
    List<RefValue> refsAt(String id) {
        return refsByVersion.getOrDefault(id, List.of());
    }

    private RefName headBranch() {
        try {
            return repo.headBranch();
        } catch (FdlException e) {
            return null;
        }
    }

    /** Every version reachable from a ref, newest first (seq, then id), each read once, with its expiry (read 8 at a time). */
    private List<VersionEntry> entries() {
        // every parent, as gc keeps them; a version whose version.json cannot be read ends its line
        HistoryWalk walk = HistoryWalk.over(repo::readVersion, id -> false, HistoryWalk.Parents.ALL);
        for (RefValue r : refs) walk.start(r.versionId());
        List<VersionInfo> ordered = new ArrayList<>();
        while (walk.peek() != null) ordered.add(walk.take());
        VersionEntry[] out = new VersionEntry[ordered.size()];
        List<String> idx = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) idx.add(Integer.toString(i));
        ParallelCalls.forEach(idx, s -> {
            int i = Integer.parseInt(s);
            VersionInfo v = ordered.get(i);
            out[i] = new VersionEntry(v, repo.readExpired(v.id()).orElse(null));
        });
        return List.of(out);
    }

    private VersionEntry newestOnHead() {
        String id = null;
        for (RefValue r : refs) if (r.kind() == RefValue.Kind.BRANCH && r.name().equals(head)) id = r.versionId();
        for (VersionEntry e : entries) if (e.id().equals(id)) return e;
        return entries.isEmpty() ? null : entries.get(0);
    }

    /** The dataset.json of each of {@code of} that has a readable one, by version id (read 8 at a time). */
    Map<String, JsonNode> datasets(List<VersionEntry> of) {
        Map<String, JsonNode> out = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, VersionInfo> ids = new HashMap<>();
        for (VersionEntry e : of) if (e.version().dataset() != null) ids.put(e.id(), e.version());
        ParallelCalls.forEach(new ArrayList<>(ids.keySet()), id -> {
            JsonNode ds = dataset(ids.get(id));
            if (ds != null) out.put(id, ds);
        });
        return out;
    }

    private JsonNode dataset(VersionInfo v) {
        if (v.dataset() == null) return null;
        try {
            return repo.store().get(RepoLayout.versionFile(v.id(), v.dataset().path()))
                    .map(b -> {
                        try {
                            return Json.MAPPER.readTree(b.bytes());
                        } catch (java.io.IOException e) {
                            return null;
                        }
                    }).orElse(null);
        } catch (RuntimeException e) {
            return null; // the site describes what it can; fdl verify reports damaged files
        }
    }
}
