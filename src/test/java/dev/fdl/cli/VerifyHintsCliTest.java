package dev.fdl.cli;

import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static dev.fdl.cli.Pasted.paste;
import static dev.fdl.cli.Pasted.printed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code fdl verify} that messages about a damaged repository send the user to, pasted as
 * printed: each message is provoked by damaging one object of a small repository (a catalog changed
 * or gone, a version.json gone or cut short, a description gone or changed, a ref that cannot be
 * read), and the pasted verify exits 1 naming that object.
 */
class VerifyHintsCliTest {
    @TempDir Path dir;

    private Path root;
    private Path wc;

    /** A repository with two versions on main (tables t, then u); returns their ids. */
    private String[] twoVersions() throws IOException {
        wc = Cli.newWorkingCopy(dir);
        root = dir.resolve("repo");
        String[] ids = new String[2];
        for (int i = 0; i < 2; i++) {
            String t = i == 0 ? "t" : "u";
            Cli.ok(wc, "import", Files.writeString(dir.resolve(t + ".csv"), "id\n" + i + "\n").toString(), "-t", t);
            ids[i] = Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "v" + i, "--json").out()).get("id").asText();
        }
        return ids;
    }

    /** Empties this repository's entries in the catalog cache, so the next command reads the store. */
    private void forgetCache() throws IOException {
        String id = Json.MAPPER.readTree(Files.readAllBytes(root.resolve("fdl.json"))).get("id").asText();
        Path folder = Path.of(System.getenv("FDL_CACHE_DIR")).resolve(id);
        if (!Files.exists(folder)) return;
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }

    /** Pastes {@code verify}, which must exit 1 and name {@code key}; returns what it printed. */
    private String verifyNames(String verify, String key) throws Exception {
        assertThat(verify).isEqualTo("fdl verify");
        String out = paste(wc, verify, ExitCodes.FAILURE);
        assertThat(out).contains(key);
        return out;
    }

    private String failing(Cli.Result r) {
        assertThat(r.exit()).as(r.toString()).isNotZero();
        return r.err();
    }

    /** A catalog that does not match its version.json, then one that is gone: query and gc point at verify. */
    @Test
    void damagedAndMissingCatalog() throws Exception {
        String[] ids = twoVersions();
        String key = "versions/" + ids[1] + "/ducklake.duckdb";
        Path catalog = root.resolve(key);
        Files.write(catalog, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        forgetCache();
        String changed = failing(Cli.in(wc, "query", "main", "SELECT * FROM u"));
        assertThat(verifyNames(printed(changed, "the repository is damaged \\(run (fdl verify)\\)"), key)).contains("sha256");

        Files.delete(catalog);
        forgetCache();
        String missing = failing(Cli.in(wc, "query", "main", "SELECT * FROM u"));
        assertThat(verifyNames(printed(missing, "is missing from \\S+; run (fdl verify)$"), key)).contains("missing");
        String gc = failing(Cli.in(wc, "gc", "--dry-run"));
        verifyNames(printed(gc, "gc deleted nothing \\(run (fdl verify)\\)"), key);
    }

    /** A branch whose version.json is gone (query and gc), another version's cut short: the ref and the file are named. */
    @Test
    void missingAndDamagedVersionJson() throws Exception {
        String[] ids = twoVersions();
        Files.delete(root.resolve("versions").resolve(ids[1]).resolve("version.json"));
        forgetCache();
        String ref = failing(Cli.in(wc, "query", "main", "SELECT * FROM u"));
        assertThat(verifyNames(printed(ref, "no version.json\\); run (fdl verify)$"), "refs/heads/main")).contains(ids[1]);
        String gc = failing(Cli.in(wc, "gc", "--dry-run"));
        verifyNames(printed(gc, "does not show as finished; gc deleted nothing \\(run (fdl verify)\\)"), "refs/heads/main");

        Path json = root.resolve("versions").resolve(ids[0]).resolve("version.json");
        Files.writeString(json, Files.readString(json).substring(0, 20));
        forgetCache();
        String cut = failing(Cli.in(wc, "query", ids[0], "SELECT * FROM t"));
        verifyNames(printed(cut, "\\((fdl verify) lists every problem of a repository\\)"), "versions/" + ids[0] + "/version.json");
    }

    /** A ref that cannot be read: refs warns and lists the rest; verify names the ref. */
    @Test
    void brokenRef() throws Exception {
        twoVersions();
        Files.writeString(Files.createDirectories(root.resolve("refs/tags")).resolve("broken"), "not a ref\n");
        Cli.Result refs = Cli.ok(wc, "refs");
        assertThat(refs.out()).contains("main");
        verifyNames(printed(refs.err(), "ignoring a broken ref: .* \\((fdl verify) lists every problem\\)"), "refs/tags/broken");
    }

    /** A version's description gone, then changed: checking the version out points at verify. */
    @Test
    void missingAndChangedDescription() throws Exception {
        twoVersions();
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"d\", \"title\": \"D\"}\n");
        String id = Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", "described", "--json").out()).get("id").asText();
        Path description;
        try (Stream<Path> files = Files.list(root.resolve("versions").resolve(id))) {
            description = files.filter(f -> f.getFileName().toString().endsWith(".json") && !f.getFileName().toString().equals("version.json"))
                    .findFirst().orElseThrow();
        }
        String key = root.relativize(description).toString();
        byte[] bytes = Files.readAllBytes(description);
        Files.writeString(description, "{\"name\": \"changed\"}\n");
        String changed = failing(Cli.in(Files.createDirectories(dir.resolve("other1")), "checkout", "--repo", root.toString()));
        verifyNames(printed(changed, "size or sha256 differ\\); run (fdl verify)$"), key);

        Files.delete(description);
        String missing = failing(Cli.in(Files.createDirectories(dir.resolve("other2")), "checkout", "--repo", root.toString()));
        assertThat(verifyNames(printed(missing, "is missing; run (fdl verify)$"), key)).contains("missing");
        Files.write(description, bytes);
        paste(wc, "fdl verify");
    }
}
