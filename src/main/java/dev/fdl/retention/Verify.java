package dev.fdl.retention;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.iceberg.IcebergCheck;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionFolder;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.Sha256;
import dev.fdl.util.VersionIds;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.StoreException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Checks a whole repository and lists every problem found (SPEC.md sections 1, 3–5):
 * <ul>
 *   <li>HEAD is well formed; every file under {@code refs/} is a valid ref pointing at a finished,
 *       unexpired version;</li>
 *   <li>every version.json parses, names its own folder, and its parents are finished versions;</li>
 *   <li>every live version's catalog and dataset.json exist with the size and SHA-256 version.json
 *       records (the catalog is always read from the store, never trusted from the cache);</li>
 *   <li>every file a live catalog names, in any snapshot, lies inside the data folder and exists with the size the
 *       catalog records ({@code file_size_bytes});</li>
 *   <li>no expired version still holds catalog objects (an unfinished expire), and no stray keys
 *       sit under {@code versions/}.</li>
 * </ul>
 * Unfinished version folders are normal (a commit that stopped before step 8, or an unreachable
 * version gc stopped deleting half-way) and only counted; so are unreachable versions (finished,
 * but no ref reaches them through {@code parents}: a commit that lost the race for its branch,
 * SPEC.md section 4), which gc marks and removes a grace period later, and gc's marks
 * ({@code unreachable.json}, SPEC.md section 5), which must parse.
 */
public final class Verify {
    private final Repository repo;
    private final CatalogCache cache;
    private final CatalogFiles reader;

    public Verify(Repository repo, CatalogCache cache, CatalogFiles reader) {
        this.repo = Objects.requireNonNull(repo);
        this.cache = Objects.requireNonNull(cache);
        this.reader = Objects.requireNonNull(reader);
    }

    /** One problem: the key it is about and what is wrong. */
    public record Problem(String key, String message) {
        public Problem {
            Objects.requireNonNull(key);
            Objects.requireNonNull(message);
        }

        @Override
        public String toString() {
            return key + ": " + message;
        }
    }

    /**
     * The outcome.
     *
     * @param versions   finished versions
     * @param live       finished, unexpired versions whose catalogs were checked
     * @param unfinished version folders without version.json
     * @param refs       refs checked
     * @param dataFiles  objects listed under data_dir
     * @param namesChecked file names read from live catalogs
     * @param unreachable finished versions (expired or not) that no ref reaches ({@link HistoryWalk})
     * @param marked     finished versions carrying gc's mark unreachable.json (SPEC.md section 5;
     *                   a marked version a ref reaches again is normal until the next gc)
     */
    public record Report(List<Problem> problems, int versions, int live, int unfinished, int refs,
                         long dataFiles, long namesChecked, int unreachable, int marked) {
        public Report {
            problems = List.copyOf(problems);
        }

        public boolean clean() {
            return problems.isEmpty();
        }
    }

    /** Runs every check without progress reporting. */
    public Report run() {
        return run(p -> {});
    }

