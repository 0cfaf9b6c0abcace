package dev.fdl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package order docs/ARCHITECTURE.md writes down holds in the code: its two tables (the
 * packages, then {@code dev.fdl.ducklake}'s sub-packages) are read from the page, top to bottom,
 * packages named on one row sharing a place; a source that names a package listed above its own
 * (imports and fully qualified names, comments and strings left out) fails here, naming both.
 * {@code dev.fdl} itself ({@code FdlException}) lies below all.
 */
class PackageOrderTest {
    private static final Path DOC = Path.of("docs", "ARCHITECTURE.md");
    private static final Path MAIN = Path.of("src", "main", "java");
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.fdl\\.((?:[a-z][a-z0-9_]*\\.)*)[A-Z]");
    private static final Pattern ROW = Pattern.compile("(?m)^\\| ([^|]+) \\|");
    private static final Pattern NAME = Pattern.compile("`([a-z][a-z0-9_.]*)`");

    @Test
    void noPackageNamesOneListedAboveItInTheArchitecturePage() throws IOException {
        String doc = Files.readString(DOC);
        Map<String, Integer> top = order(table(doc, "## Packages"), "dev.fdl.");
        Map<String, Integer> sub = order(table(doc, "`dev.fdl.ducklake`, top to bottom:"), "dev.fdl.ducklake.");
        sub.put("dev.fdl.ducklake", java.util.Collections.max(sub.values()) + 1); // (root): the value types every sub-package shares
        assertThat(top).as("packages in ARCHITECTURE.md's table").containsKeys("dev.fdl.cli", "dev.fdl.repo", "dev.fdl.util");
        assertThat(sub).as("ducklake sub-packages in ARCHITECTURE.md's table").containsKeys("dev.fdl.ducklake.merge", "dev.fdl.ducklake.engine");

        List<String> upward = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : references().entrySet()) {
            String from = e.getKey().substring(0, e.getKey().indexOf(' '));
            for (String to : new TreeSet<>(e.getValue())) {
                if (above(to, from, top, sub)) upward.add(e.getKey() + " names " + to);
            }
        }
        assertThat(upward).as("a package names one listed above it in docs/ARCHITECTURE.md (dependencies point down the list)").isEmpty();
        assertThat(unlisted(top, sub)).as("packages of src/main missing from docs/ARCHITECTURE.md's tables").isEmpty();
    }

    /** Whether {@code to} is listed above {@code from} (a top-level place, or within ducklake a sub-package place). */
    private static boolean above(String to, String from, Map<String, Integer> top, Map<String, Integer> sub) {
        if (to.equals("dev.fdl") || to.equals(from)) return false;
        boolean fromLake = from.startsWith("dev.fdl.ducklake"), toLake = to.startsWith("dev.fdl.ducklake");
        if (fromLake && toLake) return place(sub, to) < place(sub, from);
        return place(top, topLevel(to)) < place(top, topLevel(from));
    }

    private static String topLevel(String pkg) {
        String[] parts = pkg.split("\\.");
        return parts.length <= 2 ? pkg : parts[0] + "." + parts[1] + "." + parts[2];
    }

    /** The place of {@code pkg} or, for a sub-package the table does not name (load.sync), of its nearest listed parent. */
    private static int place(Map<String, Integer> order, String pkg) {
        for (String p = pkg; p.contains("."); p = p.substring(0, p.lastIndexOf('.'))) {
            Integer i = order.get(p);
            if (i != null) return i;
        }
        throw new AssertionError("package " + pkg + " is not in docs/ARCHITECTURE.md's tables");
    }

    /** The first cells of the table following {@code heading} that name packages, one per row (the header and rule left out). */
    private static List<String> table(String doc, String heading) {
        int at = doc.indexOf(heading);
        assertThat(at).as("ARCHITECTURE.md has " + heading).isNotNegative();
        int start = doc.indexOf("\n|", at), end = doc.indexOf("\n\n", start + 1);
        List<String> rows = new ArrayList<>();
        Matcher m = ROW.matcher(doc.substring(start + 1, end < 0 ? doc.length() : end));
        while (m.find()) if (m.group(1).contains("`") || m.group(1).equals("(root)")) rows.add(m.group(1));
        return rows;
    }

    /** Package to place (1 at the top) for each package named in a row's first cell; names are relative to {@code prefix}. */
    private static Map<String, Integer> order(List<String> rows, String prefix) {
        Map<String, Integer> out = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Matcher m = NAME.matcher(rows.get(i));
            while (m.find()) {
                String n = m.group(1);
                out.put(prefix + (n.startsWith(prefix) ? n.substring(prefix.length()) : n), i + 1);
            }
        }
        return out;
    }

    /** For each source ({@code package path}), the dev.fdl packages it names. */
    private static Map<String, List<String>> references() throws IOException {
        Map<String, List<String>> out = new HashMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String rel = MAIN.relativize(f.getParent()).toString().replace('\\', '/').replace('/', '.');
                String code = SourceSites.NOT_CODE.matcher(Files.readString(f)).replaceAll(" ");
                List<String> named = new ArrayList<>();
                Matcher m = REFERENCE.matcher(code);
                while (m.find()) {
                    String pkg = m.group(1);
                    named.add(pkg.isEmpty() ? "dev.fdl" : "dev.fdl." + pkg.substring(0, pkg.length() - 1));
                }
                out.put(rel + " " + MAIN.relativize(f).toString().replace('\\', '/'), named);
            }
        }
        return out;
    }

    private static List<String> unlisted(Map<String, Integer> top, Map<String, Integer> sub) throws IOException {
        List<String> out = new ArrayList<>();
        for (String k : references().keySet()) {
            String pkg = k.substring(0, k.indexOf(' '));
            if (pkg.equals("dev.fdl")) continue;
            try {
                if (pkg.startsWith("dev.fdl.ducklake")) place(sub, pkg);
                else place(top, pkg);
            } catch (AssertionError e) {
                out.add(pkg);
            }
        }
        return out.stream().distinct().toList();
    }
}
