package dev.fdl.workingcopy;

import dev.fdl.repo.RepoFixture;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A writer in another process, for gc's concurrency test: {@code n} times, puts a fresh data file
 * and then commits a version naming it and {@code main/t/c.parquet} (the order commit uses:
 * data, catalog, dataset.json, version.json, then the branch with If-Match), retrying when the
 * branch moved. Prints one line per committed file name.
 *
 * <p>Arguments: repository root, scratch folder, number of commits, name prefix.
 */
public final class CommitWorker {
    public static void main(String[] args) {
        RepoFixture fx = RepoFixture.open(Path.of(args[0]), Path.of(args[1]));
        int n = Integer.parseInt(args[2]);
        for (int i = 0; i < n; i++) {
            String name = "main/t/" + args[3] + "-" + i + ".parquet";
            fx.dataFile(name, Instant.now());
            while (true) {
                try {
                    fx.commit("main", List.of(name, "main/t/c.parquet"));
                    break;
                } catch (IllegalStateException moved) {
                    // the branch moved meanwhile: commit again on top
                }
            }
            System.out.println(name);
        }
    }
}
