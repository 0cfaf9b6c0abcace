package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The Iceberg history of every table (docs/iceberg.md, "History"): one metadata file per table at
 * the stable key {@code iceberg/<schema>/<table>/metadata/v1.metadata.json}
 * ({@link RepoLayout#icebergHistory}) whose snapshots are the table in every retained version
 * that has Iceberg metadata (each snapshot reuses the version's own manifest list, so no manifest
 * is written again) and whose refs are fdl's branches and tags. Built with Iceberg's
 * {@link TableMetadata.Builder} and written with {@link TableMetadataParser}.
 *
 * <p>Derived data: rebuilt whole from the versions each time, rewritten in place (last writer
 * wins; two writers at once each write a history that was true when they read the refs), and a
 * table no retained version has loses its history. Losing it loses nothing.
 */
public final class IcebergHistory {
    /** The history metadata file's name under {@code metadata/}; {@code version-hint.text} holds "1" beside it. */
    public static final String METADATA_FILE = IcebergTableWriter.METADATA_FILE;
    /** Snapshot summary key and table property naming the fdl version a snapshot is. */
    static final String VERSION_KEY = "fdl.version";
    /**
     * Table property holding the refs the history was written for ({@link #refsStamp}): an update
     * after a ref change starts from a history only when it was written for the refs before it.
     */
    static final String REFS_KEY = "fdl.refs";

    /** One table's history written: {@code schema.table}, its key, and how many snapshots and refs it has. */
    public record Written(String table, String metadataKey, int snapshots, int refs) {}

    /** A table of a version: its snapshot, schema and partition specs as the version's own metadata has them. */
    record VersionTable(VersionInfo version, Snapshot snapshot, Schema schema, String nameMapping, List<PartitionSpec> specs) {}

    private final Repository repo;
    /** Every version the refs reach (expired ones too, while their version.json is there), by id; set by {@link #rewrite()}. */
    private Map<String, VersionInfo> reached = Map.of();

    public IcebergHistory(Repository repo) {
        this.repo = repo;
    }

    /** The key of a table's history metadata file, relative to the root. */
    public static String metadataKey(String schema, String table) {
        return RepoLayout.icebergHistory(schema, table) + "metadata/" + METADATA_FILE;
    }

    /**
     * The history's table UUID for {@code schema.table}: a name-based UUID (RFC 4122 version 3)
     * of {@code fdl-iceberg-history:<repository id>:<schema>:<table>}, so every rewrite keeps it
     * and engines that cache tables by UUID see one table.
     */
    public static String tableUuid(String repositoryId, String schema, String table) {
        String name = "fdl-iceberg-history:" + repositoryId + ":" + schema + ":" + table;
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * Rewrites every table's history from the refs and the versions they reach, and deletes the
     * history of tables no retained version describes any more.
     *
     * @throws FdlException (exit 1) naming the file when a version's Iceberg metadata does not parse
     */
    public List<Written> rewrite() {
        Map<String, List<VersionTable>> byTable = versionTables(reachable());
        List<Written> written = new ArrayList<>();
        String root = IcebergLocation.of(repo.store(), repo.config(), null);
        List<RefValue> refs = repo.listRefs();
        for (Map.Entry<String, List<VersionTable>> e : byTable.entrySet()) {
            String[] st = e.getKey().split("/", 2);
            TableMetadata m = build(st[0], st[1], e.getValue(), refs, root);
            String key = metadataKey(st[0], st[1]);
            repo.store().putDerived(key, TableMetadataParser.toJson(m).getBytes(StandardCharsets.UTF_8));
            repo.store().putDerived(RepoLayout.icebergHistory(st[0], st[1]) + "metadata/" + IcebergTableWriter.VERSION_HINT,
                    "1".getBytes(StandardCharsets.UTF_8));
            written.add(new Written(st[0] + "." + st[1], key, m.snapshots().size(), m.refs().size()));
        }
        deleteStale(byTable.keySet());
        return written;
    }

    /**
     * {@link #rewrite()} after a command changed versions or refs, when the repository asks for
     * Iceberg metadata or already has a history; never fails the command.
     *
     * @return a warning line naming what failed and what to run, or null
     */
    public static String afterChange(Repository repo, String done) {
        return afterChange(repo, done, false);
    }

    /**
     * After a command that only added versions or changed refs (commit, tag, branch): updates each
     * table's history from the one written before ({@link HistoryUpdate}) when that is possible,
     * else rewrites it whole as {@link #afterChange(Repository, String)} does; never fails the command.
     *
     * @param added true when the command removed no version's Iceberg metadata (not expire, not gc)
     * @return a warning line naming what failed and what to run, or null
     */
    public static String afterChange(Repository repo, String done, boolean added) {
        try {
            if (!repo.config().iceberg() && !hasHistory(repo)) return null;
            if (added && new HistoryUpdate(repo).update().isPresent()) return null;
            new IcebergHistory(repo).rewrite();
            return null;
        } catch (RuntimeException e) {
            // a cause that names its own fdl iceberg (a damaged version's metadata) is not followed by a plain one, which would fail
            return "fdl: warning: " + done + ", but the Iceberg history could not be written (" + e.getMessage()
                    + (e.getMessage() != null && e.getMessage().contains("fdl iceberg") ? ")" : "); run fdl iceberg to write it again");
        }
    }

    private static boolean hasHistory(Repository repo) {
        if (!repo.store().canList()) return false;
        try (Stream<ObjectMeta> s = repo.store().list(RepoLayout.HISTORY)) {
            return s.findAny().isPresent();
        }
    }

    private List<VersionInfo> reachable() {
        reached = new HashMap<>();
        return reachedOldestFirst(repo, reached);
    }

    /**
     * Every finished version a ref of {@code repo} reaches through every parent ({@link HistoryWalk}'s
     * rule for a missing version.json), expired ones too while their version.json is there, oldest
     * first (created time, then seq, then id): the versions a history describes.
     *
     * @param read filled with each version read, by id
     * @throws FdlException exit 1 when a listed version.json cannot be read
     */
    public static List<VersionInfo> reachedOldestFirst(Repository repo, Map<String, VersionInfo> read) {
        List<String> roots = new ArrayList<>();
        for (RefValue r : repo.listRefs()) roots.add(r.versionId());
        HistoryWalk.reachable(roots, id -> repo.readVersion(id).map(v -> { read.put(id, v); return v; }), id -> false);
        List<VersionInfo> all = new ArrayList<>(read.values());
        all.sort(Comparator.comparing(VersionInfo::createdAt).thenComparingLong(VersionInfo::seq).thenComparing(VersionInfo::id));
        return all;
    }

    /** Each table ({@code schema/table}) with the versions whose Iceberg metadata describes it, oldest first. */
    private Map<String, List<VersionTable>> versionTables(List<VersionInfo> versions) {
        Map<String, List<VersionTable>> byTable = new TreeMap<>();
        for (VersionInfo v : versions) {
            tablesOf(v).forEach((table, vt) -> byTable.computeIfAbsent(table, t -> new ArrayList<>()).add(vt));
        }
        return byTable;
    }

    /** The tables ({@code schema/table}, sorted) the version's own Iceberg metadata describes, read from it. */
    Map<String, VersionTable> tablesOf(VersionInfo v) {
        String suffix = "/metadata/" + IcebergTableWriter.METADATA_FILE;
        String prefix = RepoLayout.versionFolder(v.id()) + RepoLayout.ICEBERG;
        List<String> keys;
        try (Stream<ObjectMeta> s = repo.store().list(prefix)) {
            keys = s.map(ObjectMeta::key).filter(k -> k.endsWith(suffix)).sorted().toList();
        }
        Map<String, VersionTable> tables = new TreeMap<>();
        for (String k : keys) {
            String table = k.substring(prefix.length(), k.length() - suffix.length());
            if (table.split("/").length == 2) tables.put(table, versionTable(v, k));
        }
        return tables;
    }

    VersionTable versionTable(VersionInfo v, String key) {
        ObjectBytes b = repo.store().get(key).orElseThrow(() -> new FdlException(key + " disappeared while the Iceberg history was written"));
        TableMetadata m;
        try {
            m = TableMetadataParser.fromJson(new String(b.bytes(), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new FdlException(key + " is not Iceberg table metadata (" + e.getMessage() + "); delete it, then write it again with fdl iceberg " + v.id());
        }
        if (m.currentSnapshot() == null) throw new FdlException(key + " has no snapshot; delete it, then write it again with fdl iceberg " + v.id());
        return new VersionTable(v, m.currentSnapshot(), m.schema(), m.property(TableProperties.DEFAULT_NAME_MAPPING, null), m.specs());
    }

    /**
     * One table's history: a snapshot per version (oldest first, sequence numbers in that order,
     * the parent the first parent version's snapshot), Iceberg's {@code main} following the first
     * parents of the branch it stands for (so its snapshot log is that branch's history), and a
     * ref per fdl branch and tag whose version has the table.
     */
    private TableMetadata build(String schema, String table, List<VersionTable> versions, List<RefValue> refs, String root) {
        Map<String, Long> snapshotOf = new LinkedHashMap<>();
        List<Schema> schemas = new ArrayList<>();
        VersionTable newest = versions.get(versions.size() - 1);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(TableProperties.FORMAT_VERSION, "2");
        if (newest.nameMapping() != null) properties.put(TableProperties.DEFAULT_NAME_MAPPING, newest.nameMapping());
        properties.put(REFS_KEY, refsStamp(refs, repo.headBranch().name()));
        Schema current = currentSchema(refs, versions);
        schemas.add(current); // id 0: Iceberg checks the partition spec and sort order against it
        TableMetadata.Builder b = TableMetadata.buildFromEmpty(2).assignUUID(tableUuid(repo.config().id(), schema, table))
                .setLocation(root + RepoLayout.icebergHistory(schema, table).replaceAll("/$", ""))
                .setCurrentSchema(current, Math.max(current.highestFieldId(), 0))
                .setDefaultPartitionSpec(PartitionSpec.unpartitioned()).setDefaultSortOrder(SortOrder.unsorted()).setProperties(properties);
        Map<Integer, PartitionSpec> specs = specs(schema + "." + table, versions);
        for (PartitionSpec spec : specs.values()) if (spec.isPartitioned()) b.addPartitionSpec(spec);
        Set<String> mainChain = mainChain(refs);
        Set<Long> ids = new HashSet<>();
        long sequence = 0;
        for (VersionTable vt : versions) {
            if (!ids.add(vt.snapshot().snapshotId())) continue; // one Iceberg snapshot, described once
            int known = schemas.size();
            int schemaId = schemaId(schemas, vt.schema());
            if (schemas.size() > known) b.addSchema(vt.schema());
            Long parentId = firstParentSnapshot(vt.version(), snapshotOf);
            b.addSnapshot(new HistorySnapshot(vt.snapshot(), ++sequence, parentId, vt.version().createdAt().toEpochMilli(), schemaId,
                    vt.version().id()));
            snapshotOf.put(vt.version().id(), vt.snapshot().snapshotId());
            if (mainChain.contains(vt.version().id())) {
                // Iceberg's builder logs only the last main of the changes it carries (intermediate
                // ones are dropped as in one commit): each step of main starts from parsed metadata
                TableMetadata step = b.setBranchSnapshot(vt.snapshot().snapshotId(), SnapshotRef.MAIN_BRANCH).build();
                b = TableMetadata.buildFrom(TableMetadataParser.fromJson(TableMetadataParser.toJson(step)));
            }
        }
        for (RefValue r : refs) {
            Long id = snapshotOf.get(r.versionId());
            if (id == null || r.name().name().equals(SnapshotRef.MAIN_BRANCH)) continue;
            b.setRef(r.name().name(), r.kind() == RefValue.Kind.BRANCH ? SnapshotRef.branchBuilder(id).build() : SnapshotRef.tagBuilder(id).build());
        }
        TableMetadata m = b.build();
        for (int i = 0; i < schemas.size(); i++) {
            if (!m.schemasById().get(i).sameSchema(schemas.get(i))) throw new IllegalStateException("Iceberg numbered the schemas otherwise");
        }
        specs.forEach((id, spec) -> {
            if (m.specsById().get(id) == null || !m.specsById().get(id).compatibleWith(spec)) throw new IllegalStateException("Iceberg numbered the partition specs otherwise");
        });
        return m;
    }

    /**
     * The partition specs the versions' manifests name, by id (the versions' metadata number them
     * alike: 0 unpartitioned, 1 DuckLake's key, {@link IcebergTableWriter}).
     *
     * @throws FdlException when two versions partition the table differently under one id, which one history cannot hold
     */
    private static Map<Integer, PartitionSpec> specs(String table, List<VersionTable> versions) {
        Map<Integer, PartitionSpec> specs = new TreeMap<>();
        for (VersionTable vt : versions) {
            for (PartitionSpec spec : vt.specs()) {
                PartitionSpec before = specs.putIfAbsent(spec.specId(), spec);
                if (before != null && !before.compatibleWith(spec)) {
                    throw new FdlException("table " + table + " is partitioned differently in versions of its history (" + before + " and "
                            + spec + "); its Iceberg history holds one partitioning: read those versions through their own metadata");
                }
            }
        }
        return specs;
    }

    /**
     * The refs a history is written for, as the {@link #REFS_KEY} property: one line per ref
     * ({@code branch <name> <version id>}, {@code tag …}) sorted, then {@code head <branch>}.
     */
    static String refsStamp(List<RefValue> refs, String headName) {
        List<String> lines = new ArrayList<>();
        for (RefValue r : refs) lines.add(refLine(r.kind(), r.name().name()) + " " + r.versionId());
        lines.sort(Comparator.naturalOrder());
        lines.add("head " + headName);
        return String.join("\n", lines);
    }

    /** A ref's kind and name as {@link #refsStamp} writes them: {@code branch main}. */
    static String refLine(RefValue.Kind kind, String name) {
        return (kind == RefValue.Kind.BRANCH ? "branch " : "tag ") + name;
    }

    /** The id {@code schema} has among {@code schemas} (Iceberg's numbering: equal schemas share one id, new ones are appended). */
    private static int schemaId(List<Schema> schemas, Schema schema) {
        for (int i = 0; i < schemas.size(); i++) if (schemas.get(i).sameSchema(schema)) return i;
        schemas.add(schema);
        return schemas.size() - 1;
    }

    /** The branch Iceberg's {@code main} stands for: fdl's branch {@code main}, else the one HEAD names. */
    private RefValue mainBranch(List<RefValue> refs) {
        return mainBranch(refs, repo.headBranch().name());
    }

    /** {@link #mainBranch(List)} for the branch named {@code headName} as HEAD; null when neither exists. */
    static RefValue mainBranch(List<RefValue> refs, String headName) {
        RefValue head = null;
        for (RefValue r : refs) {
            if (r.kind() != RefValue.Kind.BRANCH) continue;
            if (r.name().name().equals(SnapshotRef.MAIN_BRANCH)) return r;
            if (r.name().name().equals(headName)) head = r;
        }
        return head;
    }

    /** The versions along the first parents of the main branch's tip (through expired ones while their version.json is there). */
    private Set<String> mainChain(List<RefValue> refs) {
        RefValue main = mainBranch(refs);
        Set<String> chain = new HashSet<>();
        String id = main == null ? null : main.versionId();
        while (id != null && reached.containsKey(id) && chain.add(id)) {
            List<String> parents = reached.get(id).parents();
            id = parents.isEmpty() ? null : parents.get(0);
        }
        return chain;
    }

    /** The snapshot of the nearest first-parent ancestor of {@code v} that has the table; null when none does. */
    private Long firstParentSnapshot(VersionInfo v, Map<String, Long> snapshotOf) {
        return firstParentSnapshot(v, snapshotOf, reached::get);
    }

    /**
     * The snapshot ({@code snapshotOf}: version id to snapshot id) of the nearest first-parent
     * ancestor of {@code v} that has one, walking through {@code versions} (null for a version not
     * there, which ends the walk); null when none has one.
     */
    static Long firstParentSnapshot(VersionInfo v, Map<String, Long> snapshotOf, Function<String, VersionInfo> versions) {
        Set<String> seen = new HashSet<>();
        VersionInfo at = v;
        while (!at.parents().isEmpty() && seen.add(at.id())) {
            String parent = at.parents().get(0);
            Long id = snapshotOf.get(parent);
            if (id != null) return id;
            at = versions.apply(parent);
            if (at == null) return null;
        }
        return null;
    }

    /** The schema of the main branch's tip when it has the table, else of the newest version that has it. */
    private Schema currentSchema(List<RefValue> refs, List<VersionTable> versions) {
        RefValue main = mainBranch(refs);
        for (VersionTable vt : versions) if (main != null && vt.version().id().equals(main.versionId())) return vt.schema();
        return versions.get(versions.size() - 1).schema();
    }

    /** Deletes the history files of tables not in {@code keep} ({@code schema/table}): only the two files fdl writes there. */
    private void deleteStale(Set<String> keep) {
        if (!repo.store().canList()) return;
        List<String> stale = new ArrayList<>();
        try (Stream<ObjectMeta> s = repo.store().list(RepoLayout.HISTORY)) {
            s.map(ObjectMeta::key).forEach(k -> {
                String rest = k.substring(RepoLayout.HISTORY.length());
                String[] parts = rest.split("/");
                if (parts.length == 4 && parts[2].equals("metadata") && !keep.contains(parts[0] + "/" + parts[1])
                        && (parts[3].equals(METADATA_FILE) || parts[3].equals(IcebergTableWriter.VERSION_HINT))) stale.add(k);
            });
        }
        repo.store().deleteAll(stale);
    }
}
