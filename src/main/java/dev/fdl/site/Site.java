package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.TableSummary;
import dev.fdl.repo.AttachStatements;
import dev.fdl.repo.ParentStat;
import dev.fdl.repo.ReadCache;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.ParallelCalls;
import dev.fdl.util.Json;
import dev.fdl.trust.SignatureLine;
import dev.fdl.util.Sha256;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.fdl.site.PageParts.bytes;
import static dev.fdl.site.PageParts.decorations;

/**
 * A static, self-contained site about a repository, stored inside it (derived data: gc never
 * deletes it, verify ignores it, a missing site changes nothing else): the dataset page at
 * {@code index.html} ({@link IndexPage}), a paginated log under {@code site/log/} ({@link LogPage}),
 * and a page per version under {@code site/versions/<id>.html} ({@link VersionPage}: tables,
 * columns with their Frictionless and DuckLake types, rows ({@link Previews}), and the DuckDB
 * statements that attach the version from the URL the page was loaded from).
 *
 * <p>Every link is relative, so the site works from any HTTP server, a bucket website and
 * {@code file://}. Pages are plain HTML with inline CSS and a few lines of inline JavaScript; no
 * page makes a request to another origin. A manifest ({@link Manifest}: page key to SHA-256)
 * lets a re-run write only the pages whose content changed.
 */
public final class Site {
    /** Stands for the repository root in attach statements until the page's script knows its own URL. */
    public static final String ROOT_PLACEHOLDER = "https://fdl-site-root.invalid/";

    /** True when the repository asks for the site to be regenerated after each commit (fdl.json {@code site.auto}). */
    public static boolean autoUpdate(RepoConfig config) {
        JsonNode s = config.extra().get(SiteOptions.CONFIG_KEY);
        return s != null && s.path("auto").asBoolean(false);
    }

    /**
     * True when {@code fdl site} has written a site into the repository (its manifest,
     * {@code <prefix>manifest.json}, exists): a change of refs or versions leaves it stale.
     */
    public static boolean exists(Repository repo, SiteOptions options) {
        return repo.store().stat(options.manifestKey()).isPresent();
    }

    /**
     * Records the site setting in fdl.json: {@code auto} and the options' prefix and index, every
     * other key kept ({@link Repository#saveConfig}: {@code If-Match} on the ETag read, so a
     * concurrent change of fdl.json is never lost).
     *
     * @return the repository with the new configuration
     * @throws FdlException exit 3 when fdl.json changed since it was read (run again), exit 1 on a read-only root
     */
    public static Repository saveSetting(Repository repo, boolean auto, SiteOptions options) {
        SiteOptions.checkOutsideRepositoryKeys(options.prefix(), options.indexKey(), repo.config().dataDir());
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("auto", auto);
        s.put("prefix", options.prefix());
        s.put("index", options.indexKey());
        return repo.saveConfig(repo.config().withExtra(SiteOptions.CONFIG_KEY, s));
    }

    /** What {@link #write} did: pages written, pages left as they were, stale pages removed. */
    public record SiteResult(int written, int unchanged, int removed) {
        public int pages() {
            return written + unchanged;
        }
    }

    /**
     * A page as rendered: its bytes (null: not rendered, unchanged since the manifest), its inputs
     * (null: render it every time) and a version page's change over its parent (null: none shown).
     */
    private record Page(byte[] bytes, String inputs, List<ParentStat.TableStat> stat) {
        Page(byte[] bytes, String inputs) {
            this(bytes, inputs, null);
        }
    }

    private final Repository repo;
    private final SiteOptions options;
    /** Each version's change over its parent, from the catalogs; null: version pages show none. */
    private final ParentStat stats;
    private final PageParts parts;
    private final VersionPage versionPage;
    /** The version pages' previews; null: no catalog is read. */
    private final Previews previews;
    /** The inputs every version page shares ({@link #inputs}): the renderer, locations, options, whether stats are shown. */
    private final String commonInputs;

    private Site(Repository repo, SiteOptions options, ReadCache cache, DuckDbPool pool) {
        this.repo = repo;
        this.options = options;
        this.stats = cache == null ? null : new ParentStat(repo, cache);
        this.previews = cache == null ? null : new Previews(repo, cache, pool, stats);
        this.parts = new PageParts(repo, options);
        SignatureLine signatures = new SignatureLine(repo);
        this.versionPage = new VersionPage(parts, stats, previews, signatures);
        this.commonInputs = RENDERER + '\n' + signatures.inputs() + '\n' + repo.store().location("") + '\n'
                + repo.store().customS3Endpoint().map(Object::toString).orElse("") + '\n' + repo.dataDir() + '\n' + options.prefix() + '\n'
                + options.indexKey() + '\n' + (stats != null) + '\n';
    }

