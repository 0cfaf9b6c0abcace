package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A working copy with both dataset.json and datapackage.json: status and commit warn which one is used, instead of ignoring one silently. */
class TwoDescriptionsCliTest {
    @TempDir Path dir;

    @Test
    void statusAndCommitNameTheFileUsedAndTheOneIgnored() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path csv = Files.writeString(dir.resolve("t.csv"), "id\n1\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "t");
        Files.writeString(wc.resolve("datapackage.json"), "{\"title\": \"Package\"}");
        assertThat(Cli.ok(wc, "status").err()).doesNotContain("warning");
        Files.writeString(wc.resolve("dataset.json"), "{\"title\": \"Dataset\"}");
        Cli.Result status = Cli.ok(wc, "status");
        assertThat(status.err()).contains("fdl uses dataset.json and ignores datapackage.json");
        Cli.Result commit = Cli.ok(wc, "commit", "-m", "one");
        assertThat(commit.err()).contains("fdl uses dataset.json and ignores datapackage.json");
        assertThat(status.err() + commit.err()).contains("both dataset.json and datapackage.json are in");
    }
}
