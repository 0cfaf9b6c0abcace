package dev.fdl.check;

import dev.fdl.cli.Cli;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** What cannot be checked is a clear error naming it, and the commit uploads nothing. */
class BadChecksCliTest {
    @TempDir Path dir;
    Path wc;
    Path root;

    @BeforeEach
    void workingCopyWithATable() throws Exception {
        wc = Cli.newWorkingCopy(dir);
        root = dir.resolve("repo");
        Files.writeString(dir.resolve("t.csv"), "id,name\n1,a\n2,b\n");
        Cli.ok(wc, "import", dir.resolve("t.csv").toString(), "--table", "t");
    }

    private void describe(String resources, String checks) throws Exception {
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"d\", \"resources\": [" + resources + "]"
                + (checks == null ? "" : ", \"fdl:checks\": " + checks) + "}");
    }

    /** Commit fails with exit 1, the message contains {@code expected}, and no version folder appeared. */
    private Cli.Result refused(String... expected) throws Exception {
        Cli.Result r = Cli.in(wc, "commit", "-m", "x", "--hook-timeout", "1s");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains(expected);
        assertThat(CheckCliTest.count(root, "versions")).isZero();
        return r;
    }

    @Test
    void aMalformedConstraintIsNamed() throws Exception {
        describe("{\"name\": \"t\", \"schema\": {\"fields\": [{\"name\": \"id\", \"constraints\": {\"minimum\": [1], \"sorted\": true}}]}}", null);
        refused("resource 't' field 'id': constraints.minimum must be a number", "constraints.sorted is not a constraint fdl knows");
    }

    @Test
    void aConstraintValueOfTheWrongTypeIsNamed() throws Exception {
        describe("{\"name\": \"t\", \"schema\": {\"fields\": [{\"name\": \"id\", \"constraints\": {\"minimum\": \"one\"}}]}}", null);
        refused("t.id: minimum \"one\" (column id is BIGINT) cannot be checked", "one");
    }

    @Test
    void aFailingSqlCheckIsNamed() throws Exception {
        describe("{\"name\": \"t\"}", "[{\"name\": \"broken\", \"sql\": \"SELECT * FROM no_such_table\"}]");
        refused("check 'broken' (fdl:checks of dataset.json) cannot be checked", "no_such_table");
    }

    @Test
    void aWritingSqlCheckIsRefused() throws Exception {
        describe("{\"name\": \"t\"}", "[{\"name\": \"sneaky\", \"sql\": \"COPY (SELECT 1) TO '" + dir.resolve("out.csv") + "'\"}]");
        refused("check 'sneaky' (fdl:checks of dataset.json) is refused: its sql must be one read-only query");
        assertThat(dir.resolve("out.csv")).doesNotExist();
        describe("{\"name\": \"t\"}", "[{\"name\": \"two\", \"sql\": \"SELECT 1; DROP TABLE t\"}]");
        refused("check 'two'", "one read-only query");
    }

    @Test
    void aWarningSqlCheckIsRecordedAndAnErrorOneRefuses() throws Exception {
        describe("{\"name\": \"t\"}", "[{\"name\": \"b-rows\", \"sql\": \"SELECT * FROM t WHERE name = 'b'\", \"level\": \"warn\"}]");
        Cli.Result ok = Cli.ok(wc, "commit", "-m", "with a warning");
        assertThat(ok.err()).contains("fdl: warning: check 'b-rows' (1 row)");
        describe("{\"name\": \"t\"}", "[{\"name\": \"b-rows\", \"sql\": \"SELECT * FROM t WHERE name = 'b'\", \"level\": \"error\"}]");
        Cli.Result r = Cli.in(wc, "commit", "-m", "x", "--allow-empty");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("failed  check 'b-rows'  (1 row)").contains("id=2, name=b");
    }

    @Test
    void aHookThatIsNotExecutableIsNamed() throws Exception {
        Path hook = Files.createDirectories(wc.resolve(".fdl/hooks")).resolve("pre-commit");
        Files.writeString(hook, "#!/bin/sh\nexit 0\n");
        refused("hook .fdl/hooks/pre-commit", "is not executable", "chmod +x");
    }

    @Test
    void aHookThatHangsIsStoppedAtItsTimeout() throws Exception {
        hook("#!/bin/sh\necho waiting\nsleep 30\n");
        long start = System.nanoTime();
        Cli.Result r = refused("hook .fdl/hooks/pre-commit did not finish within 1s", "--hook-timeout");
        assertThat(r.err()).contains("hook: waiting");
        assertThat((System.nanoTime() - start) / 1_000_000_000).isLessThan(20);
    }

    @Test
    void aHookRefusesWithANonZeroExitAndSeesTheRunVariables() throws Exception {
        hook("#!/bin/sh\necho \"branch $FDL_BRANCH catalog $(basename \"$FDL_CATALOG_PATH\")\"\nexit 3\n");
        Cli.Result r = refused("failed  hook .fdl/hooks/pre-commit", "exited with 3");
        assertThat(r.err()).contains("hook: branch main catalog ");
        hook("#!/bin/sh\necho fine\n");
        assertThat(Cli.ok(wc, "commit", "-m", "hook passes").err()).contains("hook: fine");
    }

    @Test
    void aRepositoryHookRunsOnlyWhenThisMachineTrustsRepositoryHooks() throws Exception {
        Path config = dir.resolve("user-config.json");
        String before = System.getProperty("fdl.config");
        System.setProperty("fdl.config", config.toString());
        try {
            String fdlJson = Files.readString(root.resolve("fdl.json")).trim();
            Files.writeString(root.resolve("fdl.json"), fdlJson.substring(0, fdlJson.length() - 1) + ", \"hooks\": {\"pre-commit\": \"hooks/pre-commit\"}}\n");
            Files.createDirectories(root.resolve("hooks"));
            Files.writeString(root.resolve("hooks/pre-commit"), "#!/bin/sh\necho repository hook says no\nexit 1\n");
            String note = Cli.ok(wc, "check", "--working").err();
            assertThat(note).contains("it was not run");
            dev.fdl.cli.Pasted.paste(wc, dev.fdl.cli.Pasted.printed(note, "(?m)read it, then (fdl config hooks.trust true)$"));
            assertThat(Cli.ok(wc, "config", "hooks.trust").out()).isEqualTo("true\n");
            Cli.Result r = refused("hook hooks/pre-commit (repository)", "exited with 1");
            assertThat(r.err()).contains("hook: repository hook says no");
            assertThat(Cli.in(wc, "config", "hooks.trust", "maybe").exit()).isEqualTo(2);
        } finally {
            if (before == null) System.clearProperty("fdl.config");
            else System.setProperty("fdl.config", before);
        }
    }

    private void hook(String script) throws Exception {
        Path hook = Files.createDirectories(wc.resolve(".fdl/hooks")).resolve("pre-commit");
        Files.writeString(hook, script);
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
    }
}
