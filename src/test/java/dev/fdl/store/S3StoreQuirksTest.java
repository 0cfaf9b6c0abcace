package dev.fdl.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How S3Store handles the ways S3-compatible stores (and networks) answer conditional writes
 * differently, pinned with {@link FaultyS3Proxy} in front of S3Mock, and the one-line
 * errors of an unusable store.
 */
@UsesS3Mock
class S3StoreQuirksTest {
    @TempDir
    Path tmp;
    FaultyS3Proxy proxy;
    S3Store store;
    String root;

    @BeforeEach
    void start() throws IOException {
        S3MockServer s3 = S3MockServer.shared();
        proxy = new FaultyS3Proxy(s3.endpoint());
        root = s3.newRoot();
        store = new S3Store(S3Location.parse(root), S3Config.endpoint(proxy.endpoint(), S3MockServer.REGION),
                S3MockServer.credentials());
    }

    @AfterEach
    void stop() {
        store.close();
        proxy.close();
    }

    /** Runs the once-per-process probe now, so that injected faults hit the write under test. */
    private void probed() {
        ConditionalWriteProbe.check(store);
        proxy.conditionalRequests.set(0);
    }

    @Test
    void aConflictIsRetriedUntilTheWriteGoesThrough() {
        probed();
        proxy.conflicts.set(2);

        WriteResult r = store.putIfAbsent("refs/heads/main", ContractBytes.of("v1"));

        assertThat(r.isWritten()).isTrue();
        assertThat(proxy.conditionalRequests.get()).isEqualTo(3);
        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(ContractBytes.of("v1"));
    }

