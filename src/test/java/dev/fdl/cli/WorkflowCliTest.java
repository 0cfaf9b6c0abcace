package dev.fdl.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;

/** Issues 4 and 5 through the command line: checkout, import, status, commit, query, attach, conflicts. */
class WorkflowCliTest {
    @TempDir Path dir;
    Path root, wc, m1, m2;

    static Path month(Path dir, String date) throws Exception {
        Path p = dir.resolve("world-cities-" + date + ".csv.gz");
        try (InputStream in = WorkflowCliTest.class.getResourceAsStream("/demo/world-cities/world-cities-" + date + ".csv.gz")) {
            Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
        }
        return p;
    }

    Cli.Result fdl(Path cwd, String... args) {
        return Cli.in(cwd, args);
    }

    Cli.Result ok(Path cwd, String... args) {
        return Cli.ok(cwd, args);
    }

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("repo");
        wc = dir.resolve("wc");
        Files.createDirectories(wc);
        m1 = month(dir, "2024-10-04");
        m2 = month(dir, "2024-12-01");
        ok(dir, "init", root.toString());
    }

    @Test
    void importCommitQueryAcrossVersions() {
        Cli.Result co = ok(wc, "checkout", "--repo", root.toString());
        assertThat(co.out()).contains("no version yet");
        Cli.Result imp = ok(wc, "import", m1.toString(), "--table", "cities");
        assertThat(imp.out()).contains("Imported 28500 rows into main.cities");
        assertThat(ok(wc, "status").out()).contains("1 snapshot(s) to commit").contains("created table main.cities").doesNotContain("created_table");
        Cli.Result c1 = ok(wc, "commit", "-m", "October", "--author", "Ann <ann@example.org>");
        assertThat(c1.out()).startsWith("[main (new branch) ");
        assertThat(ok(wc, "status").out()).contains("Nothing to commit");
        Cli.Result nothing = fdl(wc, "commit", "-m", "again");
        assertThat(nothing.exit()).isEqualTo(1);
        assertThat(nothing.err()).contains("nothing to commit");

        ok(wc, "tag", "october");
        ok(wc, "import", m2.toString(), "--table", "cities", "--mode", "replace");
        ok(wc, "commit", "-m", "December");

        assertThat(ok(wc, "query", "SELECT count(*) AS n FROM cities").out()).contains("28796");
        assertThat(ok(wc, "query", "october", "SELECT count(*) AS n FROM cities").out()).contains("28500");
        assertThat(ok(wc, "query", "--csv", "october", "SELECT name FROM cities WHERE geonameid = 3041563").out().lines())
                .containsExactly("name", "Andorra la Vella");
        assertThat(ok(wc, "query", "--json", "SELECT 1 AS one").out()).contains("[{\"one\":1}]");
        assertThat(ok(dir, "log", "--repo", root.toString(), "--oneline").out().lines().toList()).hasSize(2); // two versions; the context line is on stderr
        assertThat(ok(wc, "show", "october", "--json").out()).contains("\"author\"").contains("ann@example.org");
        assertThat(ok(wc, "attach", "october").out()).contains("ATTACH 'ducklake:" + root).contains("READ_ONLY");
        assertThat(ok(wc, "attach", "--root-url", "https://data.example.org/cities", "october").out())
                .contains("'ducklake:https://data.example.org/cities/versions/")
                .contains("DATA_PATH 'https://data.example.org/cities/data/', OVERRIDE_DATA_PATH true");

        Cli.Result write = fdl(wc, "query", "CREATE TABLE x AS SELECT 1");
        assertThat(write.exit()).isEqualTo(2);
        assertThat(write.err()).contains("read-only");
    }

    @Test
    void workingCopyQueryAndTimeTravelSeeUncommittedSnapshots() {
        ok(wc, "checkout", "--repo", root.toString());
        ok(wc, "import", m1.toString(), "--table", "cities");
        ok(wc, "import", m2.toString(), "--table", "cities", "--mode", "replace");
        assertThat(ok(wc, "query", "--working", "SELECT count(*) FROM cities").out()).contains("28796");
        assertThat(ok(wc, "query", "--working", "--snapshot", "1", "SELECT count(*) FROM cities").out()).contains("28500");
        Cli.Result st = ok(wc, "status", "--json");
        assertThat(st.out()).contains("\"base_version\" : null").contains("\"branch_moved\" : false").contains("\"id\" : 2");
    }

    @Test
    void secondWriterGetsAConflictNamingTheWinner() throws Exception {
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        ok(wc, "checkout", "--repo", root.toString());
        ok(other, "checkout", "--repo", root.toString());
        ok(wc, "import", m1.toString(), "--table", "cities");
        ok(other, "import", m2.toString(), "--table", "cities");
        Cli.Result won = ok(wc, "commit", "-m", "first", "--json");
        String id = won.out().replaceAll("(?s).*\"id\" : \"([0-9a-f-]{36})\".*", "$1");
        assertThat(ok(other, "status").out()).contains("has been created in the repository");
        Cli.Result lost = fdl(other, "commit", "-m", "second");
        assertThat(lost.exit()).isEqualTo(3);
        assertThat(lost.err()).contains("moved since checkout").contains(id).contains("fdl checkout --force main")
                .contains("fdl checkout -b <new-branch>");
        Cli.Result keep = ok(other, "checkout", "-b", "mine");
        assertThat(keep.out()).contains("branch 'mine'");
        assertThat(ok(other, "status").out()).contains("On branch mine").contains("1 snapshot(s) to commit");
        Cli.Result committed = ok(other, "commit", "-m", "second, on its own branch");
        assertThat(committed.out()).contains("[mine (new branch) ");
        assertThat(ok(other, "query", "mine", "SELECT count(*) FROM cities").out()).contains("28796");
        ok(other, "checkout", "--force", "main");
        assertThat(ok(other, "status").out()).contains("Base version: " + id);
    }

    @Test
    void datapackageJsonDescribesTheDatasetAndProblemsAreNamed() throws Exception {
        ok(wc, "checkout", "--repo", root.toString());
        ok(wc, "import", m1.toString(), "--table", "cities");
        String pkg;
        try (InputStream in = getClass().getResourceAsStream("/demo/world-cities/datapackage.json")) {
            pkg = new String(in.readAllBytes());
        }
        Files.writeString(wc.resolve("datapackage.json"), pkg);
        Cli.Result bad = fdl(wc, "commit", "-m", "x");
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("resource 'world-cities': no table world-cities").contains("tables: cities");
        Files.writeString(wc.resolve("datapackage.json"), pkg.replace("\"name\": \"world-cities\",\n      \"path\"", "\"name\": \"cities\",\n      \"path\""));
        Cli.Result c = ok(wc, "commit", "-m", "described", "--json");
        String id = c.out().replaceAll("(?s).*\"id\" : \"([0-9a-f-]{36})\".*", "$1");
        String ds = Files.readString(root.resolve("versions/" + id + "/dataset.json"));
        assertThat(ds).contains("\"rows\" : 28500").contains("English name of the city").contains("\"ducklake_type\" : \"BIGINT\"");
    }

    @Test
    void sqlWithoutTheExtensionPointsToImportAndRunInjectsVariables() throws Exception {
        ok(wc, "checkout", "--repo", root.toString());
        Cli.Result sql = fdl(wc, "sql", "CREATE TABLE t AS SELECT 1 AS i");
        assertThat(sql.exit()).isEqualTo(1);
        assertThat(sql.err()).contains("ducklake").contains("fdl import");
        Cli.Result cleanup = fdl(wc, "sql", "CALL ducklake_cleanup_old_files('lake')");
        assertThat(cleanup.exit()).isEqualTo(1);
        assertThat(cleanup.err()).contains("refused");
        var repo = dev.fdl.repo.Repository.open(new dev.fdl.store.LocalStore(root));
        var vars = RunCommand.variables(dev.fdl.workingcopy.WorkingCopy.require(wc), repo);
        assertThat(vars).containsEntry("FDL_CATALOG_URL", "ducklake:sqlite:" + dev.fdl.workingcopy.WorkingCopy.require(wc).catalog())
                .containsEntry("FDL_DATA_PATH", root + "/data/").containsEntry("FDL_BRANCH", "main");
    }

    @Test
    void workOnADetachedCheckoutIsKeptOnANewBranch() {
        ok(wc, "checkout", "--repo", root.toString());
        ok(wc, "import", m1.toString(), "--table", "cities");
        ok(wc, "commit", "-m", "October");
        ok(wc, "tag", "october");
        Path other = dir.resolve("detached");
        try {
            java.nio.file.Files.createDirectories(other);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(ok(other, "checkout", "--repo", root.toString(), "october").out()).contains("detached");
        ok(other, "import", m2.toString(), "--table", "cities", "--mode", "replace");
        Cli.Result refused = fdl(other, "commit", "-m", "x");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("not on a branch").contains("fdl checkout -b");
        ok(other, "checkout", "-b", "december");
        assertThat(ok(other, "commit", "-m", "December").out()).contains("[december (new branch) ");
        assertThat(ok(other, "log", "--oneline", "december").out().lines()).hasSize(2);
    }

    @Test
    void commandsOutsideAWorkingCopySaySo() {
        Cli.Result r = fdl(dir, "status");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("not inside a working copy").contains("fdl checkout --repo");
    }
}
