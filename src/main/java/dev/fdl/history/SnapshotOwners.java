package dev.fdl.history;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which version published a DuckLake snapshot, as seen from a version's history (docs/history.md).
 * A version's catalog keeps the snapshots {@code [first, last]} it added over its first parent
 * (SPEC.md section 3, version.json {@code ducklake.snapshots}), so along first parents the versions'
 * ranges partition the snapshot ids: a snapshot belongs to the nearest version on that line whose
 * {@code first} is at most the id. A merge names the second parent's data files by their paths at its own
 * snapshot (SPEC.md section 7): a data file of a merge that the second parent's catalog also shows is
 * followed into that side, by its begin snapshot there; what the merge wrote itself is the merge's.
 * Only version.json files and, for merges, the second parent's catalog metadata are read; no data file.
 * A snapshot of a version that is expired, or whose version.json is gone, is {@link Owner#EXPIRED}.
 */
public final class SnapshotOwners {
    /** The version that published a snapshot, or none ({@link #EXPIRED}): the history holding it is no longer retained. */
    public record Owner(VersionInfo version) {
        /** Rows older than the oldest retained version. */
        public static final Owner EXPIRED = new Owner(null);

        public boolean expired() {
            return version == null;
        }
    }

    private final Repository repo;
    private final CatalogSource catalogs;
    private final DuckDbPool pool;
    private final Map<String, Optional<VersionInfo>> live = new HashMap<>();
    /** Version id → its visible data files' locations relative to the data path → begin snapshot. */
    private final Map<String, Map<String, Long>> files = new HashMap<>();

    /** Looks versions up in {@code repo}, catalogs of merges' second parents through {@code catalogs}, on {@code pool}. */
    public SnapshotOwners(Repository repo, CatalogSource catalogs, DuckDbPool pool) {
        this.repo = repo;
        this.catalogs = catalogs;
        this.pool = pool;
    }

    /**
     * The version that began {@code snapshot} as {@code start}'s history sees it.
     *
     * @param file the data file's location relative to the data path (rows of a data file), or null (inlined rows)
     */
    public Owner of(VersionInfo start, long snapshot, String file) {
        VersionInfo v = start;
        long s = snapshot;
        while (true) {
            if (v == null || !isLive(v)) return Owner.EXPIRED;
            if (s >= v.ducklake().firstSnapshot()) {
                if (file != null && v.parents().size() > 1) {
                    Optional<VersionInfo> theirs = version(v.parents().get(1));
                    if (theirs.isEmpty()) return Owner.EXPIRED;
                    Long begin = filesOf(theirs.get()).get(file);
                    if (begin != null) {
                        v = theirs.get();
                        s = begin;
                        continue;
                    }
                }
                return new Owner(v);
            }
            if (v.parents().isEmpty()) return Owner.EXPIRED;
            v = version(v.parents().get(0)).orElse(null);
        }
    }

    /** A version by id when it exists and is not expired. */
    private Optional<VersionInfo> version(String id) {
        return live.computeIfAbsent(id, k -> repo.readExpired(k).isPresent() ? Optional.empty() : repo.readVersion(k));
    }

    private boolean isLive(VersionInfo v) {
        return version(v.id()).isPresent();
    }

    /** The data files {@code v}'s newest snapshot shows, by location relative to the data path, with their begin snapshots. */
    private Map<String, Long> filesOf(VersionInfo v) {
        return files.computeIfAbsent(v.id(), k -> {
            Path catalog = catalogs.versionCatalog(repo, v);
            Map<String, Long> out = new HashMap<>();
            try (Connection duck = pool.connection()) {
                Sql.attach(duck, catalog, "__fdl_owners", true);
                for (SnapshotView.TableEntry t : SnapshotView.loadRelative(duck, "__fdl_owners", catalog.toString(), null).tables())
                    for (SnapshotView.DataFileEntry f : t.dataFiles()) out.put(f.location(), f.beginSnapshot());
            } catch (SQLException e) {
                throw new FdlException(FdlException.Kind.FAILURE, "cannot read the catalog of version " + v.id() + ": " + e.getMessage(), e);
            }
            return out;
        });
    }
}
