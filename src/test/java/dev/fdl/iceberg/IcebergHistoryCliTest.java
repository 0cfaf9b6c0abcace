package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/iceberg.md, "History": one Iceberg table per DuckLake table whose snapshots are the retained versions and whose refs are fdl's branches and tags. */
class IcebergHistoryCliTest {
    @TempDir Path dir;

    private static void sync(Path dir, Path wc, String name, String body) throws Exception {
        Path csv = Files.writeString(dir.resolve(name + ".csv"), body);
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "sync", "--key", "k");
    }

    private static String versionOf(Path wc, String ref) throws Exception {
        return Json.MAPPER.readTree(Cli.ok(wc, "show", "--json", ref).out()).get("id").asText();
    }

    private static List<String> versions(List<Snapshot> snapshots) {
        List<String> out = new ArrayList<>();
        for (Snapshot s : snapshots) out.add(s.summary().get("fdl.version"));
        return out;
    }

    /**
     * A repository that writes Iceberg metadata, in {@code dir/repo}, with a working copy in
     * {@code dir/wc}: table main.t at v1 (tag; 3 rows), main (a delete, an update, an insert: 3
     * rows) and staging (branched from main, one row more).
     */
    static void threeVersions(Path dir) throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        String repo = dir.resolve("repo").toString();
        Cli.ok(dir, "init", "--iceberg", repo);
        Cli.ok(wc, "checkout", "--repo", repo);
        sync(dir, wc, "a", "k,v\n1,one\n2,two\n3,three\n");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "tag", "v1");
        sync(dir, wc, "b", "k,v\n1,one\n2,TWO\n4,four\n");
        Cli.ok(wc, "commit", "-m", "two");
        Cli.ok(wc, "checkout", "-b", "staging");
        sync(dir, wc, "c", "k,v\n1,one\n2,TWO\n4,four\n5,five\n");
        Cli.ok(wc, "commit", "-m", "three");
    }

    @Test
    void historyHasEveryRetainedVersionWithBranchesAndTagsAsRefs() throws Exception {
        threeVersions(dir);
        Path root = dir.resolve("repo"), wc = dir.resolve("wc");
        String repo = root.toString();
        String one = versionOf(wc, "v1"), two = versionOf(wc, "main"), three = versionOf(wc, "staging");

        Path metadata = root.resolve(IcebergHistory.metadataKey("main", "t"));
        Table t = IcebergRows.table(metadata);
        assertThat(t.refs().keySet()).containsExactlyInAnyOrder("main", "v1", "staging");
        assertThat(t.refs().get("v1").isTag()).isTrue();
        assertThat(t.refs().get("staging").isBranch()).isTrue();
        assertThat(versions(toList(t.snapshots()))).containsExactlyInAnyOrder(one, two, three);
        // main's snapshot log is main's history, oldest first; staging's snapshot descends from main's
        List<String> log = new ArrayList<>();
        for (HistoryEntry e : t.history()) log.add(t.snapshot(e.snapshotId()).summary().get("fdl.version"));
        assertThat(log).containsExactly(one, two);
        assertThat(t.snapshot(t.refs().get("staging").snapshotId()).parentId()).isEqualTo(t.refs().get("main").snapshotId());
        // every ref reads as fdl query reads it
        assertThat(IcebergRows.icebergAt(t, "v1")).isEqualTo(IcebergRows.fdl(wc, repo, "v1", "t")).hasSize(3);
        assertThat(IcebergRows.icebergAt(t, "main")).isEqualTo(IcebergRows.fdl(wc, repo, "main", "t")).hasSize(3);
        assertThat(IcebergRows.icebergAt(t, "staging")).isEqualTo(IcebergRows.fdl(wc, repo, "staging", "t")).hasSize(4);
        assertThat(IcebergRows.iceberg(metadata)).isEqualTo(IcebergRows.fdl(wc, repo, "main", "t"));
        // the table UUID is the documented name-based UUID, so a rebuild keeps it
        String id = Json.MAPPER.readTree(Files.readString(root.resolve("fdl.json"))).get("id").asText();
        String uuid = UUID.nameUUIDFromBytes(("fdl-iceberg-history:" + id + ":main:t").getBytes(StandardCharsets.UTF_8)).toString();
        assertThat(t.uuid().toString()).isEqualTo(uuid);
        Files.delete(metadata);
        assertThat(Cli.ok(wc, "iceberg").out()).contains("Iceberg history: 1 table(s)").contains("3 snapshot(s), 3 ref(s)");
        assertThat(IcebergRows.table(metadata).uuid().toString()).isEqualTo(uuid);
    }

    @Test
    void expiredVersionsLeaveTheHistory() throws Exception {
        Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
        String repo = root.toString();
        Cli.ok(dir, "init", "--iceberg", repo);
        Cli.ok(wc, "checkout", "--repo", repo);
        sync(dir, wc, "a", "k,v\n1,one\n");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "tag", "v1");
        sync(dir, wc, "b", "k,v\n1,one\n2,two\n");
        Cli.ok(wc, "commit", "-m", "two");
        String two = versionOf(wc, "main");
        sync(dir, wc, "c", "k,v\n1,one\n2,two\n3,three\n");
        Cli.ok(wc, "commit", "-m", "three");
        String one = versionOf(wc, "v1"), three = versionOf(wc, "main");
        Path metadata = root.resolve(IcebergHistory.metadataKey("main", "t"));
        assertThat(versions(toList(IcebergRows.table(metadata).snapshots()))).containsExactlyInAnyOrder(one, two, three);

        Cli.ok(wc, "expire", "--keep", "1"); // keeps main's tip and the tagged version
        Table t = IcebergRows.table(metadata);
        assertThat(versions(toList(t.snapshots()))).containsExactlyInAnyOrder(one, three);
        List<String> log = new ArrayList<>();
        for (HistoryEntry e : t.history()) log.add(t.snapshot(e.snapshotId()).summary().get("fdl.version"));
        assertThat(log).containsExactly(one, three);
        // the kept tip's parent is the nearest kept version on main's first parents
        assertThat(t.currentSnapshot().parentId()).isEqualTo(t.refs().get("v1").snapshotId());
        assertThat(IcebergRows.icebergAt(t, "main")).isEqualTo(IcebergRows.fdl(wc, repo, "main", "t")).hasSize(3);
        assertThat(IcebergRows.icebergAt(t, "v1")).isEqualTo(IcebergRows.fdl(wc, repo, "v1", "t")).hasSize(1);
    }

    @Test
    void allDescribesEveryRetainedVersionOfARepositoryThatDidNotAskForIceberg() throws Exception {
        Path root = dir.resolve("repo"), wc = Files.createDirectories(dir.resolve("wc"));
        String repo = root.toString();
        Cli.ok(dir, "init", repo);
        Cli.ok(wc, "checkout", "--repo", repo);
        sync(dir, wc, "a", "k,v\n1,one\n");
        Cli.ok(wc, "commit", "-m", "one");
        String one = versionOf(wc, "main");
        sync(dir, wc, "b", "k,v\n1,one\n2,two\n");
        Cli.ok(wc, "commit", "-m", "two");
        Cli.ok(wc, "tag", "v2");
        String two = versionOf(wc, "main");
        Cli.ok(wc, "checkout", "-b", "side");
        sync(dir, wc, "c", "k,v\n1,ONE\n2,two\n");
        Cli.ok(wc, "commit", "-m", "side");
        String side = versionOf(wc, "side");
        Cli.ok(wc, "checkout", "main");
        sync(dir, wc, "d", "k,v\n1,one\n2,two\n3,three\n");
        Cli.ok(wc, "commit", "-m", "three");
        String three = versionOf(wc, "main");
        Cli.ok(wc, "expire", "--keep", "1"); // one: out of retention; v2 (tag), side and main's tip stay

        String enabled = Cli.ok(wc, "iceberg", "--enable").out();
        String printed = enabled.substring(enabled.indexOf("fdl iceberg --all")).strip(); // pasted as printed
        assertThat(printed).isEqualTo("fdl iceberg --all");
        // enabled again: nothing changes, so nothing more to run
        assertThat(Cli.ok(wc, "iceberg", "--enable").out()).contains("fdl commit already writes Iceberg metadata").doesNotContain("--all");
        Cli.Result r = Cli.ok(wc, printed.substring("fdl ".length()).split(" "));
        assertThat(r.out()).doesNotContain(one).contains("Version " + two).contains("Version " + side).contains("Version " + three)
                .contains("Iceberg history: 1 table(s)").contains("3 snapshot(s), 3 ref(s)");
        assertThat(r.out().indexOf("Version " + two)).isLessThan(r.out().indexOf("Version " + side));
        assertThat(r.out().indexOf("Version " + side)).isLessThan(r.out().indexOf("Version " + three));
        Table t = IcebergRows.table(root.resolve(IcebergHistory.metadataKey("main", "t")));
        assertThat(versions(toList(t.snapshots()))).containsExactlyInAnyOrder(two, side, three);
        assertThat(IcebergRows.icebergAt(t, "v2")).isEqualTo(IcebergRows.fdl(wc, repo, "v2", "t")).hasSize(2);
        assertThat(IcebergRows.icebergAt(t, "side")).isEqualTo(IcebergRows.fdl(wc, repo, "side", "t")).hasSize(2);
        assertThat(Cli.in(wc, "iceberg", "--all", "main").exit()).isEqualTo(2);
    }

    private static List<Snapshot> toList(Iterable<Snapshot> it) {
        List<Snapshot> out = new ArrayList<>();
        it.forEach(out::add);
        return out;
    }
}
