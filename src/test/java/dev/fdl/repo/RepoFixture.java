package dev.fdl.repo;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.ducklake.catalog.NamedFile;

import dev.fdl.util.Sha256;
import dev.fdl.util.VersionIds;

import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Builds repositories with versions directly through the store, the way commit lays them out
 * (SPEC.md section 4), for tests that need versions before commit exists: data files with chosen
 * ages, version folders (catalog, dataset.json, version.json with correct sizes and SHA-256),
 * branches and tags.
 *
 * <p>Catalogs are either real DuckLake files ({@link #version(List, Instant, Path)}) or, read by
 * {@link #TEXT_CATALOGS}, small text files: the data_path on the first line, then one absolute
 * file location per line ({@code …-delete.parquet} marks a delete file).
 */
public final class RepoFixture {
    /** Reads the text catalogs this fixture writes. */
    public static final CatalogFiles TEXT_CATALOGS = (file, sink) -> {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            String dataPath = lines.get(0);
            for (String loc : lines.subList(1, lines.size()))
                if (!loc.isBlank()) sink.accept(new NamedFile(dataPath, loc, loc.endsWith("-delete.parquet"), -1, true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    /** Long enough ago to be outside any grace period the tests use. */
    public static final Instant OLD = Instant.now().minus(Duration.ofDays(30));

    public final Path root;
    public final LocalStore store;
    public final Repository repo;
    private final Path scratch;

    private RepoFixture(Path root, LocalStore store, Repository repo, Path scratch) {
        this.root = root;
        this.store = store;
        this.repo = repo;
        this.scratch = scratch;
    }

    /** A new, empty repository in {@code dir}/repo (HEAD names main). */
    public static RepoFixture create(Path dir) {
        try {
            Path root = dir.resolve("repo");
            Path scratch = Files.createDirectories(dir.resolve("fixture-scratch"));
            LocalStore store = new LocalStore(root);
            Repository repo = Repository.init(store, new RefName("main"));
            return new RepoFixture(root, store, repo, scratch);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The existing repository at {@code root} (e.g. from another process); scratch files go to {@code scratch}. */
    public static RepoFixture open(Path root, Path scratch) {
        try {
            LocalStore store = new LocalStore(root);
            return new RepoFixture(root, store, Repository.open(store), Files.createDirectories(scratch));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code data/<name>} (a few bytes) last modified at {@code mtime}. */
    public void dataFile(String name, Instant mtime) {
        String key = repo.dataDir() + name;
        store.put(key, ("parquet " + name).getBytes(StandardCharsets.UTF_8));
        age(key, mtime);
    }

    /** Writes {@code data/<name>} holding {@code content}, last modified at {@code mtime}. */
    public void dataFile(String name, byte[] content, Instant mtime) {
        String key = repo.dataDir() + name;
        store.put(key, content);
        age(key, mtime);
    }

    /** Writes {@code data/<name>} for each name, all last modified at {@code mtime}. */
    public void dataFiles(Instant mtime, String... names) {
        for (String n : names) dataFile(n, mtime);
    }

    /** Sets the last-modified time of every object whose key starts with {@code prefix}. */
    public void age(String prefix, Instant mtime) {
        try (Stream<dev.fdl.store.ObjectMeta> s = store.list(prefix)) {
            s.forEach(m -> {
                try {
                    Files.setLastModifiedTime(root.resolve(m.key()), FileTime.from(mtime));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /** The absolute location of {@code data/<name>} as a catalog records it. */
    public String location(String name) {
        return repo.dataLocation() + name;
    }

    /** A text catalog naming {@code names} (relative to the data folder) under this repository's data path. */
    public Path textCatalog(List<String> names) {
        return textCatalog(repo.dataLocation(), names.stream().map(n -> repo.dataLocation() + n).toList());
    }

    /** A text catalog with the given data_path and absolute locations. */
    public Path textCatalog(String dataPath, List<String> locations) {
        try {
            Path f = Files.createTempFile(scratch, "catalog", ".txt");
            List<String> lines = new ArrayList<>();
            lines.add(dataPath);
            lines.addAll(locations);
            Files.write(f, lines, StandardCharsets.UTF_8);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A finished version naming {@code names} (relative to the data folder), with the given parents. */
    public String version(List<String> parents, List<String> names) {
        return version(parents, Instant.now(), textCatalog(names));
    }

    /**
     * A finished version folder holding a copy of {@code catalog} as ducklake.duckdb, a
     * dataset.json and a version.json recording both (sizes, SHA-256), written in commit's order.
     */
    public String version(List<String> parents, Instant createdAt, Path catalog) {
        String id = unfinished(catalog);
        writeVersionJson(id, parents, createdAt, catalog);
        return id;
    }

    /** A version folder without version.json (a commit that stopped after step 7); returns its id. */
    public String unfinished(Path catalog) {
        String id = VersionIds.next();
        String prefix = RepoLayout.versionFolder(id);
        store.put(prefix + RepoLayout.CATALOG, dev.fdl.store.Payload.of(catalog));
        store.put(prefix + "dataset.json", datasetJson());
        return id;
    }

    private void writeVersionJson(String id, List<String> parents, Instant createdAt, Path catalog) {
        try {
            long seq = 1;
            for (String p : parents) seq = Math.max(seq, repo.readVersion(p).map(VersionInfo::seq).orElse(0L) + 1);
            byte[] ds = datasetJson();
            VersionInfo v = new VersionInfo(FormatVersion.CURRENT, id, seq, parents, createdAt,
                    new VersionInfo.Author("fixture", null), "version " + seq,
                    new VersionInfo.FileRef(RepoLayout.CATALOG, "duckdb-v1.5.0", Files.size(catalog), Sha256.of(catalog)),
                    new VersionInfo.FileRef("dataset.json", null, ds.length, Sha256.of(ds)),
                    new VersionInfo.DuckLakeInfo("1.0", 1, 0, 1), Map.of());
            store.put(RepoLayout.versionJson(id), v.toBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] datasetJson() {
        return "{\"name\": \"fixture\", \"resources\": []}\n".getBytes(StandardCharsets.UTF_8);
    }

    /** A new version on {@code branch} (parent: the branch's version, if any) naming {@code names}; moves or creates the branch. */
    public String commit(String branch, List<String> names) {
        RefName b = new RefName(branch);
        var ref = repo.readBranch(b);
        String id = version(ref.map(r -> List.of(r.versionId())).orElse(List.of()), names);
        if (ref.isPresent()) {
            if (!store.putIfMatch(RepoLayout.refKey(RefValue.Kind.BRANCH, b), Repository.refBytes(id), ref.get().etag()).isWritten())
                throw new IllegalStateException("branch moved");
        } else if (!store.putIfAbsent(RepoLayout.refKey(RefValue.Kind.BRANCH, b), Repository.refBytes(id)).isWritten()) {
            throw new IllegalStateException("branch exists");
        }
        return id;
    }

    /** A new version on {@code branch} whose catalog is a copy of {@code catalog} (a real DuckLake file); moves or creates the branch. */
    public String commit(String branch, Path catalog) {
        RefName b = new RefName(branch);
        var ref = repo.readBranch(b);
        String id = version(ref.map(r -> List.of(r.versionId())).orElse(List.of()), Instant.now(), catalog);
        if (ref.isPresent()) store.putIfMatch(RepoLayout.refKey(RefValue.Kind.BRANCH, b), Repository.refBytes(id), ref.get().etag());
        else store.putIfAbsent(RepoLayout.refKey(RefValue.Kind.BRANCH, b), Repository.refBytes(id));
        return id;
    }

    /** Creates {@code refs/tags/<name>} at {@code id}. */
    public void tag(String name, String id) {
        store.putIfAbsent(RepoLayout.refKey(RefValue.Kind.TAG, new RefName(name)), Repository.refBytes(id));
    }

    /** Marks a version expired the way expire does, catalog deleted. */
    public void expire(String id) {
        store.putIfAbsent(RepoLayout.expiredJson(id), new ExpiredInfo(Instant.now(), "retention", Map.of()).toBytes());
        store.delete(RepoLayout.versionFolder(id) + RepoLayout.CATALOG);
    }

    /** True when the object exists. */
    public boolean exists(String key) {
        return store.head(key).isPresent();
    }

    /** Every key in the repository, sorted. */
    public List<String> keys() {
        try (Stream<dev.fdl.store.ObjectMeta> s = store.list("")) {
            return s.map(dev.fdl.store.ObjectMeta::key).sorted().toList();
        }
    }

    /** Gunzips the DuckLake fixture catalog {@code fixtures/<name>/catalog.duckdb.gz} (data_path {@code /fixture/<name>/data/}). */
    public Path fixtureCatalog(String name) {
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(resource(name + "/catalog.duckdb.gz").openStream())) {
            Path f = Files.createTempFile(scratch, name.replace('/', '-'), ".duckdb");
            Files.copy(in, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Puts the fixture's data and delete files into the repository's data folder (same relative paths), aged {@code mtime}. */
    public List<String> copyFixtureData(String name, Instant mtime) {
        try {
            Path src = Path.of(resource(name + "/expected.json").toURI()).getParent().resolve("data");
            List<String> names = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(src)) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    String rel = src.relativize(p).toString().replace('\\', '/');
                    store.put(repo.dataDir() + rel, dev.fdl.store.Payload.of(p));
                    age(repo.dataDir() + rel, mtime);
                    names.add(rel);
                }
            }
            return names;
        } catch (IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static java.net.URL resource(String path) {
        java.net.URL url = RepoFixture.class.getResource("/fixtures/" + path);
        if (url == null) throw new IllegalStateException("fixture " + path + " missing from the test classpath");
        return url;
    }

    /** The store, typed as the interface. */
    public ObjectStore store() {
        return store;
    }
}
