package dev.fdl.trust;

import dev.fdl.FdlException;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * Signatures in OpenSSH's SSHSIG format (OpenSSH PROTOCOL.sshsig), as {@code ssh-keygen -Y sign}
 * writes and {@code ssh-keygen -Y verify} reads them, and as git's {@code gpg.format ssh} uses
 * them: the message's SHA-512 is signed together with the namespace, so a signature made for
 * fdl ({@link #NAMESPACE}) is no signature of anything else.
 */
public final class SshSig {
    /** The namespace of every signature fdl makes and accepts. */
    public static final String NAMESPACE = "fdl";
    private static final byte[] MAGIC = "SSHSIG".getBytes(StandardCharsets.US_ASCII);
    private static final String BEGIN = "-----BEGIN SSH SIGNATURE-----";
    private static final String END = "-----END SSH SIGNATURE-----";
    private static final String HASH = "sha512";

    private SshSig() {}

    /** A parsed signature: the key that made it, its namespace and hash, and the SSH signature blob. */
    public record Parsed(SshPublicKey key, String namespace, String hash, byte[] signature) {}

    /**
     * Signs {@code message} with {@code signer} in namespace {@link #NAMESPACE}.
     *
     * @return the armored signature ({@code -----BEGIN SSH SIGNATURE-----}, base64 in lines of 70, as ssh-keygen writes it)
     */
    public static byte[] sign(SshSigner signer, byte[] message) {
        byte[] sig = signer.sign(signedData(NAMESPACE, HASH, message));
        byte[] blob = new SshWire.Writer().raw(MAGIC).u32(1).string(signer.publicKey().blob()).string(NAMESPACE)
                .string(new byte[0]).string(HASH).string(sig).bytes();
        String b64 = Base64.getEncoder().encodeToString(blob);
        StringBuilder s = new StringBuilder(BEGIN).append('\n');
        for (int i = 0; i < b64.length(); i += 70) s.append(b64, i, Math.min(b64.length(), i + 70)).append('\n');
        return s.append(END).append('\n').toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Parses an armored signature.
     *
     * @throws FdlException exit 1 naming {@code what} when it is not an SSHSIG signature
     */
    public static Parsed parse(byte[] armored, String what) {
        String text = new String(armored, StandardCharsets.US_ASCII);
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        if (b < 0 || e < b) throw new FdlException(what + " is not an SSH signature (no " + BEGIN + " line)");
        try {
            SshWire.Reader r = new SshWire.Reader(Base64.getMimeDecoder().decode(text.substring(b + BEGIN.length(), e)));
            if (!java.util.Arrays.equals(r.raw(MAGIC.length), MAGIC)) throw new SshWire.Malformed("no SSHSIG preamble");
            long version = r.u32();
            if (version != 1) throw new SshWire.Malformed("signature version " + version + ", fdl reads 1");
            SshPublicKey key = new SshPublicKey(r.string());
            String ns = r.utf8();
            r.string(); // reserved
            String hash = r.utf8();
            byte[] sig = r.string();
            return new Parsed(key, ns, hash, sig);
        } catch (IllegalArgumentException | SshWire.Malformed ex) {
            throw new FdlException(what + " is not a valid SSH signature: " + ex.getMessage());
        }
    }

    /**
     * Whether {@code sig} is a valid signature of {@code message} in namespace {@link #NAMESPACE}
     * by the key it names (who that key belongs to is {@link AllowedSigners}' question).
     */
    public static boolean verifies(Parsed sig, byte[] message) {
        if (!sig.namespace().equals(NAMESPACE) || !(sig.hash().equals("sha512") || sig.hash().equals("sha256"))) return false;
        return sig.key().verifies(sig.signature(), signedData(sig.namespace(), sig.hash(), message));
    }

    private static byte[] signedData(String namespace, String hash, byte[] message) {
        try {
            byte[] h = MessageDigest.getInstance(hash.equals("sha512") ? "SHA-512" : "SHA-256").digest(message);
            return new SshWire.Writer().raw(MAGIC).string(namespace).string(new byte[0]).string(hash).string(h).bytes();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
