package dev.fdl.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store contract of SPEC.md section 2, run against every writable backend: a concrete
 * subclass gives {@link #newStore()} (a fresh, empty root per test) and, for tests that start
 * other JVMs, the environment those need to open the same root through {@code Stores.open}.
 */
abstract class ObjectStoreContract {
    /** A store on a fresh, empty root. */
    abstract ObjectStore newStore();

    /** Environment a child JVM needs to open {@code store.root()} with {@code Stores.open}. */
    Map<String, String> childEnvironment() {
        return Map.of();
    }

    @TempDir
    Path tmp;
    ObjectStore store;

    @BeforeEach
    void open() {
        store = newStore();
    }

    @AfterEach
    void close() {
        store.close();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------ putIfAbsent

    @Test
    void putIfAbsentCreatesTheKeyAndRefusesASecondCreate() {
        WriteResult first = store.putIfAbsent("refs/heads/main", utf8("one\n"));
        WriteResult second = store.putIfAbsent("refs/heads/main", utf8("two\n"));

        assertThat(first.isWritten()).isTrue();
        assertThat(first.etag()).isNotBlank();
        assertThat(second.status()).isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(utf8("one\n"));
    }

    @Test
    void putIfAbsentLetsExactlyOneOfManyConcurrentWritersWin() throws Exception {
        List<Integer> winners = race(12, body -> store.putIfAbsent("refs/tags/v1", body));

        assertThat(winners).hasSize(1);
        assertThat(store.get("refs/tags/v1").orElseThrow().bytes()).isEqualTo(utf8("writer " + winners.get(0) + "\n"));
    }

    /** {@code writers} threads released at once, writer i writing "writer i\n"; returns who won. */
    private static List<Integer> race(int writers, java.util.function.Function<byte[], WriteResult> write) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<WriteResult>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                byte[] body = utf8("writer " + i + "\n");
                results.add(pool.submit(() -> {
                    go.await();
                    return write.apply(body);
                }));
            }
            go.countDown();
            List<Integer> winners = new ArrayList<>();
            for (int i = 0; i < writers; i++) if (results.get(i).get().isWritten()) winners.add(i);
            return winners;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A read's ETag is that of the bytes it returned, even when asked after the object changed (a
     * local folder computes it only when asked): a move conditioned on it must then be refused.
     */
    @Test
    void aReadsEtagIsThatOfItsBytesEvenWhenAskedAfterTheObjectChanged() {
        WriteResult first = store.putIfAbsent("refs/heads/main", utf8("one\n"));
        ObjectBytes read = store.get("refs/heads/main").orElseThrow();
        WriteResult second = store.putIfMatch("refs/heads/main", utf8("two\n"), first.etag());
        assertThat(second.isWritten()).isTrue();

        assertThat(read.bytes()).isEqualTo(utf8("one\n"));
        assertThat(read.etag()).isEqualTo(first.etag()).isNotEqualTo(second.etag());
        assertThat(store.putIfMatch("refs/heads/main", utf8("three\n"), read.etag()).status())
                .isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
    }

    // ------------------------------------------------------------ putIfMatch

    @Test
    void putDerivedWritesAndReplacesTheWholeObject() {
        store.putDerived("site/versions/a.html", utf8("<p>one</p>"));
        assertThat(store.get("site/versions/a.html").orElseThrow().bytes()).isEqualTo(utf8("<p>one</p>"));
        store.putDerived("site/versions/a.html", utf8("<p>two, longer</p>"));

        ObjectBytes now = store.get("site/versions/a.html").orElseThrow();
        assertThat(now.bytes()).isEqualTo(utf8("<p>two, longer</p>"));
        try (var keys = store.list("site/")) {
            assertThat(keys.map(ObjectMeta::key)).containsExactly("site/versions/a.html"); // no temporary file left
        }
        byte[] large = new byte[(1 << 20) + 1]; // past a local folder's content-ETag limit: written the ordinary way
        new Random(5).nextBytes(large);
        store.putDerived("site/large.bin", large);
        assertThat(store.get("site/large.bin").orElseThrow().bytes()).isEqualTo(large);
    }

    @Test
    void putIfMatchReplacesTheObjectAtItsCurrentEtag() {
        String etag = store.putIfAbsent("refs/heads/main", utf8("one\n")).etag();

        WriteResult moved = store.putIfMatch("refs/heads/main", utf8("two\n"), etag);

        assertThat(moved.isWritten()).isTrue();
        ObjectBytes now = store.get("refs/heads/main").orElseThrow();
        assertThat(now.bytes()).isEqualTo(utf8("two\n"));
        assertThat(now.etag()).isEqualTo(moved.etag()).isNotEqualTo(ETags.normalize(etag));
    }

    @Test
    void putIfMatchRefusesAStaleEtagAndChangesNothing() {
        String first = store.putIfAbsent("refs/heads/main", utf8("one\n")).etag();
        store.putIfMatch("refs/heads/main", utf8("two\n"), first);

        WriteResult stale = store.putIfMatch("refs/heads/main", utf8("three\n"), first);

        assertThat(stale.status()).isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(utf8("two\n"));
    }

    @Test
    void putIfMatchRefusesAKeyThatDoesNotExist() {
        String etag = store.putIfAbsent("refs/heads/main", utf8("one\n")).etag();
        store.delete("refs/heads/main");

        assertThat(store.putIfMatch("refs/heads/main", utf8("two\n"), etag).status())
                .isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(store.putIfMatch("refs/heads/never", utf8("two\n"), etag).status())
                .isEqualTo(WriteResult.Status.PRECONDITION_FAILED);
        assertThat(store.get("refs/heads/main")).isEmpty();
        assertThat(store.get("refs/heads/never")).isEmpty();
    }

    @Test
    void putIfMatchAcceptsTheEtagQuotedOrUnquoted() {
        String etag = store.putIfAbsent("HEAD", utf8("a")).etag();
        WriteResult quoted = store.putIfMatch("HEAD", utf8("b"), "\"" + etag + "\"");
        WriteResult unquoted = store.putIfMatch("HEAD", utf8("c"), ETags.normalize(quoted.etag()));

        assertThat(quoted.isWritten()).isTrue();
        assertThat(unquoted.isWritten()).isTrue();
        assertThat(store.get("HEAD").orElseThrow().bytes()).isEqualTo(utf8("c"));
    }

    @Test
    void putIfMatchLetsExactlyOneOfManyWritersAtTheSameEtagWin() throws Exception {
        String etag = store.putIfAbsent("refs/heads/main", utf8("base\n")).etag();
        List<Integer> winners = race(12, body -> store.putIfMatch("refs/heads/main", body, etag));

        assertThat(winners).hasSize(1);
        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(utf8("writer " + winners.get(0) + "\n"));
    }

    @Test
    void aKeyThroughAnObjectOrEndingInASlashIsAbsent() throws java.io.IOException {
        store.put("fdl.json", utf8("{}\n"));
        for (String key : new String[] {"fdl.json/", "fdl.json/x", "fdl.json/x/y"}) {
            assertThat(store.get(key)).as(key).isEmpty();
            assertThat(store.head(key)).as(key).isEmpty();
            assertThat(store.stat(key)).as(key).isEmpty();
            assertThat(store.read(key, 0, 1)).as(key).isEmpty();
            assertThat(store.download(key, tmp.resolve("download-target"))).as(key).isEmpty();
        }
        assertThat(store.get("fdl.json").orElseThrow().bytes()).isEqualTo(utf8("{}\n"));
    }

    // ------------------------------------------------------------ deleteIfMatch

    @Test
    void deleteIfMatchDeletesTheObjectAtItsCurrentEtag() {
        String etag = store.putIfAbsent("refs/heads/dev/x", utf8("one\n")).etag();

        assertThat(store.deleteIfMatch("refs/heads/dev/x", "\"" + ETags.normalize(etag) + "\"")).isTrue();

        assertThat(store.get("refs/heads/dev/x")).isEmpty();
        assertThat(store.putIfAbsent("refs/heads/dev", utf8("two\n")).isWritten()).as("no folder left in the way").isTrue();
    }

    @Test
    void deleteIfMatchRefusesAStaleEtagOrAnAbsentKeyAndChangesNothing() {
        String first = store.putIfAbsent("refs/heads/main", utf8("one\n")).etag();
        String second = store.putIfMatch("refs/heads/main", utf8("two\n"), first).etag();

        assertThat(store.deleteIfMatch("refs/heads/main", first)).isFalse();
        assertThat(store.deleteIfMatch("refs/heads/never", second)).isFalse();

        assertThat(store.get("refs/heads/main").orElseThrow().bytes()).isEqualTo(utf8("two\n"));
        assertThat(store.deleteIfMatch("refs/heads/main", second)).isTrue();
        assertThat(store.deleteIfMatch("refs/heads/main", second)).as("already gone").isFalse();
    }

    @Test
    void deleteIfMatchAndAMoveAtTheSameEtagNeverBothWin() throws Exception {
        for (int round = 0; round < 10; round++) {
            String etag = store.putIfAbsent("refs/heads/r" + round, utf8("base\n")).etag();
            String key = "refs/heads/r" + round;
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                CountDownLatch go = new CountDownLatch(1);
                Future<Boolean> deleted = pool.submit(() -> {
                    go.await();
                    return store.deleteIfMatch(key, etag);
                });
                Future<WriteResult> moved = pool.submit(() -> {
                    go.await();
                    return store.putIfMatch(key, utf8("moved\n"), etag);
                });
                go.countDown();
                boolean d = deleted.get();
                boolean m = moved.get().isWritten();
                assertThat(d ^ m).as("round " + round + ": exactly one of delete and move wins").isTrue();
                if (m) assertThat(store.get(key).orElseThrow().bytes()).isEqualTo(utf8("moved\n"));
                else assertThat(store.get(key)).isEmpty();
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ------------------------------------------------------------ reads

    @Test
    void getReturnsTheBytesAndTheEtagOrEmptyWhenAbsent() {
        WriteResult w = store.put("versions/x/version.json", utf8("{}"));

        ObjectBytes got = store.get("versions/x/version.json").orElseThrow();

        assertThat(got.bytes()).isEqualTo(utf8("{}"));
        assertThat(got.etag()).isEqualTo(w.etag());
        assertThat(store.get("versions/x/missing.json")).isEmpty();
        assertThat(store.get("nothing/here")).isEmpty();
    }

    @Test
    void headGivesSizeEtagAndLastModifiedOrEmptyWhenAbsent() {
        Instant before = Instant.now().minusSeconds(5).truncatedTo(ChronoUnit.SECONDS);
        WriteResult w = store.put("data/a.parquet", new byte[1234]);

        ObjectMeta meta = store.head("data/a.parquet").orElseThrow();

        assertThat(meta.key()).isEqualTo("data/a.parquet");
        assertThat(meta.size()).isEqualTo(1234);
        assertThat(meta.etag()).isEqualTo(w.etag()).isEqualTo(store.get("data/a.parquet").orElseThrow().etag());
        assertThat(meta.lastModified()).isAfterOrEqualTo(before).isBeforeOrEqualTo(Instant.now().plusSeconds(5));
        assertThat(store.head("data/b.parquet")).isEmpty();
        assertThat(store.head("data")).isEmpty();
    }

    @Test
    void etagIsStableForUnchangedContentAndChangesWithContent() {
        String a = store.put("k", utf8("same")).etag();
        String b = store.put("k", utf8("same")).etag();
        String c = store.put("k", utf8("different")).etag();

        assertThat(b).isEqualTo(a);
        assertThat(store.head("k").orElseThrow().etag()).isEqualTo(c);
        assertThat(c).isNotEqualTo(a);
    }

    @Test
    void downloadStreamsTheObjectToAFileReplacingIt() throws IOException {
        store.put("versions/v/ducklake.duckdb", utf8("catalog bytes"));
        Path target = tmp.resolve("sub/catalog.duckdb");
        Files.createDirectories(target.getParent());
        Files.writeString(target, "old content that is longer than the new one");

        ObjectMeta meta = store.download("versions/v/ducklake.duckdb", target).orElseThrow();

        assertThat(Files.readString(target)).isEqualTo("catalog bytes");
        assertThat(meta.size()).isEqualTo(13);
        assertThat(meta.etag()).isEqualTo(store.head("versions/v/ducklake.duckdb").orElseThrow().etag());
        try (Stream<Path> left = Files.list(target.getParent())) {
            assertThat(left).containsExactly(target);
        }
    }

    @Test
    void downloadOfAnAbsentKeyIsEmptyAndCreatesNoFile() {
        Path target = tmp.resolve("none.duckdb");

        assertThat(store.download("versions/v/ducklake.duckdb", target)).isEmpty();
        assertThat(target).doesNotExist();
    }

    @Test
    void putStreamsAFilePayload() throws IOException {
        Path f = tmp.resolve("in.bin");
        byte[] content = new byte[300_000];
        new Random(1).nextBytes(content);
        Files.write(f, content);

        store.put("data/in.bin", Payload.of(f));

        assertThat(store.get("data/in.bin").orElseThrow().bytes()).isEqualTo(content);
    }

    // ------------------------------------------------------------ list and delete

    @Test
    void listGivesEveryKeyUnderThePrefixWithSizes() {
        store.put("versions/a/version.json", new byte[3]);
        store.put("versions/a/ducklake.duckdb", new byte[5]);
        store.put("versions/b/version.json", new byte[7]);
        store.put("versionsX/c", new byte[1]);
        store.put("refs/heads/main", new byte[2]);

        Map<String, Long> versions;
        try (Stream<ObjectMeta> s = store.list("versions/")) {
            versions = s.collect(Collectors.toMap(ObjectMeta::key, ObjectMeta::size));
        }
        Set<String> all;
        try (Stream<ObjectMeta> s = store.list("")) {
            all = s.map(ObjectMeta::key).collect(Collectors.toSet());
        }
        Set<String> partial;
        try (Stream<ObjectMeta> s = store.list("versions/a/d")) {
            partial = s.map(ObjectMeta::key).collect(Collectors.toSet());
        }

        assertThat(versions).containsOnly(Map.entry("versions/a/version.json", 3L),
                Map.entry("versions/a/ducklake.duckdb", 5L), Map.entry("versions/b/version.json", 7L));
        assertThat(all).containsExactlyInAnyOrder("versions/a/version.json", "versions/a/ducklake.duckdb",
                "versions/b/version.json", "versionsX/c", "refs/heads/main");
        assertThat(partial).containsExactly("versions/a/ducklake.duckdb");
        try (Stream<ObjectMeta> s = store.list("nothing/")) {
            assertThat(s).isEmpty();
        }
    }

    /**
     * More keys than a LIST page holds, many times over (S3 stores here list in pages of 100), and
     * a last page that is not full. 1,250 rather than 3,000 keys: the pages are what is tested, and
     * each key is an HTTP PUT to S3Mock (the suite's time).
     */
    @Test
    void listStreamsKeysOverManyPages() throws Exception {
        int n = 1250;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<WriteResult>> puts = IntStream.range(0, n)
                    .mapToObj(i -> (Callable<WriteResult>) () -> store.put(String.format("data/f%05d.parquet", i), new byte[i % 7]))
                    .collect(Collectors.toList());
            for (Future<WriteResult> f : pool.invokeAll(puts)) f.get();
        } finally {
            pool.shutdownNow();
        }

        long count;
        long bytes;
        try (Stream<ObjectMeta> s = store.list("data/")) {
            List<ObjectMeta> all = s.collect(Collectors.toList());
            count = all.stream().map(ObjectMeta::key).distinct().count();
            bytes = all.stream().mapToLong(ObjectMeta::size).sum();
        }

        assertThat(count).isEqualTo(n);
        assertThat(bytes).isEqualTo(IntStream.range(0, n).map(i -> i % 7).sum());
    }

    @Test
    void deleteAllRemovesEveryKeyInBatchesAndIgnoresAbsentOnes() {
        java.util.List<String> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 1203; i++) {
            keys.add("data/main/t/f" + i + ".parquet");
            if (i % 100 == 0) store.put("data/main/t/f" + i + ".parquet", utf8("x" + i));
        }
        store.put("data/main/t/keep.parquet", utf8("keep"));
        keys.add("never/existed");

        store.deleteAll(keys);
        store.deleteAll(java.util.List.of());

        try (Stream<ObjectMeta> s = store.list("data/")) {
            assertThat(s.map(ObjectMeta::key)).containsExactly("data/main/t/keep.parquet");
        }
    }

    @Test
    void deleteRemovesTheKeyAndIsIdempotent() {
        store.put("versions/a/ducklake.duckdb", utf8("x"));

        store.delete("versions/a/ducklake.duckdb");
        store.delete("versions/a/ducklake.duckdb");
        store.delete("never/existed");

        assertThat(store.get("versions/a/ducklake.duckdb")).isEmpty();
        assertThat(store.head("versions/a/ducklake.duckdb")).isEmpty();
        try (Stream<ObjectMeta> s = store.list("versions/")) {
            assertThat(s).isEmpty();
        }
    }

    @Test
    void locationNamesTheKeyUnderTheRoot() {
        assertThat(store.root()).endsWith("/");
        assertThat(store.location("data/")).isEqualTo(store.root() + "data/");
        assertThat(store.location("versions/a/ducklake.duckdb")).isEqualTo(store.root() + "versions/a/ducklake.duckdb");
    }

    @Test
    void conditionalWriteProbeAcceptsTheStoreAndLeavesNothingBehind() {
        ConditionalWriteProbe.check(store);

        try (Stream<ObjectMeta> s = store.list("")) {
            assertThat(s).isEmpty();
        }
    }

    // ------------------------------------------------------------ large objects, other processes

    /** 65 MiB + a few bytes: above S3Store's default multipart threshold, so it goes in parts. */
    static final long LARGE = (65L << 20) + 123;

    @Test
    void largeObjectsStreamThroughASmallHeap() throws Exception {
        Path big = tmp.resolve("big.bin");
        String sha = writeRandom(big, LARGE);

        // a 48 MiB heap cannot hold the 65 MiB object: only streaming passes
        Process p = ChildJvm.start(LargeObjectWorker.class, "-Xmx48m", childEnvironment(),
                store.root(), big.toString(), tmp.resolve("back").toString());
        // a deadline against a hung child, not a speed check: minutes on a loaded machine
        ChildJvm.Result r = ChildJvm.await(p, 600);

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("conditional-create=WRITTEN", "second-create=PRECONDITION_FAILED",
                "conditional-replace=WRITTEN", "stale-replace=PRECONDITION_FAILED");
        assertThat(store.head("large/plain.bin").orElseThrow().size()).isEqualTo(LARGE);
        assertThat(sha256(tmp.resolve("back/plain.bin"))).isEqualTo(sha);
        assertThat(sha256(tmp.resolve("back/conditional.bin"))).isEqualTo(sha);
    }

    @Test
    void processesRacingOnOneKeyHaveExactlyOneWinnerPerRoundAndLoseNoWrite() throws Exception {
        RaceCheck.run(store, childEnvironment(), tmp);
    }

    static String writeRandom(Path f, long size) throws IOException {
        MessageDigest md = sha();
        Random rnd = new Random(size);
        byte[] buf = new byte[1 << 16];
        try (OutputStream out = Files.newOutputStream(f)) {
            for (long left = size; left > 0; ) {
                rnd.nextBytes(buf);
                int n = (int) Math.min(buf.length, left);
                out.write(buf, 0, n);
                md.update(buf, 0, n);
                left -= n;
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static String sha256(Path f) throws IOException {
        MessageDigest md = sha();
        try (InputStream in = new DigestInputStream(Files.newInputStream(f), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
