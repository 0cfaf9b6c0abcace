package dev.fdl.cli;

import dev.fdl.bench.StartupBench;
import dev.fdl.store.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17 (fast to start): commands that need no catalog do not load DuckDB, nor Jackson's
 * ObjectMapper (building one is a good part of a start), each run in a fresh JVM that lists the
 * classes it loads. Commands that read the working catalog (status) may load SQLite's driver.
 * Nor does picocli read annotations for them: reading one makes a dynamic proxy class, which
 * the class-data archive cannot hold (their models are built in code, {@link Specs}). Commands
 * other than status (which hashes the working copy's description) load no security provider:
 * a local read's ETag is computed only when asked, and no version-id generator is made.
 * status opens the working catalog only when it changed since status last read it.
 */
class LightCommandsTest {
    @TempDir Path tmp;

    @Test
    void theEverydayCommandsLoadNeitherDuckDbNorTheObjectMapperNorAnnotationProxies() throws Exception {
        Path wc = StartupBench.repositoryWithWorkingCopy(tmp, 20); // log reads a file per version
        for (String[] command : new String[][]{{"log", "--oneline"}, {"status"}, {"refs"}, {"show"}, {"branch"}, {"tag"}}) {
            ChildJvm.Result r = runListingClasses(wc, command);
            String what = String.join(" ", command);
            assertThat(r.exitCode()).as(what + ":\n" + r.output()).isZero();
            assertThat(r.output()).as(what).contains("dev.fdl.cli.Main ")
                    .doesNotContain("org.duckdb.").doesNotContain("com.fasterxml.jackson.databind.ObjectMapper ")
                    .doesNotContain("source: __dynamic_proxy__")
                    // reflection called often enough to be compiled: MessageDigest.getInstance per file read did that
                    .doesNotContain("GeneratedConstructorAccessor").doesNotContain("GeneratedMethodAccessor")
                    // made, picocli's default factory looks for a Groovy class through every jar
                    .doesNotContain("picocli.CommandLine$DefaultFactory ");
            if (!command[0].equals("status")) {
                // nor the JDK's security providers: no ETag is computed for reading, no version id is made
                assertThat(r.output()).as(what).doesNotContain("sun.security.jca.Providers ");
            }
        }
    }

    @Test
    void statusOfAnUnchangedWorkingCopyDoesNotOpenItsCatalog() throws Exception {
        Path wc = StartupBench.repositoryWithWorkingCopy(tmp, 3);
        ChildJvm.Result first = runListingClasses(wc, "status"); // reads the catalog, and remembers what status needs of it
        ChildJvm.Result second = runListingClasses(wc, "status");
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(first.output()).contains("org.sqlite.JDBC ");
        assertThat(second.output()).contains("dev.fdl.cli.StatusCommand ").doesNotContain("org.sqlite.");
        assertThat(printed(second)).isEqualTo(printed(first)).contains("On branch main");
    }

    /** What {@code r} printed, without the JVM's class-loading lines. */
    private static String printed(ChildJvm.Result r) {
        return r.output().lines().filter(l -> !l.contains(" source: ")).collect(java.util.stream.Collectors.joining("\n"));
    }

    /** Runs {@code fdl -C wc command…} in a fresh JVM that lists every class it loads on stdout. */
    private ChildJvm.Result runListingClasses(Path wc, String... command) throws Exception {
        String[] args = new String[command.length + 2];
        args[0] = "-C";
        args[1] = wc.toString();
        System.arraycopy(command, 0, args, 2, command.length);
        return ChildJvm.await(ChildJvm.start(System.getProperty("java.class.path"), Main.class.getName(),
                "-Xlog:class+load=info:stdout:none", Map.of("FDL_CACHE_DIR", tmp.resolve("cache").toString()), args), 120);
    }
}
