package dev.fdl.store;

import dev.fdl.util.AtomicFile;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A repository root on AWS S3 or an S3-compatible store (Cloudflare R2, MinIO, GCS's S3 API),
 * on the AWS SDK for Java v2 (SPEC.md section 2).
 *
 * <p>Conditional writes use {@code If-None-Match: *} and {@code If-Match} on PutObject (on
 * CompleteMultipartUpload only above S3's 5 GiB single-request limit); plain writes of files above
 * {@link S3Config#multipartThreshold()} stream in parts, up to {@value S3Parts#THREADS} parts under
 * way at a time over all of a store's uploads. The ways S3-compatible
 * stores answer them differ, so each known answer is handled:
 * <ul>
 *   <li>412, and 304 (S3Mock on CompleteMultipartUpload), are refusals; an {@code If-Match} on a
 *       key that no longer exists is a refusal whether the store answers 404 or 412.</li>
 *   <li>409 (a concurrent conditional write in flight) is retried with jittered exponential
 *       backoff, at most {@value #MAX_ATTEMPTS} attempts.</li>
 *   <li>A create-only write reports "exists" only after a HEAD shows the key really exists.</li>
 *   <li>When an attempt's outcome is unknown (lost response, 5xx) and the retry is refused, the
 *       object is re-read: if it holds what we wrote, the write succeeded.</li>
 *   <li>A refused or failed multipart upload is aborted, leaving no parts behind.</li>
 * </ul>
 * Before its first conditional write a store is probed once (see
 * {@link ConditionalWriteProbe}, {@link S3Probes}): a store that ignores conditional headers is refused.
 *
 * <p>{@link #deleteIfMatch} sends {@code If-Match} on DeleteObject (AWS S3 general purpose buckets
 * since September 2025; S3Mock 4.12.4): 412 and 404 are refusals, 409 is retried. Stores that
 * predate conditional deletes may ignore the header and delete anyway, so before the first
 * conditional delete the store is probed once: a probe object deleted with a wrong
 * ETag must survive. A store that fails the probe gets the interface's read-then-delete instead
 * (docs/stores.md names the window that leaves).
 *
 * <p>ETags are kept unquoted ({@link ETags}); keys beginning with {@code .fdl-} are fdl's own
 * (probe objects) and never listed. Errors become {@link StoreException}s with one clear line,
 * never carrying credentials.
 */
public final class S3Store implements ObjectStore {
    static final int MAX_ATTEMPTS = 6;
    /** S3's largest single PutObject: 5 GiB. */
    static final long MAX_SINGLE_PUT = 5L << 30;

    private final S3Location location;
    private final S3Config config;
    private final SdkHttpClient http;
    private final S3Client client;
    /** Sends conditional writes without SDK retries, so this class knows when an outcome is unknown. */
    private final S3Client conditionalClient;
    private final S3Errors errors;
    /** What this store's probes found (conditional writes, conditional deletes). */
    private final S3Probes probes = new S3Probes(this);
    private volatile long conditionalMultipartAbove = MAX_SINGLE_PUT;
    /** The parts of this store's multipart uploads, on their own threads. */
    private final S3Parts parts;

    /**
     * A store at {@code location}, reached as {@code config} says.
     *
     * @param credentials where credentials come from; null for the SDK's default chain
     *                    (environment, system properties, profile, container or instance role)
     */
    public S3Store(S3Location location, S3Config config, AwsCredentialsProvider credentials) {
        this.location = location;
        this.config = config;
        this.errors = new S3Errors(location, config.describeEndpoint());
        this.http = ApacheHttpClient.builder()
                .maxConnections(32)
                .connectionTimeout(Duration.ofSeconds(10))
                .socketTimeout(Duration.ofSeconds(120))
                .build();
        S3ClientBuilder b = S3Client.builder()
                .httpClient(http)
                .credentialsProvider(credentials != null ? credentials : DefaultCredentialsProvider.builder().build())
                .region(region(config))
                .forcePathStyle(config.pathStyle());
        if (config.endpoint() != null) {
            // Many S3-compatible stores reject the SDK's default trailing checksums (aws-chunked).
            b.endpointOverride(config.endpoint())
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        } else {
            b.crossRegionAccessEnabled(true);
        }
        this.client = b.build();
        this.conditionalClient = b.overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        this.parts = new S3Parts(client, location.bucket(), config.partSize());
    }

    /**
     * Opens {@code s3://bucket/prefix/} with the configuration of the environment
     * ({@link S3Config#fromEnvironment()}) and the default credential chain.
     *
     * @throws dev.fdl.FdlException exit 2 for a malformed root or endpoint
     */
    public static S3Store open(String root) {
        return new S3Store(S3Location.parse(root), S3Config.fromEnvironment(), null);
    }

    private static Region region(S3Config config) {
        if (config.region() != null && !config.region().isBlank()) return Region.of(config.region());
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException e) {
            return Region.US_EAST_1; // S3-compatible stores mostly ignore it; cross-region access handles AWS
        }
    }

    /** The bucket and prefix of this root. */
    public S3Location s3Location() {
        return location;
    }

    /** The configuration this store was opened with. */
    public S3Config config() {
        return config;
    }

    /** The SDK client (tests use it to inspect the bucket, e.g. for leftover multipart uploads). */
    public S3Client client() {
        return client;
    }

    @Override
    public Optional<S3ReaderEndpoint> customS3Endpoint() {
        return Optional.ofNullable(S3ReaderEndpoint.of(config));
    }

    @Override
    public String root() {
        return location.root();
    }

    @Override
    public String location(String key) {
        return key.isEmpty() ? root() : root() + key;
    }

    /** The S3 object key of repository key {@code key} (under the root's prefix). */
    String objectKey(String key) {
        return location.objectKey(Keys.check(key));
    }

    // ---------------------------------------------------------------- reads

    @Override
    public Optional<ObjectBytes> get(String key) {
        String k = objectKey(key);
        try {
            ResponseBytes<GetObjectResponse> rb = client.getObjectAsBytes(r -> r.bucket(location.bucket()).key(k));
            return Optional.of(new ObjectBytes(rb.asByteArray(), rb.response().eTag()));
        } catch (SdkException e) {
            if (S3Errors.isNoSuchKey(e)) return Optional.empty();
            throw errors.fail("read", key, e);
        }
    }

    @Override
    public Optional<ObjectMeta> head(String key) {
        String k = objectKey(key);
        try {
            HeadObjectResponse r = client.headObject(b -> b.bucket(location.bucket()).key(k));
            return Optional.of(new ObjectMeta(key, r.contentLength(), r.eTag(), r.lastModified()));
        } catch (SdkException e) {
            if (S3Errors.isNoSuchKey(e)) return Optional.empty();
            throw errors.fail("read", key, e);
        }
    }

    @Override
    public Optional<ObjectMeta> download(String key, Path target) {
        String k = objectKey(key);
        Path abs = target.toAbsolutePath();
        Path tmp = AtomicFile.tempBeside(abs, ObjectStore.INTERNAL_PREFIX + "dl-");
        try {
            Files.createDirectories(abs.getParent());
            GetObjectResponse r = client.getObject(b -> b.bucket(location.bucket()).key(k), ResponseTransformer.toFile(tmp));
            AtomicFile.moveCopy(tmp, abs);
            return Optional.of(new ObjectMeta(key, r.contentLength(), r.eTag(), r.lastModified()));
        } catch (SdkException e) {
            deleteQuietly(tmp);
            if (S3Errors.isNoSuchKey(e)) return Optional.empty();
            throw errors.fail("download", key, e);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new StoreException(key, "cannot download " + location(key) + " to " + target + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Stream<ObjectMeta> list(String prefix) {
        String p = Keys.checkPrefix(prefix);
        String full = location.prefix() + p;
        Iterator<S3Object> pages = client.listObjectsV2Paginator(b -> b.bucket(location.bucket()).prefix(full)
                .maxKeys(config.listPageSize())).contents().iterator();
        Iterator<ObjectMeta> it = new Iterator<>() {
            private ObjectMeta next;

            @Override
            public boolean hasNext() {
                try {
                    while (next == null && pages.hasNext()) {
                        S3Object o = pages.next();
                        String key = o.key().substring(location.prefix().length());
                        if (key.isEmpty() || key.endsWith("/") || key.startsWith(ObjectStore.INTERNAL_PREFIX)) continue;
                        next = new ObjectMeta(key, o.size() == null ? 0 : o.size(), o.eTag(), o.lastModified());
                    }
                    return next != null;
                } catch (SdkException e) {
                    throw errors.fail("list", p, e);
                }
            }

            @Override
            public ObjectMeta next() {
                if (!hasNext()) throw new NoSuchElementException();
                ObjectMeta m = next;
                next = null;
                return m;
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.NONNULL), false);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public WriteResult put(String key, Payload body) {
        String k = objectKey(key);
        try {
            if (multipart(body)) return WriteResult.written(multipartUpload(key, k, body, null));
            PutObjectResponse r = client.putObject(b -> b.bucket(location.bucket()).key(k), requestBody(body));
            return WriteResult.written(r.eTag());
        } catch (SdkException e) {
            throw errors.fail("write", key, e);
        }
    }

    @Override
    public WriteResult putIfAbsent(String key, Payload body) {
        probes.ensureWritesProbed();
        return conditionalWrite(key, body, null);
    }

    @Override
    public WriteResult putIfMatch(String key, Payload body, String etag) {
        if (etag == null || ETags.normalize(etag).isEmpty()) return WriteResult.preconditionFailed();
        probes.ensureWritesProbed();
        return conditionalWrite(key, body, ETags.normalize(etag));
    }

    @Override
    public void delete(String key) {
        String k = objectKey(key);
        try {
            client.deleteObject(b -> b.bucket(location.bucket()).key(k));
        } catch (SdkException e) {
            if (S3Errors.isNoSuchKey(e)) return; // some stores answer 404 for an absent key
            throw errors.fail("delete", key, e);
        }
    }

    @Override
    public boolean deleteIfMatch(String key, String etag) {
        if (etag == null || ETags.normalize(etag).isEmpty()) return false;
        if (!probes.honoursConditionalDeletes()) return ObjectStore.super.deleteIfMatch(key, etag);
        String k = objectKey(key);
        boolean uncertain = false;
        SdkException last = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            if (attempt > 1) backoff(attempt);
            try {
                conditionalClient.deleteObject(b -> b.bucket(location.bucket()).key(k).ifMatch(ETags.quoted(etag)));
                return true;
            } catch (SdkException e) {
                last = e;
                Answer answer = classify(e, true, false);
                if (answer == Answer.CONFLICT) continue;
                if (answer == Answer.UNKNOWN) {
                    uncertain = true;
                    continue;
                }
                // Refused: changed (412) or absent (404). Absent after an attempt whose answer was
                // lost means that attempt deleted it, with the ETag we asked for.
                return uncertain && head(key).isEmpty();
            }
        }
        throw new StoreException(key, "conditional delete of " + location(key) + " did not complete after "
                + MAX_ATTEMPTS + " attempts (" + S3Errors.brief(last) + "); try again", last);
    }

    /** {@code DeleteObjects} (quiet mode), 1,000 keys a request; keys the store reports as failed are named in the error. */
    @Override
    public void deleteAll(java.util.Collection<String> keys) {
        java.util.List<String> all = new java.util.ArrayList<>(keys);
        for (int i = 0; i < all.size(); i += 1000) {
            java.util.List<software.amazon.awssdk.services.s3.model.ObjectIdentifier> ids = all.subList(i, Math.min(all.size(), i + 1000))
                    .stream().map(k -> software.amazon.awssdk.services.s3.model.ObjectIdentifier.builder().key(objectKey(k)).build()).toList();
            try {
                var r = client.deleteObjects(b -> b.bucket(location.bucket()).delete(d -> d.objects(ids).quiet(true)));
                var failed = r.errors().stream().filter(e -> !"NoSuchKey".equals(e.code())).toList();
                if (!failed.isEmpty())
                    throw new StoreException(failed.get(0).key(), "cannot delete " + failed.size() + " object(s) under "
                            + root() + ", first " + failed.get(0).key() + " (" + failed.get(0).code() + ": " + failed.get(0).message() + ")");
            } catch (SdkException e) {
                throw errors.fail("delete", all.get(i), e);
            }
        }
    }

    /**
     * Aborts the incomplete multipart uploads under this root's prefix that were initiated before
     * {@code olderThan} (ListMultipartUploads, AbortMultipartUpload): an upload whose process died
     * keeps its parts, billed but invisible to listings, until aborted. An upload already gone
     * (NoSuchUpload) is not counted.
     */
    @Override
    public int cleanupIncompleteUploads(java.time.Instant olderThan) {
        int aborted = 0;
        try {
            for (var u : client.listMultipartUploadsPaginator(b -> b.bucket(location.bucket()).prefix(location.prefix())).uploads()) {
                if (u.initiated() == null || !u.initiated().isBefore(olderThan) || !u.key().startsWith(location.prefix())) continue;
                try {
                    client.abortMultipartUpload(b -> b.bucket(location.bucket()).key(u.key()).uploadId(u.uploadId()));
                    aborted++;
                } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
                    if (e.statusCode() != 404) throw e; // NoSuchUpload: completed or aborted meanwhile
                }
            }
        } catch (SdkException e) {
            throw errors.fail("abort incomplete multipart uploads under", null, e);
        }
        return aborted;
    }

    /** Whether this store honours {@code If-Match} on DeleteObject ({@link S3Probes}, probed on first use). */
    boolean honoursConditionalDeletes() {
        return probes.honoursConditionalDeletes();
    }

    /** Runs the conditional-write probe now and remembers, for this store, that it passed ({@link S3Probes#probeWrites}). */
    void probeConditionalWrites() {
        probes.probeWrites();
    }

    /** The client that sends conditional requests without SDK retries (the probes use it too). */
    S3Client conditionalClient() {
        return conditionalClient;
    }

    S3Errors errors() {
        return errors;
    }

    @Override
    public void close() {
        parts.close();
        client.close();
        conditionalClient.close();
        http.close();
    }

    // ---------------------------------------------------------------- conditional writes

    /** Outcome of one attempt of a conditional request. */
    private enum Answer { REFUSED, CONFLICT, UNKNOWN }

    /**
     * A write with {@code If-None-Match: *} ({@code etag} null) or {@code If-Match: etag}, with the
     * retries and re-reads described in the class comment.
     */
    private WriteResult conditionalWrite(String key, Payload body, String etag) {
        String k = objectKey(key);
        if (conditionalMultipart(body)) {
            try {
                String written = multipartUpload(key, k, body, etag == null ? Condition.ABSENT : new Condition(etag));
                return written == null ? WriteResult.preconditionFailed() : WriteResult.written(written);
            } catch (SdkException e) {
                throw errors.fail("write", key, e);
            }
        }
        boolean uncertain = false;
        SdkException last = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            if (attempt > 1) backoff(attempt);
            Answer answer;
            try {
                PutObjectRequest.Builder req = PutObjectRequest.builder().bucket(location.bucket()).key(k);
                if (etag == null) req.ifNoneMatch("*");
                else req.ifMatch(ETags.quoted(etag));
                PutObjectResponse r = conditionalClient.putObject(req.build(), requestBody(body));
                return WriteResult.written(r.eTag());
            } catch (SdkException e) {
                last = e;
                answer = classify(e, etag != null, false);
            }
            if (answer == Answer.CONFLICT) continue;
            if (answer == Answer.UNKNOWN) {
                uncertain = true;
                continue;
            }
            // REFUSED
            if (uncertain) {
                Optional<String> mine = holds(key, body, null);
                if (mine.isPresent()) return WriteResult.written(mine.get());
            }
            if (etag == null && head(key).isEmpty()) continue; // refused, yet nothing is there: not "exists"
            return WriteResult.preconditionFailed();
        }
        return gaveUp(key, body, etag, uncertain, last);
    }

    /** After {@link #MAX_ATTEMPTS}: refused if the key really is taken by someone else, else an error. */
    private WriteResult gaveUp(String key, Payload body, String etag, boolean uncertain, SdkException last) {
        if (uncertain) {
            Optional<String> mine = holds(key, body, null);
            if (mine.isPresent()) return WriteResult.written(mine.get());
        }
        Optional<ObjectMeta> now = head(key);
        if (etag == null && now.isPresent()) return WriteResult.preconditionFailed();
        if (etag != null && (now.isEmpty() || !ETags.same(now.get().etag(), etag))) return WriteResult.preconditionFailed();
        throw new StoreException(key, "conditional write of " + location(key) + " did not complete after "
                + MAX_ATTEMPTS + " attempts (" + S3Errors.brief(last) + "); nothing was changed, try again", last);
    }

    /**
     * Sorts a failed conditional request: refused (412, 304, or 404 for an If-Match whose key is
     * gone), conflict (409, retried) or unknown outcome (I/O error, 5xx, throttling: retried, and
     * a later refusal is checked against the object). Anything else is thrown as a clear error.
     */
    private Answer classify(SdkException e, boolean ifMatch, boolean completing) {
        if (e instanceof S3Exception s) {
            int status = s.statusCode();
            String code = S3Errors.code(s);
            if (status == 412 || status == 304) return Answer.REFUSED;
            if (status == 404 && "NoSuchUpload".equals(code) && completing) return Answer.REFUSED;
            if (status == 404 && ifMatch && !"NoSuchBucket".equals(code)) return Answer.REFUSED;
            if (status == 409) return Answer.CONFLICT;
            if (status >= 500 || status == 429 || "SlowDown".equals(code)) return Answer.UNKNOWN;
            throw errors.fail("write", null, e);
        }
        if (S3Errors.isIo(e)) return Answer.UNKNOWN;
        throw errors.fail("write", null, e);
    }

    /**
     * The ETag of the object at {@code key} if it holds exactly {@code body}: compared byte for
     * byte for small bodies, by ETag (MD5, or the multipart MD5-of-MD5s with {@code partSize})
     * for files.
     */
    private Optional<String> holds(String key, Payload body, Long partSize) {
        if (body.bytes() != null) {
            return get(key).filter(o -> Arrays.equals(o.bytes(), body.bytes())).map(ObjectBytes::etag);
        }
        Optional<ObjectMeta> now = head(key);
        if (now.isEmpty() || now.get().etag() == null) return Optional.empty();
        try {
            String expected = partSize == null ? S3Parts.md5Hex(body.file(), 0, Files.size(body.file()))
                    : S3Parts.multipartEtag(body.file(), partSize);
            return ETags.same(now.get().etag(), expected) ? Optional.of(now.get().etag()) : Optional.empty();
        } catch (IOException e) {
            throw new StoreException(key, "cannot read " + body.file() + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- multipart

    /** The condition of a multipart upload's completion; {@link #ABSENT} for create-only. */
    private record Condition(String etag) {
        static final Condition ABSENT = new Condition(null);
    }

    private boolean multipart(Payload body) {
        return body.file() != null && body.size() > config.multipartThreshold();
    }

    /**
     * Conditional writes go as one PutObject up to S3's single-request limit and only above it
     * as a multipart upload with the condition on CompleteMultipartUpload: a refused multipart
     * write must be aborted, and some S3-compatible stores (S3Mock 4.12) delete the existing
     * object of the key on AbortMultipartUpload. fdl's conditional writes (refs, fdl.json) are tiny.
     */
    private boolean conditionalMultipart(Payload body) {
        return body.file() != null && body.size() > conditionalMultipartAbove;
    }

    /** Lowers the size above which conditional writes go multipart (tests of that path). */
    S3Store conditionalMultipartAbove(long bytes) {
        this.conditionalMultipartAbove = Math.max(bytes, config.partSize());
        return this;
    }

    /**
     * Uploads {@code file} in parts and completes the upload, keeping {@code condition} (null for
     * a plain write) on CompleteMultipartUpload. Every part streams from disk. An upload that is
     * refused or fails is aborted.
     *
     * @return the new ETag, or null when the condition refused the write
     */
    private String multipartUpload(String key, String k, Payload upload, Condition condition) {
        Path file = upload.file();
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new StoreException(key, "cannot read " + file + ": " + e.getMessage(), e);
        }
        long partSize = config.partSize();
        String uploadId = client.createMultipartUpload(b -> b.bucket(location.bucket()).key(k)).uploadId();
        boolean completed = false;
        try {
            List<CompletedPart> completedParts = parts.upload(k, uploadId, upload, size);
            if (condition == null) {
                CompleteMultipartUploadResponse r = client.completeMultipartUpload(b -> b.bucket(location.bucket()).key(k)
                        .uploadId(uploadId).multipartUpload(m -> m.parts(completedParts)));
                completed = true;
                return r.eTag();
            }
            Payload body = Payload.of(file);
            boolean uncertain = false;
            SdkException last = null;
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                if (attempt > 1) backoff(attempt);
                Answer answer;
                try {
                    CompleteMultipartUploadRequest.Builder req = CompleteMultipartUploadRequest.builder()
                            .bucket(location.bucket()).key(k).uploadId(uploadId).multipartUpload(m -> m.parts(completedParts));
                    if (condition.etag() == null) req.ifNoneMatch("*");
                    else req.ifMatch(ETags.quoted(condition.etag()));
                    CompleteMultipartUploadResponse r = conditionalClient.completeMultipartUpload(req.build());
                    completed = true;
                    return r.eTag();
                } catch (SdkException e) {
                    last = e;
                    answer = classify(e, condition.etag() != null, true);
                }
                if (answer == Answer.CONFLICT) continue;
                if (answer == Answer.UNKNOWN) {
                    uncertain = true;
                    continue;
                }
                if (uncertain) {
                    Optional<String> mine = holds(key, body, partSize);
                    if (mine.isPresent()) {
                        completed = true;
                        return mine.get();
                    }
                }
                if (condition.etag() == null && head(key).isEmpty()) continue;
                return null;
            }
            if (uncertain) {
                Optional<String> mine = holds(key, body, partSize);
                if (mine.isPresent()) {
                    completed = true;
                    return mine.get();
                }
            }
            Optional<ObjectMeta> now = head(key);
            if (condition.etag() == null ? now.isPresent() : now.isEmpty() || !ETags.same(now.get().etag(), condition.etag()))
                return null;
            throw new StoreException(key, "conditional write of " + location(key) + " did not complete after "
                    + MAX_ATTEMPTS + " attempts (" + S3Errors.brief(last) + "); nothing was changed, try again", last);
        } finally {
            if (!completed) {
                try {
                    client.abortMultipartUpload(b -> b.bucket(location.bucket()).key(k).uploadId(uploadId));
                } catch (SdkException ignored) {
                    // already completed or gone; a bucket lifecycle rule cleans up what is left
                }
            }
        }
    }

    /**
     * The body of one PutObject. A file is streamed from disk; a counting payload's stream is read
     * afresh at every attempt and counted as the SDK sends it (its content type is then S3's
     * default rather than the SDK's guess from the file name, which is for files a browser opens).
     */
    private static RequestBody requestBody(Payload body) {
        if (body.bytes() != null) return RequestBody.fromBytes(body.bytes());
        if (!body.isCounting()) return RequestBody.fromFile(body.file());
        return RequestBody.fromContentProvider(() -> {
            try {
                return body.open();
            } catch (IOException e) {
                throw new StoreException(null, "cannot read " + body.file() + ": " + e.getMessage(), e);
            }
        }, body.size(), "application/octet-stream");
    }

    /** Jittered exponential backoff before attempt {@code attempt}: about 50 ms, 100 ms, … capped at 2 s. */
    private static void backoff(int attempt) {
        long cap = Math.min(2000, 25L << Math.min(attempt, 10));
        try {
            Thread.sleep(cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(null, "interrupted while retrying a conditional write");
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover temporary download file is harmless
        }
    }

    /** One ranged GetObject (RFC 9110 Range): only the range crosses the network. */
    @Override
    public Optional<RangeRead> read(String key, long from, long length) {
        String k = objectKey(key);
        Optional<ObjectMeta> meta = head(key);
        if (meta.isEmpty()) return Optional.empty();
        long size = meta.get().size();
        long start = Math.min(Math.max(0, from), size);
        long n = length < 0 ? size - start : Math.min(length, size - start);
        if (n == 0) return Optional.of(new RangeRead(meta.get(), start, 0, java.io.InputStream.nullInputStream()));
        String range = "bytes=" + start + "-" + (start + n - 1);
        String etag = meta.get().etag();
        try {
            // If-Match: the range comes from the object whose metadata we return, or the read fails
            var in = client.getObject(b -> b.bucket(location.bucket()).key(k).range(range).ifMatch(etag));
            return Optional.of(new RangeRead(meta.get(), start, n, in));
        } catch (SdkException e) {
            if (S3Errors.isNoSuchKey(e)) return Optional.empty();
            throw errors.fail("read", key, e);
        }
    }
}
