package dev.fdl.trust;

import dev.fdl.cli.Cli;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Signed versions end to end (docs/signing.md): fdl commit --sign writes manifest.sha256 and
 * version.json.sig; fdl verify --signatures and OpenSSH's own tools (the exact commands the
 * docs give) accept them; each stored file changed afterwards is found and named.
 */
class SignedVersionsCliTest {
    @TempDir Path tmp;
    private Path wc;
    private Path repo;
    private Path key;
    private Path allowed;

    @BeforeEach
    void signedRepository() throws Exception {
        wc = Cli.newWorkingCopy(tmp);
        repo = tmp.resolve("repo");
        key = OpenSsh.keygen(tmp, "alice", "ed25519", "");
        allowed = tmp.resolve("allowed_signers");
        Files.writeString(allowed, OpenSsh.allowedLine("alice@example.org", key));
        Path csv = tmp.resolve("t.csv");
        StringBuilder s = new StringBuilder("id,name\n");
        for (int i = 0; i < 500; i++) s.append(i).append(",name ").append(i).append('\n');
        Files.writeString(csv, s);
        Cli.ok(wc, "import", csv.toString(), "--table", "t");
        Cli.ok(wc, "commit", "-m", "first", "--sign=" + key);
        Files.writeString(csv, "id,name\n1,one\n2,two\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "u");
        Cli.ok(wc, "commit", "-m", "second", "-S", key.toString()); // git's short option
    }

    private String head() throws Exception {
        return Files.readString(repo.resolve("refs/heads/main")).trim();
    }

    private Cli.Result verify(String... more) {
        String[] args = Stream.concat(Stream.of("verify", "--signatures", "--repo", repo.toString(), "--allowed-signers", allowed.toString()),
                Stream.of(more)).toArray(String[]::new);
        return Cli.in(tmp, args);
    }

    @Test
    void fdlAndOpenSshAcceptASignedVersion() throws Exception {
        Cli.Result r = verify("--all");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("signed by alice@example.org").contains("Checked 2 version(s)");

        String id = head();
        Path folder = repo.resolve("versions/" + id);
        OpenSsh.Run sig = OpenSsh.run(tmp, Files.readAllBytes(folder.resolve("version.json")), Map.of(), "ssh-keygen", "-Y", "verify",
                "-f", allowed.toString(), "-I", "alice@example.org", "-n", "fdl", "-s", folder.resolve("version.json.sig").toString());
        assertThat(sig.exit()).as(sig.out()).isZero();
        OpenSsh.Run sums = OpenSsh.run(repo, null, Map.of(), "sha256sum", "-c", "versions/" + id + "/manifest.sha256");
        assertThat(sums.exit()).as(sums.out()).isZero();
        List<String> lines = OpenSsh.lines(sums.out());
        assertThat(lines).contains("versions/" + id + "/ducklake.duckdb: OK", "versions/" + id + "/dataset.json: OK");
        assertThat(lines.stream().filter(l -> l.startsWith("data/main/") && l.endsWith(".parquet: OK"))).hasSize(2); // t's and u's
        assertThat(Files.readString(folder.resolve("version.json"))).contains("\"manifest\"");

        Cli.ok(tmp, "tag", "-u", key.toString(), "v1", "--repo", repo.toString());
        Cli.Result tagged = verify("v1");
        assertThat(tagged.exit()).as(tagged.toString()).isZero();
        assertThat(tagged.out()).contains("tag v1: signed by alice@example.org");
        byte[] tagText = ("object " + id + "\ntag v1\n").getBytes(StandardCharsets.UTF_8);
        OpenSsh.Run tagSig = OpenSsh.run(tmp, tagText, Map.of(), "ssh-keygen", "-Y", "verify", "-f", allowed.toString(),
                "-I", "alice@example.org", "-n", "fdl", "-s", folder.resolve("tags/v1.sig").toString());
        assertThat(tagSig.exit()).as(tagSig.out()).isZero();
        Files.copy(folder.resolve("tags/v1.sig"), folder.resolve("tags/v2.sig"));
        Cli.ok(tmp, "tag", "v2", "--repo", repo.toString());
        Cli.Result moved = verify("v2");
        assertThat(moved.exit()).isEqualTo(1);
        assertThat(moved.out()).contains("tags/v2.sig: does not sign tag 'v2'");
    }

    @Test
    void eachChangedFileIsFoundAndNamed() throws Exception {
        String id = head();
        Path folder = repo.resolve("versions/" + id);
        Path data;
        try (Stream<Path> s = Files.walk(repo.resolve("data"))) {
            data = s.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
        for (Path f : List.of(data, folder.resolve("ducklake.duckdb"), folder.resolve("dataset.json"), folder.resolve("manifest.sha256"),
                folder.resolve("version.json.sig"), folder.resolve("version.json"))) {
            byte[] original = Files.readAllBytes(f);
            byte[] changed = original.clone();
            int at = f.getFileName().toString().equals("version.json") ? new String(original, StandardCharsets.UTF_8).indexOf("second")
                    : f.getFileName().toString().endsWith(".sig") ? original.length / 2 : original.length / 3;
            changed[at] = (byte) (changed[at] == 'A' ? 'B' : 'A'); // same size, other bytes
            Files.write(f, changed);
            Cli.Result r = verify(id);
            assertThat(r.exit()).as(f + "\n" + r).isEqualTo(1);
            String name = repo.relativize(f).toString();
            assertThat(r.out()).as(f + "\n" + r).contains(f.getFileName().toString().equals("version.json")
                    ? "versions/" + id + "/version.json" : name);
            Files.write(f, original);
            assertThat(verify(id).exit()).as("restored " + f).isZero();
        }
    }

    @Test
    void aFileChangedInPlaceAtTheSameSizeIsFoundByItsDigestOnly() throws Exception {
        Path data;
        try (Stream<Path> s = Files.walk(repo.resolve("data"))) {
            data = s.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(data);
        b[b.length / 2] ^= 0x55;
        Files.write(data, b);
        Cli.Result r = verify("--all");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains(repo.relativize(data) + ": differs");
    }

    @Test
    void theIcebergFilesCommitWritesAreListedAndATamperedOneIsNamed() throws Exception {
        Cli.ok(wc, "iceberg", "--enable");
        Path csv = tmp.resolve("i.csv");
        Files.writeString(csv, "a,b\n1,x\n2,y\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "ice");
        Cli.ok(wc, "commit", "-m", "with iceberg", "--sign=" + key);
        String id = head();
        List<String> iceberg;
        try (Stream<Path> s = Files.walk(repo.resolve("versions/" + id + "/iceberg"))) {
            iceberg = s.filter(Files::isRegularFile).map(p -> repo.relativize(p).toString()).sorted().toList();
        }
        assertThat(iceberg).anyMatch(k -> k.endsWith("v1.metadata.json")).anyMatch(k -> k.endsWith(".avro"));
        OpenSsh.Run sums = OpenSsh.run(repo, null, Map.of(), "sha256sum", "-c", "versions/" + id + "/manifest.sha256");
        assertThat(sums.exit()).as(sums.out()).isZero();
        assertThat(OpenSsh.lines(sums.out())).containsAll(iceberg.stream().map(k -> k + ": OK").toList());
        assertThat(verify(id).exit()).isZero();

        Path metadata = repo.resolve(iceberg.stream().filter(k -> k.endsWith("v1.metadata.json") && k.contains("/ice/")).findFirst().orElseThrow());
        String json = Files.readString(metadata);
        Files.writeString(metadata, json.replace("\"format-version\":2", "\"format-version\":3"));
        assertThat(Files.readString(metadata)).isNotEqualTo(json);
        Cli.Result r = verify(id);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains(repo.relativize(metadata) + ": differs");
    }

    @Test
    void plainVerifyNoticesADataFileWhoseSizeDiffersFromTheCatalogs() throws Exception {
        Path data;
        try (Stream<Path> s = Files.walk(repo.resolve("data"))) {
            data = s.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
        assertThat(Cli.in(tmp, "verify", "--repo", repo.toString()).exit()).isZero();
        Files.write(data, new byte[]{1}, java.nio.file.StandardOpenOption.APPEND);
        Cli.Result r = Cli.in(tmp, "verify", "--repo", repo.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains(repo.relativize(data) + ": its size differs from the " + (Files.size(data) - 1) + " bytes");
    }

    @Test
    void aKeyNotAllowedAndAnUnsignedVersionAreRefused() throws Exception {
        Path other = OpenSsh.keygen(tmp, "mallory", "ed25519", "");
        Files.writeString(allowed, OpenSsh.allowedLine("mallory@example.org", other));
        Cli.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("does not allow to sign for fdl").contains("version.json.sig");

        Path csv = tmp.resolve("v.csv");
        Files.writeString(csv, "a\n1\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "v");
        Cli.ok(wc, "commit", "-m", "unsigned");
        Cli.Result u = verify();
        assertThat(u.exit()).isEqualTo(1);
        assertThat(u.out()).contains("versions/" + head() + "/version.json: unsigned");
    }

    @Test
    void badInputIsAClearErrorAndNoVersionIsHalfSigned() throws Exception {
        long before = versions();
        Path csv = tmp.resolve("w.csv");
        Files.writeString(csv, "a\n1\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "w");
        Cli.Result missing = Cli.in(wc, "commit", "-m", "x", "--sign=" + tmp.resolve("no-such-key"));
        assertThat(missing.exit()).as(missing.toString()).isEqualTo(1);
        assertThat(missing.err()).contains("no-such-key").contains("does not exist");
        Path locked = OpenSsh.keygen(tmp, "locked", "ed25519", "pass phrase");
        Cli.Result pass = Cli.in(wc, "commit", "-m", "x", "--sign=" + locked);
        assertThat(pass.exit()).isEqualTo(1);
        assertThat(pass.err()).contains(locked.toString()).contains("passphrase");
        assertThat(versions()).isEqualTo(before);

        Cli.Result unreadable = Cli.in(tmp, "verify", "--signatures", "--repo", repo.toString(), "--allowed-signers",
                tmp.resolve("nowhere").toString());
        assertThat(unreadable.exit()).as(unreadable.toString()).isEqualTo(1);
        assertThat(unreadable.err()).contains("nowhere").contains("allowed-signers");
    }

    @Test
    void theRepositoryNamesItsAllowedSigners() throws Exception {
        allowedSignersInRepository();
        Cli.Result r = Cli.in(tmp, "verify", "--signatures", "--repo", repo.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("signed by alice@example.org");
        assertThat(Cli.ok(wc, "show").out()).contains("Signed:    alice@example.org (ssh-ed25519 SHA256:");
        assertThat(Cli.ok(wc, "log", "--show-signature").out()).contains("Signed:    alice@example.org (ssh-ed25519");
        Files.writeString(repo.resolve("allowed_signers"), OpenSsh.allowedLine("bob@example.org", OpenSsh.keygen(tmp, "bob", "ed25519", "")));
        assertThat(Cli.ok(wc, "show").out()).contains("does not allow");
    }

    @Test
    void theSitesVersionPageSaysWhoSignedAndFollowsTheAllowedSigners() throws Exception {
        allowedSignersInRepository();
        String signed = head();
        Path csv = tmp.resolve("w.csv");
        Files.writeString(csv, "a\n1\n");
        Cli.ok(wc, "import", csv.toString(), "--table", "w");
        Cli.ok(wc, "commit", "-m", "unsigned");
        String unsigned = head();
        Cli.ok(tmp, "site", "--repo", repo.toString());
        assertThat(signedLine(signed)).startsWith("alice@example.org (ssh-ed25519 SHA256:");
        assertThat(signedLine(unsigned)).isEqualTo("unsigned");

        // the allowed signers changed: the page is rendered again and says so
        Files.writeString(repo.resolve("allowed_signers"), OpenSsh.allowedLine("bob@example.org", OpenSsh.keygen(tmp, "bob", "ed25519", "")));
        Cli.ok(tmp, "site", "--repo", repo.toString());
        assertThat(signedLine(signed)).startsWith("by ssh-ed25519 SHA256:").contains("does not allow");
    }

    /** Copies the allowed signers into the repository and names them in fdl.json (docs/signing.md). */
    private void allowedSignersInRepository() throws Exception {
        Files.copy(allowed, repo.resolve("allowed_signers"));
        Path config = repo.resolve("fdl.json");
        String json = Files.readString(config).trim();
        Files.writeString(config, json.substring(0, json.lastIndexOf('}')) + ", \"allowed_signers\": \"allowed_signers\"}\n");
    }

    /** The "signed" fact of a version's site page. */
    private String signedLine(String version) throws Exception {
        String html = Files.readString(repo.resolve("site/versions/" + version + ".html"));
        int at = html.indexOf("<span id=\"signed\">");
        assertThat(at).as("the signed fact on " + version + "'s page").isNotNegative();
        return html.substring(at + "<span id=\"signed\">".length(), html.indexOf("</span>", at));
    }

    private long versions() throws Exception {
        try (Stream<Path> s = Files.list(repo.resolve("versions"))) {
            return s.count();
        }
    }
}
