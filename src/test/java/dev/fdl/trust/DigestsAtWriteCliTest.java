package dev.fdl.trust;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.Sha256;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The digests of the files merge and add-files write or register are taken then, with the bytes
 * in hand (docs/signing.md), and commit does not read those files again: each such file is
 * changed in the store (same size, other bytes) between the command and the commit, and the
 * manifest still lists the digest of the bytes the command wrote or registered. A commit that
 * hashed the stored files would list the changed bytes' digest.
 */
class DigestsAtWriteCliTest {
    @TempDir Path dir;
    private Path wc;
    private Path repo;
    private int files;

    @BeforeEach
    void repository() throws Exception {
        wc = Cli.newWorkingCopy(dir);
        repo = dir.resolve("repo");
    }

    private Path csv(String content) throws Exception {
        Path p = dir.resolve("f" + (files++) + ".csv");
        Files.writeString(p, content);
        return p;
    }

    private Set<Path> dataFiles() throws Exception {
        try (Stream<Path> s = Files.walk(repo.resolve("data"))) {
            return new HashSet<>(s.filter(Files::isRegularFile).toList());
        }
    }

    /** Changes one byte of each file (same size), returning each file's digest before the change, by repository path. */
    private Map<String, String> tamper(Set<Path> changed) throws Exception {
        Map<String, String> before = new TreeMap<>();
        for (Path f : changed) {
            before.put(repo.relativize(f).toString(), Sha256.of(f));
            byte[] b = Files.readAllBytes(f);
            b[b.length / 2] ^= 0x5a;
            Files.write(f, b);
        }
        return before;
    }

    /** The manifest of the branch's newest version, path to digest. */
    private Map<String, String> manifest(String branch) throws Exception {
        String id = Files.readString(repo.resolve("refs/heads/" + branch)).trim();
        Map<String, String> out = new TreeMap<>();
        for (String line : Files.readAllLines(repo.resolve("versions/" + id + "/manifest.sha256")))
            out.put(line.substring(66), line.substring(0, 64));
        return out;
    }

    @Test
    void mergedFilesAreNotReadAgainByCommit() throws Exception {
        Cli.ok(wc, "import", csv("k,a\n1,10\n2,20\n3,30\n").toString(), "--table", "kt", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "commit", "-m", "base");
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        Cli.ok(other, "checkout", "--repo", repo.toString(), "-b", "staging", "main");
        Cli.ok(other, "import", csv("k,a\n1,10\n2,21\n3,30\n4,40\n").toString(), "--table", "kt", "--mode", "sync");
        Cli.ok(other, "commit", "-m", "staging");
        Cli.ok(wc, "import", csv("k,a\n1,11\n2,20\n3,30\n").toString(), "--table", "kt", "--mode", "sync");
        Cli.ok(wc, "commit", "-m", "main");
        Set<Path> before = dataFiles();

        Cli.ok(wc, "merge", "staging");
        Set<Path> written = dataFiles();
        written.removeAll(before);
        assertThat(written).as("the merge writes data or delete files of its own").isNotEmpty();
        Map<String, String> digests = tamper(written);
        Cli.ok(wc, "commit", "-m", "merged");
        assertThat(manifest("main")).containsAllEntriesOf(digests);
    }

    @Test
    void commitPrunesTheBookToTheFilesTheVersionNames() throws Exception {
        Path book = wc.resolve(".fdl/digests");
        Cli.ok(wc, "import", csv("a\n1\n2\n").toString(), "--table", "t");
        String stale = "0".repeat(64) + " 10 data/main/t/gone.parquet\n";
        Files.writeString(book, stale, java.nio.file.StandardOpenOption.APPEND);
        Cli.ok(wc, "commit", "-m", "first");
        List<String> lines = Files.readAllLines(book);
        Set<String> named = manifest("main").keySet();
        assertThat(lines).isNotEmpty().noneMatch(l -> l.endsWith("gone.parquet"));
        assertThat(lines).allMatch(l -> named.contains(l.split(" ", 3)[2]));
    }

    @Test
    void registeredFilesAreNotReadAgainByCommit() throws Exception {
        Path part = repo.resolve("data/jobs/part-0.parquet");
        Files.createDirectories(part.getParent());
        try (Connection c = DuckDbPool.shared().connection(); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id, 'n' || range AS name FROM range(0, 2000)) TO '" + part
                    + "' (FORMAT parquet, FIELD_IDS {id: 1, name: 2})");
        }
        Cli.ok(wc, "add-files", "jobs/part-0.parquet", "--table", "events", "--create");
        Map<String, String> digests = tamper(Set.of(part));
        Cli.ok(wc, "commit", "-m", "registered");
        assertThat(manifest("main")).containsAllEntriesOf(digests);
        assertThat(List.copyOf(digests.keySet())).containsExactly("data/jobs/part-0.parquet");
    }
}
