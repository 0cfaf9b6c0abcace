package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 31: stdout carries results alone, as git's does, so that {@code fdl log --oneline | wc -l}
 * counts versions and {@code | head -1} is the newest; the context line saying which version a
 * default chose ({@code # branch 'main' (…)}) goes to stderr. One case per command that prints one.
 */
class ContextLinesCliTest {
    @TempDir Path dir;

    /** A working copy with two versions of table t; returns it. */
    Path twoVersions() throws IOException {
        Path wc = Cli.newWorkingCopy(dir);
        for (int n = 1; n <= 2; n++) {
            Path csv = Files.writeString(dir.resolve("t" + n + ".csv"), "id\n" + "1\n".repeat(n));
            Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "replace");
            Cli.ok(wc, "commit", "-m", "v" + n);
        }
        return wc;
    }

    static void resultsOnlyOnStdout(Cli.Result r, String context) {
        assertThat(r.out().lines().filter(l -> l.startsWith("# "))).as(r.toString()).isEmpty();
        assertThat(r.err()).as(r.toString()).isEqualTo("# " + context + "\n");
    }

    @Test
    void logPrintsVersionsAloneOnStdout() throws IOException {
        Path wc = twoVersions();
        Cli.Result log = Cli.ok(wc, "log", "--oneline");
        resultsOnlyOnStdout(log, "branch 'main' (the working copy's branch)");
        assertThat(log.out().lines().toList()).hasSize(2).first().asString().endsWith(" v2");
        resultsOnlyOnStdout(Cli.ok(wc, "log", "--stat"), "branch 'main' (the working copy's branch)");
    }

    @Test
    void showPrintsTheVersionAloneOnStdout() throws IOException {
        Path wc = twoVersions();
        Cli.Result show = Cli.ok(wc, "show", "HEAD~1");
        resultsOnlyOnStdout(show, "HEAD~1: branch 'main' (the working copy's branch)~1");
        assertThat(show.out()).startsWith("version ");
    }

    @Test
    void queryPrintsTheTableAloneOnStdout() throws IOException {
        Path wc = twoVersions();
        Cli.Result q = Cli.ok(wc, "query", "SELECT count(*) AS n FROM t");
        assertThat(q.err()).startsWith("# branch 'main' (the working copy's branch), version ");
        assertThat(q.err().lines()).hasSize(1);
        assertThat(q.out()).doesNotContain("# ").contains("n").contains("2");
    }

    @Test
    void diffPrintsTheDiffAloneOnStdout() throws IOException {
        Path wc = twoVersions();
        Cli.Result d = Cli.ok(wc, "diff", "--stat", "HEAD~1");
        resultsOnlyOnStdout(d, "HEAD~1: branch 'main' (the working copy's branch)~1 against the working copy (branch 'main')");
        assertThat(d.out()).startsWith("diff ");
    }
}
