package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md, "History": the history updated after each commit and ref change from the one
 * before ({@link HistoryUpdate}) equals the history {@link IcebergHistory#rewrite()} builds whole
 * from the refs and every version, field by field, along commits, branches, tags, a schema change
 * on a branch, a merge and deletes of refs.
 */
class HistoryUpdateTest {
    @TempDir Path dir;
    private Path wc;
    private Path root;

    private void sync(String name, String body) throws IOException {
        sync(name, "t", body);
    }

    private void sync(String name, String table, String body) throws IOException {
        Path csv = Files.writeString(dir.resolve(name + ".csv"), body);
        Cli.ok(wc, "import", csv.toString(), "--table", table, "--mode", "sync", "--key", "k");
    }

    /** Every history file under iceberg/ (key to contents). */
    private Map<String, String> histories() throws IOException {
        Map<String, String> files = new TreeMap<>();
        Path top = root.resolve(RepoLayout.HISTORY);
        if (!Files.isDirectory(top)) return files;
        try (Stream<Path> s = Files.walk(top)) {
            for (Path p : s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(IcebergHistory.METADATA_FILE)).toList())
                files.put(root.relativize(p).toString(), Files.readString(p));
        }
        return files;
    }

    /** Puts back the history files {@code files} holds, and deletes the others. */
    private void restore(Map<String, String> files) throws IOException {
        for (String key : histories().keySet()) if (!files.containsKey(key)) Files.delete(root.resolve(key));
        for (Map.Entry<String, String> e : files.entrySet()) Files.writeString(root.resolve(e.getKey()), e.getValue());
    }

    /**
     * Runs {@code step} (fdl commands), then from the histories before it: the update (which must
     * run, unless {@code updates} is false) and the whole rewrite, which must be equal; leaves
     * the update's histories in place for the next step.
     */
    private void step(boolean updates, Step step) throws Exception {
        Map<String, String> before = histories();
        step.run();
        restore(before);
        try (ObjectStore store = Stores.open(root.toString())) {
            Repository repo = Repository.open(store);
            boolean updated = new HistoryUpdate(repo).update().isPresent();
            assertThat(updated).as("the history was updated, not rewritten").isEqualTo(updates);
            Map<String, String> incremental = histories();
            new IcebergHistory(repo).rewrite();
            Map<String, String> whole = histories();
            if (!updated) return;
            assertThat(incremental.keySet()).isEqualTo(whole.keySet());
            for (String key : whole.keySet()) assertSame(key, parse(incremental.get(key)), parse(whole.get(key)));
            restore(incremental);
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static TableMetadata parse(String json) {
        return TableMetadataParser.fromJson(json);
    }

    private static void assertSame(String key, TableMetadata got, TableMetadata want) {
        assertThat(got.uuid()).as(key + " uuid").isEqualTo(want.uuid());
        assertThat(got.location()).as(key + " location").isEqualTo(want.location());
        assertThat(got.lastSequenceNumber()).as(key + " last sequence number").isEqualTo(want.lastSequenceNumber());
        assertThat(got.lastColumnId()).as(key + " last column id").isEqualTo(want.lastColumnId());
        assertThat(got.currentSchemaId()).as(key + " current schema").isEqualTo(want.currentSchemaId());
        assertThat(got.schemasById().keySet()).as(key + " schema ids").isEqualTo(want.schemasById().keySet());
        for (Map.Entry<Integer, Schema> e : want.schemasById().entrySet())
            assertThat(got.schemasById().get(e.getKey()).sameSchema(e.getValue())).as(key + " schema " + e.getKey()).isTrue();
        assertThat(got.specsById().toString()).as(key + " specs").isEqualTo(want.specsById().toString());
        assertThat(got.properties()).as(key + " properties").isEqualTo(want.properties());
        assertThat(snapshots(got)).as(key + " snapshots").isEqualTo(snapshots(want));
        assertThat(got.refs()).as(key + " refs").isEqualTo(want.refs());
        assertThat(got.currentSnapshot() == null ? null : got.currentSnapshot().snapshotId()).as(key + " current snapshot")
                .isEqualTo(want.currentSnapshot() == null ? null : want.currentSnapshot().snapshotId());
        assertThat(log(got)).as(key + " snapshot log").isEqualTo(log(want));
        // all of it (objects in any key order) but the time of writing, which Iceberg's builder takes from the clock
        assertThat(withoutWriteTime(got)).as(key + " as JSON").isEqualTo(withoutWriteTime(want));
    }

    private static JsonNode withoutWriteTime(TableMetadata m) {
        try {
            ObjectNode o = (ObjectNode) Json.MAPPER.readTree(TableMetadataParser.toJson(m));
            o.remove("last-updated-ms");
            return o;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> snapshots(TableMetadata m) {
        List<String> out = new ArrayList<>();
        for (Snapshot s : m.snapshots().stream().sorted(Comparator.comparingLong(Snapshot::snapshotId)).toList())
            out.add(s.snapshotId() + " parent " + s.parentId() + " seq " + s.sequenceNumber() + " at " + s.timestampMillis() + " schema "
                    + s.schemaId() + " " + s.operation() + " " + s.manifestListLocation() + " " + new TreeMap<>(s.summary()));
        return out;
    }

    private static List<String> log(TableMetadata m) {
        return m.snapshotLog().stream().map(e -> e.timestampMillis() + " " + e.snapshotId()).toList();
    }

    @Test
    void updatedHistoryEqualsTheWholeRewriteAlongCommitsBranchesTagsAndAMerge() throws Exception {
        wc = Files.createDirectories(dir.resolve("wc"));
        root = dir.resolve("repo");
        Cli.ok(dir, "init", "--iceberg", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        step(false, () -> { // the first history: nothing to start from
            sync("a", "k,v\n1,one\n2,two\n");
            Cli.ok(wc, "commit", "-m", "one");
        });
        step(true, () -> Cli.ok(wc, "tag", "v1"));
        step(true, () -> {
            sync("b", "k,v\n1,one\n2,TWO\n3,three\n");
            Cli.ok(wc, "commit", "-m", "two");
        });
        step(true, () -> Cli.ok(wc, "checkout", "-b", "staging"));
        step(true, () -> {
            sync("c", "k,v\n1,one\n2,TWO\n3,three\n4,four\n");
            Cli.ok(wc, "commit", "-m", "three on staging");
        });
        step(true, () -> { // a schema main does not have: a second schema id
            sync("w", "k,v,w\n1,one,\n2,TWO,\n3,three,\n4,four,x\n");
            Cli.ok(wc, "commit", "--allow-schema-change", "-m", "a column on staging");
        });
        step(true, () -> Cli.ok(wc, "tag", "s1"));
        step(true, () -> {
            Cli.ok(wc, "checkout", "main");
            sync("d", "k,v\n1,ONE\n2,TWO\n3,three\n");
            Cli.ok(wc, "commit", "-m", "four on main");
        });
        step(true, () -> Cli.ok(wc, "branch", "side", "v1"));
        step(true, () -> {
            Cli.ok(wc, "checkout", "-b", "feature");
            sync("f1", "k,v\n1,ONE\n2,TWO\n3,three\n6,six\n");
            Cli.ok(wc, "commit", "-m", "six on feature");
        });
        step(true, () -> {
            Cli.ok(wc, "checkout", "main");
            sync("m1", "k,v\n1,ONE\n2,TWO\n3,THREE\n");
            Cli.ok(wc, "commit", "-m", "three changed on main");
        });
        step(true, () -> { // a version with two parents: its history parent is main's
            Cli.ok(wc, "merge", "feature");
            Cli.ok(wc, "commit", "-m", "merge feature");
        });
        step(false, () -> { // main takes the new column: a new current schema renumbers the schemas
            Cli.ok(wc, "merge", "staging");
            Cli.ok(wc, "commit", "--allow-schema-change", "-m", "merge staging");
        });
        step(true, () -> {
            sync("e", "k,v,w\n1,ONE,\n2,TWO,\n3,THREE,\n4,four,x\n5,five,y\n6,six,\n");
            Cli.ok(wc, "commit", "-m", "five on main");
        });
        step(true, () -> Cli.ok(wc, "tag", "-d", "s1"));
        step(true, () -> Cli.ok(wc, "branch", "-d", "side")); // its version stays tagged v1
        step(false, () -> Cli.ok(wc, "branch", "-d", "feature")); // its version is a parent of an older merge: not plainly reached
        step(false, () -> Cli.ok(wc, "branch", "-D", "staging")); // its versions are in main's history, but not plainly
        step(true, () -> {
            Cli.ok(wc, "checkout", "-b", "later");
            sync("f", "k,v,w\n1,ONE,x\n");
            Cli.ok(wc, "commit", "--allow-shrink", "-m", "six on later");
        });
        step(false, () -> { // a table new to the history
            sync("u1", "u", "k,i\n1,1\n");
            Cli.ok(wc, "commit", "-m", "a second table");
        });
        step(true, () -> {
            sync("u2", "u", "k,i\n1,1\n2,2\n");
            Cli.ok(wc, "commit", "-m", "seven on later");
        });
    }
}
