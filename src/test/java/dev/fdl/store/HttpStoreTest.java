package dev.fdl.store;

import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.util.VersionIds;
import dev.fdl.repo.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HttpStore against a real HTTP server ({@link FolderHttpServer}) serving a repository folder
 * written by LocalStore: the read half of the store contract, read-only refusals, and
 * Repository open/resolve/log over HTTP (SPEC.md sections 2 and 4, "Reading").
 */
class HttpStoreTest {
    @TempDir
    Path tmp;
    LocalStore folder;
    FolderHttpServer server;
    HttpStore store;

    @BeforeEach
    void serve() throws IOException {
        folder = new LocalStore(tmp.resolve("repo"));
        Files.createDirectories(folder.rootPath());
        server = new FolderHttpServer(folder.rootPath(), "/mirror/");
        store = new HttpStore(server.root());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aWholeObjectIsStreamedNotHeldInMemoryAndHashesAsStored() throws Exception {
        Path big = folder.rootPath().resolve("data/big.parquet");
        Files.createDirectories(big.getParent());
        byte[] chunk = new byte[1 << 20];
        new Random(41).nextBytes(chunk);
        try (var out = Files.newOutputStream(big)) {
            for (int i = 0; i < 24; i++) out.write(chunk);
        }
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        long n = 0;
        try (RangeRead r = store.read("data/big.parquet", 0, -1).orElseThrow(); java.io.InputStream in = r.body()) {
            assertThat(in).as("the body comes from the connection, not from a byte array").isNotInstanceOf(java.io.ByteArrayInputStream.class);
            assertThat(r.meta().size()).isEqualTo(24L << 20);
            byte[] buf = new byte[1 << 16];
            for (int k; (k = in.read(buf)) > 0; n += k) md.update(buf, 0, k);
        }
        assertThat(n).isEqualTo(Files.size(big));
        assertThat(java.util.HexFormat.of().formatHex(md.digest())).isEqualTo(dev.fdl.util.Sha256.of(big));
        assertThat(store.read("data/none.parquet", 0, -1)).isEmpty();
    }

    @Test
    void getReturnsTheBytesWithTheServersEtagOrEmptyWhenAbsent() {
        WriteResult w = folder.put("refs/heads/main", ContractBytes.of("x\n"));

        ObjectBytes got = store.get("refs/heads/main").orElseThrow();

        assertThat(got.bytes()).isEqualTo(ContractBytes.of("x\n"));
        assertThat(got.etag()).isEqualTo(w.etag());
        assertThat(store.get("refs/heads/other")).isEmpty();
    }

    @Test
    void headGivesSizeEtagAndLastModified() {
        WriteResult w = folder.put("data/a.parquet", new byte[4321]);

        ObjectMeta meta = store.head("data/a.parquet").orElseThrow();

        assertThat(meta.size()).isEqualTo(4321);
        assertThat(meta.etag()).isEqualTo(w.etag());
        assertThat(meta.lastModified()).isCloseTo(Instant.now(), org.assertj.core.api.Assertions.within(1, ChronoUnit.MINUTES));
        assertThat(store.head("data/b.parquet")).isEmpty();
    }

    @Test
    void downloadStreamsToAFileAndAnAbsentKeyCreatesNone() throws IOException {
        byte[] content = new byte[2_000_000];
        new Random(7).nextBytes(content);
        folder.put("versions/v/ducklake.duckdb", content);
        Path target = tmp.resolve("out/catalog.duckdb");

        ObjectMeta meta = store.download("versions/v/ducklake.duckdb", target).orElseThrow();

        assertThat(Files.readAllBytes(target)).isEqualTo(content);
        assertThat(meta.size()).isEqualTo(content.length);
        assertThat(store.download("versions/w/ducklake.duckdb", tmp.resolve("out/none"))).isEmpty();
        assertThat(tmp.resolve("out/none")).doesNotExist();
        try (var left = Files.list(tmp.resolve("out"))) {
            assertThat(left).containsExactly(target);
        }
    }

    @Test
    void everyWriteListingAndDeleteIsRefusedAsReadOnly() {
        int before = server.requests.get();

        assertThat(store.readOnly()).isTrue();
        for (Runnable write : List.<Runnable>of(
                () -> store.put("k", ContractBytes.of("x")),
                () -> store.putIfAbsent("k", ContractBytes.of("x")),
                () -> store.putIfMatch("k", ContractBytes.of("x"), "e"),
                () -> store.delete("k"))) {
            assertThatThrownBy(write::run).isInstanceOf(ReadOnlyStoreException.class).hasMessageContaining("read-only");
        }
        assertThat(store.canList()).isFalse();
        assertThatThrownBy(() -> store.list("")).isInstanceOf(StoreException.class).hasMessageContaining("can be read but not listed");
        assertThat(server.requests.get()).isEqualTo(before);
    }

    @Test
    void locationIsTheUrlOfTheKeyPercentEncoded() {
        assertThat(store.root()).isEqualTo(server.root().toString());
        assertThat(store.location("data/")).isEqualTo(server.root() + "data/");
        assertThat(store.location("data/a b.parquet")).isEqualTo(server.root() + "data/a%20b.parquet");
    }

    @Test
    void storesOpenGivesAReadOnlyHttpStoreAndInitIsRefused() {
        try (ObjectStore opened = Stores.open(server.root().toString().replaceAll("/$", ""))) {
            assertThat(opened).isInstanceOf(HttpStore.class);
            assertThat(opened.root()).isEqualTo(server.root().toString());
            assertThatThrownBy(() -> Repository.init(opened, new RefName("main")))
                    .isInstanceOf(ReadOnlyStoreException.class);
        }
    }

    @Test
    void aRepositoryOpensResolvesAndLogsOverHttp() {
        Repository.init(folder, new RefName("main"));
        String first = VersionIds.next();
        String second = VersionIds.next();
        folder.put(RepoLayout.versionJson(first), version(first, 1, List.of()));
        folder.put(RepoLayout.versionJson(second), version(second, 2, List.of(first)));
        folder.putIfAbsent("refs/heads/main", Repository.refBytes(second));

        Repository repo = Repository.open(store);

        assertThat(repo.headBranch().name()).isEqualTo("main");
        assertThat(repo.resolve("main").version().id()).isEqualTo(second);
        assertThat(repo.log(second, 10)).extracting(e -> e.version().id()).containsExactly(second, first);
    }

    @Test
    void anUnreachableServerIsOneClearLine() {
        server.close();
        assertThatThrownBy(() -> store.get("fdl.json"))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot reach http://127.0.0.1:")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    private static byte[] version(String id, long seq, List<String> parents) {
        return new VersionInfo("0.1", id, seq, parents, Instant.parse("2026-10-15T09:00:00Z"),
                new VersionInfo.Author("bob", null), "version " + seq,
                new VersionInfo.FileRef("ducklake.duckdb", "duckdb-v1.5.0", 4, "0".repeat(64)),
                new VersionInfo.FileRef("dataset.json", null, 2, "1".repeat(64)),
                new VersionInfo.DuckLakeInfo("1.0", seq, seq == 1 ? 0 : seq, seq), Map.of()).toBytes();
    }
}
