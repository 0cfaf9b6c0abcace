package dev.fdl.cli;

import dev.fdl.util.ShellQuote;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.ducklake.read.CatalogQuery;
import dev.fdl.repo.AttachStatements;
import dev.fdl.workingcopy.Checkout;
import dev.fdl.workingcopy.Commit;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code fdl demo}: the main job on real data. Six monthly builds of the world-cities dataset
 * (GeoNames, CC-BY-4.0) become six versions of a repository: init, checkout, import the oldest
 * month as table {@code cities}, commit with the dataset's own description, sync each newer month
 * onto it ({@code --mode sync --key geonameid}: only the difference is written, so versions share
 * data files) and commit, tag the first and last, then print the log, {@code fdl diff --stat}
 * between the tags, a query answered by two versions side by side, and the statements a reader
 * runs to attach the last version.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the main job on real data: six monthly world-cities builds (GeoNames, CC-BY-4.0) committed as versions.",
                "Leaves the repository (<dir>/repo, or --root) and a working copy (<dir>/work) to explore."})
final class DemoCommand implements Runnable {
    static final String RESOURCES = "/demo/world-cities/";
    static final List<String> MONTHS = List.of("2024-10-04", "2024-12-01", "2025-03-01", "2025-06-01", "2025-10-01", "2026-01-01");
    static final String MARKER = ".fdl-demo";

    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Option(names = "--dir", paramLabel = "<folder>", defaultValue = "fdl-demo",
            description = "Folder for the demo (default: ${DEFAULT-VALUE}); a previous demo there is replaced.") Path dir;
    @Option(names = "--root", paramLabel = "<root>",
            description = "Repository root (default: <dir>/repo); e.g. s3://bucket/prefix/ with AWS_ENDPOINT_URL for an S3-compatible store. Must not hold a repository yet.")
    String root;

