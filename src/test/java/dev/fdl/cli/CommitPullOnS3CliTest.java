package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.UsesS3Mock;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two scheduled writers load different tables into one branch of a repository on S3 (S3Mock) at
 * the same time, each ending with {@code fdl commit --pull}: every load lands, nothing is lost, and
 * the history stays linear (every version has one parent).
 */
@UsesS3Mock
class CommitPullOnS3CliTest {
    @TempDir Path dir;

    static final int ROUNDS = 3;

    @Test
    void twoWritersOnDifferentTablesBothLandAndHistoryStaysLinear() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        s3.installSystemProperties();
        String root = s3.newRoot();
        Path a = dir.resolve("a"), b = dir.resolve("b");
        Files.createDirectories(a);
        Files.createDirectories(b);
        Cli.ok(dir, "init", root);
        Cli.ok(a, "checkout", "--repo", root);
        Cli.ok(a, "import", csv("ta", "k,v\n0,0\n").toString(), "--table", "ta", "--mode", "sync", "--key", "k");
        Cli.ok(a, "import", csv("tb", "k,v\n0,0\n").toString(), "--table", "tb", "--mode", "sync", "--key", "k");
        Cli.ok(a, "commit", "-m", "base");
        Cli.ok(b, "checkout", "--repo", root);

        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> jobs = new ArrayList<>();
            for (String[] job : new String[][]{{"a", "ta"}, {"b", "tb"}}) {
                Path wc = dir.resolve(job[0]);
                jobs.add(pool.submit(() -> {
                    StringBuilder rows = new StringBuilder("k,v\n0,0\n");
                    for (int round = 1; round <= ROUNDS; round++) {
                        rows.append(round).append(',').append(round * 10).append('\n');
                        Cli.ok(wc, "import", csv(job[1] + round, rows.toString()).toString(), "--table", job[1], "--mode", "sync");
                        together.await(); // both commit at once, so one of them finds the branch moved
                        Cli.ok(wc, "commit", "--pull", "-m", job[1] + " round " + round);
                    }
                    return null;
                }));
            }
            for (Future<?> f : jobs) f.get();
        } finally {
            pool.shutdownNow();
        }

        JsonNode log = Json.MAPPER.readTree(Cli.ok(a, "log", "--json", "--repo", root).out());
        assertThat(log).as("base + every round of both writers").hasSize(1 + 2 * ROUNDS);
        for (JsonNode v : log) assertThat(v.get("parents").size()).as("linear history").isLessThanOrEqualTo(1);
        String expected = "k,v\n0,0\n1,10\n2,20\n3,30\n";
        assertThat(Cli.ok(a, "query", "--csv", "--repo", root, "HEAD", "SELECT * FROM ta ORDER BY k").out()).isEqualTo(expected);
        assertThat(Cli.ok(a, "query", "--csv", "--repo", root, "HEAD", "SELECT * FROM tb ORDER BY k").out()).isEqualTo(expected);
    }

    private Path csv(String name, String content) throws java.io.IOException {
        Path p = dir.resolve(name + "-" + System.nanoTime() + ".csv");
        Files.writeString(p, content);
        return p;
    }
}
