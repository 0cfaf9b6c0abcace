package dev.fdl.trust;

import dev.fdl.FdlException;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of an SSH agent on its Unix socket ({@code SSH_AUTH_SOCK}), speaking the two requests
 * signing needs of the agent protocol (draft-miller-ssh-agent, sections 3.4 and 3.6): list the
 * keys, and sign with one ({@code rsa-sha2-512} for RSA keys). One connection per request.
 */
public final class SshAgent {
    private static final int FAILURE = 5;
    private static final int REQUEST_IDENTITIES = 11;
    private static final int IDENTITIES_ANSWER = 12;
    private static final int SIGN_REQUEST = 13;
    private static final int SIGN_RESPONSE = 14;
    private static final int RSA_SHA2_512 = 4;
    private static final int MAX_REPLY = 256 * 1024;

    private final Path socket;

    /** The agent listening on {@code socket}. */
    public SshAgent(Path socket) {
        this.socket = socket;
    }

    /**
     * The public keys the agent holds.
     *
     * @throws FdlException exit 1 naming the socket when the agent cannot be reached or answers wrongly
     */
    public List<SshPublicKey> keys() {
        SshWire.Reader r = request(new SshWire.Writer().u8(REQUEST_IDENTITIES).bytes(), IDENTITIES_ANSWER);
        long n = r.u32();
        List<SshPublicKey> keys = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            keys.add(new SshPublicKey(r.string()));
            r.string(); // comment
        }
        return keys;
    }

    /** A signer using the agent's copy of {@code key}; {@code keyFile} names it in messages. */
    public SshSigner signer(SshPublicKey key, String keyFile) {
        return new SshSigner() {
            @Override
            public SshPublicKey publicKey() {
                return key;
            }

            @Override
            public byte[] sign(byte[] data) {
                int flags = key.type().equals(SshPublicKey.RSA) ? RSA_SHA2_512 : 0;
                byte[] req = new SshWire.Writer().u8(SIGN_REQUEST).string(key.blob()).string(data).u32(flags).bytes();
                return request(req, SIGN_RESPONSE).string();
            }

            @Override
            public String describe() {
                return "the SSH agent at " + socket + " (key " + keyFile + ")";
            }
        };
    }

    private SshWire.Reader request(byte[] body, int expected) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer out = ByteBuffer.wrap(new SshWire.Writer().string(body).bytes());
            while (out.hasRemaining()) ch.write(out);
            ByteBuffer len = read(ch, 4);
            int n = len.getInt();
            if (n <= 0 || n > MAX_REPLY) throw new FdlException("the SSH agent at " + socket + " sent a reply of " + n + " bytes");
            SshWire.Reader r = new SshWire.Reader(read(ch, n).array());
            int type = r.u8();
            if (type == FAILURE)
                throw new FdlException("the SSH agent at " + socket + " refused the request (a key it holds with a confirmation that was "
                        + "declined, or a key it no longer holds); nothing was signed");
            if (type != expected) throw new FdlException("the SSH agent at " + socket + " answered with message type " + type);
            return r;
        } catch (IOException e) {
            throw new FdlException("cannot reach the SSH agent at " + socket + " (SSH_AUTH_SOCK): " + e.getMessage()
                    + "; start one (eval $(ssh-agent); ssh-add <key>) or unset SSH_AUTH_SOCK to sign with the key file");
        } catch (SshWire.Malformed e) {
            throw new FdlException("the SSH agent at " + socket + " sent a malformed reply: " + e.getMessage());
        }
    }

    private static ByteBuffer read(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) if (ch.read(b) < 0) throw new IOException("the agent closed the connection");
        return b.flip();
    }
}