    @Test
    void aConflictThatNeverEndsIsAnErrorNotAnExistingKey() {
        probed();
        proxy.conflicts.set(1000);

        assertThatThrownBy(() -> store.putIfAbsent("refs/heads/main", ContractBytes.of("v1")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("did not complete after " + S3Store.MAX_ATTEMPTS + " attempts")
                .hasMessageContaining("409");
        assertThat(proxy.conditionalRequests.get()).isEqualTo(S3Store.MAX_ATTEMPTS);
        assertThat(store.head("refs/heads/main")).isEmpty();
    }

    @Test
    void aCreateOnlyWriteReportsExistsOnlyWhenTheKeyReallyExists() {
        probed();
        proxy.spuriousRefusals.set(1);

        WriteResult r = store.putIfAbsent("refs/tags/v1", ContractBytes.of("v1"));

        assertThat(r.isWritten()).isTrue();
        assertThat(proxy.conditionalRequests.get()).isEqualTo(2);
    }

    @Test
    void aCreateWhoseResponseWasLostAndWhoseRetryIsRefusedSucceedsWhenTheObjectIsOurs() {
        probed();
        proxy.droppedResponses.set(1);

        WriteResult r = store.putIfAbsent("refs/heads/main", ContractBytes.of("mine"));

        assertThat(r.isWritten()).isTrue();
        assertThat(r.etag()).isEqualTo(store.head("refs/heads/main").orElseThrow().etag());
        assertThat(proxy.conditionalRequests.get()).isEqualTo(2);
    }

    @Test
    void aReplaceWhoseResponseWasLostAndWhoseRetryIsRefusedSucceedsWhenTheObjectIsOurs() {
        String etag = store.putIfAbsent("refs/heads/main", ContractBytes.of("old")).etag();
        proxy.conditionalRequests.set(0);
        proxy.droppedResponses.set(1);

        WriteResult r = store.putIfMatch("refs/heads/main", ContractBytes.of("new"), etag);

        assertThat(r.isWritten()).isTrue();
        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(ContractBytes.of("new"));
        assertThat(proxy.conditionalRequests.get()).isEqualTo(2);
    }

    @Test
    void aLostResponseIsNotTakenForSuccessWhenAnotherWriterWon() {
        String etag = store.putIfAbsent("refs/heads/main", ContractBytes.of("old")).etag();
        try (S3Store direct = S3MockServer.shared().store(root, S3MockServer.shared().config())) {
            direct.putIfMatch("refs/heads/main", ContractBytes.of("theirs"), etag);
        }
        proxy.droppedResponses.set(1);

        WriteResult r = store.putIfMatch("refs/heads/main", ContractBytes.of("mine"), etag);

        assertThat(r.status()).isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(ContractBytes.of("theirs"));
    }

    @Test
    void anIfMatchOnAVanishedKeyIsARefusalWhetherTheStoreSays404Or412() {
        String etag = store.putIfAbsent("refs/heads/main", ContractBytes.of("old")).etag();
        store.delete("refs/heads/main");

        WriteResult as404 = store.putIfMatch("refs/heads/main", ContractBytes.of("new"), etag);
        proxy.notFoundAs412 = true;
        WriteResult as412 = store.putIfMatch("refs/heads/main", ContractBytes.of("new"), etag);

        assertThat(as404.status()).isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(as412.status()).isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(store.head("refs/heads/main")).isEmpty();
    }

    @Test
    void etagsCompareEqualWhenTheStoreSendsThemUnquoted() {
        store.putIfAbsent("refs/heads/main", ContractBytes.of("old"));
        proxy.unquoteEtags = true;

        ObjectBytes read = store.get("refs/heads/main").orElseThrow();
        WriteResult moved = store.putIfMatch("refs/heads/main", ContractBytes.of("new"), read.etag());

        assertThat(moved.isWritten()).isTrue();
        assertThat(store.head("refs/heads/main").orElseThrow().etag()).isEqualTo(moved.etag());
        try (var s = store.list("refs/")) {
            assertThat(s.findFirst().orElseThrow().etag()).isEqualTo(moved.etag());
        }
    }

    @Test
    void aStoreThatIgnoresConditionalHeadersIsRefusedBeforeAnyConditionalWrite() {
        proxy.stripConditions = true;

        assertThatThrownBy(() -> store.putIfAbsent("refs/heads/main", ContractBytes.of("v1")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("ignores conditional writes")
                .hasMessageContaining(root);
        assertThatThrownBy(() -> ConditionalWriteProbe.check(store)).hasMessageContaining("two writers could both win");
        assertThat(store.head("refs/heads/main")).isEmpty();
        try (var s = store.list("")) {
            assertThat(s).isEmpty();
        }
        try (S3Store direct = S3MockServer.shared().store(root, S3MockServer.shared().config())) {
            assertThat(direct.client().listObjectsV2(b -> b.bucket(direct.s3Location().bucket())).contents()).isEmpty();
        }
    }

    @Test
    void aConditionalDeleteIsSentWithIfMatchAndAStaleEtagIsRefusedByTheStore() {
        String first = store.putIfAbsent("refs/heads/dev", ContractBytes.of("v1")).etag();
        String second = store.putIfMatch("refs/heads/dev", ContractBytes.of("v2"), first).etag();
        assertThat(store.honoursConditionalDeletes()).isTrue();
        proxy.conditionalDeletes.set(0);

        assertThat(store.deleteIfMatch("refs/heads/dev", first)).isFalse();
        assertThat(store.deleteIfMatch("refs/heads/dev", second)).isTrue();

        assertThat(proxy.conditionalDeletes.get()).isEqualTo(2);
        assertThat(store.head("refs/heads/dev")).isEmpty();
    }

    @Test
    void aStoreThatIgnoresIfMatchOnDeleteIsFoundByTheProbeAndGetsReadThenDelete() {
        proxy.stripDeleteConditions = true;
        String first = store.putIfAbsent("refs/heads/dev", ContractBytes.of("v1")).etag();
        String second = store.putIfMatch("refs/heads/dev", ContractBytes.of("v2"), first).etag();

        assertThat(store.honoursConditionalDeletes()).isFalse();
        assertThat(store.deleteIfMatch("refs/heads/dev", first)).as("stale: refused by re-reading").isFalse();
        assertThat(store.get("refs/heads/dev").orElseThrow().bytes()).isEqualTo(ContractBytes.of("v2"));
        assertThat(store.deleteIfMatch("refs/heads/dev", second)).isTrue();
        assertThat(store.head("refs/heads/dev")).isEmpty();
        try (S3Store direct = S3MockServer.shared().store(root, S3MockServer.shared().config())) {
            assertThat(direct.client().listObjectsV2(b -> b.bucket(direct.s3Location().bucket())).contents())
                    .as("the probe object is gone too").isEmpty();
        }
    }

    @Test
    void accessDeniedIsOneClearLineWithoutCredentials() {
        proxy.accessDenied = true;

        assertThatThrownBy(() -> store.get("fdl.json"))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("access denied to " + root)
                .hasMessageContaining("check credentials")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(S3MockServer.SECRET_KEY)
                        .doesNotContain(S3MockServer.ACCESS_KEY).doesNotContain("\n"));
    }

    @Test
    void aMissingBucketIsNamedWithTheEndpoint() {
        try (S3Store missing = S3MockServer.shared().store("s3://fdl-no-such-bucket/repo/", S3MockServer.shared().config())) {
            assertThatThrownBy(() -> missing.get("fdl.json"))
                    .isInstanceOf(StoreException.class)
                    .hasMessage("no such bucket 'fdl-no-such-bucket' at " + S3MockServer.shared().endpoint()
                            + " (create it, or check the root and AWS_ENDPOINT_URL)");
        }
    }

    @Test
    void anUnreachableEndpointIsOneClearLine() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI dead = URI.create("http://127.0.0.1:" + port);
        try (S3Store unreachable = new S3Store(S3Location.parse("s3://bucket/repo/"), S3Config.endpoint(dead, "us-east-1"),
                S3MockServer.credentials())) {
            assertThatThrownBy(() -> unreachable.get("fdl.json"))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("cannot reach endpoint " + dead)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void aLargeConditionalWriteKeepsItsConditionOnCompleteMultipartUploadAndLeavesNoUploadBehind() throws IOException {
        try (S3Store mp = S3MockServer.shared().store(root, S3MockServer.shared().config()
                .withMultipart(5L << 20, 5L << 20)).conditionalMultipartAbove(5L << 20)) {
            Path big = tmp.resolve("big.bin");
            ObjectStoreContract.writeRandom(big, (11L << 20) + 7);

            WriteResult created = mp.putIfAbsent("versions/v/ducklake.duckdb", Payload.of(big));
            ObjectMeta meta = mp.head("versions/v/ducklake.duckdb").orElseThrow();
            WriteResult again = mp.putIfAbsent("versions/v/ducklake.duckdb", Payload.of(big));

            assertThat(created.isWritten()).isTrue();
            assertThat(created.etag()).endsWith("-3").isEqualTo(S3Parts.multipartEtag(big, 5L << 20));
            assertThat(meta.size()).isEqualTo((11L << 20) + 7);
            assertThat(again.status()).isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
            assertThat(mp.client().listMultipartUploads(b -> b.bucket(mp.s3Location().bucket())).uploads()).isEmpty();
            // (S3Mock 4.12 deletes the existing object on AbortMultipartUpload, which is why
            //  S3Store sends conditional writes as one PutObject up to 5 GiB.)
        }
    }
}
