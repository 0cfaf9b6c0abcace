package dev.fdl.site;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.ducklake.read.TableSummary;
import dev.fdl.history.SnapshotOwners;
import dev.fdl.repo.ParentStat;
import dev.fdl.repo.ReadCache;
import dev.fdl.repo.Repository;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The first rows and column statistics of live versions' tables ({@link TablePreview}), for the
 * version pages, when the site reads catalogs (not {@code --no-stat}). The data files' statistics
 * are kept in the local cache ({@link ReadCache#unitStats}) and in memory for this run. A
 * repository whose data folder is remote (S3, HTTPS) is read through the cache's data mirror
 * ({@link ReadableCatalog.DataFiles}), fetching only the files whose statistics are not kept (and
 * those a preview needs).
 */
final class Previews {
    private final Repository repo;
    private final ReadCache cache;
    private final DuckDbPool pool;
    private final ParentStat stats;
    /** Each read live version's tables, by version id; null: it could not be read. */
    private final Map<String, Map<String, TableSummary.Table>> summaries = new HashMap<>();
    private TableSummary.Store unitStats;
    /** Per read live version, per table, the version that last added or changed each first row (empty when unknown). */
    private final Map<String, Map<String, List<SnapshotOwners.Owner>>> owners = new HashMap<>();
    private final SnapshotOwners lookup;

    /**
     * @param cache where the catalogs, the data mirror and the kept statistics are
     * @param pool  the DuckDB instances the catalogs are read on
     * @param stats told each version's row counts, so that it opens no catalog for that version again
     */
    Previews(Repository repo, ReadCache cache, DuckDbPool pool, ParentStat stats) {
        this.repo = repo;
        this.cache = java.util.Objects.requireNonNull(cache, "cache");
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
        this.stats = stats;
        this.lookup = new SnapshotOwners(repo, cache, pool);
    }

    /**
     * Reads the previews of the version pages to render, oldest first, each catalog opened once:
     * the row counts {@code fdl log --stat} takes from it are read on the same open catalog and
     * handed to {@link ParentStat}, which then opens no catalog for that version, as a parent or
     * itself.
     */
    void read(List<VersionEntry> toRender) {
        List<VersionEntry> oldestFirst = new ArrayList<>(toRender);
        java.util.Collections.reverse(oldestFirst);
        for (VersionEntry e : oldestFirst) {
            if (e.expired() != null) continue;
            summaries.put(e.id(), summary(e));
        }
    }

    /**
     * The tables of {@code e} by {@code schema.table}: empty when it was not read, null when it
     * could not be (the page then leaves the preview out and is rendered again next time).
     */
    Map<String, TableSummary.Table> of(VersionEntry e) {
        if (!summaries.containsKey(e.id())) return Map.of();
        return summaries.get(e.id());
    }

    /** One live version's tables ({@link TablePreview#read}); null when they cannot be read. */
    private Map<String, TableSummary.Table> summary(VersionEntry e) {
        ReadableCatalog.DataFiles files = new ReadableCatalog.DataFiles(repo.store(), repo.dataDir(), cache.dataFolder(repo));
        try (ReadableCatalog catalog = ReadableCatalog.version(cache.versionCatalog(repo, e.version()))) {
            TableSummary.Summary s = TablePreview.read(pool, catalog.catalog(), files.readPath(), files.fetcher("version " + e.id()),
                    unitStats(), e.version().ducklake().firstSnapshot());
            stats.known(e.version(), s.rows());
            owners.put(e.id(), owners(e, s));
            return TablePreview.byName(s);
        } catch (FdlException | java.io.UncheckedIOException ex) {
            return null;
        }
    }

    /**
     * Per table of {@code e}, the version that last added or changed each of its first rows, by the
     * rows' begin snapshots ({@link SnapshotOwners}, as {@code fdl blame}); a table whose rows'
     * origins are not known, or whose versions cannot be read, gets none.
     */
    private Map<String, List<SnapshotOwners.Owner>> owners(VersionEntry e, TableSummary.Summary s) {
        Map<String, List<SnapshotOwners.Owner>> out = new HashMap<>();
        for (TableSummary.Table t : s.tables()) {
            if (t.origins().size() != t.rows().size() || t.origins().contains(null)) continue;
            try {
                List<SnapshotOwners.Owner> list = new ArrayList<>();
                for (TableSummary.RowOrigin o : t.origins()) list.add(lookup.of(e.version(), o.beginSnapshot(), o.dataFile()));
                out.put(t.name(), list);
            } catch (FdlException | java.io.UncheckedIOException ex) {
                // the preview stays without the versions
            }
        }
        return out;
    }

    /** Per table of a read version ({@code schema.table}), the version that last added or changed each first row; empty when unknown. */
    Map<String, List<SnapshotOwners.Owner>> owners(VersionEntry e) {
        return owners.getOrDefault(e.id(), Map.of());
    }

    /** The data files' statistics: in the local cache, and in memory for this run. */
    private TableSummary.Store unitStats() {
        if (unitStats == null) {
            TableSummary.Store disk = cache.unitStats(repo);
            Map<String, byte[]> memory = new java.util.concurrent.ConcurrentHashMap<>();
            unitStats = new TableSummary.Store() {
                @Override
                public byte[] get(String key) {
                    byte[] v = memory.get(key);
                    if (v == null && (v = disk.get(key)) != null) memory.put(key, v);
                    return v;
                }

                @Override
                public void put(String key, byte[] value) {
                    memory.put(key, value);
                    disk.put(key, value);
                }
            };
        }
        return unitStats;
    }
}
