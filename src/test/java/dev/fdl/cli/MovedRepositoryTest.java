package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A repository that moves still reads: catalogs record the data path of the root they
 * were committed under, yet attach, query, checkout, log, verify and commit resolve data files
 * against the root they are given. The original is deleted, so nothing can quietly read it.
 */
class MovedRepositoryTest {
    @TempDir Path dir;

    @Test
    void aCopiedRepositoryReadsChecksOutAndCommitsAfterTheOriginalIsDeleted() throws Exception {
        Path original = dir.resolve("original");
        Path moved = dir.resolve("elsewhere/moved repo");
        Path wc = dir.resolve("wc");
        Path wc2 = dir.resolve("wc2");
        Files.createDirectories(wc);
        Files.createDirectories(wc2);
        Path m1 = WorkflowCliTest.month(dir, "2024-10-04");
        Path m2 = WorkflowCliTest.month(dir, "2024-12-01");
        Cli.ok(dir, "init", original.toString());
        Cli.ok(wc, "checkout", "--repo", original.toString());
        Cli.ok(wc, "import", m1.toString(), "--table", "cities");
        Cli.ok(wc, "commit", "-m", "October");
        Cli.ok(wc, "tag", "october");
        Cli.ok(wc, "import", m2.toString(), "--table", "cities", "--mode", "replace");
        Cli.ok(wc, "commit", "-m", "December");

        copyTree(original, moved);
        deleteTree(original);
        String repo = moved.toString();

        assertThat(Cli.ok(dir, "verify", "--repo", repo).exit()).isZero();
        assertThat(Cli.ok(dir, "log", "--repo", repo, "--oneline").out().lines().filter(l -> !l.startsWith("#"))).hasSize(2);
        assertThat(Cli.ok(dir, "query", "--repo", repo, "SELECT count(*) FROM cities").out()).contains("28796");
        assertThat(Cli.ok(dir, "query", "--repo", repo, "october", "SELECT count(*) FROM cities").out()).contains("28500");
        String attach = Cli.ok(dir, "attach", "--repo", repo, "october").out();
        assertThat(attach).contains("DATA_PATH '" + moved.resolve("data") + "/', OVERRIDE_DATA_PATH true")
                .doesNotContain(original.toString() + "/");

        Cli.ok(wc2, "checkout", "--repo", repo);
        assertThat(Cli.ok(wc2, "query", "--working", "SELECT count(*) FROM cities").out()).contains("28796");
        Cli.ok(wc2, "import", m1.toString(), "--table", "october_again");
        Cli.ok(wc2, "commit", "-m", "Committed in the copy");
        assertThat(Cli.ok(wc2, "query", "SELECT (SELECT count(*) FROM cities) + (SELECT count(*) FROM october_again) AS n").out())
                .contains(Long.toString(28796 + 28500));
        assertThat(Cli.ok(dir, "verify", "--repo", repo).exit()).isZero();
        assertThat(original).doesNotExist();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) Files.delete(p);
        }
    }
}
