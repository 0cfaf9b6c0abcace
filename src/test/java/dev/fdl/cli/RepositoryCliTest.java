package dev.fdl.cli;

import dev.fdl.repo.TestVersions;
import dev.fdl.store.LocalStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 2: init, refs, tag, branch, log, show, and every reader outcome, through the CLI. */
class RepositoryCliTest {
    @TempDir Path dir;
    Path root;
    LocalStore store;

    @BeforeEach
    void setUp() {
        root = dir.resolve("repo");
        store = new LocalStore(root);
    }

    private Cli.Result fdl(String... args) {
        return Cli.run(args);
    }

    private String repo() {
        return root.toString();
    }

    @Test
    void initWritesFdlJsonAndHeadAndNoBranch() throws Exception {
        Cli.Result r = fdl("init", repo());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Initialized empty fdl repository").contains("HEAD -> main");
        assertThat(Files.readString(root.resolve("HEAD"))).isEqualTo("ref: refs/heads/main\n");
        assertThat(Files.readString(root.resolve("fdl.json"))).contains("\"fdl\" : \"0.1\"").contains("\"data_dir\" : \"data/\"");
        assertThat(root.resolve("refs")).doesNotExist();
    }

    @Test
    void initTakesBranchAndFileUrl() throws Exception {
        Cli.Result r = fdl("init", root.toUri().toString(), "--branch", "dev", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\"head\" : \"refs/heads/dev\"");
        assertThat(Files.readString(root.resolve("HEAD"))).isEqualTo("ref: refs/heads/dev\n");
    }

