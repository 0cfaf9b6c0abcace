package dev.fdl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No package cycles among {@code dev.fdl.*}: the dependencies of each package of
 * src/main/java are read from its sources (imports and fully qualified names, comments
 * excluded) and must form a graph without cycles, so each package can be read, tested and
 * changed from its dependencies up. Every folder is a package of its own, sub-packages included
 * (dev.fdl.ducklake.read and dev.fdl.ducklake.catalog are two nodes). docs/ARCHITECTURE.md
 * maps the packages and their order.
 */
class PackageCyclesTest {
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.fdl\\.((?:[a-z][a-z0-9_]*\\.)*)[A-Z]");
    /** Text blocks, strings, character literals and comments, matched left to right so that "s3://" is a string. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "\"\"\"(?s:.*?)\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])'|/\\*(?s:.*?)\\*/|//[^\\n]*");

    @Test
    void mainPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> graph = dependencies(Path.of("src", "main", "java"));

        assertThat(graph).as("packages found").containsKeys("dev.fdl.repo", "dev.fdl.store", "dev.fdl.cli");
        assertThat(cycle(graph)).as("a package cycle; dependencies: " + graph).isEmpty();
    }

    /** Sub-packages count as packages of their own: dev.fdl.ducklake.load and dev.fdl.ducklake.load.sync are two nodes. */
    @Test
    void subPackagesAreNodesOfTheirOwn() throws IOException {
        Map<String, Set<String>> graph = dependencies(Path.of("src", "main", "java"));

        assertThat(graph).containsKeys("dev.fdl.ducklake", "dev.fdl.ducklake.format", "dev.fdl.ducklake.engine",
                "dev.fdl.ducklake.catalog", "dev.fdl.ducklake.read", "dev.fdl.ducklake.working", "dev.fdl.ducklake.load",
                "dev.fdl.ducklake.load.sync");
    }

    /** No folder of dev.fdl.ducklake grows back into a flat package: at most 20 sources each. */
    @Test
    void noDucklakeFolderHoldsMoreThanTwentySources() throws IOException {
        Path root = Path.of("src", "main", "java", "dev", "fdl", "ducklake");
        Map<String, Long> tooMany = new TreeMap<>();
        try (Stream<Path> dirs = Files.walk(root)) {
            for (Path d : dirs.filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.list(d)) {
                    long n = files.filter(p -> p.toString().endsWith(".java")).count();
                    if (n > 20) tooMany.put(root.relativize(d).toString(), n);
                }
            }
        }
        assertThat(tooMany).as("folders of dev.fdl.ducklake with more than 20 .java files").isEmpty();
    }

    @Test
    void theCheckFindsACycleAndNamesItsPackages() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("dev.fdl.a", Set.of("dev.fdl.b"));
        graph.put("dev.fdl.b", Set.of("dev.fdl.c", "dev.fdl.util"));
        graph.put("dev.fdl.c", Set.of("dev.fdl.a"));
        graph.put("dev.fdl.util", Set.of());

        assertThat(cycle(graph)).containsExactly("dev.fdl.a", "dev.fdl.b", "dev.fdl.c", "dev.fdl.a");
        graph.put("dev.fdl.c", Set.of("dev.fdl.util"));
        assertThat(cycle(graph)).isEmpty();
    }

    @Test
    void referencesAreReadFromCodeNotFromCommentsOrStrings() {
        String source = """
                package dev.fdl.x;
                import dev.fdl.store.ObjectStore;
                import static dev.fdl.util.Json.MAPPER;
                /** See {@link dev.fdl.cli.Main}. */
                class X { // dev.fdl.retention.Gc
                    String s = "s3://x/" + dev.fdl.repo.RepoLayout.HEAD + "dev.fdl.cache.CatalogCache";
                    String t = \"""
                        dev.fdl.cli.Main \"""; char c = '"';
                    Object o = dev.fdl.ducklake.catalog.CatalogInspector.class;
                    Object e = dev.fdl.FdlException.class;
                }
                """;
        assertThat(references(source)).containsExactlyInAnyOrder("dev.fdl.store", "dev.fdl.util", "dev.fdl.repo", "dev.fdl.ducklake.catalog", "dev.fdl");
    }

    /** Package to the packages its sources refer to (itself excluded). */
    static Map<String, Set<String>> dependencies(Path sourceRoot) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = sourceRoot.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), ".");
                Set<String> deps = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
                for (String d : references(Files.readString(f))) if (!d.equals(pkg)) deps.add(d);
            }
        }
        return graph;
    }

    /** The {@code dev.fdl} packages a source file refers to in code. */
    static Set<String> references(String source) {
        String code = NOT_CODE.matcher(source).replaceAll(" ");
        Set<String> out = new TreeSet<>();
        Matcher m = REFERENCE.matcher(code);
        while (m.find()) {
            String sub = m.group(1);
            out.add(sub.isEmpty() ? "dev.fdl" : "dev.fdl." + sub.substring(0, sub.length() - 1));
        }
        return out;
    }

    /** One cycle as a path that starts and ends at the same package, or empty when there is none (depth-first search). */
    static List<String> cycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new HashMap<>(); // 1: on the current path, 2: done
        for (String start : graph.keySet()) {
            if (state.containsKey(start)) continue;
            Deque<String> path = new ArrayDeque<>();
            List<String> found = visit(start, graph, state, path);
            if (!found.isEmpty()) return found;
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state, Deque<String> path) {
        state.put(node, 1);
        path.addLast(node);
        for (String next : new TreeSet<>(graph.getOrDefault(node, Set.of()))) {
            Integer s = state.get(next);
            if (s != null && s == 1) {
                List<String> cycle = new ArrayList<>();
                boolean on = false;
                for (String p : path) {
                    if (p.equals(next)) on = true;
                    if (on) cycle.add(p);
                }
                cycle.add(next);
                return cycle;
            }
            if (s == null) {
                List<String> found = visit(next, graph, state, path);
                if (!found.isEmpty()) return found;
            }
        }
        path.removeLast();
        state.put(node, 2);
        return List.of();
    }
}
