package dev.fdl.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * The ETags of a {@link LocalStore}: a file's content MD5 up to {@link LocalStore#CONTENT_ETAG_LIMIT}
 * bytes, above it an MD5 of its metadata (size, last-modified nanoseconds, file key: device and
 * inode), read from metadata alone (docs/stores.md, "ETags of a folder store").
 */
final class LocalEtags {
    private LocalEtags() {}

    /** The ETag the file at {@code f} has now: its content's MD5 when small, else from its metadata. */
    static String of(Path f) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(f, BasicFileAttributes.class);
        return attrs.size() <= LocalStore.CONTENT_ETAG_LIMIT ? md5(f) : ofMetadata(attrs);
    }

    /** The metadata ETag: hex MD5 of size, last-modified nanoseconds and file key (device, inode). */
    static String ofMetadata(BasicFileAttributes a) {
        String id = a.size() + ":" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS) + ":" + a.fileKey();
        return md5(id.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * MD5, looked up once, on first use: {@code MessageDigest.getInstance} finds the provider's
     * class and makes an instance by reflection at every call, and {@code fdl log} reads a file per
     * version; a command that never needs an ETag never loads the security providers.
     */
    private static final class Md5 {
        static final MessageDigest PROTOTYPE = newMd5();
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fresh MD5 digest, cloned from the one looked up once. */
    static MessageDigest md5Digest() {
        try {
            return (MessageDigest) Md5.PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newMd5(); // a provider whose digest cannot be cloned
        }
    }

    static String md5(byte[] bytes) {
        return HexFormat.of().formatHex(md5Digest().digest(bytes));
    }

    static String md5(Path f) throws IOException {
        MessageDigest md = md5Digest();
        try (InputStream in = new DigestInputStream(Files.newInputStream(f), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** MD5 of an open file's bytes, read by position (the channel's own position stays 0). */
    static String md5(FileChannel ch) throws IOException {
        MessageDigest md = md5Digest();
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 * 1024);
        long pos = 0;
        for (int n; (n = ch.read(buf, pos)) > 0; pos += n) {
            buf.flip();
            md.update(buf);
            buf.clear();
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
