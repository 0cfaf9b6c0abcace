package dev.fdl.cli;

import dev.fdl.store.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FDL_REPO comes before the working copy around the current folder; inside a working copy of
 * another repository fdl says which one it uses (a child JVM: the environment is the process's).
 */
class FdlRepoEnvCliTest {
    @TempDir Path dir;

    private static ChildJvm.Result fdl(Object root, String... args) throws Exception {
        Process p = ChildJvm.start(System.getProperty("java.class.path"), Main.class.getName(), "-Xmx256m",
                Map.of("FDL_REPO", root.toString()), args);
        return ChildJvm.await(p, 120);
    }

    @Test
    void insideAWorkingCopyOfAnotherRepositoryFdlRepoIsNamed() throws Exception {
        Path wc = Cli.newWorkingCopy(dir); // of dir/repo
        Path other = dir.resolve("other");
        Cli.ok(dir, "init", other.toString());

        ChildJvm.Result r = fdl(other, "-C", wc.toString(), "log", "--oneline");
        assertThat(r.output()).contains("fdl: using FDL_REPO=" + other + ", not the repository of the working copy here ("
                + dir.resolve("repo")).contains("unset FDL_REPO");
        assertThat(r.output().split("using FDL_REPO", -1)).hasSize(2); // once

        // a URL's credentials never reach the line
        ChildJvm.Result secret = fdl("https://reader:s3cret@127.0.0.1:9/lake/", "-C", wc.toString(), "log", "--oneline");
        assertThat(secret.output()).contains("using FDL_REPO=https://127.0.0.1:9/lake/").doesNotContain("s3cret");

        ChildJvm.Result same = fdl(dir.resolve("repo"), "-C", wc.toString(), "log", "--oneline");
        assertThat(same.output()).doesNotContain("FDL_REPO");
        ChildJvm.Result outside = fdl(other, "-C", Files.createDirectories(dir.resolve("elsewhere")).toString(), "log", "--oneline");
        assertThat(outside.output()).doesNotContain("FDL_REPO");
    }
}