    /**
     * Renders every page in memory: key to bytes (UTF-8 HTML).
     *
     * @throws FdlException when the repository cannot be listed (an HTTP(S) root: run it where the repository lives)
     */
    public static Map<String, byte[]> render(Repository repo, SiteOptions options) {
        return render(repo, options, null, null);
    }

    /**
     * {@link #render(Repository, SiteOptions)}, with each live version's page showing what it changed
     * over its parent per table ({@link ParentStat}, as {@code fdl log --stat}: one catalog read per
     * live version through {@code cache}) and its tables' first rows and statistics ({@link Previews},
     * read on {@code pool}); {@code cache} null: no such sections.
     */
    public static Map<String, byte[]> render(Repository repo, SiteOptions options, ReadCache cache, DuckDbPool pool) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        new Site(repo, options, cache, pool).renderPages(Map.of()).forEach((k, p) -> out.put(k, p.bytes()));
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
    public static SiteResult write(Repository repo, SiteOptions options) {
        return write(repo, options, null, null);
    }

    /** {@link #write(Repository, SiteOptions)}, version pages with their change over the parent and previews ({@link #render(Repository, SiteOptions, ReadCache, DuckDbPool)}). */
    public static SiteResult write(Repository repo, SiteOptions options, ReadCache cache, DuckDbPool pool) {
        ObjectStore store = repo.store();
        if (store.readOnly())
            throw new FdlException(store.root() + " is read-only (an HTTP(S) root); run fdl site where the repository lives (a folder or s3://)");
        // the options checked the default data folder; this repository's may be another
        SiteOptions.checkOutsideRepositoryKeys(options.prefix(), options.indexKey(), repo.config().dataDir());
        Map<String, Manifest.Recorded> before = Manifest.read(store, options.manifestKey());
        Map<String, Long> present = present(store, options);
        Map<String, Manifest.Recorded> reusable = new HashMap<>();
        before.forEach((k, r) -> {
            if (r.inputs() != null && present.containsKey(k) && present.get(k) == r.bytes()) reusable.put(k, r);
        });
        Map<String, Page> pages = new Site(repo, options, cache, pool).renderPages(reusable);
        Map<String, Manifest.Recorded> after = new TreeMap<>();
        List<String> toWrite = new ArrayList<>();
        for (Map.Entry<String, Page> e : pages.entrySet()) {
            byte[] bytes = e.getValue().bytes();
            if (bytes == null) { // not rendered: unchanged since the manifest
                after.put(e.getKey(), reusable.get(e.getKey()));
                continue;
            }
            Manifest.Recorded r = new Manifest.Recorded(Sha256.of(bytes), bytes.length, e.getValue().inputs(), e.getValue().stat());
            after.put(e.getKey(), r);
            Manifest.Recorded was = before.get(e.getKey());
            Long size = present.get(e.getKey());
            if (was == null || !r.sha256().equals(was.sha256()) || size == null || size != bytes.length) toWrite.add(e.getKey());
        }
        ParallelCalls.forEach(toWrite, k -> store.putDerived(k, pages.get(k).bytes()));
        List<String> stale = new ArrayList<>();
        for (String k : before.keySet()) if (!after.containsKey(k) && present.containsKey(k)) stale.add(k);
        if (!stale.isEmpty()) store.deleteAll(stale);
        store.putDerived(options.manifestKey(), Manifest.bytes(after));
        return new SiteResult(toWrite.size(), pages.size() - toWrite.size(), stale.size());
    }

    /**
     * The site's objects in the store, key to size: a page whose size is not the one recorded or
     * rendered is written again, whatever the manifest says (pages are written without a flush to
     * disk: after a power loss one may be empty).
     */
    private static Map<String, Long> present(ObjectStore store, SiteOptions options) {
        Map<String, Long> present = new HashMap<>();
        try (Stream<ObjectMeta> s = store.list(options.prefix())) {
            s.forEach(m -> present.put(m.key(), m.size()));
        }
        store.stat(options.indexKey()).ifPresent(m -> present.put(m.key(), m.size()));
        return present;
    }

