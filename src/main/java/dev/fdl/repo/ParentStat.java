package dev.fdl.repo;
import dev.fdl.ducklake.read.CatalogStat;


import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a version changed over its first parent, per table, from the two catalogs alone (no data
 * file is opened): {@code fdl log --stat} and the site's version pages. Added = rows of data files
 * and inlined rows the version's snapshots began, still visible; removed = the parent's rows +
 * added − rows now (so a changed row counts as both); unknown (null) when the parent's catalog is
 * gone (expired). One instance reads each catalog at most once.
 */
public final class ParentStat {
    /**
     * One table's change: rows after, rows added, rows removed (null: the parent's catalog is gone),
     * and whether the version dropped the table (the parent has it, the version does not).
     */
    public record TableStat(String table, long rows, long added, Long removed, boolean dropped) {
        /**
         * Each of {@code tables} as a JSON object of {@code into} (log --json, show --json, the
         * site's manifest): table, rows, added, removed (null: unknown), and dropped when true.
         */
        public static void toJson(com.fasterxml.jackson.databind.node.ArrayNode into, List<TableStat> tables) {
            for (TableStat t : tables) {
                com.fasterxml.jackson.databind.node.ObjectNode n = into.addObject();
                n.put("table", t.table());
                n.put("rows", t.rows());
                n.put("added", t.added());
                if (t.removed() == null) n.putNull("removed");
                else n.put("removed", t.removed());
                if (t.dropped()) n.put("dropped", true);
            }
        }
    }

    private final Repository repo;
    private final CatalogSource catalogs;
    /** Version id → its tables' rows, and rows added by its own snapshots. */
    private final Map<String, List<CatalogStat.TableRows>> rows = new HashMap<>();
    /** Versions the caller already read (log, site), with whether each is expired: their parents' lookups cost no read. */
    private final Map<String, Boolean> knownExpired = new HashMap<>();
    private final Map<String, VersionInfo> known = new HashMap<>();

    /** @param catalogs where the versions' catalogs come from (the local cache) */
    public ParentStat(Repository repo, CatalogSource catalogs) {
        this.repo = repo;
        this.catalogs = catalogs;
    }

    /**
     * Notes a version the caller has read with its expiry ({@code expired}: null when live), so
     * that {@link #of} does not read its version.json and expiry marker again as a parent.
     */
    public void known(VersionInfo v, ExpiredInfo expired) {
        known.put(v.id(), v);
        knownExpired.put(v.id(), expired != null);
    }

    /**
     * Notes {@code v}'s row counts read by the caller from its catalog ({@link CatalogStat#of(java.nio.file.Path, long)} from
     * {@code v}'s first snapshot), so that {@link #of} does not open that catalog again.
     */
    public void known(VersionInfo v, List<CatalogStat.TableRows> tableRows) {
        rows.putIfAbsent(v.id(), List.copyOf(tableRows));
    }

    /**
     * The tables {@code v} changed (tables whose rows it neither added nor removed are left out;
     * a dropped table is listed with 0 rows, marked dropped).
     *
     * @throws dev.fdl.FdlException exit 4 when {@code v} is expired; exit 1 when its catalog cannot be read
     */
    public List<TableStat> of(VersionInfo v) {
        Map<String, Long> before = new LinkedHashMap<>();
        boolean known = true;
        if (!v.parents().isEmpty()) {
            String parentId = v.parents().get(0);
            Optional<VersionInfo> parent = this.known.containsKey(parentId) ? Optional.of(this.known.get(parentId)) : repo.readVersion(parentId);
            boolean expired = parent.isPresent() && (knownExpired.containsKey(parentId) ? knownExpired.get(parentId)
                    : repo.readExpired(parentId).isPresent());
            if (parent.isEmpty() || expired) known = false;
            else for (CatalogStat.TableRows t : rows(parent.get())) before.put(t.table(), t.rows());
        }
        List<TableStat> result = new ArrayList<>();
        for (CatalogStat.TableRows t : rows(v)) {
            Long removed = known ? before.getOrDefault(t.table(), 0L) + t.added() - t.rows() : null;
            before.remove(t.table());
            if (t.added() != 0 || removed == null || removed != 0) result.add(new TableStat(t.table(), t.rows(), t.added(), removed, false));
        }
        for (Map.Entry<String, Long> gone : before.entrySet()) result.add(new TableStat(gone.getKey(), 0, 0, gone.getValue(), true));
        return result;
    }

    /** A version's rows per table (the same whatever snapshot "added" counts from) and the rows its own snapshots added. */
    private List<CatalogStat.TableRows> rows(VersionInfo v) {
        return rows.computeIfAbsent(v.id(), k -> CatalogStat.of(catalogs.versionCatalog(repo, v), v.ducklake().firstSnapshot()));
    }
}