    /**
     * Runs every check; a problem never stops the others. Store I/O failures propagate.
     *
     * @param progress receives a short description of each step, for a terminal
     */
    public Report run(Consumer<String> progress) {
        if (!repo.store().canList()) // it lists refs, versions and data files
            throw new dev.fdl.FdlException("fdl verify needs a root it can list: " + repo.root() + " is an HTTP(S) root, which can be "
                    + "read but not listed; run it on the repository's folder or s3:// root");
        List<Problem> problems = new ArrayList<>();
        try {
            repo.headBranch();
        } catch (FdlException e) {
            problems.add(new Problem(RepoLayout.HEAD, e.getMessage()));
        }

        // Order matters with a concurrent commit: refs, then versions, then data. A ref is written after
        // its version.json, and a version's files before it (SPEC.md section 4), so nothing seen
        // earlier can name something that appears only later.
        List<RefRead> refs = readRefs(problems);
        progress.accept("listing versions");
        VersionFolder.Listing listing = VersionFolder.list(repo.store());
        for (String k : listing.strays())
            problems.add(new Problem(k, "not inside a version folder (versions/<version id>/…)"));

        int refCount = refs.size();
        checkRefs(refs, listing, problems);

        progress.accept("listing data");
        DataListing data = listData();

        int versions = 0, live = 0, unfinished = 0, marked = 0;
        java.util.Map<String, VersionInfo> infos = new java.util.HashMap<>();
        long names = 0;
        for (VersionFolder f : listing.folders().values()) {
            if (!f.finished()) {
                unfinished++; // with expired.json or gc's mark too: gc stopped half-way through deleting an unreachable version
                continue;
            }
            versions++;
            VersionInfo v;
            try {
                v = repo.readVersion(f.id()).orElse(null);
            } catch (FdlException e) {
                problems.add(new Problem(RepoLayout.versionJson(f.id()), e.getMessage()));
                continue;
            }
            if (v == null) {
                problems.add(new Problem(RepoLayout.versionJson(f.id()), "listed but cannot be read"));
                continue;
            }
            infos.put(f.id(), v);
            checkParents(f.id(), v, listing, problems);
            if (f.marked()) {
                marked++;
                checkMark(f.id(), problems);
            }
            if (f.expired()) {
                try {
                    repo.readExpired(f.id());
                } catch (FdlException e) {
                    problems.add(new Problem(RepoLayout.expiredJson(f.id()), e.getMessage()));
                }
                for (ObjectMeta m : f.catalogObjects())
                    problems.add(new Problem(m.key(), "catalog object of an expired version (an interrupted expire; fdl expire or fdl gc finishes it)"));
                continue;
            }
            live++;
            progress.accept("checking version " + f.id());
            checkDataset(v, problems);
            for (IcebergCheck.Problem p : IcebergCheck.problems(repo.store(), f.id(), f.objects()))
                problems.add(new Problem(p.key(), p.message()));
            names += checkNamedFiles(v, data, problems);
        }
        List<String> roots = new ArrayList<>();
        for (RefRead r : refs) roots.add(r.versionId());
        // unreadable versions are problems listed above: here they only end a line of history
        java.util.Set<String> reached = HistoryWalk.reachable(roots, id -> Optional.ofNullable(infos.get(id)), id -> false);
        int unreachable = 0;
        for (String id : infos.keySet()) if (!reached.contains(id)) unreachable++;
        return new Report(problems, versions, live, unfinished, refCount, data.count(), names, unreachable, marked);
    }

    /** The data folder's files by name, and by name and size (a file rewritten in place at another size is caught), and their count. */
    private record DataListing(NameSet existing, NameSet sized, long count) {}

    private DataListing listData() {
        NameSet existing = new NameSet(1 << 16);
        NameSet sized = new NameSet(1 << 16);
        long dataFiles = 0;
        String dataDir = repo.dataDir();
        try (Stream<ObjectMeta> s = repo.store().list(dataDir)) {
            for (ObjectMeta m : (Iterable<ObjectMeta>) s::iterator) {
                existing.add(m.key().substring(dataDir.length()));
                sized.add(m.key().substring(dataDir.length()) + "\0" + m.size());
                dataFiles++;
            }
        }
        return new DataListing(existing, sized, dataFiles);
    }

    /** Each parent of {@code v} must be a finished version. */
    private static void checkParents(String id, VersionInfo v, VersionFolder.Listing listing, List<Problem> problems) {
        for (String p : v.parents()) {
            VersionFolder pf = VersionIds.isValid(p) ? listing.get(p) : null;
            if (pf == null || !pf.finished())
                problems.add(new Problem(RepoLayout.versionJson(id), "parent " + p + " is not a finished version"));
        }
    }

    /** An unreachable mark (gc's) must be readable. */
    private void checkMark(String id, List<Problem> problems) {
        try {
            repo.readUnreachableMark(id);
        } catch (FdlException e) {
            problems.add(new Problem(RepoLayout.unreachableJson(id), e.getMessage()));
        }
    }