    /**
     * Every page, in order: the index, the log pages, a page per version; a version page whose key
     * {@code reusable} names with the inputs it has now is not rendered (its bytes are null).
     */
    private Map<String, Page> renderPages(Map<String, Manifest.Recorded> reusable) {
        if (!repo.store().canList())
            throw new FdlException(repo.root() + " cannot be listed (an HTTP(S) root); run fdl site where the repository lives (a folder or s3://)");
        SiteHistory h = new SiteHistory(repo);
        // which version pages to render; only those (and the index's version) need their dataset.json
        Map<String, String> inputs = new HashMap<>();
        List<VersionEntry> toRender = new ArrayList<>();
        for (VersionEntry e : h.entries) {
            String key = options.versionKey(e.id());
            String in = inputs(e, h);
            inputs.put(key, in);
            Manifest.Recorded r = reusable.get(key);
            if (r == null || !in.equals(r.inputs())) toRender.add(e);
        }
        Map<String, JsonNode> datasets = h.datasets(h.newest == null || toRender.contains(h.newest) ? toRender
                : Stream.concat(toRender.stream(), Stream.of(h.newest)).toList());
        Map<String, Page> pages = new LinkedHashMap<>();
        int pageCount = Math.max(1, (h.entries.size() + options.pageSize() - 1) / options.pageSize());
        pages.put(options.indexKey(), null); // rendered last, from the version pages' changes (the history chart); first in order
        LogPage log = new LogPage(parts);
        for (int i = 0; i < pageCount; i++) {
            int from = i * options.pageSize();
            List<VersionEntry> slice = h.entries.subList(Math.min(from, h.entries.size()), Math.min(from + options.pageSize(), h.entries.size()));
            pages.put(options.logKey(i + 1), new Page(bytes(log.render(h, slice, i + 1, pageCount)), null));
        }
        if (stats != null) for (VersionEntry e : h.entries) stats.known(e.version(), e.expired()); // parents already read
        if (previews != null) previews.read(toRender);
        Set<String> rendered = new HashSet<>();
        for (VersionEntry e : toRender) rendered.add(e.id());
        for (VersionEntry e : h.entries) {
            String key = options.versionKey(e.id());
            if (!rendered.contains(e.id())) {
                pages.put(key, new Page(null, inputs.get(key), reusable.get(key).stat()));
                continue;
            }
            VersionPage.Rendered page = versionPage.render(e, datasets.get(e.id()), h);
            // a page that left out what it could not read now is rendered again next time
            pages.put(key, new Page(bytes(page.html()), page.complete() ? inputs.get(key) : null, page.stat()));
        }
        String chart = stats == null ? "" : HistoryChart.render(chartPoints(h, pages));
        JsonNode newestDataset = h.newest == null ? null : datasets.get(h.newest.id());
        pages.put(options.indexKey(), new Page(bytes(new IndexPage(parts).render(h, newestDataset, pageCount, chart)), null));
        return pages;
    }

    /** The first-parent history of the newest version on HEAD's branch, oldest first, with each version's change as its page recorded it. */
    private List<HistoryChart.Point> chartPoints(SiteHistory h, Map<String, Page> pages) {
        List<HistoryChart.Point> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (VersionEntry e = h.newest; e != null && seen.add(e.id()); e = e.version().parents().isEmpty() ? null : h.byId.get(e.version().parents().get(0))) {
            Page p = pages.get(options.versionKey(e.id()));
            List<String> tags = new ArrayList<>();
            for (RefValue r : h.refsAt(e.id())) if (r.kind() == RefValue.Kind.TAG) tags.add(r.name().name());
            out.add(new HistoryChart.Point(e.id(), e.version().createdAt().toString().substring(0, 10),
                    e.expired() != null || p == null ? null : p.stat(), tags));
        }
        java.util.Collections.reverse(out);
        return out;
    }

    /** SHA-256 of the renderer's code (its class files): pages another build of fdl made are rendered again. */
    private static final String RENDERER = rendererDigest();

    private static String rendererDigest() {
        java.io.ByteArrayOutputStream code = new java.io.ByteArrayOutputStream();
        for (Class<?> c : List.of(Site.class, PageParts.class, IndexPage.class, LogPage.class, VersionPage.class, Previews.class,
                SiteHistory.class, Html.class, HistoryChart.class, TablePreview.class, TableSummary.class, AttachStatements.class, ParentStat.class,
                SignatureLine.class)) {
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
    private String inputs(VersionEntry e, SiteHistory h) {
        StringBuilder b = new StringBuilder(512).append(commonInputs).append(e.id()).append('\n')
                .append(e.expired()).append('\n').append(decorations(h.refsAt(e.id()), h.head));
        for (String p : e.version().parents()) {
            VersionEntry pe = h.byId.get(p);
            b.append('\n').append(p).append(pe == null ? " absent" : pe.expired() == null ? " live" : " expired");
        }
        return Sha256.of(bytes(b.toString()));
    }
}