    @Test
    void secondInitIsRefusedWithExit3AndChangesNothing() {
        assertThat(fdl("init", repo()).exit()).isZero();
        Map<String, String> before = TestVersions.snapshot(store);
        Cli.Result r = fdl("init", repo(), "--branch", "other");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("already exists").contains(repo());
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "a..b", "x.lock", "-x", "a b", "a/", ".hidden", "a:b", "a~1", "a^", "a?", "a*", "a[b", "a\\b", "a//b", "@", "x@{1}"})
    void invalidRefNamesAreRefusedBeforeAnyWrite(String name) {
        initWithVersion();
        Map<String, String> before = TestVersions.snapshot(store);
        for (String cmd : List.of("tag", "branch")) {
            Cli.Result r = fdl(cmd, "--repo", repo(), "--", name);
            assertThat(r.exit()).as(cmd + " " + name + ": " + r).isEqualTo(2);
            assertThat(r.err()).contains("invalid ref name");
        }
        Cli.Result init = fdl("init", dir.resolve("other").toString(), "--branch=" + name);
        assertThat(init.exit()).isEqualTo(2);
        assertThat(dir.resolve("other")).doesNotExist();
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
    }

    private String initWithVersion() {
        assertThat(fdl("init", repo()).exit()).isZero();
        String v1 = TestVersions.addVersion(store, List.of(), 1, "first");
        TestVersions.setBranch(store, "main", v1);
        return v1;
    }

    @Test
    void missingRepositoryIsNotFound() {
        Cli.Result r = fdl("log", "--repo", repo());
        assertThat(r.exit()).isEqualTo(4);
        assertThat(r.err()).contains("no fdl repository at").contains("fdl init");
        assertThat(root).doesNotExist();
    }

    @Test
    void repositoryWithoutVersionSaysSo() {
        fdl("init", repo());
        for (String cmd : List.of("log", "show")) {
            Cli.Result r = fdl(cmd, "--repo", repo());
            assertThat(r.exit()).as(r.toString()).isEqualTo(4);
            assertThat(r.err()).contains("has no version yet").contains("'main'");
        }
        Cli.Result tag = fdl("tag", "--repo", repo(), "v1");
        assertThat(tag.exit()).isEqualTo(4);
        assertThat(root.resolve("refs")).doesNotExist();
    }

    @Test
    void unknownRefIsNotFound() {
        initWithVersion();
        Cli.Result r = fdl("show", "--repo", repo(), "nope");
        assertThat(r.exit()).isEqualTo(4);
        assertThat(r.err()).contains("no ref or version named 'nope'");
    }

    @Test
    void unfinishedVersionIsTreatedAsAbsent() {
        initWithVersion();
        String id = "019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa";
        store.put("versions/" + id + "/ducklake.duckdb", new byte[]{1});
        Map<String, String> before = TestVersions.snapshot(store);
        Cli.Result r = fdl("show", "--repo", repo(), id);
        assertThat(r.exit()).isEqualTo(4);
        assertThat(r.err()).contains("unfinished");
        Cli.Result tag = fdl("tag", "--repo", repo(), "t", id);
        assertThat(tag.exit()).isEqualTo(4);
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
    }

    @Test
    void expiredVersionIsRefusedToReadersButShownInLog() {
        String v1 = initWithVersion();
        String v2 = TestVersions.addVersion(store, List.of(v1), 2, "second");
        TestVersions.setBranch(store, "main", v2);
        TestVersions.expire(store, v1);
        Map<String, String> before = TestVersions.snapshot(store);
        Cli.Result tag = fdl("tag", "--repo", repo(), "old", v1);
        assertThat(tag.exit()).isEqualTo(4);
        assertThat(tag.err()).contains("expired on 2026-12-01T00:00:00Z");
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
        Cli.Result log = fdl("log", "--repo", repo());
        assertThat(log.exit()).isZero();
        assertThat(log.out()).contains("version " + v2 + " (HEAD -> main)").contains("version " + v1 + " [expired 2026-12-01T00:00:00Z]");
        Cli.Result show = fdl("show", "--repo", repo(), v1.substring(0, 18));
        assertThat(show.exit()).as(show.toString()).isZero();
        assertThat(show.out()).contains("[expired");
    }

    @Test
    void logWarnsWhereAParentIsMissing() {
        String v1 = initWithVersion();
        String v2 = TestVersions.addVersion(store, List.of("019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa"), 2, "orphan");
        TestVersions.setBranch(store, "main", v2);
        Cli.Result r = fdl("log", "--repo", repo(), "--oneline");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains("parent 019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa of version " + v2 + " is missing");
        assertThat(v1).isNotNull();
    }

    @Test
    void bareFdlPrintsUsageAndExits2() {
        Cli.Result r = fdl();
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Usage: fdl");
    }

    @Test
    void versionJsonPathsMustStayInTheVersionFolder() throws Exception {
        String v1 = initWithVersion();
        Path vj = root.resolve("versions/" + v1 + "/version.json");
        Files.writeString(vj, Files.readString(vj).replace("\"path\" : \"ducklake.duckdb\"", "\"path\" : \"../../fdl.json\""));
        Cli.Result r = fdl("show", "--repo", repo());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("catalog.path").contains("inside the version folder");
    }

    @Test
    void corruptRefIsExit1NamingTheRef() throws Exception {
        initWithVersion();
        Files.writeString(root.resolve("refs/heads/main"), "not-a-version\r\n");
        Cli.Result r = fdl("log", "--repo", repo());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("refs/heads/main").contains("corrupt ref").contains("not-a-version\\r\\n").doesNotContain("\r");
    }

    @Test
    void corruptJsonIsExit1NamingFileAndKey() throws Exception {
        String v1 = initWithVersion();
        Path vj = root.resolve("versions/" + v1 + "/version.json");
        Files.writeString(vj, Files.readString(vj).replace("\"seq\" : 1", "\"seq\" : \"one\""));
        Cli.Result r = fdl("show", "--repo", repo());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("versions/" + v1 + "/version.json").contains("'seq'");
        Files.writeString(vj, "{");
        assertThat(fdl("show", "--repo", repo()).err()).contains("not valid JSON");
        Files.writeString(root.resolve("fdl.json"), "{\"fdl\": \"0.1\", \"id\": \"x\", \"data_dir\": \"../data/\"}");
        Cli.Result bad = fdl("refs", "--repo", repo());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("fdl.json").contains("data_dir");
    }

    @Test
    void unknownFormatVersionIsRefused() throws Exception {
        initWithVersion();
        Files.writeString(root.resolve("fdl.json"), "{\"fdl\": \"0.9\", \"id\": \"x\", \"data_dir\": \"data/\"}");
        Cli.Result r = fdl("log", "--repo", repo());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("0.9").contains("not supported");
    }

    @Test
    void tagsAreCreateOnlyAndBranchesListed() {
        String v1 = initWithVersion();
        assertThat(fdl("tag", "--repo", repo(), "v1").exit()).isZero();
        String v2 = TestVersions.addVersion(store, List.of(v1), 2, "second");
        TestVersions.setBranch(store, "main", v2);
        Map<String, String> before = TestVersions.snapshot(store);
        Cli.Result again = fdl("tag", "--repo", repo(), "v1");
        assertThat(again.exit()).isEqualTo(3);
        assertThat(again.err()).contains("tag 'v1' already exists");
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
        assertThat(new String(store.get("refs/tags/v1").orElseThrow().bytes(), StandardCharsets.UTF_8)).isEqualTo(v1 + "\n");

        assertThat(fdl("branch", "--repo", repo(), "feature/x", "v1").exit()).isZero();
        Cli.Result refs = fdl("refs", "--repo", repo());
        assertThat(refs.out()).contains("* main").contains("feature/x").contains("tag: v1");
        Cli.Result json = fdl("refs", "--repo", repo(), "--json");
        assertThat(json.out()).contains("\"ref\" : \"refs/heads/feature/x\"").contains("\"version\" : \"" + v1 + "\"");
        Cli.Result log = fdl("log", "--repo", repo(), "--oneline");
        assertThat(log.out().lines().toList()).hasSize(2); // results alone: the context line is on stderr
        assertThat(log.err()).isEqualTo("# HEAD (branch 'main')\n");
        assertThat(log.out()).contains("(HEAD -> main)").contains("(tag: v1, feature/x)");
        assertThat(fdl("log", "--repo", repo(), "-n", "1").out()).contains("version " + v2).doesNotContain("version " + v1);
        assertThat(fdl("log", "--repo", repo(), "-n", "0").out()).isEmpty();
    }

    @Test
    void aTagNamedLikeABranchOrABranchLikeATagIsRefusedAndAFullRefPathIsNoName() {
        initWithVersion();
        Map<String, String> before = TestVersions.snapshot(store);
        Cli.Result tag = fdl("tag", "--repo", repo(), "main");
        assertThat(tag.exit()).isEqualTo(3);
        assertThat(tag.err()).contains("a branch named 'main' exists").contains("ambiguous");
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);

        assertThat(fdl("tag", "--repo", repo(), "v1").exit()).isZero();
        Cli.Result branch = fdl("branch", "--repo", repo(), "v1");
        assertThat(branch.exit()).isEqualTo(3);
        assertThat(branch.err()).contains("a tag named 'v1' exists");
        // and through checkout -b, which creates the branch at the next commit: refused before anything is written
        java.nio.file.Path wc = root.resolveSibling("wc-v1");
        try {
            java.nio.file.Files.createDirectories(wc);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Map<String, String> refs = TestVersions.snapshot(store);
        Cli.Result newBranch = fdl("-C", wc.toString(), "checkout", "--repo", repo(), "-b", "v1");
        assertThat(newBranch.exit()).as(newBranch.err()).isEqualTo(3);
        assertThat(newBranch.err()).contains("a tag named 'v1' exists");
        assertThat(wc.resolve(".fdl")).doesNotExist();
        assertThat(TestVersions.snapshot(store)).isEqualTo(refs);

        Cli.Result full = fdl("branch", "--repo", repo(), "refs/heads/x");
        assertThat(full.exit()).isEqualTo(2);
        assertThat(full.err()).contains("without 'refs/'");
        assertThat(store.get("refs/heads/refs/heads/x")).isEmpty();
    }

    @Test
    void aMissingFolderAfterDashCIsNamedWithoutParserInternals() {
        Cli.Result r = fdl("-C", root.resolve("no-such-folder").toString(), "status");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no-such-folder: no such folder").doesNotContain("TypeConversionException").doesNotContain("picocli");
    }

    @Test
    void refNamesThatWouldBeBothNameAndFolderAreRefusedAndDeletedFoldersFreeTheName() {
        initWithVersion();
        assertThat(fdl("tag", "--repo", repo(), "ok/name").exit()).isZero();
        Cli.Result clash = fdl("tag", "--repo", repo(), "ok");
        assertThat(clash.exit()).isEqualTo(3);
        assertThat(clash.err()).contains("'ok/name' exists under that name");
        assertThat(fdl("tag", "--repo", repo(), "-d", "ok/name").exit()).isZero();
        assertThat(fdl("tag", "--repo", repo(), "ok").exit()).as("the name is free again").isZero();
        Cli.Result sub = fdl("tag", "--repo", repo(), "ok/sub");
        assertThat(sub.exit()).isEqualTo(3);
        assertThat(sub.err()).contains("tag 'ok' exists");
        Cli.Result head = fdl("branch", "--repo", repo(), "HEAD");
        assertThat(head.exit()).isEqualTo(2);
    }

    @Test
    void headBranchCannotBeDeletedOthersCan() {
        String v1 = initWithVersion();
        Cli.Result r = fdl("branch", "--repo", repo(), "-d", "main");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("HEAD names it");
        assertThat(root.resolve("refs/heads/main")).exists();
        fdl("branch", "--repo", repo(), "dev");
        assertThat(fdl("branch", "--repo", repo(), "dev").exit()).isEqualTo(3);
        assertThat(fdl("branch", "--repo", repo(), "-d", "dev").exit()).isZero();
        assertThat(root.resolve("refs/heads/dev")).doesNotExist();
        assertThat(fdl("branch", "--repo", repo(), "-d", "dev").exit()).isEqualTo(4);
        fdl("tag", "--repo", repo(), "t1", v1);
        assertThat(fdl("tag", "--repo", repo(), "-d", "t1").exit()).isZero();
        assertThat(root.resolve("refs/tags/t1")).doesNotExist();
    }

    @Test
    void showPrintsVersionJsonAndRepoFromEnvironmentIsNotNeeded() {
        String v1 = initWithVersion();
        Cli.Result r = fdl("show", "--repo", repo(), "main", "--json");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("\"id\" : \"" + v1 + "\"").contains("\"snapshots\" : [ 1, 1 ]");
        Cli.Result usage = fdl("show", "--bogus");
        assertThat(usage.exit()).isEqualTo(2);
    }
}
