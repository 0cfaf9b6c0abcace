package dev.fdl.cli;

import dev.fdl.repo.Repository;
import dev.fdl.repo.TestVersions;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Histories that join, through the command line: {@code log --graph} and {@code --first-parent},
 * the {@code Merge:} line of {@code log} and {@code show}, each version's parents in
 * {@code log --json}, and {@code v^2}, {@code v^2~1}, {@code diff v^1 v}. Merge versions are
 * written as version.json directly (their parents as a merge would record them).
 */
class MergeHistoryCliTest {
    @TempDir Path dir;

    /** The lines of a drawing with each version id (13 characters, as --oneline prints it) left out. */
    private static List<String> drawing(Cli.Result r) {
        return r.out().lines().map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4} ", "")).toList();
    }

    /** What {@code fdl diff --stat a b} reports, without its first line (which names a and b). */
    private static List<String> changes(Path wc, String a, String b) {
        return Cli.ok(wc, "diff", "--stat", a, b).out().lines().skip(1).toList();
    }

    /** main: base <- c <- merge(c, s2); side: base <- s1 <- s2 (branch side deleted, as after a merge). */
    private String[] forkAndJoin(LocalStore store) {
        String base = TestVersions.addVersion(store, List.of(), 1, "base");
        String c = TestVersions.addVersion(store, List.of(base), 2, "c");
        String s1 = TestVersions.addVersion(store, List.of(base), 2, "s1");
        String s2 = TestVersions.addVersion(store, List.of(s1), 3, "s2");
        String merge = TestVersions.addVersion(store, List.of(c, s2), 4, "merge");
        TestVersions.setBranch(store, "main", merge);
        return new String[]{base, c, s1, s2, merge};
    }

    @Test
    void graphDrawsTheForkAndTheJoinAndFirstParentLeavesTheSideOut() throws Exception {
        Path root = dir.resolve("repo");
        Cli.ok(dir, "init", root.toString());
        String[] v = forkAndJoin(new LocalStore(root));
        String r = "--repo=" + root;

        assertThat(drawing(Cli.ok(dir, "log", "--graph", "--oneline", r))).containsExactly(
                "*   (HEAD -> main) merge",
                "|\\",
                "| * s2",
                "| * s1",
                "* | c",
                "|/",
                "* base");
        assertThat(drawing(Cli.ok(dir, "log", "--graph", "--oneline", "--first-parent", r))).containsExactly(
                "* (HEAD -> main) merge", "* c", "* base");
        assertThat(drawing(Cli.ok(dir, "log", "--oneline", "--first-parent", r))).containsExactly(
                "(HEAD -> main) merge", "c", "base");
        assertThat(drawing(Cli.ok(dir, "log", "--graph", "--oneline", "main~1", r)))
                .as("a linear history draws no lines but the one").containsExactly("* c", "* base");

        String full = Cli.ok(dir, "log", "--graph", r).out();
        assertThat(full.lines().toList().subList(0, 3)).containsExactly(
                "*   version " + v[4] + " (HEAD -> main)",
                "|\\  Merge:     " + v[1].substring(0, 13) + " " + v[3].substring(0, 13),
                "| | Author:    bob <bob@example.org>");
        assertThat(Cli.ok(dir, "log", r).out()).contains("Merge:     " + v[1].substring(0, 13) + " " + v[3].substring(0, 13));
        assertThat(Cli.ok(dir, "show", "main~1", r).out()).doesNotContain("Merge:");
        assertThat(Cli.ok(dir, "show", "main", r).out())
                .contains("Merge:     " + v[1].substring(0, 13) + " " + v[3].substring(0, 13))
                .contains("Parents:   " + v[1] + ", " + v[3]);

        var json = Json.MAPPER.readTree(Cli.ok(dir, "log", "--json", r).out());
        assertThat(json.get(0).get("parents")).hasSize(2);
        assertThat(json.get(0).get("parents").get(1).asText()).isEqualTo(v[3]);
        assertThat(Cli.in(dir, "log", "--graph", "--json", r).exit()).isEqualTo(2);
    }

    @Test
    void caretTwoNamesTheSecondParentAndAMissingParentIsNamed() {
        Path root = dir.resolve("repo");
        Cli.ok(dir, "init", root.toString());
        String[] v = forkAndJoin(new LocalStore(root));
        String r = "--repo=" + root;

        assertThat(Cli.ok(dir, "show", "--json", "main^2", r).out()).contains("\"id\" : \"" + v[3] + "\"");
        assertThat(Cli.ok(dir, "show", "--json", "main^2~1", r).out()).contains("\"id\" : \"" + v[2] + "\"");
        assertThat(Cli.ok(dir, "show", "--json", "main^1", r).out()).contains("\"id\" : \"" + v[1] + "\"");
        Cli.Result third = Cli.in(dir, "show", "main^3", r);
        assertThat(third.exit()).isEqualTo(4);
        assertThat(third.err()).contains(v[4]).contains("2 parents, not 3");
    }

    @Test
    void branchDeleteTakesABranchMergedThroughASecondParentAsMerged() {
        Path root = dir.resolve("repo");
        Cli.ok(dir, "init", root.toString());
        LocalStore store = new LocalStore(root);
        String[] v = forkAndJoin(store);
        String r = "--repo=" + root;
        TestVersions.setBranch(store, "side", v[3]);
        TestVersions.setBranch(store, "main", v[1]); // before the merge: side's work is on no other branch
        Cli.Result refused = Cli.in(dir, "branch", "-d", "side", r);
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("branch 'side' is not merged");

        TestVersions.setBranch(store, "main", v[4]);
        Cli.ok(dir, "branch", "-d", "side", r);
        assertThat(Cli.ok(dir, "refs", r).out()).doesNotContain("side");
    }

    @Test
    void diffBetweenAMergeAndEachParent() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "id\n1\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "create");
        Cli.ok(wc, "commit", "-m", "one");
        Path other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(other, "checkout", "--repo", root.toString(), "-b", "dev");
        Files.writeString(dir.resolve("d.csv"), "id\n100\n");
        Cli.ok(other, "import", dir.resolve("d.csv").toString(), "--table", "t", "--mode", "append");
        Cli.ok(other, "commit", "-m", "dev");
        Files.writeString(dir.resolve("u.csv"), "id\n2\n");
        Cli.ok(wc, "import", dir.resolve("u.csv").toString(), "--table", "t", "--mode", "append");
        Cli.ok(wc, "commit", "-m", "two");

        // a merge version whose catalog is dev's (as a merge that took dev's side would be)
        LocalStore store = new LocalStore(root);
        Repository repo = Repository.open(store);
        VersionInfo two = repo.resolve("main").version(), dev = repo.resolve("dev").version();
        String id = TestVersions.copyWithParents(store, dev, List.of(two.id(), dev.id()), "merge dev");
        TestVersions.setBranch(store, "main", id);

        assertThat(changes(wc, "main^2", "main")).as("the merge took dev's tables").isEqualTo(changes(wc, "dev", "dev"));
        assertThat(changes(wc, "main^1", "main")).isEqualTo(changes(wc, "main^1", "dev"))
                .isNotEqualTo(changes(wc, "dev", "dev"));
    }
}
