package dev.fdl.trust;

import dev.fdl.FdlException;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * An SSH public key as its wire blob (RFC 4253 section 6.6, RFC 8709 for Ed25519): the form an
 * allowed-signers file, an SSHSIG signature and the agent all carry, compared byte for byte.
 * Verifies SSH signature blobs ({@code ssh-ed25519}; {@code rsa-sha2-512} and {@code rsa-sha2-256},
 * RFC 8332) with the JDK's own providers.
 *
 * @param blob the key's wire encoding: {@code string type} followed by the type's fields
 */
public record SshPublicKey(byte[] blob) {
    static final String ED25519 = "ssh-ed25519";
    static final String RSA = "ssh-rsa";
    /** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410); the 32-byte key follows. */
    private static final byte[] ED25519_X509 = HexFormat.of().parseHex("302a300506032b6570032100");

    public SshPublicKey {
        blob = blob.clone();
    }

    /** The key type, {@code ssh-ed25519} or {@code ssh-rsa} (others are read but cannot verify). */
    public String type() {
        return new SshWire.Reader(blob).utf8();
    }

    /** As ssh-keygen prints it: {@code SHA256:} and the unpadded base64 of the blob's SHA-256. */
    public String fingerprint() {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(blob);
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(h);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code authorized_keys} form: {@code type base64}. */
    public String openSsh() {
        return type() + " " + Base64.getEncoder().encodeToString(blob);
    }

    /**
     * Parses the {@code type base64 [comment]} line of a {@code .pub} file.
     *
     * @throws FdlException exit 1 naming {@code what} when it is not one
     */
    public static SshPublicKey parseLine(String line, String what) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length < 2) throw new FdlException(what + " is not an OpenSSH public key (\"type base64 [comment]\")");
        try {
            SshPublicKey k = new SshPublicKey(Base64.getDecoder().decode(parts[1]));
            if (!k.type().equals(parts[0])) throw new FdlException(what + ": the key's type is " + k.type() + ", the line says " + parts[0]);
            return k;
        } catch (IllegalArgumentException | SshWire.Malformed e) {
            throw new FdlException(what + " is not an OpenSSH public key: " + e.getMessage());
        }
    }

    /**
     * Whether {@code signature} (an SSH signature blob: {@code string algorithm, string bytes}) is
     * this key's signature of {@code data}. A signature of another algorithm family, or a key type
     * fdl cannot verify, is false.
     */
    public boolean verifies(byte[] signature, byte[] data) {
        try {
            SshWire.Reader r = new SshWire.Reader(signature);
            String alg = r.utf8();
            byte[] sig = r.string();
            String jca = switch (alg) {
                case ED25519 -> type().equals(ED25519) ? "Ed25519" : null;
                case "rsa-sha2-512" -> type().equals(RSA) ? "SHA512withRSA" : null;
                case "rsa-sha2-256" -> type().equals(RSA) ? "SHA256withRSA" : null;
                default -> null;
            };
            if (jca == null) return false;
            Signature s = Signature.getInstance(jca);
            s.initVerify(javaKey());
            s.update(data);
            return s.verify(sig);
        } catch (SshWire.Malformed | GeneralSecurityException e) {
            return false;
        }
    }

    /** The JDK's form of this key. */
    PublicKey javaKey() throws GeneralSecurityException {
        SshWire.Reader r = new SshWire.Reader(blob);
        String type = r.utf8();
        if (type.equals(ED25519)) {
            byte[] k = r.string();
            if (k.length != 32) throw new GeneralSecurityException("an Ed25519 key has 32 bytes, not " + k.length);
            byte[] der = Arrays.copyOf(ED25519_X509, ED25519_X509.length + 32);
            System.arraycopy(k, 0, der, ED25519_X509.length, 32);
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
        }
        if (type.equals(RSA)) {
            BigInteger e = r.mpint();
            BigInteger n = r.mpint();
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e));
        }
        throw new GeneralSecurityException("fdl verifies ssh-ed25519 and ssh-rsa keys, not " + type);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SshPublicKey k && Arrays.equals(blob, k.blob);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(blob);
    }

    @Override
    public String toString() {
        return type() + " " + fingerprint();
    }
}
