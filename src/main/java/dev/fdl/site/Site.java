package dev.fdl.site;

import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.DataFileMirror;
import dev.fdl.ducklake.read.TableSummary;
import dev.fdl.repo.RepoLayout;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.repo.AttachStatements;
import dev.fdl.repo.ExpiredInfo;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.ParentStat;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.Json;
import dev.fdl.util.Sha256;
import dev.fdl.util.ShellQuote;
import dev.fdl.util.SqlQuote;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * A static, self-contained site about a repository, stored inside it (derived data: gc never
 * deletes it, verify ignores it, a missing site changes nothing else): the dataset page at
 * {@code index.html}, a paginated log under {@code site/log/}, and a page per version under
 * {@code site/versions/<id>.html} (tables, columns with their Frictionless and DuckLake types,
 * rows, and the DuckDB statements that attach the version from the URL the page was loaded from).
 *
 * <p>Every link is relative, so the site works from any HTTP server, a bucket website and
 * {@code file://}. Pages are plain HTML with inline CSS and a few lines of inline JavaScript; no
 * page makes a request to another origin. A manifest ({@code site/manifest.json}: page key to
 * SHA-256) lets a re-run write only the pages whose content changed.
 */
public final class Site {
    /** Stands for the repository root in attach statements until the page's script knows its own URL. */
    public static final String ROOT_PLACEHOLDER = "https://fdl-site-root.invalid/";
    static final String MANIFEST = "manifest.json";
    /** A page body's first buffer, in chars: a version page is about 3,000 (growing a builder from 16 cost a fifth of rendering). */
    private static final int PAGE_CAPACITY = 8192;

    /**
     * Where the site goes.
     *
     * @param prefix   key prefix of the site's pages, ending in {@code /} ({@code site/})
     * @param indexKey key of the dataset page ({@code index.html} at the root)
     * @param pageSize versions per log page
     */
    public record Options(String prefix, String indexKey, int pageSize) {
        public Options {
            if (prefix == null || prefix.isEmpty() || !prefix.endsWith("/") || prefix.startsWith("/") || prefix.contains(".."))
                throw FdlException.usage("site prefix must be a relative key prefix ending in '/' (e.g. site/): '" + prefix + "'");
            if (indexKey == null || indexKey.isEmpty() || indexKey.endsWith("/") || indexKey.startsWith("/") || indexKey.contains(".."))
                throw FdlException.usage("site index must be a key such as index.html: '" + indexKey + "'");
            checkOutsideRepositoryKeys(prefix, indexKey, RepoLayout.DEFAULT_DATA_DIR);
            if (indexKey.startsWith(prefix))
                throw FdlException.usage("site index '" + indexKey + "' lies under the site prefix '" + prefix
                        + "', whose keys the site manages (stale pages there are removed); choose a key outside it (e.g. index.html)");
            if (pageSize < 1) throw FdlException.usage("site page size must be at least 1");
        }

        /**
         * Refuses a prefix or index among the repository's own keys ({@link RepoLayout#isRepositoryKey}):
         * the site would overwrite fdl.json, HEAD, a ref or a version.
         *
         * @throws FdlException (usage) naming the key
         */
        static void checkOutsideRepositoryKeys(String prefix, String indexKey, String dataDir) {
            if (RepoLayout.isRepositoryKey(prefix, dataDir))
                throw FdlException.usage("site prefix '" + prefix + "' would write into the repository's own keys; choose another (e.g. site/)");
            if (RepoLayout.isRepositoryKey(indexKey, dataDir))
                throw FdlException.usage("site index '" + indexKey + "' is one of the repository's own keys (fdl.json, HEAD, refs/, versions/, "
                        + dataDir + "); choose another (e.g. index.html)");
        }

        /** {@code site/}, {@code index.html}, 50 versions a log page. */
        public static Options defaults() {
            return new Options("site/", "index.html", 50);
        }

        /**
         * The options a repository records in fdl.json under {@value #CONFIG_KEY}
         * ({@code {"auto": true, "prefix": "site/", "index": "index.html"}}), else the defaults.
         */
        public static Options of(RepoConfig config) {
            JsonNode s = config.extra().get(CONFIG_KEY);
            Options d = defaults();
            if (s == null || !s.isObject()) return d;
            return new Options(s.path("prefix").asText(d.prefix()), s.path("index").asText(d.indexKey()), d.pageSize());
        }
    }

    /** The fdl.json key of the site setting (SPEC.md section 3: unknown keys are preserved by every writer). */
    public static final String CONFIG_KEY = "site";

    /** True when the repository asks for the site to be regenerated after each commit (fdl.json {@code site.auto}). */
    public static boolean autoUpdate(RepoConfig config) {
        JsonNode s = config.extra().get(CONFIG_KEY);
        return s != null && s.path("auto").asBoolean(false);
    }

    /**
     * True when {@code fdl site} has written a site into the repository (its manifest,
     * {@code <prefix>manifest.json}, exists): a change of refs or versions leaves it stale.
     */
    public static boolean exists(Repository repo, Options options) {
        return repo.store().stat(options.prefix() + MANIFEST).isPresent();
    }

    /**
     * Records the site setting in fdl.json: {@code auto} and the options' prefix and index, every
     * other key kept ({@link Repository#saveConfig}: {@code If-Match} on the ETag read, so a
     * concurrent change of fdl.json is never lost).
     *
     * @return the repository with the new configuration
     * @throws FdlException exit 3 when fdl.json changed since it was read (run again), exit 1 on a read-only root
     */
    public static Repository saveSetting(Repository repo, boolean auto, Options options) {
        Options.checkOutsideRepositoryKeys(options.prefix(), options.indexKey(), repo.config().dataDir());
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("auto", auto);
        s.put("prefix", options.prefix());
        s.put("index", options.indexKey());
        return repo.saveConfig(repo.config().withExtra(CONFIG_KEY, s));
    }

    /** What {@link #write} did: pages written, pages left as they were, stale pages removed. */
    public record Result(int written, int unchanged, int removed) {
        public int pages() {
            return written + unchanged;
        }
    }

    /** One version as the site shows it: its version.json and expiry (null while live). */
    record Entry(VersionInfo version, ExpiredInfo expired) {}

    private final Repository repo;
    private final Options options;
    /** Each version's change over its parent, from the catalogs; null: version pages show none. */
    private final ParentStat stats;
    /** Where the versions' catalogs come from for the previews; null: no catalog is read. */
    private final CatalogSource catalogs;

    private Site(Repository repo, Options options, CatalogSource catalogs) {
        this.repo = repo;
        this.options = options;
        this.stats = catalogs == null ? null : new ParentStat(repo, catalogs);
        this.catalogs = catalogs;
        this.commonInputs = RENDERER + '\n' + repo.store().location("") + '\n'
                + repo.store().customS3Endpoint().map(Object::toString).orElse("") + '\n' + repo.dataDir() + '\n' + options.prefix() + '\n'
                + options.indexKey() + '\n' + (stats != null) + '\n';
    }

    /** The inputs every version page shares ({@link #inputs}): the renderer, locations, options, whether stats are shown. */
    private final String commonInputs;

    /**
     * Renders every page in memory: key to bytes (UTF-8 HTML).
     *
     * @throws FdlException when the repository cannot be listed (an HTTP(S) root: run it where the repository lives)
     */
    public static Map<String, byte[]> render(Repository repo, Options options) {
        return render(repo, options, null);
    }

    /**
     * {@link #render(Repository, Options)}, with each live version's page showing what it changed
     * over its parent per table ({@link ParentStat}, as {@code fdl log --stat}: one catalog read per
     * live version through {@code catalogs}); null: no such section.
     */
    public static Map<String, byte[]> render(Repository repo, Options options, CatalogSource catalogs) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        new Site(repo, options, catalogs).renderPages(Map.of()).forEach((k, p) -> out.put(k, p.bytes()));
        return out;
    }

    /**
     * Writes the site into the repository's store: pages whose SHA-256 differs from the manifest's
     * (or that are missing, or whose size is not the page's) are written, pages the previous run
     * wrote that no longer exist are removed, then the manifest. A version page whose inputs (its
     * fingerprint, {@link #inputs}) are those the manifest recorded, and that is present with the
     * size recorded, is not rendered again. Objects outside the site's pages are never touched.
     *
     * @throws FdlException exit 1 for a read-only root
     */
    public static Result write(Repository repo, Options options) {
        return write(repo, options, null);
    }

    /** {@link #write(Repository, Options)}, version pages with their change over the parent ({@link #render(Repository, Options, CatalogSource)}). */
    public static Result write(Repository repo, Options options, CatalogSource catalogs) {
        ObjectStore store = repo.store();
        if (store.readOnly())
            throw new FdlException(store.root() + " is read-only (an HTTP(S) root); run fdl site where the repository lives (a folder or s3://)");
        // the options checked the default data folder; this repository's may be another
        Options.checkOutsideRepositoryKeys(options.prefix(), options.indexKey(), repo.config().dataDir());
        String manifestKey = options.prefix() + MANIFEST;
        Map<String, Recorded> before = readManifest(store, manifestKey);
        // key to size: a page whose size is not the one recorded or rendered is written again, whatever
        // the manifest says (pages are written without a flush to disk: after a power loss one may be empty)
        Map<String, Long> present = new HashMap<>();
        try (Stream<ObjectMeta> s = store.list(options.prefix())) {
            s.forEach(m -> present.put(m.key(), m.size()));
        }
        store.stat(options.indexKey()).ifPresent(m -> present.put(m.key(), m.size()));
        Map<String, Recorded> reusable = new HashMap<>();
        before.forEach((k, r) -> {
            if (r.inputs() != null && present.containsKey(k) && present.get(k) == r.bytes()) reusable.put(k, r);
        });
        Map<String, Page> pages = new Site(repo, options, catalogs).renderPages(reusable);
        Map<String, Recorded> after = new TreeMap<>();
        List<String> toWrite = new ArrayList<>();
        for (Map.Entry<String, Page> e : pages.entrySet()) {
            byte[] bytes = e.getValue().bytes();
            if (bytes == null) { // not rendered: unchanged since the manifest
                after.put(e.getKey(), reusable.get(e.getKey()));
                continue;
            }
            Recorded r = new Recorded(Sha256.of(bytes), bytes.length, e.getValue().inputs(), e.getValue().stat());
            after.put(e.getKey(), r);
            Recorded was = before.get(e.getKey());
            Long size = present.get(e.getKey());
            if (was == null || !r.sha256().equals(was.sha256()) || size == null || size != bytes.length) toWrite.add(e.getKey());
        }
        parallel(toWrite, k -> store.putDerived(k, pages.get(k).bytes()));
        List<String> stale = new ArrayList<>();
        for (String k : before.keySet()) if (!after.containsKey(k) && present.containsKey(k)) stale.add(k);
        if (!stale.isEmpty()) store.deleteAll(stale);
        ObjectNode m = Json.MAPPER.createObjectNode();
        m.put("generator", "fdl site");
        ObjectNode p = m.putObject("pages");
        after.forEach((k, r) -> {
            ObjectNode o = p.putObject(k);
            o.put("sha256", r.sha256());
            o.put("bytes", r.bytes());
            if (r.inputs() != null) o.put("inputs", r.inputs());
            if (r.stat() != null) {
                com.fasterxml.jackson.databind.node.ArrayNode a = o.putArray("stat");
                for (ParentStat.TableStat t : r.stat()) {
                    ObjectNode so = a.addObject();
                    so.put("table", t.table());
                    so.put("rows", t.rows());
                    so.put("added", t.added());
                    if (t.removed() == null) so.putNull("removed");
                    else so.put("removed", t.removed());
                    if (t.dropped()) so.put("dropped", true);
                }
            }
        });
        byte[] manifest = Json.bytes(m);
        store.putDerived(manifestKey, manifest);
        return new Result(toWrite.size(), pages.size() - toWrite.size(), stale.size());
    }

    /**
     * A page as the manifest records it: SHA-256 and size of what was written, its inputs (null:
     * none recorded) and, for a version page, the version's change over its parent (null: not
     * shown), which the dataset page's history chart takes for the versions not rendered again.
     */
    private record Recorded(String sha256, long bytes, String inputs, List<ParentStat.TableStat> stat) {}

    /**
     * A page as rendered: its bytes (null: not rendered, unchanged since the manifest), its inputs
     * (null: render it every time) and a version page's change over its parent (null: none shown).
     */
    private record Page(byte[] bytes, String inputs, List<ParentStat.TableStat> stat) {
        Page(byte[] bytes, String inputs) {
            this(bytes, inputs, null);
        }
    }

    /** The manifest's pages; a manifest of fdl 0.x before inputs were recorded maps each key to its SHA-256 alone. */
    private static Map<String, Recorded> readManifest(ObjectStore store, String key) {
        Map<String, Recorded> out = new HashMap<>();
        Optional<ObjectBytes> b = store.get(key);
        if (b.isEmpty()) return out;
        try {
            JsonNode pages = Json.MAPPER.readTree(b.get().bytes()).path("pages");
            pages.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isTextual()
                    ? new Recorded(e.getValue().asText(), -1, null, null)
                    : new Recorded(e.getValue().path("sha256").asText(), e.getValue().path("bytes").asLong(-1), e.getValue().path("inputs").asText(null),
                    stat(e.getValue().get("stat")))));
        } catch (java.io.IOException | RuntimeException e) {
            // a damaged manifest only costs a full rewrite: every page is written again
        }
        return out;
    }

    /** A change over the parent as the manifest records it; null when it records none. */
    private static List<ParentStat.TableStat> stat(JsonNode a) {
        if (a == null || !a.isArray()) return null;
        List<ParentStat.TableStat> out = new ArrayList<>();
        for (JsonNode t : a)
            out.add(new ParentStat.TableStat(t.path("table").asText(), t.path("rows").asLong(), t.path("added").asLong(),
                    t.path("removed").isNumber() ? t.path("removed").asLong() : null, t.path("dropped").asBoolean(false)));
        return out;
    }

    private interface KeyTask {
        void run(String key);
    }

    /** Store calls for many small objects, 8 at a time: S3 round trips dominate otherwise. */
    private static void parallel(List<String> keys, KeyTask task) {
        if (keys.size() < 4) {
            for (String k : keys) task.run(k);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (String k : keys) fs.add(pool.submit(() -> task.run(k)));
            for (Future<?> f : fs) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    throw new FdlException(FdlException.Kind.FAILURE, "writing the site failed: " + e.getCause().getMessage(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new FdlException(FdlException.Kind.FAILURE, "interrupted while writing the site", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- model

    /**
     * Every page, in order: the index, the log pages, a page per version; a version page whose key
     * {@code reusable} names with the inputs it has now is not rendered (its bytes are null).
     */
    private Map<String, Page> renderPages(Map<String, Recorded> reusable) {
        if (!repo.store().canList())
            throw new FdlException(repo.root() + " cannot be listed (an HTTP(S) root); run fdl site where the repository lives (a folder or s3://)");
        List<RefValue> refs = repo.listRefs();
        Map<String, List<RefValue>> refsByVersion = new HashMap<>();
        for (RefValue r : refs) refsByVersion.computeIfAbsent(r.versionId(), k -> new ArrayList<>()).add(r);
        List<Entry> entries = history(refs);
        RefName head = headBranch();
        Map<String, Entry> byId = new HashMap<>();
        for (Entry e : entries) byId.put(e.version().id(), e);
        Entry newest = newestOnHead(refs, head, entries);
        // which version pages to render; only those (and the index's version) need their dataset.json
        Map<String, String> inputs = new HashMap<>();
        List<Entry> toRender = new ArrayList<>();
        for (Entry e : entries) {
            String key = versionKey(e.version().id());
            String in = inputs(e, refsByVersion.getOrDefault(e.version().id(), List.of()), head, byId);
            inputs.put(key, in);
            Recorded r = reusable.get(key);
            if (r == null || !in.equals(r.inputs())) toRender.add(e);
        }
        Map<String, JsonNode> datasets = datasets(newest == null || toRender.contains(newest) ? toRender
                : Stream.concat(toRender.stream(), Stream.of(newest)).toList());
        Map<String, Page> pages = new LinkedHashMap<>();
        int pageCount = Math.max(1, (entries.size() + options.pageSize() - 1) / options.pageSize());
        pages.put(options.indexKey(), null); // rendered last, from the version pages' changes (the history chart); first in order
        for (int i = 0; i < pageCount; i++) {
            int from = i * options.pageSize();
            List<Entry> slice = entries.subList(Math.min(from, entries.size()), Math.min(from + options.pageSize(), entries.size()));
            pages.put(options.prefix() + "log/" + (i + 1) + ".html", new Page(bytes(logPage(slice, refsByVersion, head, i + 1, pageCount)), null));
        }
        if (stats != null) for (Entry e : entries) stats.known(e.version(), e.expired()); // parents already read
        readSummaries(toRender);
        Set<String> rendered = new HashSet<>();
        for (Entry e : toRender) rendered.add(e.version().id());
        for (Entry e : entries) {
            String key = versionKey(e.version().id());
            if (!rendered.contains(e.version().id())) {
                pages.put(key, new Page(null, inputs.get(key), reusable.get(key).stat()));
                continue;
            }
            JsonNode ds = datasetOf(e, datasets);
            statFailed = false;
            lastStat = null;
            byte[] html = bytes(versionPage(e, ds, refsByVersion.getOrDefault(e.version().id(), List.of()), head, byId));
            // a page that left out what it could not read now is rendered again next time
            boolean complete = !statFailed && (e.version().dataset() == null || ds != null);
            pages.put(key, new Page(html, complete ? inputs.get(key) : null, lastStat));
        }
        String chart = stats == null ? "" : HistoryChart.render(history(newest, byId, refsByVersion, pages));
        pages.put(options.indexKey(), new Page(bytes(indexPage(newest, datasetOf(newest, datasets), new IndexRefs(refs, refsByVersion, head), entries, pageCount, chart)), null));
        return pages;
    }

    /** The first-parent history of {@code newest} (HEAD's branch tip), oldest first, with each version's change as its page recorded it. */
    private List<HistoryChart.Point> history(Entry newest, Map<String, Entry> byId, Map<String, List<RefValue>> refsByVersion, Map<String, Page> pages) {
        List<HistoryChart.Point> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Entry e = newest; e != null && seen.add(e.version().id()); e = e.version().parents().isEmpty() ? null : byId.get(e.version().parents().get(0))) {
            Page p = pages.get(versionKey(e.version().id()));
            List<String> tags = new ArrayList<>();
            for (RefValue r : refsByVersion.getOrDefault(e.version().id(), List.of())) if (r.kind() == RefValue.Kind.TAG) tags.add(r.name().name());
            out.add(new HistoryChart.Point(e.version().id(), e.version().createdAt().toString().substring(0, 10),
                    e.expired() != null || p == null ? null : p.stat(), tags));
        }
        java.util.Collections.reverse(out);
        return out;
    }

    /** Set by {@link #statSection} when the change over the parent could not be read (renderPages is single-threaded). */
    private boolean statFailed;
    /** Set by {@link #statSection} to the change it showed; null when none. */
    private List<ParentStat.TableStat> lastStat;

    /** SHA-256 of the renderer's code (its class files): pages another build of fdl made are rendered again. */
    private static final String RENDERER = rendererDigest();

    private static String rendererDigest() {
        java.io.ByteArrayOutputStream code = new java.io.ByteArrayOutputStream();
        for (Class<?> c : List.of(Site.class, Html.class, HistoryChart.class, TablePreview.class, TableSummary.class, AttachStatements.class, ParentStat.class)) {
            try (java.io.InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
                if (in == null) return java.util.UUID.randomUUID().toString(); // unknown code: nothing is reused
                in.transferTo(code);
            } catch (java.io.IOException e) {
                return java.util.UUID.randomUUID().toString();
            }
        }
        return Sha256.of(code.toByteArray());
    }

    /**
     * A version page's inputs, as a SHA-256: everything the page shows but the version's own
     * files, which never change once it is published (version.json, dataset.json and the catalog,
     * SPEC.md section 3), so that its id stands for them: its expiry, the refs at it and HEAD's
     * branch, each parent's presence and expiry (links, the change over the parent), the
     * locations the attach statements name, the options, whether the change over the parent is
     * shown, and the renderer's code.
     */
    private String inputs(Entry e, List<RefValue> refs, RefName head, Map<String, Entry> byId) {
        StringBuilder b = new StringBuilder(512).append(commonInputs).append(e.version().id()).append('\n')
                .append(e.expired()).append('\n').append(decorations(refs, head));
        for (String p : e.version().parents()) {
            Entry pe = byId.get(p);
            b.append('\n').append(p).append(pe == null ? " absent" : pe.expired() == null ? " live" : " expired");
        }
        return Sha256.of(bytes(b.toString()));
    }

    private RefName headBranch() {
        try {
            return repo.headBranch();
        } catch (FdlException e) {
            return null;
        }
    }

    /**
     * Every version reachable from a ref, newest first (seq, then id), each read once, with its
     * dataset.json (read 8 at a time).
     */
    private List<Entry> history(List<RefValue> refs) {
        // every parent, as gc keeps them; a version whose version.json cannot be read ends its line
        HistoryWalk walk = HistoryWalk.over(repo::readVersion, id -> false, HistoryWalk.Parents.ALL);
        for (RefValue r : refs) walk.start(r.versionId());
        List<VersionInfo> ordered = new ArrayList<>();
        while (walk.peek() != null) ordered.add(walk.take());
        Entry[] out = new Entry[ordered.size()];
        List<String> idx = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) idx.add(Integer.toString(i));
        parallel(idx, s -> {
            int i = Integer.parseInt(s);
            VersionInfo v = ordered.get(i);
            out[i] = new Entry(v, repo.readExpired(v.id()).orElse(null));
        });
        return List.of(out);
    }

    /** The dataset.json of each of {@code entries} that has a readable one, by version id (read 8 at a time). */
    private Map<String, JsonNode> datasets(List<Entry> entries) {
        Map<String, JsonNode> out = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, VersionInfo> byId = new HashMap<>();
        for (Entry e : entries) if (e.version().dataset() != null) byId.put(e.version().id(), e.version());
        parallel(new ArrayList<>(byId.keySet()), id -> {
            JsonNode ds = dataset(byId.get(id));
            if (ds != null) out.put(id, ds);
        });
        return out;
    }

    private static JsonNode datasetOf(Entry e, Map<String, JsonNode> datasets) {
        return e == null ? null : datasets.get(e.version().id());
    }

    private JsonNode dataset(VersionInfo v) {
        if (v.dataset() == null) return null;
        try {
            return repo.store().get(RepoLayout.versionFile(v.id(), v.dataset().path()))
                    .map(b -> {
                        try {
                            return Json.MAPPER.readTree(b.bytes());
                        } catch (java.io.IOException e) {
                            return null;
                        }
                    }).orElse(null);
        } catch (RuntimeException e) {
            return null; // the site describes what it can; fdl verify reports damaged files
        }
    }

    private static Entry newestOnHead(List<RefValue> refs, RefName head, List<Entry> entries) {
        String id = null;
        for (RefValue r : refs) if (r.kind() == RefValue.Kind.BRANCH && r.name().equals(head)) id = r.versionId();
        for (Entry e : entries) if (e.version().id().equals(id)) return e;
        return entries.isEmpty() ? null : entries.get(0);
    }

    // ---- pages

    private String versionKey(String id) {
        return options.prefix() + "versions/" + id + ".html";
    }

    /** Relative path from a page at {@code key} to the repository root. */
    private static String rootRel(String key) {
        int depth = key.split("/", -1).length - 1;
        return "../".repeat(depth);
    }

    private String siteRel(String key) {
        return rootRel(key) + options.prefix();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String title(JsonNode ds, String fallback) {
        if (ds == null) return fallback;
        String t = ds.path("title").asText("");
        if (t.isBlank()) t = ds.path("name").asText("");
        return t.isBlank() ? fallback : t;
    }

    /** @param ds the newest version's dataset.json, null when it has none or it cannot be read */
    /** The refs the index page shows: all of them, by the version each names, and HEAD's branch. */
    private record IndexRefs(List<RefValue> refs, Map<String, List<RefValue>> refsByVersion, RefName head) {}

    private String indexPage(Entry newest, JsonNode ds, IndexRefs indexRefs, List<Entry> entries, int pageCount, String chart) {
        List<RefValue> refs = indexRefs.refs();
        Map<String, List<RefValue>> refsByVersion = indexRefs.refsByVersion();
        RefName head = indexRefs.head();
        String key = options.indexKey();
        String siteRel = siteRel(key);
        StringBuilder b = new StringBuilder(PAGE_CAPACITY);
        b.append("<h1 id=\"title\">").append(Html.esc(title(ds, "fdl repository"))).append("</h1>\n");
        if (ds != null && !ds.path("description").asText("").isBlank())
            b.append("<p id=\"description\">").append(Html.esc(ds.path("description").asText())).append("</p>\n");
        if (ds != null) {
            JsonNode lic = ds.path("licenses");
            if (lic.isArray() && !lic.isEmpty()) {
                b.append("<p id=\"license\"><strong>License:</strong> ");
                List<String> parts = new ArrayList<>();
                for (JsonNode l : lic)
                    parts.add(Html.externalLink(l.path("path").asText(null), l.path("title").asText(l.path("name").asText(""))));
                b.append(String.join(", ", parts)).append("</p>\n");
            }
            JsonNode src = ds.path("sources");
            if (src.isArray() && !src.isEmpty()) {
                b.append("<p id=\"sources\"><strong>Sources:</strong> ");
                List<String> parts = new ArrayList<>();
                for (JsonNode s : src)
                    parts.add(Html.externalLink(s.path("path").asText(null), s.path("title").asText(s.path("name").asText(""))));
                b.append(String.join(", ", parts)).append("</p>\n");
            }
            if (!ds.path("homepage").asText("").isBlank())
                b.append("<p><strong>Homepage:</strong> ").append(Html.externalLink(ds.path("homepage").asText(), null)).append("</p>\n");
        }
        long live = entries.stream().filter(e -> e.expired() == null).count();
        b.append("<p class=\"muted\" id=\"counts\"><span id=\"version-count\">").append(entries.size()).append("</span> versions (")
                .append(live).append(" in retention), ").append(refs.size()).append(" refs.</p>\n");
        if (newest != null) {
            VersionInfo v = newest.version();
            b.append("<h2>Latest version</h2>\n<p><a class=\"id\" href=\"").append(siteRel).append("versions/").append(v.id()).append(".html\">")
                    .append(v.id()).append("</a> ").append(decorations(refsByVersion.get(v.id()), head)).append("<br>")
                    .append(Html.esc(v.createdAt().toString())).append(" &middot; ").append(Html.esc(firstLine(v.message()))).append("</p>\n");
            if (newest.expired() == null) b.append(attachBlock(key, v, "attach-latest"));
        }
        b.append(chart);
        b.append("<h2>Refs</h2>\n<table id=\"refs\"><tr><th>ref</th><th>version</th><th>date</th><th>message</th></tr>\n");
        Map<String, Entry> byId = new HashMap<>();
        for (Entry e : entries) byId.put(e.version().id(), e);
        List<RefValue> sorted = new ArrayList<>(refs);
        sorted.sort(Comparator.comparing((RefValue r) -> r.kind() == RefValue.Kind.BRANCH ? 0 : 1).thenComparing(r -> r.name().name()));
        for (RefValue r : sorted) {
            Entry e = byId.get(r.versionId());
            b.append("<tr class=\"").append(r.kind() == RefValue.Kind.TAG ? "tag" : "branch").append("\"><td>")
                    .append(refBadge(r, head)).append("</td><td><a class=\"id\" href=\"").append(siteRel).append("versions/")
                    .append(r.versionId()).append(".html\">").append(r.versionId(), 0, 13).append("</a></td><td>")
                    .append(e == null ? "" : Html.esc(e.version().createdAt().toString())).append("</td><td>")
                    .append(e == null ? "" : Html.esc(firstLine(e.version().message()))).append("</td></tr>\n");
        }
        b.append("</table>\n");
        if (ds != null && ds.path("resources").isArray() && !ds.path("resources").isEmpty()) {
            b.append("<h2>Tables in the latest version</h2>\n");
            b.append(tablesSummary(ds));
        }
        b.append("<p><a href=\"").append(siteRel).append("log/1.html\">All versions</a> (").append(pageCount)
                .append(pageCount == 1 ? " page" : " pages").append(")</p>\n");
        return Html.page(Html.esc(title(ds, "fdl repository")), rootRel(key), siteRel, b.toString());
    }

    private String logPage(List<Entry> slice, Map<String, List<RefValue>> refsByVersion, RefName head, int page, int pageCount) {
        String key = options.prefix() + "log/" + page + ".html";
        String siteRel = siteRel(key);
        StringBuilder b = new StringBuilder(PAGE_CAPACITY);
        b.append("<h1>Versions</h1>\n<p class=\"pager\">");
        if (page > 1) b.append("<a href=\"").append(page - 1).append(".html\">&larr; newer</a>");
        b.append("page ").append(page).append(" of ").append(pageCount);
        if (page < pageCount) b.append(" <a href=\"").append(page + 1).append(".html\">older &rarr;</a>");
        b.append("</p>\n<table id=\"log\"><tr><th>version</th><th>date (UTC)</th><th>author</th><th>message</th></tr>\n");
        for (Entry e : slice) {
            VersionInfo v = e.version();
            b.append("<tr class=\"version\"><td><a class=\"id\" href=\"").append(siteRel).append("versions/").append(v.id()).append(".html\">")
                    .append(v.id(), 0, 13).append("</a> ").append(decorations(refsByVersion.get(v.id()), head));
            if (e.expired() != null) b.append(" <span class=\"expired\">expired</span>");
            b.append("</td><td>").append(Html.esc(v.createdAt().toString())).append("</td><td>").append(Html.esc(v.author().name()))
                    .append("</td><td>").append(Html.esc(firstLine(v.message()))).append("</td></tr>\n");
        }
        b.append("</table>\n");
        return Html.page("Versions &middot; page " + page, rootRel(key), siteRel, b.toString());
    }

    /** @param ds the version's dataset.json, null when it has none or it cannot be read */
    private String versionPage(Entry e, JsonNode ds, List<RefValue> refs, RefName head, Map<String, Entry> byId) {
        VersionInfo v = e.version();
        String key = versionKey(v.id());
        String siteRel = siteRel(key);
        StringBuilder b = new StringBuilder(PAGE_CAPACITY);
        b.append("<h1>").append(Html.esc(firstLine(v.message()))).append("</h1>\n");
        b.append("<table class=\"facts\">");
        fact(b, "version", "<span class=\"id\" id=\"version-id\">" + v.id() + "</span> " + decorations(refs, head));
        fact(b, "date (UTC)", Html.esc(v.createdAt().toString()));
        fact(b, "author", Html.esc(v.author().toString()));
        if (!v.parents().isEmpty()) {
            List<String> ps = new ArrayList<>();
            for (String p : v.parents())
                ps.add(byId.containsKey(p) ? "<a class=\"id\" href=\"" + p + ".html\">" + p + "</a>" : "<span class=\"id\">" + p + "</span>");
            fact(b, ps.size() > 1 ? "parents (merge)" : "parent", String.join(", ", ps));
        }
        fact(b, "seq", Long.toString(v.seq()));
        if (v.ducklake() != null)
            fact(b, "DuckLake", "format " + Html.esc(v.ducklake().format()) + ", snapshot " + v.ducklake().snapshotId());
        if (v.catalog() != null)
            fact(b, "catalog", Html.esc(v.catalog().path()) + ", " + v.catalog().bytes() + " bytes, " + Html.esc(v.catalog().storage()));
        v.checks().ifPresent(c -> fact(b, "checks", c.path("checked").asLong() + " checked (" + Html.esc(c.path("mode").asText()) + "), "
                + c.path("passed").asLong() + " passed, <span id=\"check-warnings\">" + c.path("warned").asLong() + "</span> warned"));
        b.append("</table>\n");
        List<String> warnings = v.checkWarnings();
        if (!warnings.isEmpty()) {
            b.append("<h2>Check warnings</h2>\n<ul class=\"warnings\">");
            for (String w : warnings) b.append("<li>").append(Html.esc(w)).append("</li>");
            b.append("</ul>\n");
        }
        if (v.message().contains("\n")) b.append("<pre class=\"message\">").append(Html.esc(v.message())).append("</pre>\n");
        if (e.expired() != null) {
            b.append("<p class=\"expired\" id=\"expired\">This version expired on ").append(Html.esc(e.expired().expiredAt().toString()))
                    .append(e.expired().reason() == null ? "" : " (" + Html.esc(e.expired().reason()) + ")")
                    .append(": its catalog is gone and it can no longer be attached. Its description remains below.</p>\n");
        } else {
            b.append("<h2>Attach with DuckDB</h2>\n").append(attachBlock(key, v, "attach"));
            if (repo.store().location("").startsWith("s3://")) {
                b.append("<p class=\"muted\">From the bucket (credentials as DuckDB's httpfs takes them):</p>\n");
                b.append(preBlock("attach-s3", String.join("\n", AttachStatements.of(repo, v, null, alias(e))), null, null));
            }
        }
        if (e.expired() == null) b.append(statSection(v));
        Map<String, TableSummary.Table> preview = preview(e);
        if (ds != null && ds.path("resources").isArray()) {
            b.append("<h2>Tables</h2>\n");
            for (JsonNode r : ds.path("resources")) b.append(tableSection(r, e, key, preview));
        }
        return Html.page(Html.esc(title(ds, "fdl repository")) + " &middot; " + v.id().substring(0, 13), rootRel(key), siteRel, b.toString());
    }

    /** The rows each table gained and lost over the first parent, as {@code fdl log --stat} prints them; empty when not asked for or unreadable. */
    private String statSection(VersionInfo v) {
        if (stats == null) return "";
        List<ParentStat.TableStat> changed;
        try {
            changed = stats.of(v);
        } catch (FdlException ex) {
            statFailed = true;
            return ""; // the site describes what it can; fdl verify reports damaged catalogs
        }
        lastStat = changed;
        StringBuilder b = new StringBuilder("<h2>Changes over ").append(v.parents().isEmpty() ? "an empty catalog" : v.parents().size() > 1 ? "its first parent" : "its parent").append("</h2>\n");
        if (changed.isEmpty()) return b.append("<p class=\"muted\" id=\"stat\">No rows added or removed.</p>\n").toString();
        b.append("<table id=\"stat\"><tr><th>table</th><th class=\"num\">added</th><th class=\"num\">removed</th><th class=\"num\">rows</th></tr>\n");
        for (ParentStat.TableStat t : changed) {
            b.append("<tr><td>").append(Html.esc(t.table())).append("</td><td class=\"num\">+").append(t.added())
                    .append("</td><td class=\"num\">").append(t.removed() == null ? "?" : "-" + t.removed())
                    .append("</td><td class=\"num\">").append(t.dropped() ? "dropped" : String.format(java.util.Locale.ROOT, "%,d", t.rows())).append("</td></tr>\n");
        }
        return b.append("</table>\n<p class=\"muted\">A changed row counts as one removed and one added; from the catalogs alone, "
                + "as <code>fdl log --stat</code>.</p>\n").toString();
    }

    private static void fact(StringBuilder b, String name, String html) {
        b.append("<tr><th>").append(Html.esc(name)).append("</th><td>").append(html).append("</td></tr>");
    }

    private static String tablesSummary(JsonNode ds) {
        StringBuilder b = new StringBuilder("<table id=\"tables\"><tr><th>table</th><th class=\"num\">rows</th><th>columns</th><th>description</th></tr>\n");
        for (JsonNode r : ds.path("resources")) {
            b.append("<tr><td>").append(Html.esc(r.path("name").asText())).append("</td><td class=\"num\">")
                    .append(r.has("rows") ? String.format("%,d", r.path("rows").asLong()) : "").append("</td><td>")
                    .append(r.path("schema").path("fields").size()).append("</td><td>")
                    .append(Html.esc(r.path("description").asText(""))).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }

    /**
     * The first rows and column statistics of a live version's tables ({@link TablePreview}), when
     * the site reads catalogs (not {@code --no-stat}); empty otherwise. The data files' statistics
     * are kept in the local catalog cache when {@code catalogs} is one ({@link CatalogCache#unitStats}),
     * else for this run only. A repository whose data files are not in a local folder (S3, HTTPS)
     * is read through the cache's data mirror, fetching only the files whose statistics are not
     * kept (and those a preview needs); without a local cache it shows no preview. A failure leaves the preview
     * out and marks the page to be rendered again next time.
     */
    private Map<String, TableSummary.Table> preview(Entry e) {
        if (!summaries.containsKey(e.version().id())) return Map.of();
        Map<String, TableSummary.Table> m = summaries.get(e.version().id());
        if (m == null) statFailed = true;
        return m == null ? Map.of() : m;
    }

    /** Each rendered live version's {@link #summary}, by version id; null: it could not be read. */
    private final Map<String, Map<String, TableSummary.Table>> summaries = new HashMap<>();

    /**
     * Reads the previews of the version pages to render, oldest first, each catalog opened once:
     * the row counts {@code fdl log --stat} takes from it are read on the same open catalog and
     * handed to {@link ParentStat}, which then opens no catalog for that version, as a parent or
     * itself.
     */
    private void readSummaries(List<Entry> toRender) {
        if (catalogs == null) return;
        List<Entry> oldestFirst = new ArrayList<>(toRender);
        java.util.Collections.reverse(oldestFirst);
        for (Entry e : oldestFirst) {
            if (e.expired() != null) continue;
            summaries.put(e.version().id(), summary(e));
        }
    }

    /** One live version's tables ({@link TablePreview#read}); null when they cannot be read. */
    private Map<String, TableSummary.Table> summary(Entry e) {
        String data = repo.store().location(repo.dataDir());
        CatalogCache cache = catalogs instanceof CatalogCache c ? c : null;
        TableSummary.Fetcher fetcher = null;
        boolean remote = data.contains("://");
        if (remote && cache != null) {
            java.nio.file.Path mirror = cache.dataFolder(repo);
            data = mirror.toAbsolutePath() + "/";
            fetcher = files -> DataFileMirror.fetchFiles(repo.store(), repo.dataDir(), mirror, files, "version " + e.version().id());
        }
        if (remote && cache == null) return Map.of(); // nowhere to fetch the data files to
        try {
            // the process-wide pool: Site.write is not handed one yet
            TableSummary.Summary s = TablePreview.read(DuckDbPool.current(), catalogs.versionCatalog(repo, e.version()), data, fetcher, unitStats(),
                    e.version().ducklake().firstSnapshot());
            stats.known(e.version(), s.rows());
            return TablePreview.byName(s);
        } catch (FdlException | java.io.UncheckedIOException ex) {
            return null;
        }
    }

    /** The data files' statistics: in the local cache when there is one, and in memory for this run. */
    private TableSummary.Store unitStats() {
        if (unitStats == null) {
            TableSummary.Store disk = catalogs instanceof CatalogCache c ? c.unitStats(repo) : null;
            Map<String, byte[]> memory = new java.util.concurrent.ConcurrentHashMap<>();
            unitStats = new TableSummary.Store() {
                @Override
                public byte[] get(String key) {
                    byte[] v = memory.get(key);
                    if (v == null && disk != null && (v = disk.get(key)) != null) memory.put(key, v);
                    return v;
                }

                @Override
                public void put(String key, byte[] value) {
                    memory.put(key, value);
                    if (disk != null) disk.put(key, value);
                }
            };
        }
        return unitStats;
    }

    private TableSummary.Store unitStats;

    /** A table's section on a version page: rows, columns, its first rows and statistics, and, for a live version, how to get its data. */
    private String tableSection(JsonNode r, Entry e, String pageKey, Map<String, TableSummary.Table> preview) {
        String name = r.path("name").asText();
        StringBuilder b = new StringBuilder();
        b.append("<section class=\"table\" data-table=\"").append(Html.esc(name)).append("\"><h3>").append(Html.esc(name)).append("</h3>\n");
        if (!r.path("description").asText("").isBlank()) b.append("<p>").append(Html.esc(r.path("description").asText())).append("</p>\n");
        if (r.has("rows"))
            b.append("<p><span class=\"rows\" data-rows=\"").append(r.path("rows").asLong()).append("\">")
                    .append(String.format("%,d", r.path("rows").asLong())).append("</span> rows</p>\n");
        b.append("<table><tr><th>column</th><th>type</th><th>DuckLake type</th><th>description</th></tr>\n");
        for (JsonNode f : r.path("schema").path("fields"))
            b.append("<tr><td>").append(Html.esc(f.path("name").asText())).append("</td><td>").append(Html.esc(f.path("type").asText("")))
                    .append("</td><td><code>").append(Html.esc(f.path("ducklake_type").asText(""))).append("</code></td><td>")
                    .append(Html.esc(f.path("description").asText(""))).append("</td></tr>\n");
        b.append("</table>\n");
        TableSummary.Table t = preview.get(name.indexOf('.') < 0 ? "main." + name : name);
        if (t != null) b.append(TablePreview.html(t, name));
        if (e.expired() == null) b.append(getTheData(e.version(), name, pageKey));
        return b.append("</section>\n").toString();
    }

    /**
     * How to get a table's data out: the DuckDB statements that attach the version from the URL the
     * page was loaded from (as the attach block) and copy the table to Parquet and CSV, and the
     * {@code fdl query} command doing the same for CSV (the root shell-quoted by the page's script).
     *
     * @param table the resource name: {@code table} for schema {@code main}, else {@code schema.table}
     */
    private String getTheData(VersionInfo v, String table, String pageKey) {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? "main" : table.substring(0, dot), name = dot < 0 ? table : table.substring(dot + 1);
        String alias = alias(v);
        String file = fileName(table);
        String relation = SqlQuote.ident(alias) + "." + SqlQuote.qualified(schema, name);
        String copy = "COPY (FROM " + relation + ") TO " + SqlQuote.literal(file + ".parquet") + " (FORMAT parquet);\n"
                + "COPY (FROM " + relation + ") TO " + SqlQuote.literal(file + ".csv") + " (FORMAT csv, HEADER);";
        String template = String.join("\n", AttachStatements.of(repo, v, ROOT_PLACEHOLDER, alias)) + "\n" + copy;
        String own = publicRoot() ? String.join("\n", AttachStatements.of(repo, v, null, alias)) + "\n" + copy
                : template.replace(ROOT_PLACEHOLDER, "https://<where this site is served>/");
        String id = "copy-" + file;
        String query = "SELECT * FROM " + SqlQuote.qualified(schema, name);
        String fdlTemplate = "fdl query --repo '" + ROOT_PLACEHOLDER + "' " + v.id() + " --csv " + ShellQuote.word(query) + " > "
                + ShellQuote.word(file + ".csv");
        String fdlOwn = publicRoot() ? fdlTemplate.replace("'" + ROOT_PLACEHOLDER + "'", ShellQuote.word(repo.store().location("")))
                : fdlTemplate.replace(ROOT_PLACEHOLDER, "https://<where this site is served>/");
        return "<details class=\"get\"><summary>Get the data</summary>\n<p class=\"muted\">With DuckDB (the DuckLake extension):</p>\n"
                + preBlock(id, own, template, rootRel(pageKey))
                + "<p class=\"muted\">With fdl:</p>\n"
                + preBlock("fdl-" + file, fdlOwn, fdlTemplate, rootRel(pageKey)).replace("<pre class=\"attach\"", "<pre class=\"attach\" data-quote=\"shell\"")
                + "</details>\n";
    }

    /** A file name for a table's data: the resource name with anything but letters, digits, {@code .}, {@code _} and {@code -} as {@code _}. */
    static String fileName(String table) {
        StringBuilder b = new StringBuilder(table.length());
        for (int i = 0; i < table.length(); i++) {
            char c = table.charAt(i);
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-') ? c : '_');
        }
        return b.toString();
    }

    /**
     * The attach statements for {@code v}: rendered for the store's own location, and as a
     * template with {@link #ROOT_PLACEHOLDER} that the page's script fills in with the root the
     * page was loaded from (statements from {@link AttachStatements}, the one place that rule lives).
     */
    private String attachBlock(String pageKey, VersionInfo v, String id) {
        String alias = alias(v);
        String template = String.join("\n", AttachStatements.of(repo, v, ROOT_PLACEHOLDER, alias));
        // a folder's absolute path is the publisher's, not a reader's: the page shows the root it is
        // served from (filled in by its script), never where the repository lives on this machine
        String own = publicRoot() ? String.join("\n", AttachStatements.of(repo, v, null, alias))
                : template.replace(ROOT_PLACEHOLDER, "https://<where this site is served>/");
        return preBlock(id, own, template, rootRel(pageKey));
    }

    /** Whether the repository's own location (s3:// or http(s)://) is one readers can use as it is. */
    private boolean publicRoot() {
        String loc = repo.store().location("").toLowerCase(java.util.Locale.ROOT);
        return loc.startsWith("s3://") || loc.startsWith("http://") || loc.startsWith("https://");
    }

    private static String preBlock(String id, String text, String template, String rootRel) {
        StringBuilder b = new StringBuilder(3 * text.length() + 64).append("<pre class=\"attach\" id=\"").append(id).append('"');
        if (template != null)
            b.append(" data-root-rel=\"").append(rootRel.isEmpty() ? "./" : rootRel).append("\" data-template=\"").append(Html.esc(template)).append('"');
        b.append('>').append(Html.esc(text)).append("</pre>\n<button class=\"copy\" data-for=\"").append(id).append("\">Copy</button>\n");
        return b.toString();
    }

    private static String alias(Entry e) {
        return alias(e.version());
    }

    private static String alias(VersionInfo v) {
        return "v_" + v.id().substring(0, 8);
    }

    private static String refBadge(RefValue r, RefName head) {
        boolean isHead = r.kind() == RefValue.Kind.BRANCH && r.name().equals(head);
        String cls = r.kind() == RefValue.Kind.TAG ? "ref tag" : isHead ? "ref head" : "ref";
        return "<span class=\"" + cls + "\">" + (isHead ? "HEAD &rarr; " : "") + Html.esc(r.decoration()) + "</span>";
    }

    private static String decorations(List<RefValue> refs, RefName head) {
        if (refs == null || refs.isEmpty()) return "";
        StringBuilder b = new StringBuilder();
        List<RefValue> sorted = new ArrayList<>(refs);
        sorted.sort(Comparator.comparing((RefValue r) -> r.kind() == RefValue.Kind.BRANCH && r.name().equals(head) ? 0 : r.kind() == RefValue.Kind.TAG ? 1 : 2)
                .thenComparing(r -> r.name().name()));
        for (RefValue r : sorted) b.append(refBadge(r, head));
        return b.toString();
    }

    private static String firstLine(String message) {
        if (message == null) return "";
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

}
