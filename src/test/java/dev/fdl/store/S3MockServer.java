package dev.fdl.store;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Adobe's S3Mock, started once per test JVM as a separate process on 127.0.0.1 and stopped at
 * JVM exit, for every test suite that wants to run against S3 (docs/stores.md, "Testing").
 *
 * <pre>{@code
 * S3MockServer s3 = S3MockServer.shared();
 * try (S3Store store = s3.newStore()) { ... }            // fresh bucket, prefix "repo/"
 * String root = s3.newRoot();                            // "s3://<fresh bucket>/repo/" for Stores.open
 * s3.installSystemProperties();                          // so Stores.open("s3://…") reaches S3Mock in-process
 * processBuilder.environment().putAll(s3.environment()); // so a child process (./fdl, a worker) does
 * }</pre>
 *
 * The jar is the system property {@code s3mock.jar} (pom.xml fetches
 * {@code com.adobe.testing:s3mock:<s3mock.version>:exec} and passes its path to surefire). With
 * {@code -Ds3mock.endpoint=http://127.0.0.1:9090} the tests use an S3 endpoint started elsewhere
 * (S3Mock, MinIO) instead; it must accept the access key {@value #ACCESS_KEY}.
 *
 * <p>The endpoint the tests get is a proxy in this JVM in front of S3Mock that makes the writes of
 * one key atomic ({@link FaultyS3Proxy#atomicWrites}): S3Mock 4.12.4 evaluates conditional headers
 * and writes without a lock, so two concurrent conditional writers can both win there, which real
 * S3 never allows. The conditions themselves are still evaluated by S3Mock.
 */
public final class S3MockServer {
    /** Any credentials work with S3Mock; these are what tests and child processes use. */
    public static final String ACCESS_KEY = "fdl-test";
    public static final String SECRET_KEY = "fdl-test-secret";
    public static final String REGION = "us-east-1";

    /** How long S3Mock may take to say it started: a Spring Boot start needs about 12 s of CPU, minutes on a loaded machine. */
    private static final long START_SECONDS = 600;

    private static CompletableFuture<S3MockServer> shared;
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    private final URI endpoint;
    private final String runId = Long.toString(ProcessHandle.current().pid(), 36);

    private S3MockServer(URI endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * The S3Mock of this JVM, started on first use or by {@link #prestart()}; waits until it is up.
     * A failed start is reported to every caller, not retried.
     *
     * @throws IllegalStateException when the jar is missing or S3Mock does not start within {@value #START_SECONDS} s
     */
    public static S3MockServer shared() {
        try {
            return prestart().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /**
     * Starts this JVM's S3Mock in the background unless it is starting or running already, so that
     * its start overlaps with tests that do not need it ({@link S3MockPrestart} calls this when
     * the test plan holds a {@link UsesS3Mock} class).
     */
    public static synchronized CompletableFuture<S3MockServer> prestart() {
        if (shared == null) {
            String external = System.getProperty("s3mock.endpoint");
            shared = external != null && !external.isBlank()
                    ? CompletableFuture.completedFuture(new S3MockServer(URI.create(external.trim())))
                    : CompletableFuture.supplyAsync(S3MockServer::start, runnable -> {
                        Thread t = new Thread(runnable, "s3mock-start");
                        t.setDaemon(true);
                        t.start();
                    });
        }
        return shared;
    }

    private static S3MockServer start() {
        String jar = System.getProperty("s3mock.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar)))
            throw new IllegalStateException("S3Mock exec jar not found (system property s3mock.jar = " + jar
                    + "); run the tests through Maven (mvn test), which fetches it");
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            // the store and S3Mock's own temporary files (it stages every upload in one and does not always
            // delete it) under one folder that stop() removes, not in the machine's /tmp
            Path data = Files.createTempDirectory("fdl-s3mock-");
            Path store = Files.createDirectories(data.resolve("store"));
            Path tmp = Files.createDirectories(data.resolve("tmp"));
            Path log = Path.of("target", "s3mock.log").toAbsolutePath();
            Files.createDirectories(log.getParent());
            List<String> cmd = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Djava.io.tmpdir=" + tmp,
                    "-jar", jar,
                    "--server.address=127.0.0.1",
                    "--server.port=0", // HTTPS on a random port: the tests use plain HTTP
                    "--com.adobe.testing.s3mock.httpPort=" + port,
                    "--com.adobe.testing.s3mock.store.root=" + store,
                    "--com.adobe.testing.s3mock.store.retainFilesOnExit=false",
                    "--logging.level.root=WARN",
                    "--logging.level.com.adobe.testing.s3mock.S3MockApplication=INFO",
                    "--spring.main.banner-mode=off"));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            // registered at once, so that a test run ending during the start still ends the process
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(p, data), "s3mock-stop"));
            CountDownLatch started = new CountDownLatch(1);
            Thread pump = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                     PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        w.println(line);
                        w.flush();
                        if (line.contains("Started S3MockApplication")) started.countDown();
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            }, "s3mock-log");
            pump.setDaemon(true);
            pump.start();
            boolean up = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            while (!up && p.isAlive() && System.nanoTime() < deadline) up = started.await(1, TimeUnit.SECONDS);
            if (!up) {
                p.destroyForcibly();
                throw new IllegalStateException("S3Mock did not start within " + START_SECONDS + " s; see " + log);
            }
            // S3Mock's conditional writes are not atomic (see FaultyS3Proxy.atomicWrites): the tests talk to
            // it through a proxy that makes writes of one key atomic, as real S3 does
            FaultyS3Proxy atomic = new FaultyS3Proxy(URI.create("http://127.0.0.1:" + port));
            atomic.atomicWrites = true;
            return new S3MockServer(atomic.endpoint());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start S3Mock", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting S3Mock", e);
        }
    }

    private static void stop(Process process, Path dataDir) {
        // killed, not asked: nothing of S3Mock's state is kept, and a graceful Spring shutdown on a
        // loaded machine outlasts surefire's 30 s for a fork to exit, leaving S3Mock running
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind
        }
    }

    /** The HTTP endpoint, {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The configuration S3 stores of this server use (path-style, default sizes). */
    public S3Config config() {
        return S3Config.endpoint(endpoint, REGION);
    }

    /** Static test credentials. */
    public static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    }

    /** Creates a new, empty bucket with a name unique to this JVM and returns its name. */
    public String newBucket() {
        String name = "fdl-" + runId + "-" + BUCKETS.incrementAndGet();
        try (S3Store admin = new S3Store(new S3Location(name, ""), config(), credentials())) {
            admin.client().createBucket(b -> b.bucket(name));
        }
        return name;
    }

    /** A root in a fresh bucket: {@code s3://<new bucket>/repo/}. */
    public String newRoot() {
        return "s3://" + newBucket() + "/repo/";
    }

    /** A store on a fresh bucket under prefix {@code repo/}; the caller closes it. */
    public S3Store newStore() {
        return store(newRoot(), config());
    }

    /** A store for {@code root} on this server with {@code config}; the caller closes it. */
    public S3Store store(String root, S3Config config) {
        return new S3Store(S3Location.parse(root), config, credentials());
    }

    /**
     * The environment a child process needs to reach this server through {@code Stores.open}:
     * endpoint, region and the test credentials.
     */
    public Map<String, String> environment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint.toString(), "AWS_REGION", REGION,
                "AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY);
    }

    /**
     * Sets the system properties through which {@code Stores.open("s3://…")} in this JVM reaches
     * this server ({@code aws.endpointUrl}, {@code aws.region}, {@code aws.accessKeyId},
     * {@code aws.secretAccessKey}; the AWS SDK reads them). Idempotent; affects the whole JVM.
     */
    public void installSystemProperties() {
        System.setProperty("aws.endpointUrl", endpoint.toString());
        System.setProperty("aws.region", REGION);
        System.setProperty("aws.accessKeyId", ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", SECRET_KEY);
    }
}
