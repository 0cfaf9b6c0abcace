package dev.fdl.trust;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The SSH wire encoding (RFC 4251 section 5): {@code uint32} big-endian, {@code string} as a
 * uint32 length and bytes, {@code mpint} as a two's-complement string. The one encoding under
 * SSHSIG, the OpenSSH key file and the agent protocol.
 */
final class SshWire {
    private SshWire() {}

    /** Builds a message. */
    static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Writer raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Writer u8(int b) {
            out.write(b);
            return this;
        }

        Writer u32(long v) {
            out.write((int) (v >>> 24));
            out.write((int) (v >>> 16));
            out.write((int) (v >>> 8));
            out.write((int) v);
            return this;
        }

        Writer string(byte[] b) {
            u32(b.length);
            return raw(b);
        }

        Writer string(String s) {
            return string(s.getBytes(StandardCharsets.UTF_8));
        }

        Writer mpint(BigInteger v) {
            return string(v.signum() == 0 ? new byte[0] : v.toByteArray());
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** Reads a message; any read past its end is a {@link Malformed}. */
    static final class Reader {
        private final ByteBuffer in;

        Reader(byte[] b) {
            in = ByteBuffer.wrap(b);
        }

        byte[] raw(int n) {
            if (n < 0 || n > in.remaining()) throw new Malformed("a field runs past the end");
            byte[] b = new byte[n];
            in.get(b);
            return b;
        }

        int u8() {
            try {
                return in.get() & 0xff;
            } catch (BufferUnderflowException e) {
                throw new Malformed("ends early");
            }
        }

        long u32() {
            try {
                return in.getInt() & 0xffffffffL;
            } catch (BufferUnderflowException e) {
                throw new Malformed("ends early");
            }
        }

        byte[] string() {
            long n = u32();
            if (n > in.remaining()) throw new Malformed("a field runs past the end");
            return raw((int) n);
        }

        String utf8() {
            return new String(string(), StandardCharsets.UTF_8);
        }

        BigInteger mpint() {
            byte[] b = string();
            return b.length == 0 ? BigInteger.ZERO : new BigInteger(b);
        }

        boolean atEnd() {
            return !in.hasRemaining();
        }

        int remaining() {
            return in.remaining();
        }
    }

    /** A message that does not follow the encoding; the caller names the file or peer. */
    static final class Malformed extends RuntimeException {
        Malformed(String why) {
            super(why);
        }
    }
}
