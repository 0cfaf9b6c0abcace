package dev.fdl.cli;

import dev.fdl.store.FolderHttpServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 17: everyday use as a git and DuckDB user expects it, through the command line. */
class EverydayUseCliTest {
    @TempDir Path dir;
    Path root, wc;

    @BeforeEach
    void setUp() throws IOException {
        root = dir.resolve("repo");
        wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", root.toString());
    }

    /** Imports a small CSV of {@code rows} rows into table t (replacing it) in {@code in}. */
    void load(Path in, int rows) throws IOException {
        StringBuilder sb = new StringBuilder("id,name\n");
        for (int i = 1; i <= rows; i++) sb.append(i).append(",n").append(i).append('\n');
        Path f = Files.writeString(dir.resolve("rows-" + rows + ".csv"), sb);
        Cli.ok(in, "import", f.toString(), "--table", "t", "--mode", "replace");
    }

    String commit(Path in, String message) {
        String out = Cli.ok(in, "commit", "-m", message, "--json").out();
        return out.replaceAll("(?s).*?\"id\" : \"([0-9a-f-]{36})\".*", "$1");
    }

    long versionFolders() throws IOException {
        Path versions = root.resolve("versions");
        if (!Files.isDirectory(versions)) return 0;
        try (Stream<Path> s = Files.list(versions)) {
            return s.count();
        }
    }

