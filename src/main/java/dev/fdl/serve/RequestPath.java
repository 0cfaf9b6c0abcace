package dev.fdl.serve;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The object key a request path names, or a refusal. The raw path is percent-decoded exactly
 * once (RFC 3986 section 2.1), as UTF-8; the decoded path must start with {@code /} and have no
 * {@code .} or {@code ..} segment, no empty segment (except a trailing {@code /}), no backslash,
 * no control character. So {@code %2e%2e}, {@code ..%2f}, {@code %5c} and their double-encoded
 * forms can never name a key outside the root: double-encoded ones decode to a literal key
 * containing {@code %}, which is looked up as such.
 */
final class RequestPath {
    private RequestPath() {}

    /**
     * The key for {@code rawPath} (without its leading {@code /}; empty for the root).
     *
     * @throws IllegalArgumentException naming why the path is refused
     */
    static String key(String rawPath) {
        if (rawPath == null || !rawPath.startsWith("/")) throw new IllegalArgumentException("bad path");
        String path = decode(rawPath);
        if (!path.startsWith("/")) throw new IllegalArgumentException("bad path");
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') throw new IllegalArgumentException("bad character in path");
        }
        String key = path.substring(1);
        if (key.isEmpty()) return key;
        String body = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        for (String seg : body.split("/", -1))
            if (seg.isEmpty() || seg.equals(".") || seg.equals(".."))
                throw new IllegalArgumentException("path segments '', '.' and '..' are not allowed");
        return key;
    }

    private static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            // nothing encoded: the path is its own decoding when it is ASCII (most requests)
            for (int i = 0; i < raw.length(); i++) if (raw.charAt(i) > 0x7f) throw new IllegalArgumentException("bad character in path");
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) throw new IllegalArgumentException("bad percent-encoding in path");
                int hi = Character.digit(raw.charAt(i + 1), 16), lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) throw new IllegalArgumentException("bad percent-encoding in path");
                out.write(hi * 16 + lo);
                i += 2;
            } else if (c > 0x7f) {
                throw new IllegalArgumentException("bad character in path");
            } else {
                out.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("path is not UTF-8");
        }
    }
}
