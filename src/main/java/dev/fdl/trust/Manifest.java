package dev.fdl.trust;

import dev.fdl.FdlException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A version's digest manifest, {@code versions/<id>/manifest.sha256} (docs/signing.md): one line
 * per file in the format {@code sha256sum -c} reads, {@code <hex>  <path>}, the path relative to
 * the repository root, so that {@code sha256sum -c versions/<id>/manifest.sha256} run in a copy of
 * the root checks every file. A path holding a backslash or a newline is written as sha256sum
 * writes it (the line starts with a backslash, the two escaped as {@code \\} and {@code \n}).
 * Sizes are not repeated here: version.json records the catalog's and dataset.json's, and the
 * catalog every data and delete file's.
 *
 * @param entries path to hex SHA-256, in the order written (catalog, dataset.json, then data files by path)
 */
public record Manifest(Map<String, String> entries) {
    public Manifest {
        entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /** The file's bytes: one line per entry, in order. */
    public byte[] toBytes() {
        StringBuilder s = new StringBuilder();
        entries.forEach((path, sha) -> {
            boolean escape = path.indexOf('\\') >= 0 || path.indexOf('\n') >= 0;
            if (escape) s.append('\\');
            s.append(sha).append("  ");
            s.append(escape ? path.replace("\\", "\\\\").replace("\n", "\\n") : path).append('\n');
        });
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses a manifest.
     *
     * @throws FdlException exit 1 naming {@code source} and the line that is not {@code <hex>  <path>}
     */
    public static Manifest parse(byte[] bytes, String source) {
        Map<String, String> out = new LinkedHashMap<>();
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) lines.remove(lines.size() - 1);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean escaped = line.startsWith("\\");
            String l = escaped ? line.substring(1) : line;
            if (l.length() < 67 || !l.substring(0, 64).matches("[0-9a-f]{64}") || !l.startsWith("  ", 64))
                throw FdlException.corrupt(source, "line " + (i + 1) + " is not \"<sha256>  <path>\"");
            String path = l.substring(66);
            if (escaped) path = unescape(path);
            out.put(path, l.substring(0, 64));
        }
        return new Manifest(out);
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
