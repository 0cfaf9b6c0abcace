package dev.fdl.store;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The parts of an S3 multipart upload (UploadPart), for one {@link S3Store}: each part streamed
 * from its slice of the file, up to {@value #THREADS} parts under way at a time over all of the
 * store's uploads, on a pool this object owns and {@link #close} ends. Also S3's multipart ETag
 * (MD5 of the part MD5s), to recognise an upload whose answer was lost.
 */
final class S3Parts implements AutoCloseable {
    /** Parts of multipart uploads sent at one time, over all of a store's uploads. */
    static final int THREADS = 4;

    private final S3Client client;
    private final String bucket;
    private final long partSize;
    private final Object lock = new Object();
    private ExecutorService pool;

    /** Parts of {@code partSize} bytes, sent by {@code client} to {@code bucket}. */
    S3Parts(S3Client client, String bucket, long partSize) {
        this.client = client;
        this.bucket = bucket;
        this.partSize = partSize;
    }

    /**
     * Uploads the parts of {@code body}, a file of {@code size} bytes (UploadPart), to object key {@code k}, up to {@link #THREADS} of this store's
     * uploads at a time, each streamed from its slice of the file. When one fails, the parts not
     * begun are cancelled and those under way waited for (a part that lands after
     * AbortMultipartUpload could be kept), then its error is thrown.
     *
     * @return the completed parts, by part number
     */
    List<CompletedPart> upload(String k, String uploadId, Payload body, long size) {
        Path file = body.file();
        int count = partCount(size, partSize);
        List<Future<CompletedPart>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long start = i * partSize;
            long len = Math.min(partSize, size - start);
            int number = i + 1;
            Callable<CompletedPart> part = () -> {
                String etag = client.uploadPart(b -> b.bucket(bucket).key(k).uploadId(uploadId).partNumber(number),
                        RequestBody.fromContentProvider(() -> slice(body, start, len), len, "application/octet-stream")).eTag();
                return CompletedPart.builder().partNumber(number).eTag(etag).build();
            };
            if (count == 1) {
                try {
                    return List.of(part.call());
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            futures.add(pool().submit(part));
        }
        List<CompletedPart> parts = new ArrayList<>();
        try {
            for (Future<CompletedPart> f : futures) parts.add(f.get());
            return parts;
        } catch (InterruptedException | ExecutionException e) {
            for (Future<CompletedPart> f : futures) f.cancel(false);
            for (Future<CompletedPart> f : futures) {
                try {
                    f.get();
                } catch (InterruptedException | ExecutionException | java.util.concurrent.CancellationException ignored) {
                    // only waiting until no part is under way
                }
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new StoreException(k, "interrupted while uploading " + file, e);
            }
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) throw r;
            if (c instanceof Error err) throw err;
            throw new StoreException(k, "cannot upload " + file + ": " + c.getMessage(), c);
        }
    }

    /** The threads that upload parts, made on first use: {@link #THREADS} daemon threads shared by this store's uploads. */
    private ExecutorService pool() {
        synchronized (lock) {
            if (pool == null) {
                pool = Executors.newFixedThreadPool(THREADS, r -> {
                    Thread t = new Thread(r, "fdl-s3-part");
                    t.setDaemon(true);
                    return t;
                });
            }
            return pool;
        }
    }

    /** A fresh stream over {@code len} bytes of {@code body} from {@code offset} (counted when the payload is). */
    private static InputStream slice(Payload body, long offset, long len) {
        try {
            return body.open(offset, len);
        } catch (IOException e) {
            throw new StoreException(null, "cannot read " + body.file() + ": " + e.getMessage(), e);
        }
    }

    /** S3's ETag of a multipart object: MD5 of the concatenated part MD5s, a dash, the part count. */
    static String multipartEtag(Path file, long partSize) throws IOException {
        long size = Files.size(file);
        MessageDigest all = md5();
        int count = partCount(size, partSize);
        for (int i = 0; i < count; i++) {
            long start = i * partSize;
            all.update(HexFormat.of().parseHex(md5Hex(file, start, Math.min(partSize, size - start))));
        }
        return HexFormat.of().formatHex(all.digest()) + "-" + count;
    }

    static int partCount(long size, long partSize) {
        return (int) Math.max(1, (size + partSize - 1) / partSize);
    }

    static String md5Hex(Path file, long offset, long len) throws IOException {
        MessageDigest md = md5();
        try (InputStream in = new DigestInputStream(slice(Payload.of(file), offset, len), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Ends the part threads (parts under way are interrupted). */
    @Override
    public void close() {
        synchronized (lock) {
            if (pool != null) pool.shutdownNow();
        }
    }
}
