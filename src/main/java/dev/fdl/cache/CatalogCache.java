package dev.fdl.cache;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.ducklake.catalog.NamedFile;
import dev.fdl.ducklake.read.TableSummary;

import dev.fdl.util.AtomicFile;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.ReadCache;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.Sha256;
import dev.fdl.util.VersionIds;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectBytes;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A local cache of what never changes once a version is finished: its version.json, its catalog
 * and the list of files the catalog names (SPEC.md section 3: a version is immutable). gc reads
 * every live catalog on every run; with this cache a second run issues no GET for them.
 *
 * <p>Layout: {@code <dir>/<repository id>/<version id>/} holding {@code version.json},
 * {@code ducklake.duckdb} and {@code files-v1-rule<N>}. A catalog is trusted only after its SHA-256 and
 * size match version.json (checked on download and again before a cached copy is read); the file
 * list records the SHA-256 of the catalog it was read from and is used only when that matches, and
 * its name carries the version of the path rule that resolved it ({@link CatalogFiles#ruleVersion},
 * {@code DuckLakePaths.RULE_VERSION}), so a list made by another rule is never used.
 * Every file is written to a temporary name and renamed, so an interrupted run leaves no partial
 * entry. The whole folder can be deleted at any time.
 */
public final class CatalogCache implements ReadCache {
    /** File lists are named by their layout (v1) and by the path rule that made them: {@code files-v1-rule<N>}. */
    private static final String FILES = "files-v1-rule";
    private static final int FILES_MAGIC = 0x46444c32; // "FDL2": flags 8 = recorded relative to its table path
    /** Temporary files of entries being written start with this ({@link AtomicFile#tempBeside(Path, String)}). */
    private static final String TEMP = ".tmp-";

    private final Path dir;
    private long downloads;
    private long hits;

    /** A cache rooted at {@code dir} (created on first use). */
    public CatalogCache(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /**
     * The cache folder fdl uses: {@code $FDL_CACHE_DIR}, else {@code $XDG_CACHE_HOME/fdl}, else
     * {@code ~/.cache/fdl}.
     */
    public static CatalogCache fromEnvironment() {
        String own = System.getenv("FDL_CACHE_DIR");
        if (own != null && !own.isBlank()) return new CatalogCache(Path.of(own));
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) return new CatalogCache(Path.of(xdg, "fdl"));
        return new CatalogCache(Path.of(System.getProperty("user.home"), ".cache", "fdl"));
    }

    /** The cache folder. */
    public Path dir() {
        return dir;
    }

    /** Catalogs fetched from the store by this cache object (one GET each). */
    public long downloads() {
        return downloads;
    }

    /** EmptyCatalog (or their file lists) served from the local cache without a GET. */
    public long hits() {
        return hits;
    }

    private Path folder(Repository repo, String versionId) {
        if (!VersionIds.isValid(versionId)) throw new IllegalArgumentException("not a version id: " + versionId);
        return repositoryFolder(repo.config().id()).resolve(versionId);
    }

    /**
     * The folder of one repository's entries: named by the repository id (fdl.json {@code id}) when
     * that is a plain name, else by its SHA-256, so no id can name a path outside the cache.
     */
    public Path repositoryFolder(String repositoryId) {
        String name = repositoryId;
        if (!name.matches(PLAIN_NAME)) name = Sha256.of(repositoryId.getBytes(StandardCharsets.UTF_8));
        return dir.resolve(name);
    }

    /** Where the built-in reader mirrors the data files of a remote repository (see {@link #dataFolder}). */
    static final String DATA = "data";
    private static final String PLAIN_NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,99}";

    /**
     * What the cache holds for one repository.
     *
     * @param folder       the repository's folder name (its id, or the SHA-256 of an unusual id)
     * @param versions     versions with cached entries
     * @param catalogBytes bytes of cached catalogs, version.json files and file lists
     * @param dataBytes    bytes of mirrored data files
     */
    public record Usage(String folder, int versions, long catalogBytes, long dataBytes) {
        /** All bytes the repository's entries take. */
        public long totalBytes() {
            return catalogBytes + dataBytes;
        }
    }

    /**
     * What the cache holds, one entry per repository folder in name order; empty when the cache
     * folder does not exist. Only folders laid out as this cache lays them out count (version
     * folders, {@code data/}, temporary files), so a cache folder shared with other files is safe.
     *
     * @throws FdlException exit 1 when the cache folder cannot be read
     */
    public List<Usage> usage() {
        List<Usage> result = new ArrayList<>();
        for (Path repoDir : repositoryFolders()) {
            int versions = 0;
            long catalogBytes = 0;
            long dataBytes = 0;
            for (Path child : children(repoDir)) {
                String name = child.getFileName().toString();
                if (name.equals(DATA)) {
                    dataBytes += treeBytes(child);
                } else if (VersionIds.isValid(name)) {
                    versions++;
                    catalogBytes += treeBytes(child);
                } else {
                    catalogBytes += treeBytes(child);
                }
            }
            result.add(new Usage(repoDir.getFileName().toString(), versions, catalogBytes, dataBytes));
        }
        return result;
    }

    /**
     * Deletes the cached entries of one repository (catalogs, version.json files, file lists and
     * mirrored data files). Safe at any time: everything in the cache is fetched again when needed.
     *
     * @return the bytes freed (0 when nothing was cached)
     * @throws FdlException exit 1 when something cannot be deleted (naming it)
     */
    public long clear(String repositoryId) {
        Path repoDir = repositoryFolder(repositoryId);
        if (!Files.isDirectory(repoDir) || !looksLikeRepositoryFolder(repoDir)) return 0;
        return deleteTree(repoDir);
    }

    /**
     * Deletes the cached entries of every repository; other files in the cache folder are left alone.
     *
     * @return the bytes freed
     * @throws FdlException exit 1 when something cannot be deleted (naming it)
     */
    public long clearAll() {
        long freed = 0;
        for (Path repoDir : repositoryFolders()) freed += deleteTree(repoDir);
        return freed;
    }

    private List<Path> repositoryFolders() {
        if (!Files.isDirectory(dir)) return List.of();
        List<Path> result = new ArrayList<>();
        for (Path p : children(dir)) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && p.getFileName().toString().matches(PLAIN_NAME) && looksLikeRepositoryFolder(p)) {
                result.add(p);
            }
        }
        result.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return result;
    }

    private static boolean looksLikeRepositoryFolder(Path repoDir) {
        for (Path child : children(repoDir)) {
            String name = child.getFileName().toString();
            boolean ours = name.equals(DATA) || name.equals(UNIT_STATS) || name.startsWith(TEMP)
                    || (VersionIds.isValid(name) && Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS));
            if (!ours) return false;
        }
        return true;
    }

    private static List<Path> children(Path folder) {
        try (Stream<Path> s = Files.list(folder)) {
            return s.toList();
        } catch (IOException e) {
            throw new FdlException("cannot read the catalog cache folder " + folder + ": " + e.getMessage());
        }
    }

    private static long treeBytes(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // removed meanwhile
                }
            }).sum();
        } catch (IOException e) {
            throw new FdlException("cannot read the catalog cache folder " + root + ": " + e.getMessage());
        }
    }

    private static long deleteTree(Path root) {
        long freed = treeBytes(root);
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new FdlException("cannot delete " + root + " from the catalog cache: " + e.getMessage());
        }
        return freed;
    }

    /**
     * The version.json of a finished version: the cached copy, else read from the store (one GET)
     * and cached. Empty when the store has no version.json for it.
     *
     * @throws FdlException exit 1 when version.json is corrupt (naming it)
     */
    public Optional<VersionInfo> version(Repository repo, String versionId) {
        Path f = folder(repo, versionId).resolve(RepoLayout.VERSION_JSON);
        String key = RepoLayout.versionJson(versionId);
        try {
            VersionInfo v = VersionInfo.parse(Files.readAllBytes(f), key);
            if (v.id().equals(versionId)) return Optional.of(v);
        } catch (NoSuchFileException e) {
            // not cached yet
        } catch (IOException | FdlException e) {
            // a damaged cache entry is read again from the store
        }
        Optional<ObjectBytes> b = repo.store().get(key);
        if (b.isEmpty()) return Optional.empty();
        VersionInfo v = VersionInfo.parse(b.get().bytes(), key);
        if (!v.id().equals(versionId)) throw FdlException.corrupt(key, "key 'id' is " + v.id() + " but the folder is " + versionId);
        writeAtomically(f, b.get().bytes());
        return Optional.of(v);
    }

    /**
     * A local copy of the version's catalog whose SHA-256 and size match version.json: the cached
     * copy when it still matches, else downloaded (one GET, streamed to disk). Empty when the store
     * has no catalog object for it (e.g. expired meanwhile).
     *
     * @param fresh download even when a cached copy matches (verify checks the store's object)
     * @throws FdlException exit 1 when the store's catalog does not match version.json
     */
    public Optional<Path> catalog(Repository repo, VersionInfo v, boolean fresh) {
        Path f = folder(repo, v.id()).resolve(RepoLayout.CATALOG);
        if (!fresh && matches(f, v)) {
            hits++;
            return Optional.of(f);
        }
        String key = catalogKey(v);
        Path tmp = AtomicFile.tempBeside(f, TEMP);
        try {
            Files.createDirectories(f.getParent());
            downloads++;
            if (repo.store().download(key, tmp).isEmpty()) return Optional.empty();
            String sha = Sha256.of(tmp);
            long size = Files.size(tmp);
            if (!sha.equalsIgnoreCase(v.catalog().sha256()) || size != v.catalog().bytes())
                throw FdlException.corrupt(key, "the catalog does not match its version.json, so it was not used: it has " + size + " bytes and sha256 " + sha + " but "
                        + RepoLayout.versionJson(v.id()) + " records " + v.catalog().bytes() + " bytes and sha256 "
                        + v.catalog().sha256() + "; the repository is damaged (run fdl verify)");
            AtomicFile.moveCopy(tmp, f);
            return Optional.of(f);
        } catch (IOException e) {
            throw new FdlException("cannot write the catalog cache " + f + ": " + e.getMessage()
                    + " (set FDL_CACHE_DIR to a writable folder)");
        } finally {
            deleteQuietly(tmp);
        }
    }

    /**
     * The local DuckDB file of {@code v}'s catalog for readers (checkout, query, the demo),
     * downloaded on first use and checked against version.json.
     *
     * @throws FdlException exit 4 when the version is expired, exit 1 when its catalog is missing or does not match
     */
    @Override
    public Path versionCatalog(Repository repo, VersionInfo v) {
        if (repo.readExpired(v.id()).isPresent())
            throw FdlException.notFound("version " + v.id() + " is expired: its catalog is gone");
        return catalog(repo, v, false).orElseThrow(() -> new FdlException(
                "the catalog of version " + v.id() + " is missing from " + repo.root() + "; run fdl verify"));
    }

    /** Statistics of data files for the site, one small JSON file per key ({@link #unitStats}). */
    static final String UNIT_STATS = "unit-stats";

    /**
     * Where the site keeps each data file's statistics and first rows between runs
     * ({@link TableSummary}): {@code <repository folder>/unit-stats/<key>.json}. Data files never
     * change, so an entry stays right for as long as the file exists; entries are derived data,
     * written to a temporary file and renamed (an unreadable entry is computed again), and go with
     * {@code fdl cache clear} like the rest.
     */
    @Override
    public TableSummary.Store unitStats(Repository repo) {
        Path folder = repositoryFolder(repo.config().id()).resolve(UNIT_STATS);
        return new TableSummary.Store() {
            @Override
            public byte[] get(String key) {
                try {
                    return Files.readAllBytes(folder.resolve(checkedKey(key) + ".json"));
                } catch (IOException e) {
                    return null;
                }
            }

            @Override
            public void put(String key, byte[] value) {
                Path target = folder.resolve(checkedKey(key) + ".json");
                try {
                    Files.createDirectories(folder);
                    Path temp = AtomicFile.tempBeside(target, TEMP);
                    try {
                        Files.write(temp, value);
                        AtomicFile.moveCopy(temp, target);
                    } finally {
                        AtomicFile.deleteQuietly(temp);
                    }
                } catch (IOException e) {
                    // not kept: computed again next time
                }
            }
        };
    }

    private static String checkedKey(String key) {
        if (!key.matches("[0-9a-f]{64}")) throw new IllegalArgumentException("not a SHA-256 key: " + key);
        return key;
    }

    /** Where data files of a remote repository are mirrored for the built-in reader (DuckDB core reads local files only). */
    @Override
    public Path dataFolder(Repository repo) {
        return repositoryFolder(repo.config().id()).resolve(DATA);
    }

    /** The store key of the version's catalog ({@code versions/<id>/ducklake.duckdb}). */
    public static String catalogKey(VersionInfo v) {
        return RepoLayout.versionFile(v.id(), v.catalog().path());
    }

    /**
     * Calls {@code sink} for every file the version's catalog names, from the cached file list when
     * it was read from a catalog with the SHA-256 version.json records, else from the catalog
     * ({@link #catalog}) through {@code reader}, caching the list for the next run.
     *
     * @return false when the store has no catalog for the version (nothing was sent to sink)
     */
    public boolean forEachFile(Repository repo, VersionInfo v, CatalogFiles reader, boolean fresh,
                               Consumer<NamedFile> sink) {
        Path list = folder(repo, v.id()).resolve(FILES + reader.ruleVersion());
        if (!fresh && readFileList(list, v.catalog().sha256(), sink)) {
            hits++;
            return true;
        }
        Optional<Path> cat = catalog(repo, v, fresh);
        if (cat.isEmpty()) return false;
        Path tmp = AtomicFile.tempBeside(list, TEMP);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
            out.writeInt(FILES_MAGIC);
            out.writeUTF(v.catalog().sha256().toLowerCase());
            String[] dataPath = {null};
            reader.forEach(cat.get(), nf -> {
                try {
                    if (dataPath[0] == null) {
                        dataPath[0] = nf.dataPath();
                        out.writeUTF(nf.dataPath());
                    }
                    boolean rel = nf.dataPath().equals(dataPath[0]) && nf.location().startsWith(dataPath[0]);
                    out.writeByte(1 | (nf.deleteFile() ? 2 : 0) | (rel ? 4 : 0) | (nf.relative() ? 8 : 0));
                    out.writeLong(nf.bytes());
                    out.writeUTF(rel ? nf.location().substring(dataPath[0].length()) : nf.location());
                    if (!rel) out.writeUTF(nf.dataPath());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                sink.accept(nf);
            });
            if (dataPath[0] == null) out.writeUTF("");
            out.writeByte(0);
            out.close();
            AtomicFile.moveCopy(tmp, list);
        } catch (IOException | UncheckedIOException e) {
            throw new FdlException("cannot write the catalog cache " + list + ": " + e.getMessage()
                    + " (set FDL_CACHE_DIR to a writable folder)");
        } finally {
            deleteQuietly(tmp);
        }
        return true;
    }

    /** Replays a cached file list; false (and nothing sent) when absent, stale or damaged. */
    private static boolean readFileList(Path list, String sha256, Consumer<NamedFile> sink) {
        // Validate the header first so that a stale list sends nothing; a list damaged in the middle
        // cannot be partial in practice (written under a temporary name, then renamed).
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(list), 1 << 16))) {
            if (in.readInt() != FILES_MAGIC || !in.readUTF().equalsIgnoreCase(sha256)) return false;
            String dataPath = in.readUTF();
            for (int flags = in.readUnsignedByte(); flags != 0; flags = in.readUnsignedByte()) {
                long bytes = in.readLong();
                String loc = in.readUTF();
                boolean delete = (flags & 2) != 0, relative = (flags & 8) != 0;
                if ((flags & 4) != 0) sink.accept(new NamedFile(dataPath, dataPath + loc, delete, bytes, relative));
                else sink.accept(new NamedFile(in.readUTF(), loc, delete, bytes, relative));
            }
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (EOFException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean matches(Path f, VersionInfo v) {
        try {
            return Files.size(f) == v.catalog().bytes() && Sha256.of(f).equalsIgnoreCase(v.catalog().sha256());
        } catch (IOException e) {
            return false;
        }
    }

    private static void writeAtomically(Path f, byte[] bytes) {
        Path tmp = AtomicFile.tempBeside(f, TEMP);
        try {
            Files.createDirectories(f.getParent());
            Files.write(tmp, bytes);
            AtomicFile.moveCopy(tmp, f);
        } catch (IOException e) {
            throw new FdlException("cannot write the catalog cache " + f + ": " + e.getMessage()
                    + " (set FDL_CACHE_DIR to a writable folder)");
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover temporary file in the cache is harmless
        }
    }
}
