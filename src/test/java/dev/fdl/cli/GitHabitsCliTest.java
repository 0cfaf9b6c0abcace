package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.repo.TestVersions;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user who knows git expects of the everyday commands: {@code log --all} (every ref's
 * history), the {@code Merge:} line standing for a merge's parents, {@code show --stat},
 * {@code -q} printing nothing on success (init, import, commit, checkout, merge), and the errors of {@code import --key} without
 * {@code --mode sync} and of {@code status --repo} naming what to run.
 */
class GitHabitsCliTest {
    @TempDir Path dir;

    /** The subjects {@code log --oneline} prints, in order, without ids and decorations. */
    private static List<String> subjects(Cli.Result r) {
        return r.out().lines().map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList();
    }

    /** A new repository at {@code dir/repo} (made by fdl init), its versions written directly as version.json. */
    private LocalStore repository() {
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        return new LocalStore(dir.resolve("repo"));
    }

    @Test
    void logAllListsWhatEveryBranchAndTagReachesNewestFirstEachOnce() throws Exception {
        Path root = dir.resolve("repo");
        LocalStore store = repository();
        // main: base <- m; side: base <- s1 <- s2; a tag on t (a line no branch reaches)
        String base = TestVersions.addVersion(store, List.of(), 1, "base");
        String m = TestVersions.addVersion(store, List.of(base), 2, "m");
        String s1 = TestVersions.addVersion(store, List.of(base), 3, "s1");
        String s2 = TestVersions.addVersion(store, List.of(s1), 4, "s2");
        String t = TestVersions.addVersion(store, List.of(base), 5, "t");
        TestVersions.setBranch(store, "main", m);
        TestVersions.setBranch(store, "side", s2);
        String r = "--repo=" + root;
        Cli.ok(dir, "tag", "v1", t, r);

        assertThat(subjects(Cli.ok(dir, "log", "--oneline", r))).containsExactly("m", "base");
        assertThat(subjects(Cli.ok(dir, "log", "--all", "--oneline", r))).containsExactly("t", "s2", "s1", "m", "base");
        assertThat(Cli.ok(dir, "log", "--all", "--oneline", r).out()).contains("(tag: v1) t").contains("(side) s2")
                .contains("(HEAD -> main) m");
        assertThat(subjects(Cli.ok(dir, "log", "--all", "--oneline", "-n", "2", r))).containsExactly("t", "s2");
        JsonNode json = Json.MAPPER.readTree(Cli.ok(dir, "log", "--all", "--json", r).out());
        assertThat(json).hasSize(5);
        assertThat(json.get(0).get("id").asText()).isEqualTo(t);
        assertThat(json.get(0).get("refs").get(0).asText()).isEqualTo("refs/tags/v1");
        assertThat(subjects(Cli.ok(dir, "log", "--all", "--oneline", "side..main", r)))
                .as("a range with --all: what the refs and main reach, without what side reaches").containsExactly("t", "m");
    }

    @Test
    void overHttpLogAllIsRefusedAndLogSaysWhichRefsItCouldSee() throws Exception {
        Path root = dir.resolve("repo");
        LocalStore store = repository();
        String base = TestVersions.addVersion(store, List.of(), 1, "base");
        TestVersions.setBranch(store, "main", base);
        Cli.ok(dir, "tag", "v1", base, "--repo=" + root);
        try (dev.fdl.store.FolderHttpServer http = new dev.fdl.store.FolderHttpServer(root, "/mirror/")) {
            String url = "--repo=" + http.root();
            Cli.Result all = Cli.in(dir, "log", "--all", url);
            assertThat(all.exit()).isEqualTo(ExitCodes.FAILURE);
            assertThat(all.err()).contains("cannot list its refs").contains("folder or s3:// root");
            Cli.Result log = Cli.ok(dir, "log", "--oneline", url);
            assertThat(log.out()).contains("(HEAD -> main) base");
            assertThat(log.err()).contains("# refs: HEAD's branch and the ref named only");
            assertThat(Cli.ok(dir, "log", "--oneline", "--repo=" + root).err()).doesNotContain("# refs:");
        }
    }

    @Test
    void aMergesParentsAreOnItsMergeLineNotBesideItsSeq() {
        Path root = dir.resolve("repo");
        LocalStore store = repository();
        String base = TestVersions.addVersion(store, List.of(), 1, "base");
        String a = TestVersions.addVersion(store, List.of(base), 2, "a");
        String b = TestVersions.addVersion(store, List.of(base), 3, "b");
        String merge = TestVersions.addVersion(store, List.of(a, b), 4, "merge");
        TestVersions.setBranch(store, "main", merge);

        List<String> lines = Cli.ok(dir, "log", "--repo=" + root).out().lines().toList();
        assertThat(lines.subList(0, 2)).containsExactly("version " + merge + " (HEAD -> main)",
                "Merge:     " + a.substring(0, 13) + " " + b.substring(0, 13));
        assertThat(lines).contains("Seq:       4").doesNotContain("Seq:       4  parent " + a + ", " + b)
                .as("one parent stays beside seq").contains("Seq:       2  parent " + base);
    }