    /** The working copy checked out, one version on main, then branch dev (checked out) with one more: {main's, dev's}. */
    String[] mainThenDev() throws IOException {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 1);
        String m1 = commit(wc, "main one");
        Cli.ok(wc, "checkout", "-b", "dev");
        load(wc, 2);
        String d1 = commit(wc, "dev one");
        return new String[] {m1, d1};
    }

    @Test
    void insideAWorkingCopyReadingCommandsFollowItsBranch() throws IOException {
        String[] md = mainThenDev();
        String m1 = md[0], d1 = md[1];

        // the context line ("# …": which version a default chose) is on stderr; stdout holds results alone
        Cli.Result inside = Cli.ok(wc, "log", "--oneline");
        assertThat(inside.err()).isEqualTo("# branch 'dev' (the working copy's branch)\n");
        assertThat(inside.out()).startsWith(d1.substring(0, 13));
        Cli.Result outside = Cli.ok(dir, "log", "--repo", root.toString(), "--oneline");
        assertThat(outside.err()).isEqualTo("# HEAD (branch 'main')\n");
        assertThat(outside.out().lines().toList()).hasSize(1).first().asString().startsWith(m1.substring(0, 13));
        assertThat(Cli.ok(wc, "log", "main", "--oneline").err()).as("a named ref: no context line").isEmpty();

        Cli.Result show = Cli.ok(wc, "show");
        assertThat(show.err()).isEqualTo("# branch 'dev' (the working copy's branch)\n");
        assertThat(show.out()).startsWith("version " + d1);
        Cli.Result q = Cli.ok(wc, "query", "SELECT count(*) AS n FROM t");
        assertThat(q.err()).isEqualTo("# branch 'dev' (the working copy's branch), version " + d1 + "\n");
        assertThat(q.out()).doesNotContain("#").contains("\n2\n");
        assertThat(Cli.ok(wc, "query", "--csv", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n2\n");
        Cli.Result both = Cli.in(wc, "query", "--csv", "--json", "SELECT count(*) AS n FROM t");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("either --json or --csv");
        assertThat(Cli.ok(wc, "attach").out()).startsWith("-- version " + d1 + " (branch 'dev' (the working copy's branch))");
        assertThat(Cli.ok(wc, "show", "@{2099-01-01}").out()).contains("version " + d1);
        // as in git, HEAD inside a working copy is what is checked out (dev), outside it the repository's HEAD (main)
        assertThat(Cli.ok(wc, "show", "HEAD").err()).isEqualTo("# HEAD: branch 'dev' (the working copy's branch)\n");
        assertThat(Cli.ok(wc, "show", "HEAD~1", "--json").out()).contains(m1);
        assertThat(Cli.ok(wc, "show", "@", "--json").out()).contains(d1);
        assertThat(Cli.ok(dir, "show", "--repo", root.toString(), "HEAD", "--json").out()).contains(m1);
        assertThat(Cli.ok(wc, "diff", "--stat", "HEAD~1", "HEAD").out()).contains("t");
        Cli.ok(wc, "tag", "at-dev");
        Cli.ok(wc, "branch", "from-dev");
        Cli.ok(wc, "tag", "at-dev-parent", "HEAD^");
        String refs = Cli.ok(wc, "refs", "--json").out();
        assertThat(Cli.ok(wc, "show", "at-dev", "--json").out()).contains(d1);
        assertThat(Cli.ok(wc, "show", "from-dev", "--json").out()).contains(d1);
        assertThat(Cli.ok(wc, "show", "at-dev-parent", "--json").out()).as(refs).contains(m1);
        // restore HEAD~1 takes the working copy's branch's parent (main's first version), not main's HEAD~1 (none)
        Cli.ok(wc, "restore", "HEAD~1");
        assertThat(Cli.ok(wc, "status").out()).contains("Restore version " + m1);
        Cli.ok(wc, "checkout", "--force", "dev");

        Cli.ok(wc, "checkout", m1);
        assertThat(Cli.ok(wc, "log", "--oneline").err()).startsWith("# version " + m1 + " (the working copy's base, detached)");
    }

    @Test
    void revisionsWorkOnTheCommandLine() throws IOException {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 1);
        String v1 = commit(wc, "one");
        load(wc, 2);
        String v2 = commit(wc, "two");
        load(wc, 3);
        commit(wc, "three");
        Cli.ok(wc, "tag", "t2", "HEAD~1");
        assertThat(Cli.ok(wc, "show", "t2", "--json").out()).contains(v2);
        assertThat(Cli.ok(wc, "query", "--csv", "main~2", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n1\n");
        assertThat(Cli.ok(wc, "log", "--oneline", "t2~1").out()).contains(v1.substring(0, 13));
        Cli.Result far = Cli.in(wc, "show", "HEAD~5");
        assertThat(far.exit()).isEqualTo(4);
        assertThat(far.err()).contains("main~5").contains(v1).contains("no parent");
        Cli.Result early = Cli.in(wc, "query", "main@{2001-01-01}", "SELECT 1");
        assertThat(early.exit()).isEqualTo(4);
        assertThat(early.err()).contains("no version of main").contains("2001-01-01");
        Cli.ok(wc, "checkout", "main~1");
        assertThat(Cli.ok(wc, "status").out()).contains("detached at version " + v2);
    }

    @Test
    void deletingABranchIsRefusedWhenItIsUnmergedOrCheckedOutHereUnlessForced() throws IOException {
        String[] md = mainThenDev();
        String m1 = md[0], d1 = md[1];
        Cli.ok(wc, "checkout", "-b", "dev2");
        load(wc, 3);
        String d2 = commit(wc, "dev2 one");

        // dev's version is in dev2's history: merged, but the working copy here is on dev2
        Cli.Result here = Cli.in(wc, "branch", "-d", "dev2");
        assertThat(here.exit()).as(here.toString()).isEqualTo(1);
        assertThat(here.err()).contains("the working copy " + wc).contains("fdl branch -D dev2");
        Cli.ok(wc, "branch", "-d", "dev");
        assertThat(root.resolve("refs/heads/dev")).doesNotExist();

        // outside the working copy: dev2's version is in no other ref's history
        Cli.Result unmerged = Cli.in(dir, "branch", "--repo", root.toString(), "-d", "dev2");
        assertThat(unmerged.exit()).as(unmerged.toString()).isEqualTo(1);
        assertThat(unmerged.err()).contains("not merged").contains(d2).contains("fdl tag").contains("fdl branch -D dev2");
        assertThat(root.resolve("refs/heads/dev2")).exists();
        // a tag at an ancestor does not keep d2; a tag at d2 does
        Cli.ok(dir, "tag", "--repo", root.toString(), "old", d1);
        assertThat(Cli.in(dir, "branch", "--repo", root.toString(), "-d", "dev2").exit()).isEqualTo(1);
        Cli.ok(dir, "tag", "--repo", root.toString(), "keep", d2);
        Cli.ok(dir, "branch", "--repo", root.toString(), "-d", "dev2");
        assertThat(root.resolve("refs/heads/dev2")).doesNotExist();

        // -D deletes an unmerged branch
        Cli.ok(dir, "branch", "--repo", root.toString(), "side", d2);
        Cli.ok(dir, "tag", "--repo", root.toString(), "-d", "keep");
        assertThat(Cli.in(dir, "branch", "--repo", root.toString(), "-d", "side").exit()).isEqualTo(1);
        Cli.ok(dir, "branch", "--repo", root.toString(), "-D", "side");
        assertThat(root.resolve("refs/heads/side")).doesNotExist();
        // dev2, which the working copy is on, was deleted above: status points to checkout -b, which works
        assertThat(Cli.ok(wc, "status").out()).contains("fdl checkout -b dev2");
        Cli.ok(wc, "checkout", "-b", "dev2");
        load(wc, 4);
        commit(wc, "dev2 again");
        assertThat(m1).isNotEqualTo(d1);
    }

    @Test
    void runExits127ForAMissingCommandAndAttachRefusesARootDuckDbCannotRead() throws IOException {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 1);
        commit(wc, "one");
        Cli.Result missing = Cli.in(wc, "run", "--", "no-such-command-fdl-test");
        assertThat(missing.exit()).as(missing.toString()).isEqualTo(127);
        assertThat(missing.err()).contains("cannot run no-such-command-fdl-test");
        Cli.Result ftp = Cli.in(wc, "attach", "--root-url", "ftp://example.org/x");
        assertThat(ftp.exit()).as(ftp.toString()).isEqualTo(2);
        assertThat(ftp.err()).contains("ftp://example.org/x").contains("https://");
        assertThat(Cli.ok(wc, "attach", "--root-url", "gs://bucket/repo").out()).contains("ducklake:gs://bucket/repo/versions/");
    }

    @Test
    void checkoutWithRepoInASubfolderOfAWorkingCopyRefusesToSwitchIt() throws IOException {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 1);
        commit(wc, "one");
        Path sub = Files.createDirectories(wc.resolve("sub"));
        Cli.Result r = Cli.in(sub, "checkout", "--repo", root.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("inside the working copy " + wc).contains("fdl -C " + wc + " checkout");
        assertThat(sub.resolve(".fdl")).doesNotExist();
        // already on main there: git's "Already on 'main'", naming the working copy
        assertThat(Cli.ok(sub, "checkout", "main").out()).startsWith("Already on 'main' at version ").contains("in working copy " + wc);
        assertThat(Cli.ok(wc, "checkout", "--repo", root.toString(), "main").out()).startsWith("Already on 'main'").contains(wc.toString());
        Cli.ok(wc, "branch", "dev");
        assertThat(Cli.ok(sub, "checkout", "dev").out()).startsWith("Switched working copy " + wc + " to branch 'dev'");
    }

    @Test
    void aCommitThatIsBoundToFailUploadsNothing() throws IOException {
        Path other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(other, "checkout", "--repo", root.toString());
        load(wc, 1);
        load(other, 2);
        String won = commit(wc, "first");
        long before = versionFolders();
        Cli.Result moved = Cli.in(other, "commit", "-m", "second");
        assertThat(moved.exit()).isEqualTo(3);
        assertThat(moved.err()).contains("moved since checkout").contains(won).contains("Nothing was uploaded");
        assertThat(versionFolders()).isEqualTo(before);

        Cli.ok(other, "checkout", "-b", "dev");
        commit(other, "on dev");
        load(other, 3);
        Cli.ok(wc, "branch", "-D", "dev"); // not merged: -d refuses (deletingABranchIsRefused...)
        Cli.Result deleted = Cli.in(other, "commit", "-m", "dev again");
        assertThat(deleted.exit()).isEqualTo(3);
        assertThat(deleted.err()).contains("deleted").contains("Nothing was uploaded");
        long afterDelete = versionFolders();

        load(wc, 4);
        Files.writeString(root.resolve("refs/heads/main"), "not a version id\n");
        Cli.Result corrupt = Cli.in(wc, "commit", "-m", "on a corrupt ref");
        assertThat(corrupt.exit()).isEqualTo(1);
        assertThat(corrupt.err()).contains("refs/heads/main").contains("corrupt ref");
        assertThat(versionFolders()).isEqualTo(afterDelete);
    }

    @Test
    void aCommitToAnotherRepositoryAtTheSameRootUploadsNothing() throws IOException {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 1);
        Path cfg = root.resolve("fdl.json");
        Files.writeString(cfg, Files.readString(cfg).replaceAll("\"id\" : \"[^\"]+\"", "\"id\" : \"00000000-0000-4000-8000-000000000000\""));
        Cli.Result r = Cli.in(wc, "commit", "-m", "elsewhere");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("holds repository 00000000-0000-4000-8000-000000000000").contains("check out again");
        assertThat(versionFolders()).isZero();
    }

    @Test
    void writeCommandsOnAnHttpRootSayItIsReadOnlyAndLogShowsTheNamedTag() throws IOException {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 1);
        String v1 = commit(wc, "one");
        Cli.ok(wc, "tag", "t1");
        try (FolderHttpServer http = new FolderHttpServer(root, "/mirror/")) {
            String url = http.root().toString();
            for (String[] args : new String[][]{{"tag", "t2"}, {"tag", "-d", "t1"}, {"branch", "b"}, {"branch", "-d", "main"},
                    {"gc"}, {"expire", "--keep", "1"}}) {
                String[] all = Stream.concat(Stream.of(args), Stream.of("--repo", url)).toArray(String[]::new);
                Cli.Result r = Cli.in(dir, all);
                assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(1);
                assertThat(r.err()).as(String.join(" ", args)).contains("read-only").doesNotContain("store error");
            }
            Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
            assertThat(Cli.in(elsewhere, "checkout", "--repo", url).err()).contains("read-only");
            assertThat(Cli.in(dir, "init", url).err()).contains("read-only");
            assertThat(Cli.ok(dir, "log", "t1", "--repo", url, "--oneline").out()).contains("tag: t1");
            assertThat(Cli.ok(dir, "show", "t1", "--repo", url).out()).contains("version " + v1).contains("tag: t1");
        }
    }

    @Test
    void importHelpDocumentsEveryOptionAndArgument() {
        CommandLine imp = Main.commandLine().getSubcommands().get("import");
        for (var o : imp.getCommandSpec().options())
            assertThat(String.join(" ", o.description())).as(o.longestName()).isNotBlank();
        for (var p : imp.getCommandSpec().positionalParameters())
            assertThat(String.join(" ", p.description())).as(p.paramLabel()).isNotBlank();
        String help = Cli.run("import", "--help").out();
        assertThat(help).contains("<file|folder|glob>").contains("--table").contains("--mode").contains("--schema").contains("--message")
                .contains("Exit codes");
    }

    @Test
    void aTruncatedRepositoryFileIsNamedWithoutLibraryInternals() throws IOException {
        Path cfg = root.resolve("fdl.json");
        String text = Files.readString(cfg);
        Files.writeString(cfg, text.substring(0, text.length() / 2));
        Cli.Result r = Cli.in(dir, "log", "--repo", root.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("fdl.json").contains("cut short").contains("restore it")
                .doesNotContain("StreamReadFeature").doesNotContain("Source").doesNotContain("jackson");
    }
}