    /**
     * Every file {@code v}'s catalog names must be in the data folder, at the size the catalog records.
     *
     * @return how many files the catalog names
     */
    private long checkNamedFiles(VersionInfo v, DataListing data, List<Problem> problems) {
        String dataLocation = repo.dataLocation(), dataDir = repo.dataDir();
        long[] count = {0};
        List<Problem> fileProblems = new ArrayList<>();
        try {
            boolean found = cache.forEachFile(repo, v, reader, true, nf -> {
                count[0]++;
                String name = nf.nameIn(dataLocation);
                String what = nf.deleteFile() ? "delete file " : "data file ";
                if (name == null)
                    fileProblems.add(new Problem(CatalogCache.catalogKey(v), "names " + what + nf.location()
                            + ", which is outside the repository's data folder " + dataLocation));
                else if (!data.existing().contains(name))
                    fileProblems.add(new Problem(CatalogCache.catalogKey(v), "names " + what + dataDir + name
                            + ", which does not exist"));
                else if (nf.bytes() > 0 && !data.sized().contains(name + "\0" + nf.bytes()))
                    fileProblems.add(new Problem(dataDir + name, "its size differs from the " + nf.bytes() + " bytes the catalog of version "
                            + v.id() + " records: the file was changed after it was written (fdl verify --signatures compares its digest)"));
            });
            if (!found) problems.add(new Problem(CatalogCache.catalogKey(v), "missing: the version is finished and not expired"));
        } catch (FdlException e) {
            problems.add(new Problem(CatalogCache.catalogKey(v), e.getMessage()));
        }
        problems.addAll(fileProblems);
        return count[0];
    }

    /** A ref file and the version id it holds. */
    private record RefRead(String key, String versionId) {}

    private List<RefRead> readRefs(List<Problem> problems) {
        List<RefRead> out = new ArrayList<>();
        for (String prefix : List.of(RepoLayout.BRANCHES, RepoLayout.TAGS)) {
            List<String> keys = new ArrayList<>();
            try (Stream<ObjectMeta> s = repo.store().list(prefix)) {
                s.forEach(m -> keys.add(m.key()));
            }
            for (String key : keys) {
                String why = RefName.problem(key.substring(prefix.length()));
                if (why != null) {
                    problems.add(new Problem(key, "invalid ref name: " + why));
                    continue;
                }
                Optional<ObjectBytes> b = repo.store().get(key);
                if (b.isEmpty()) continue; // deleted meanwhile
                try {
                    out.add(new RefRead(key, Repository.parseRef(key, b.get().bytes())));
                } catch (FdlException e) {
                    problems.add(new Problem(key, e.getMessage()));
                }
            }
        }
        return out;
    }

    private static void checkRefs(List<RefRead> refs, VersionFolder.Listing listing, List<Problem> problems) {
        for (RefRead r : refs) {
            VersionFolder f = listing.get(r.versionId());
            if (f == null || !f.finished())
                problems.add(new Problem(r.key(), "points at " + r.versionId() + ", which is not a finished version (no version.json)"));
            else if (f.expired())
                problems.add(new Problem(r.key(), "points at " + r.versionId() + ", which is expired"));
        }
    }

    private void checkDataset(VersionInfo v, List<Problem> problems) {
        String key = RepoLayout.versionFile(v.id(), v.dataset().path());
        try {
            Optional<ObjectBytes> b = repo.store().get(key);
            if (b.isEmpty()) {
                problems.add(new Problem(key, "missing: version.json records it"));
                return;
            }
            String sha = Sha256.of(b.get().bytes());
            if (b.get().bytes().length != v.dataset().bytes() || !sha.equalsIgnoreCase(v.dataset().sha256()))
                problems.add(new Problem(key, "has " + b.get().bytes().length + " bytes and sha256 " + sha + " but version.json records "
                        + v.dataset().bytes() + " bytes and sha256 " + v.dataset().sha256()));
        } catch (IllegalArgumentException | StoreException e) {
            problems.add(new Problem(key, "cannot be read: " + e.getMessage()));
        }
    }
}