    @Override
    public void run() {
        long started = System.nanoTime();
        PrintWriter out = spec.commandLine().getOut();
        Path base = CommandContext.of(spec).cwd().resolve(dir);
        prepare(base);
        Path sources = base.resolve("sources");
        List<Path> files = extract(sources);
        String repoRoot = root != null ? CommandContext.of(spec).cwd().root(root) : base.resolve("repo").toString();
        try (ObjectStore store = Stores.open(repoRoot)) {
            Repository repo = Repository.init(store, new RefName("main"));
            out.println("== fdl init " + ShellQuote.word(store.root()));
            WorkingCopy wc = WorkingCopy.create(base.resolve("work"));
            Checkout.run(repo, CommandContext.of(spec).cache(), wc, null, null, false, ProgressListener.NONE);
            out.println("== fdl checkout (working copy " + wc.dir() + ")");
            Files.write(wc.dir().resolve("dataset.json"), Json.bytes(datasetJson()));
            VersionInfo.Author author = new VersionInfo.Author("fdl demo", "demo@example.org");
            List<VersionInfo> versions = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < MONTHS.size(); i++) {
                // sync writes only what changed since the previous month: versions share the data files
                SyncResult imp = new Syncer(CommandContext.of(spec).duckDb()).sync(
                        ImportRequest.of(wc.catalog(), store, repo.dataDir(), files.get(i), "cities", ImportMode.SYNC)
                                .withCacheDir(CommandContext.of(spec).cache().dataFolder(repo)).withKeys(List.of("geonameid"))
                                .withAuthor(author.name()).withMessage("import world-cities " + MONTHS.get(i)));
                Commit.CommitResult c = Commit.run(repo, wc, "world-cities as published on " + MONTHS.get(i), author,
                        CommandContext.of(spec).clock(), ProgressListener.NONE);
                versions.add(c.version());
                long added = imp.dataBytes() + imp.deleteBytes();
                bytes += added;
                out.printf("== fdl import %s --table cities --mode sync --key geonameid: %,d rows (+%,d -%,d ~%,d), %s of data added;"
                                + " fdl commit: version %s (seq %d)%n", files.get(i).getFileName(), imp.rows(), imp.added(), imp.removed(),
                        imp.changed(), Out.size(added), c.version().id(), c.version().seq());
                out.flush();
            }
            out.printf("== %d versions name %s of data in all (each version alone reads a whole table)%n", MONTHS.size(), Out.size(bytes));
            RefUpdateRefused.require(repo.createTag(new RefName(MONTHS.get(0)), versions.get(0).id()));
            RefUpdateRefused.require(repo.createTag(new RefName(MONTHS.get(MONTHS.size() - 1)), versions.get(versions.size() - 1).id()));
            out.println("== fdl tag " + MONTHS.get(0) + " " + versions.get(0).id() + "; fdl tag " + MONTHS.get(MONTHS.size() - 1));
            out.println();
            out.println("== fdl log --oneline");
            out.flush();
            Main.commandLine().setOut(out).setErr(spec.commandLine().getErr()).execute("log", "--repo", repoRoot, "--oneline");
            out.println();
            out.println("== fdl diff --stat " + MONTHS.get(0) + " " + MONTHS.get(MONTHS.size() - 1)
                    + "   (changed rows by the key import --mode sync --key recorded)");
            out.flush();
            Main.commandLine().setOut(out).setErr(spec.commandLine().getErr())
                    .execute("diff", "--repo", repoRoot, "--stat", MONTHS.get(0), MONTHS.get(MONTHS.size() - 1));
            out.println();
            sideBySide(out, repo, CommandContext.of(spec), versions.get(0), versions.get(versions.size() - 1));
            out.println();
            out.println("== fdl attach " + MONTHS.get(MONTHS.size() - 1) + "   (DuckDB with the DuckLake extension)");
            AttachStatements.of(repo, versions.get(versions.size() - 1), null, "cities").forEach(out::println);
            out.println();
            String fdl = System.getenv("FDL_LAUNCHER") != null ? ShellQuote.word(System.getenv("FDL_LAUNCHER")) : "fdl";
            out.printf("Done in %.1f s. Explore the working copy: cd %s, then %s status, %s log, %s show %s,%n  %s query %s \"SELECT count(*) FROM cities\"%n",
                    (System.nanoTime() - started) / 1e9, ShellQuote.word(relative(wc.dir())), fdl, fdl, fdl, MONTHS.get(0), fdl, MONTHS.get(0));
            out.println("Data: GeoNames (https://www.geonames.org/), CC-BY-4.0, via the world-cities data package.");
            out.flush();
        } catch (IOException e) {
            throw new FdlException("demo failed: " + e.getMessage());
        }
    }

    private String relative(Path p) {
        Path here = CommandContext.of(spec).cwd().get();
        return p.startsWith(here) ? here.relativize(p).toString() : p.toString();
    }

    /** Replaces a previous demo (recognised by its marker file); refuses any other existing folder. */
    private static void prepare(Path base) {
        try {
            if (Files.exists(base)) {
                if (!Files.exists(base.resolve(MARKER)))
                    throw new FdlException(base + " exists and is not an fdl demo folder; remove it or choose --dir");
                try (Stream<Path> s = Files.walk(base)) {
                    for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
                }
            }
            Files.createDirectories(base);
            Files.writeString(base.resolve(MARKER), "made by fdl demo; the next fdl demo replaces this folder\n");
        } catch (IOException e) {
            throw new FdlException("cannot prepare " + base + ": " + e.getMessage());
        }
    }

    /** Copies the shipped months (and the data's README with its attribution) out of the jar. */
    private static List<Path> extract(Path target) {
        List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(target);
            for (String name : Stream.concat(MONTHS.stream().map(m -> "world-cities-" + m + ".csv.gz"), Stream.of("README.md")).toList()) {
                try (InputStream in = DemoCommand.class.getResourceAsStream(RESOURCES + name)) {
                    if (in == null) throw new FdlException("the demo data " + name + " is missing from this build");
                    Path p = target.resolve(name);
                    Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
                    if (name.endsWith(".gz")) files.add(p);
                }
            }
        } catch (IOException e) {
            throw new FdlException("cannot extract the demo data to " + target + ": " + e.getMessage());
        }
        return files;
    }

    /** The dataset's own datapackage.json, its resource renamed to the table and the CSV-only keys dropped. */
    private static ObjectNode datasetJson() throws IOException {
        try (InputStream in = DemoCommand.class.getResourceAsStream(RESOURCES + "datapackage.json")) {
            ObjectNode pkg = JsonRead.parseObject(in.readAllBytes(), "datapackage.json");
            ObjectNode r = (ObjectNode) pkg.get("resources").get(0);
            r.put("name", "cities");
            r.remove(List.of("path", "format", "mediatype"));
            return pkg;
        }
    }

    /** The same question answered by two versions, side by side, and what changed between them. */
    private static void sideBySide(PrintWriter out, Repository repo, CommandContext context, VersionInfo first, VersionInfo last) {
        CatalogCache cache = context.cache();
        CatalogQuery query = new CatalogQuery(context.duckDb(), context.extensions());
        String sql = "SELECT country, count(*) AS cities FROM cities GROUP BY country";
        Path c1 = cache.versionCatalog(repo, first), c2 = cache.versionCatalog(repo, last), mirror = cache.dataFolder(repo);
        Map<String, Long> a = counts(query.run(new CatalogQuery.Request(c1, repo.store(), repo.dataDir(), mirror, null, sql)).result());
        Map<String, Long> b = counts(query.run(new CatalogQuery.Request(c2, repo.store(), repo.dataDir(), mirror, null, sql)).result());
        out.println("== fdl query <version> \"" + sql + "\", two versions side by side (top 10 by growth)");
        out.printf("%-28s %12s %12s %8s%n", "country", MONTHS.get(0), MONTHS.get(MONTHS.size() - 1), "change");
        Set<String> countries = new HashSet<>(a.keySet());
        countries.addAll(b.keySet());
        countries.stream()
                .sorted(Comparator.comparingLong((String c) -> b.getOrDefault(c, 0L) - a.getOrDefault(c, 0L)).reversed().thenComparing(c -> c))
                .limit(10)
                .forEach(c -> out.printf("%-28s %,12d %,12d %+8d%n", c, a.getOrDefault(c, 0L), b.getOrDefault(c, 0L),
                        b.getOrDefault(c, 0L) - a.getOrDefault(c, 0L)));
        String ids = "SELECT geonameid FROM cities";
        Set<Object> x = ids(query.run(new CatalogQuery.Request(c1, repo.store(), repo.dataDir(), mirror, null, ids)).result());
        Set<Object> y = ids(query.run(new CatalogQuery.Request(c2, repo.store(), repo.dataDir(), mirror, null, ids)).result());
        long added = y.stream().filter(id -> !x.contains(id)).count();
        long removed = x.stream().filter(id -> !y.contains(id)).count();
        out.printf("Between %s and %s: %,d cities → %,d (%,d added, %,d removed).%n", MONTHS.get(0), MONTHS.get(MONTHS.size() - 1),
                x.size(), y.size(), added, removed);
    }

    private static Map<String, Long> counts(QueryResult r) {
        Map<String, Long> m = new HashMap<>();
        for (List<Object> row : r.rows()) m.put(String.valueOf(row.get(0)), ((Number) row.get(1)).longValue());
        return m;
    }

    private static Set<Object> ids(QueryResult r) {
        Set<Object> s = new HashSet<>();
        for (List<Object> row : r.rows()) s.add(row.get(0));
        return s;
    }
}
