package dev.fdl.iceberg;

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
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Updates every table's Iceberg history (docs/iceberg.md, "History") from the history written
 * before, after a command that only added versions or moved refs ({@code fdl commit}, {@code fdl
 * tag}, {@code fdl branch}): reads each history, adds the snapshots of the versions the refs now
 * reach that they did not reach before, and sets the refs, with Iceberg's
 * {@link TableMetadata#buildFrom} builder. The result is what {@link IcebergHistory#rewrite()}
 * writes for the same repository, by the same rules (sequence numbers in creation order, the
 * parent the nearest first-parent version with the table, equal schemas sharing an id, Iceberg's
 * {@code main} logging its branch's first parents), without reading every version.
 *
 * <p>It starts only from histories written for the refs just before the change (the
 * {@link IcebergHistory#REFS_KEY} property) and gives up, leaving the whole rewrite to the caller,
 * when anything is outside what it handles: a missing or unreadable history or one of another
 * repository id or location, a version no longer reached, a table new to the history, a version
 * older than a snapshot already there, a new current schema or partition spec, many new versions.
 */
final class HistoryUpdate {
    /** More new versions than this and the update gives up: the whole rewrite costs about the same. */
    private static final int MAX_NEW = 64;

    /** One table's history as read: its key's {@code schema/table}, the metadata and its snapshot per version id. */
    private record Table(String name, TableMetadata metadata, Map<String, Long> snapshotOf) {}

    /** What every table's update shares: the refs now, the new versions (oldest first), and those on main's new first parents. */
    private record Change(List<RefValue> refs, RefValue main, List<VersionInfo> added, Set<String> mainAdded, String stamp) {}

    private final Repository repo;
    private final IcebergHistory history;
    /** version.json read while walking first parents, by id. */
    private final Map<String, VersionInfo> read = new HashMap<>();

    HistoryUpdate(Repository repo) {
        this.repo = repo;
        this.history = new IcebergHistory(repo);
    }

    /**
     * Updates and writes every table's history.
     *
     * @return the histories written, or empty when nothing was written and the caller rewrites them whole
     */
    Optional<List<IcebergHistory.Written>> update() {
        if (!repo.store().canList()) return Optional.empty();
        Map<String, Table> tables = readHistories();
        if (tables == null || tables.isEmpty()) return Optional.empty();
        Change change = change(tables);
        if (change == null) return Optional.empty();
        Map<String, List<IcebergHistory.VersionTable>> added = new TreeMap<>();
        for (Table t : tables.values()) added.put(t.name(), new ArrayList<>());
        for (VersionInfo v : change.added()) {
            for (Map.Entry<String, IcebergHistory.VersionTable> e : history.tablesOf(v).entrySet()) {
                if (!added.containsKey(e.getKey())) return Optional.empty(); // a table new to the history
                added.get(e.getKey()).add(e.getValue());
            }
        }
        Map<String, TableMetadata> updated = new TreeMap<>();
        for (Table t : tables.values()) {
            TableMetadata m = update(t, added.get(t.name()), change);
            if (m == null) return Optional.empty();
            updated.put(t.name(), m);
        }
        List<IcebergHistory.Written> written = new ArrayList<>();
        updated.forEach((name, m) -> {
            String[] st = name.split("/", 2);
            String key = IcebergHistory.metadataKey(st[0], st[1]);
            repo.store().putDerived(key, TableMetadataParser.toJson(m).getBytes(StandardCharsets.UTF_8));
            written.add(new IcebergHistory.Written(st[0] + "." + st[1], key, m.snapshots().size(), m.refs().size()));
        });
        return Optional.of(written);
    }

    /** Every table's history under {@link RepoLayout#HISTORY}, by {@code schema/table}; null when one is unreadable or not this repository's. */
    private Map<String, Table> readHistories() {
        List<String> names;
        String suffix = "/metadata/" + IcebergHistory.METADATA_FILE;
        List<String> keys;
        try (Stream<ObjectMeta> s = repo.store().list(RepoLayout.HISTORY)) {
            keys = s.map(ObjectMeta::key).toList();
        }
        names = keys.stream().filter(k -> k.endsWith(suffix))
                .map(k -> k.substring(RepoLayout.HISTORY.length(), k.length() - suffix.length()))
                .filter(n -> n.split("/").length == 2).sorted().toList();
        // a table folder without its metadata file (deleted, or something in its way) is rebuilt, never left out
        for (String k : keys) {
            String[] parts = k.substring(RepoLayout.HISTORY.length()).split("/", 3);
            if (parts.length == 3 && !names.contains(parts[0] + "/" + parts[1])) return null;
        }
        String root = IcebergLocation.of(repo.store(), repo.config(), null);
        Map<String, Table> tables = new TreeMap<>();
        for (String name : names) {
            String[] st = name.split("/", 2);
            Optional<ObjectBytes> b = repo.store().get(IcebergHistory.metadataKey(st[0], st[1]));
            if (b.isEmpty()) return null;
            TableMetadata m;
            try {
                m = TableMetadataParser.fromJson(new String(b.get().bytes(), StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                return null;
            }
            if (!IcebergHistory.tableUuid(repo.config().id(), st[0], st[1]).equals(m.uuid())) return null;
            if (!m.location().equals(root + RepoLayout.icebergHistory(st[0], st[1]).replaceAll("/$", ""))) return null;
            Map<String, Long> snapshotOf = new HashMap<>();
            for (Snapshot s : m.snapshots()) {
                String v = s.summary() == null ? null : s.summary().get(IcebergHistory.VERSION_KEY);
                if (v == null) return null;
                snapshotOf.put(v, s.snapshotId());
            }
            tables.put(name, new Table(name, m, snapshotOf));
        }
        return tables;
    }

    /**
     * The change since the histories were written: the versions the refs reach now and did not
     * then; null when the histories were written for other refs (or not all for the same), a
     * version they reached is no longer reached (or not plainly), or main moved otherwise than forward.
     */
    private Change change(Map<String, Table> tables) {
        String stamp = null;
        for (Table t : tables.values()) {
            String s = t.metadata().property(IcebergHistory.REFS_KEY, null);
            if (s == null || (stamp != null && !stamp.equals(s))) return null;
            stamp = s;
        }
        Map<String, String> prior = parseStamp(stamp);
        List<RefValue> refs = repo.listRefs();
        String head = repo.headBranch().name();
        if (!head.equals(prior.get("head"))) return null;
        Set<String> known = new HashSet<>(prior.values());
        for (Table t : tables.values()) known.addAll(t.snapshotOf().keySet());
        Map<String, VersionInfo> added = added(refs, known);
        if (added == null || !stillReached(prior, refs, added)) return null;
        RefValue main = IcebergHistory.mainBranch(refs, head);
        String priorMain = prior.containsKey("branch main") ? "main" : prior.containsKey("branch " + head) ? head : null;
        if (main == null ? priorMain != null : !main.name().name().equals(priorMain)) return null;
        Set<String> mainAdded = new HashSet<>();
        if (main != null) {
            String stop = prior.get("branch " + priorMain);
            for (String id = main.versionId(); !id.equals(stop); ) {
                VersionInfo v = added.get(id);
                if (v == null || v.parents().isEmpty()) return null; // main moved, not forward
                mainAdded.add(id);
                id = v.parents().get(0);
            }
        }
        List<VersionInfo> order = new ArrayList<>(added.values());
        order.sort(Comparator.comparing(VersionInfo::createdAt).thenComparingLong(VersionInfo::seq).thenComparing(VersionInfo::id));
        return new Change(refs, main, order, mainAdded, IcebergHistory.refsStamp(refs, head));
    }

    /** {@link IcebergHistory#refsStamp} read back: {@code branch main} (kind and name) to version id, and {@code head} to the branch. */
    private static Map<String, String> parseStamp(String stamp) {
        Map<String, String> refs = new HashMap<>();
        for (String line : stamp.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) refs.put(line.substring(0, space), line.substring(space + 1));
        }
        return refs;
    }

    /** The versions the refs reach through parents that are not {@code known} (reached before), by id; null when too many or one is unreadable. */
    private Map<String, VersionInfo> added(List<RefValue> refs, Set<String> known) {
        Map<String, VersionInfo> added = new HashMap<>();
        Deque<String> todo = new ArrayDeque<>();
        for (RefValue r : refs) todo.add(r.versionId());
        while (!todo.isEmpty()) {
            String id = todo.poll();
            if (known.contains(id) || added.containsKey(id)) continue;
            if (added.size() >= MAX_NEW) return null;
            Optional<VersionInfo> v = repo.readVersion(id);
            if (v.isEmpty()) return null;
            added.put(id, v.get());
            todo.addAll(v.get().parents());
        }
        read.putAll(added);
        return added;
    }

    /** Whether every version a ref named before is still a ref's or a parent of a new version (so nothing left the history). */
    private static boolean stillReached(Map<String, String> prior, List<RefValue> refs, Map<String, VersionInfo> added) {
        Set<String> reached = new HashSet<>();
        for (RefValue r : refs) reached.add(r.versionId());
        for (VersionInfo v : added.values()) reached.addAll(v.parents());
        for (Map.Entry<String, String> e : prior.entrySet()) {
            if (!e.getKey().equals("head") && !reached.contains(e.getValue())) return false;
        }
        return true;
    }

    /** One table's history with the versions {@code added} (oldest first) and the refs now; null when this update cannot produce it. */
    private TableMetadata update(Table t, List<IcebergHistory.VersionTable> added, Change change) {
        TableMetadata h = t.metadata();
        long newest = h.snapshots().stream().mapToLong(Snapshot::timestampMillis).max().orElse(Long.MIN_VALUE);
        long sequence = h.snapshots().stream().mapToLong(Snapshot::sequenceNumber).max().orElse(0);
        Map<String, Long> snapshotOf = new HashMap<>(t.snapshotOf());
        Map<String, Integer> schemaOf = new HashMap<>();
        for (Snapshot s : h.snapshots()) schemaOf.put(s.summary().get(IcebergHistory.VERSION_KEY), s.schemaId());
        TreeMap<Integer, Schema> schemas = new TreeMap<>(h.schemasById());
        TableMetadata.Builder b = TableMetadata.buildFrom(h);
        for (IcebergHistory.VersionTable vt : added) {
            long created = vt.version().createdAt().toEpochMilli();
            if (created <= newest || snapshotOf.containsValue(vt.snapshot().snapshotId()) || !specsKnown(h, vt)) return null;
            int known = schemas.size();
            int schemaId = schemaId(schemas, vt.schema());
            if (schemas.size() > known) b.addSchema(vt.schema());
            Long parent = parentSnapshot(vt.version(), snapshotOf);
            b.addSnapshot(new HistorySnapshot(vt.snapshot(), ++sequence, parent, created, schemaId, vt.version().id()));
            snapshotOf.put(vt.version().id(), vt.snapshot().snapshotId());
            schemaOf.put(vt.version().id(), schemaId);
            if (change.mainAdded().contains(vt.version().id())) {
                // as IcebergHistory.build: each step of main from parsed metadata, so the snapshot log keeps every step
                TableMetadata step = b.setBranchSnapshot(vt.snapshot().snapshotId(), SnapshotRef.MAIN_BRANCH).build();
                b = TableMetadata.buildFrom(TableMetadataParser.fromJson(TableMetadataParser.toJson(step)));
            }
        }
        Integer current = change.main() == null ? null : schemaOf.get(change.main().versionId());
        if (current == null) current = added.isEmpty() ? newestSchema(h) : schemaOf.get(added.get(added.size() - 1).version().id());
        if (current == null || current != h.currentSchemaId()) return null; // a new current schema renumbers the schemas
        if (!added.isEmpty()) {
            String mapping = added.get(added.size() - 1).nameMapping();
            if (mapping != null) b.setProperties(Map.of(TableProperties.DEFAULT_NAME_MAPPING, mapping));
            else if (h.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) b.removeProperties(Set.of(TableProperties.DEFAULT_NAME_MAPPING));
        }
        b.setProperties(Map.of(IcebergHistory.REFS_KEY, change.stamp()));
        setRefs(b, h, change.refs(), snapshotOf);
        TableMetadata m = b.build();
        for (Map.Entry<Integer, Schema> e : schemas.entrySet()) {
            Schema s = m.schemasById().get(e.getKey());
            if (s == null || !s.sameSchema(e.getValue())) return null;
        }
        return m;
    }

    /** Whether every partition spec of the version's metadata is in the history under the same id. */
    private static boolean specsKnown(TableMetadata h, IcebergHistory.VersionTable vt) {
        for (PartitionSpec spec : vt.specs()) {
            PartitionSpec have = h.specsById().get(spec.specId());
            if (have == null || !have.compatibleWith(spec)) return false;
        }
        return true;
    }

    /** The id of {@code schema} among {@code schemas} (Iceberg's numbering: equal schemas share an id, a new one takes the next), added when new. */
    private static int schemaId(TreeMap<Integer, Schema> schemas, Schema schema) {
        for (Map.Entry<Integer, Schema> e : schemas.entrySet()) if (e.getValue().sameSchema(schema)) return e.getKey();
        int id = schemas.isEmpty() ? 0 : schemas.lastKey() + 1;
        schemas.put(id, schema);
        return id;
    }

    /** The schema id of the history's newest snapshot (highest sequence number); null when it has none. */
    private static Integer newestSchema(TableMetadata h) {
        return h.snapshots().stream().max(Comparator.comparingLong(Snapshot::sequenceNumber)).map(Snapshot::schemaId).orElse(null);
    }

    /** Each fdl branch and tag but main as an Iceberg ref when its version has the table; refs no longer so removed. */
    private static void setRefs(TableMetadata.Builder b, TableMetadata h, List<RefValue> refs, Map<String, Long> snapshotOf) {
        Map<String, SnapshotRef> wanted = new HashMap<>();
        for (RefValue r : refs) {
            Long id = snapshotOf.get(r.versionId());
            if (id == null || r.name().name().equals(SnapshotRef.MAIN_BRANCH)) continue;
            wanted.put(r.name().name(), r.kind() == RefValue.Kind.BRANCH ? SnapshotRef.branchBuilder(id).build() : SnapshotRef.tagBuilder(id).build());
        }
        for (Map.Entry<String, SnapshotRef> e : h.refs().entrySet()) {
            if (!e.getKey().equals(SnapshotRef.MAIN_BRANCH) && !e.getValue().equals(wanted.get(e.getKey()))) b.removeRef(e.getKey());
        }
        for (RefValue r : refs) {
            SnapshotRef ref = wanted.get(r.name().name());
            if (ref != null) b.setRef(r.name().name(), ref);
        }
    }

    /** The snapshot of the nearest first-parent ancestor of {@code v} with the table ({@link IcebergHistory#firstParentSnapshot}). */
    private Long parentSnapshot(VersionInfo v, Map<String, Long> snapshotOf) {
        return IcebergHistory.firstParentSnapshot(v, snapshotOf, p -> read.computeIfAbsent(p, id -> repo.readVersion(id).orElse(null)));
    }
}
