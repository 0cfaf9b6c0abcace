package dev.fdl.site;

import dev.fdl.cli.Cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A small real repository made through the command line: three versions of a table of towns
 * (the first tagged {@code first}, the second expired), described by a datapackage.json with a
 * title, a license and a source, and a message with markup that pages must escape.
 */
public final class SiteRepo {
    public final Path root;
    public final Path wc;
    public final String first, second, third;

    private SiteRepo(Path root, Path wc, String first, String second, String third) {
        this.root = root;
        this.wc = wc;
        this.first = first;
        this.second = second;
        this.third = third;
    }

    private static SiteRepo built;

    /**
     * A copy, under {@code dir}, of one repository built once per test JVM (building takes three
     * commits); the copy's working copy is a fresh checkout of the copied repository.
     */
    public static synchronized SiteRepo copy(Path dir) {
        try {
            if (built == null) {
                Path shared = Files.createTempDirectory("fdl-site-repo");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(shared), "fdl-site-repo-cleanup"));
                built = create(shared);
            }
            Path root = dir.resolve("repo");
            try (var walk = Files.walk(built.root)) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Path t = root.resolve(built.root.relativize(p).toString());
                    if (Files.isDirectory(p)) Files.createDirectories(t);
                    else if (!p.getFileName().toString().startsWith(".fdl-")) Files.copy(p, t);
                }
            }
            Path wc = Files.createDirectories(dir.resolve("wc"));
            Cli.ok(wc, "checkout", "--repo", root.toString());
            return new SiteRepo(root, wc, built.first, built.second, built.third);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds the repository under {@code dir} ({@code dir/repo}, working copy {@code dir/wc}). */
    public static SiteRepo create(Path dir) {
        try {
            Path root = dir.resolve("repo");
            Path wc = Files.createDirectories(dir.resolve("wc"));
            Cli.ok(dir, "init", root.toString());
            Cli.ok(wc, "checkout", "--repo", root.toString());
            Files.writeString(wc.resolve("datapackage.json"), """
                    {"name": "towns", "title": "Towns <of> the world",
                     "description": "Small towns & villages",
                     "licenses": [{"name": "CC-BY-4.0", "path": "https://creativecommons.org/licenses/by/4.0/", "title": "CC BY 4.0"},
                                  {"name": "evil", "path": "javascript:alert(1)", "title": "Evil link"}],
                     "sources": [{"title": "Gazetteer", "path": "https://example.org/gazetteer"}],
                     "resources": [{"name": "towns", "description": "One row per town",
                                    "schema": {"fields": [{"name": "name", "description": "Town name"}]}}]}
                    """, StandardCharsets.UTF_8);
            Path csv = dir.resolve("towns.csv");
            Files.writeString(csv, "name,population\nAmsterdam,921402\nUtrecht,361924\n", StandardCharsets.UTF_8);
            Cli.ok(wc, "import", csv.toString(), "--table", "towns");
            Cli.ok(wc, "commit", "-m", "first towns", "--author", "Ann <ann@example.org>");
            Cli.ok(wc, "tag", "first");
            Files.writeString(csv, "name,population\nAmsterdam,921402\nUtrecht,361924\nDelft,104468\n", StandardCharsets.UTF_8);
            Cli.ok(wc, "import", csv.toString(), "--table", "towns", "--mode", "replace");
            Cli.ok(wc, "commit", "-m", "second <script>alert(1)</script>\n\nwith a body line", "--author", "Ann <ann@example.org>");
            Files.writeString(csv, "name,population\nAmsterdam,921402\nUtrecht,361924\nDelft,104468\nLeiden,125100\n", StandardCharsets.UTF_8);
            Cli.ok(wc, "import", csv.toString(), "--table", "towns", "--mode", "replace");
            Cli.ok(wc, "commit", "-m", "third towns", "--author", "Bob <bob@example.org>");
            Cli.ok(wc, "expire", "--keep", "1");
            String log = Cli.ok(wc, "log", "--oneline").out();
            String[] lines = log.lines().toArray(String[]::new);
            String third = full(root, lines[0].substring(0, 13));
            String second = full(root, lines[1].substring(0, 13));
            String first = full(root, lines[2].substring(0, 13));
            return new SiteRepo(root, wc, first, second, third);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String full(Path root, String prefix) throws IOException {
        try (var s = Files.list(root.resolve("versions"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).findFirst().orElseThrow();
        }
    }

    private static void deleteTree(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind
        }
    }
}
