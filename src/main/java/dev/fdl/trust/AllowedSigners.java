package dev.fdl.trust;

import dev.fdl.FdlException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An allowed-signers file in the format {@code ssh-keygen -Y verify} reads (ssh-keygen(1),
 * "ALLOWED SIGNERS"): one line per key, {@code principals [options] keytype base64 [comment]},
 * with {@code #} comments. The options fdl honours are those ssh-keygen does for plain keys:
 * {@code namespaces="…"} (the key signs only in those), {@code valid-after} and
 * {@code valid-before} (judged at the time of checking, as ssh-keygen does without
 * {@code -Overify-time}); {@code cert-authority} lines name CAs of certificates, which fdl does
 * not use, and never match.
 */
public final class AllowedSigners {
    private record Entry(String principals, SshPublicKey key, String namespaces, Instant validAfter, Instant validBefore, boolean ca) {}

    private final String source;
    private final List<Entry> entries;

    private AllowedSigners(String source, List<Entry> entries) {
        this.source = source;
        this.entries = List.copyOf(entries);
    }

    /**
     * Parses the file's bytes.
     *
     * @param source names the file in errors
     * @throws FdlException exit 1 naming the file and line of a line that is not an allowed signer
     */
    public static AllowedSigners parse(byte[] bytes, String source) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            try {
                entries.add(entry(tokens(line)));
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new FdlException(source + " line " + (i + 1) + " is not an allowed signer (principals [options] keytype base64 "
                        + "[comment], ssh-keygen(1) ALLOWED SIGNERS): " + e.getMessage());
            }
        }
        return new AllowedSigners(source, entries);
    }

    private static Entry entry(List<String> t) {
        if (t.size() < 3) throw new IllegalArgumentException("too few fields");
        int k = isKeyType(t.get(1)) ? 1 : 2;
        if (t.size() < k + 2) throw new IllegalArgumentException("no key after the options");
        String type = t.get(k);
        SshPublicKey key;
        try {
            key = SshPublicKey.parseLine(type + " " + t.get(k + 1), "the key");
        } catch (FdlException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        String ns = null;
        Instant after = null, before = null;
        boolean ca = false;
        if (k == 2) {
            for (String opt : splitOptions(t.get(1))) {
                String name = opt.contains("=") ? opt.substring(0, opt.indexOf('=')).toLowerCase() : opt.toLowerCase();
                String value = opt.contains("=") ? unquote(opt.substring(opt.indexOf('=') + 1)) : null;
                switch (name) {
                    case "cert-authority" -> ca = true;
                    case "namespaces" -> ns = value;
                    case "valid-after" -> after = time(value);
                    case "valid-before" -> before = time(value);
                    default -> throw new IllegalArgumentException("unknown option " + name);
                }
            }
        }
        return new Entry(unquote(t.get(0)), key, ns, after, before, ca);
    }

    private static boolean isKeyType(String s) {
        return s.startsWith("ssh-") || s.startsWith("ecdsa-") || s.startsWith("sk-");
    }

    /**
     * The principals (as the file writes them: a comma-separated list of patterns) that may sign
     * in {@code namespace} with {@code key} at {@code now}; empty when the file allows it nobody.
     */
    public Optional<String> principals(SshPublicKey key, String namespace, Instant now) {
        for (Entry e : entries) {
            if (e.ca() || !e.key().equals(key)) continue;
            if (e.namespaces() != null && !matchesList(e.namespaces(), namespace)) continue;
            if (e.validAfter() != null && now.isBefore(e.validAfter())) continue;
            if (e.validBefore() != null && !now.isBefore(e.validBefore())) continue;
            return Optional.of(e.principals());
        }
        return Optional.empty();
    }

    /** The file, as it was named. */
    public String source() {
        return source;
    }

    /** Whether {@code value} matches one of the comma-separated {@code *}/{@code ?} patterns (OpenSSH's match_pattern_list; {@code !} negates). */
    static boolean matchesList(String patterns, String value) {
        boolean got = false;
        for (String p : patterns.split(",")) {
            boolean neg = p.startsWith("!");
            String pat = neg ? p.substring(1) : p;
            if (glob(pat).matcher(value).matches()) {
                if (neg) return false;
                got = true;
            }
        }
        return got;
    }

    private static Pattern glob(String p) {
        StringBuilder re = new StringBuilder();
        for (char c : p.toCharArray()) re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        return Pattern.compile(re.toString());
    }

    /** ssh-keygen's times: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, local time unless it ends in Z (UTC). */
    private static Instant time(String v) {
        if (v == null) throw new IllegalArgumentException("a time option needs a value");
        boolean utc = v.endsWith("Z") || v.endsWith("z");
        String s = utc ? v.substring(0, v.length() - 1) : v;
        String full = switch (s.length()) {
            case 8 -> s + "000000";
            case 12 -> s + "00";
            case 14 -> s;
            default -> throw new IllegalArgumentException("not a time: " + v);
        };
        LocalDateTime t = LocalDateTime.parse(full, DateTimeFormatter.ofPattern("uuuuMMddHHmmss"));
        return t.atZone(utc ? ZoneOffset.UTC : ZoneId.systemDefault()).toInstant();
    }

    /** Whitespace-separated fields; double quotes keep spaces inside a field. */
    private static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') quoted = !quoted;
            if (!quoted && Character.isWhitespace(c)) {
                if (cur.length() > 0) out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (quoted) throw new IllegalArgumentException("a quote is not closed");
        if (cur.length() > 0) out.add(cur.toString());
        return out;
    }

    /** Options are comma-separated; commas inside quotes belong to the value. */
    private static List<String> splitOptions(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : s.toCharArray()) {
            if (c == '"') quoted = !quoted;
            if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
