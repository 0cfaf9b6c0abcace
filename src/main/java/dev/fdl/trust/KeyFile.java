package dev.fdl.trust;

import dev.fdl.FdlException;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A private key in OpenSSH's own file format ({@code -----BEGIN OPENSSH PRIVATE KEY-----},
 * OpenSSH PROTOCOL.key, what {@code ssh-keygen} writes): unencrypted Ed25519 and RSA keys sign
 * here with the JDK's providers. An encrypted key is read for its public half only (which the
 * format keeps in clear), so that an agent holding it can sign ({@link SigningKeys}).
 */
public final class KeyFile implements SshSigner {
    private static final String BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";
    private static final String END = "-----END OPENSSH PRIVATE KEY-----";
    private static final byte[] MAGIC = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);
    /** DER prefix of an Ed25519 PKCS#8 private key (RFC 8410); the 32-byte seed follows. */
    private static final byte[] ED25519_PKCS8 = HexFormat.of().parseHex("302e020100300506032b657004220420");

    private final Path file;
    private final SshPublicKey publicKey;
    private final PrivateKey privateKey; // null when encrypted

    private KeyFile(Path file, SshPublicKey publicKey, PrivateKey privateKey) {
        this.file = file;
        this.publicKey = publicKey;
        this.privateKey = privateKey;
    }

    /**
     * Reads {@code file}.
     *
     * @throws FdlException exit 1 naming the file: missing, unreadable, not an OpenSSH private key,
     *                      or a key type other than Ed25519 and RSA
     */
    public static KeyFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new FdlException("the signing key " + file + " does not exist; name an SSH private key "
                    + "(fdl commit --sign=<file>, or fdl config signing.key <file>)");
        } catch (IOException e) {
            throw new FdlException("cannot read the signing key " + file + ": " + e.getMessage());
        }
        int b = text.indexOf(BEGIN);
        int en = text.indexOf(END);
        if (b < 0 || en < b)
            throw new FdlException(file + " is not an OpenSSH private key (no " + BEGIN + " line); fdl reads the format "
                    + "ssh-keygen writes: convert an older PEM key with ssh-keygen -p -f " + file);
        byte[] raw;
        try {
            raw = Base64.getMimeDecoder().decode(text.substring(b + BEGIN.length(), en));
        } catch (IllegalArgumentException e) {
            throw new FdlException(file + " is not an OpenSSH private key: " + e.getMessage());
        }
        try {
            return parse(file, raw);
        } catch (SshWire.Malformed | GeneralSecurityException e) {
            throw new FdlException(file + " is not a valid OpenSSH private key: " + e.getMessage());
        }
    }

    private static KeyFile parse(Path file, byte[] raw) throws GeneralSecurityException {
        if (!Arrays.equals(Arrays.copyOf(raw, MAGIC.length), MAGIC)) throw new SshWire.Malformed("no openssh-key-v1 header");
        SshWire.Reader r = new SshWire.Reader(Arrays.copyOfRange(raw, MAGIC.length, raw.length));
        String cipher = r.utf8();
        r.utf8(); // kdf name
        r.string(); // kdf options
        if (r.u32() != 1) throw new SshWire.Malformed("fdl reads files holding one key");
        SshPublicKey pub = new SshPublicKey(r.string());
        byte[] secret = r.string();
        if (!cipher.equals("none")) return new KeyFile(file, pub, null);
        SshWire.Reader s = new SshWire.Reader(secret);
        if (s.u32() != s.u32()) throw new SshWire.Malformed("check integers differ");
        String type = s.utf8();
        PrivateKey key;
        if (type.equals(SshPublicKey.ED25519)) {
            s.string(); // public key
            byte[] both = s.string(); // seed and public key, 64 bytes
            if (both.length != 64) throw new SshWire.Malformed("an Ed25519 private key has 64 bytes");
            byte[] der = Arrays.copyOf(ED25519_PKCS8, ED25519_PKCS8.length + 32);
            System.arraycopy(both, 0, der, ED25519_PKCS8.length, 32);
            key = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
        } else if (type.equals(SshPublicKey.RSA)) {
            BigInteger n = s.mpint(), e = s.mpint(), d = s.mpint(), iqmp = s.mpint(), p = s.mpint(), q = s.mpint();
            key = KeyFactory.getInstance("RSA").generatePrivate(new RSAPrivateCrtKeySpec(n, e, d, p, q,
                    d.mod(p.subtract(BigInteger.ONE)), d.mod(q.subtract(BigInteger.ONE)), iqmp));
        } else {
            throw new FdlException(file + " holds a " + type + " key; fdl signs with ssh-ed25519 and ssh-rsa keys");
        }
        return new KeyFile(file, pub, key);
    }

    /** True when the file is protected by a passphrase: only its public half could be read. */
    public boolean encrypted() {
        return privateKey == null;
    }

    @Override
    public SshPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public byte[] sign(byte[] data) {
        if (privateKey == null)
            throw new FdlException("the signing key " + file + " is protected by a passphrase, which fdl does not ask for: add it to an "
                    + "SSH agent (ssh-add " + file + ") and set SSH_AUTH_SOCK; nothing was signed");
        boolean rsa = publicKey.type().equals(SshPublicKey.RSA);
        try {
            Signature s = Signature.getInstance(rsa ? "SHA512withRSA" : "Ed25519");
            s.initSign(privateKey);
            s.update(data);
            return new SshWire.Writer().string(rsa ? "rsa-sha2-512" : SshPublicKey.ED25519).string(s.sign()).bytes();
        } catch (GeneralSecurityException e) {
            throw new FdlException("cannot sign with " + file + ": " + e.getMessage());
        }
    }

    @Override
    public String describe() {
        return file.toString();
    }
}
