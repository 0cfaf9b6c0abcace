package dev.fdl.util;

import dev.fdl.FdlException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Hex SHA-256, as version.json records it for the catalog and dataset.json (SPEC.md section 3). */
public final class Sha256 {
    private Sha256() {}

    /**
     * Of a local file, streamed.
     *
     * @throws FdlException exit 1 naming the file when it cannot be read
     */
    public static String of(Path file) {
        MessageDigest md = digest();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        } catch (IOException e) {
            throw new FdlException("cannot read " + file + ": " + e.getMessage());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** Of bytes in memory. */
    public static String of(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