    @Test
    void showStatCountsEachTablesRowsOverTheFirstParent() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Files.writeString(dir.resolve("a.csv"), "id,v\n1,a\n2,b\n3,c\n");
        Files.writeString(dir.resolve("b.csv"), "id,v\n1,a\n2,B\n4,d\n5,e\n");
        Cli.ok(wc, "import", dir.resolve("a.csv").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "first");
        Cli.ok(wc, "import", dir.resolve("b.csv").toString(), "--table", "t", "--mode", "sync");
        Cli.ok(wc, "commit", "-m", "second");

        // 2 -> B changed (counts as added and removed), 3 removed, 4 and 5 added: +3 -2, 4 rows
        List<String> lines = Cli.ok(wc, "show", "--stat").out().lines().toList();
        assertThat(lines.subList(lines.size() - 3, lines.size())).containsExactly("    second", "", " main.t | +3 -2 (4 rows)");
        assertThat(Cli.ok(wc, "show").out()).doesNotContain("main.t |");
        JsonNode stat = Json.MAPPER.readTree(Cli.ok(wc, "show", "--stat", "--json", "HEAD~1").out()).get("stat");
        assertThat(stat).hasSize(1);
        assertThat(stat.get(0).get("table").asText()).isEqualTo("main.t");
        assertThat(stat.get(0).get("added").asLong()).isEqualTo(3);
        assertThat(stat.get(0).get("removed").asLong()).isZero();
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "show", "--json").out()).has("stat")).isFalse();
    }

    @Test
    void quietInitImportCommitCheckoutAndMergePrintNothingOnSuccess() throws Exception {
        assertThat(Cli.ok(dir, "init", "-q", dir.resolve("quiet").toString()).out()).isEmpty();
        Path wc = Cli.newWorkingCopy(dir);
        Files.writeString(dir.resolve("a.csv"), "id,v\n1,a\n");
        Cli.Result imported = Cli.ok(wc, "import", "-q", dir.resolve("a.csv").toString(), "--table", "t");
        assertThat(imported.out()).isEmpty();
        assertThat(imported.err()).isEmpty();
        assertThat(Cli.ok(wc, "import", "--quiet", dir.resolve("a.csv").toString(), "--table", "s", "--mode", "sync", "--key", "id").out())
                .isEmpty();
        Cli.Result committed = Cli.ok(wc, "commit", "-q", "-m", "first");
        assertThat(committed.out()).isEmpty();
        assertThat(committed.err()).isEmpty();
        Cli.Result switched = Cli.ok(wc, "checkout", "-q", "-b", "side");
        assertThat(switched.out()).isEmpty();
        assertThat(switched.err()).isEmpty();
        assertThat(Cli.ok(wc, "checkout", "--quiet", "main").out()).isEmpty();
        Cli.ok(wc, "checkout", "-q", "-b", "topic");
        Cli.ok(wc, "import", "-q", dir.resolve("a.csv").toString(), "--table", "w");
        Cli.ok(wc, "commit", "-q", "-m", "topic");
        Cli.ok(wc, "checkout", "-q", "main");
        assertThat(Cli.ok(wc, "merge", "-q", "topic").out()).as("a fast-forward").isEmpty();
        Path other = Files.createDirectories(dir.resolve("other"));
        assertThat(Cli.ok(other, "checkout", "-q", "--repo", dir.resolve("repo").toString()).out()).isEmpty();
        assertThat(Cli.ok(wc, "import", "-q", "--json", dir.resolve("a.csv").toString(), "--table", "u").out())
                .as("--json still prints its object").contains("\"table\"");
        Cli.Result refused = Cli.in(wc, "import", "-q", dir.resolve("a.csv").toString(), "--table", "t");
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).as("errors still on stderr").contains("t");
    }

    @Test
    void keyWithoutSyncSaysWhatTheKeyIsForAndWhatToRun() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Files.writeString(wc.resolve("a.csv"), "id,v\n1,a\n");
        Cli.Result r = Cli.in(wc, "import", "a.csv", "--table", "t", "--key", "id");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--mode sync matches rows on")
                .contains("fdl import a.csv --table t --mode sync --key id");
        Cli.ok(wc, "import", "a.csv", "--table", "t", "--mode", "sync", "--key", "id"); // what it says to run works
    }

    @Test
    void statusOfARepositorySaysToListItsRefsAndHistory() {
        Path root = dir.resolve("repo");
        Cli.ok(dir, "init", root.toString());
        Cli.Result r = Cli.in(dir, "status", "--repo", root.toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("status describes a working copy").contains("fdl refs --repo <root>")
                .contains("fdl log --repo <root>");
    }
}
