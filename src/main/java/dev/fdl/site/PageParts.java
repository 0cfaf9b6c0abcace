package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.repo.AttachStatements;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the site's pages share: relative links, the attach block, ref badges, titles. Every link
 * is relative to the page's key, so the site works from any HTTP server, a bucket website and
 * {@code file://}.
 */
final class PageParts {
    /** A page body's first buffer, in chars: a version page is about 3,000 (growing a builder from 16 cost a fifth of rendering). */
    static final int PAGE_CAPACITY = 8192;

    final Repository repo;
    final SiteOptions options;

    PageParts(Repository repo, SiteOptions options) {
        this.repo = repo;
        this.options = options;
    }

    /** Relative path from a page at {@code key} to the repository root. */
    static String rootRel(String key) {
        int depth = key.split("/", -1).length - 1;
        return "../".repeat(depth);
    }

    /** Relative path from a page at {@code key} to the site prefix. */
    String siteRel(String key) {
        return rootRel(key) + options.prefix();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The dataset's title, else its name, else {@code fallback}. */
    static String title(JsonNode ds, String fallback) {
        if (ds == null) return fallback;
        String t = ds.path("title").asText("");
        if (t.isBlank()) t = ds.path("name").asText("");
        return t.isBlank() ? fallback : t;
    }

    /**
     * The attach statements for {@code v}: rendered for the store's own location, and as a
     * template with {@link Site#ROOT_PLACEHOLDER} that the page's script fills in with the root the
     * page was loaded from (statements from {@link AttachStatements}, the one place that rule lives).
     */
    String attachBlock(String pageKey, VersionInfo v, String id) {
        String alias = alias(v);
        String template = String.join("\n", AttachStatements.of(repo, v, Site.ROOT_PLACEHOLDER, alias));
        // a folder's absolute path is the publisher's, not a reader's: the page shows the root it is
        // served from (filled in by its script), never where the repository lives on this machine
        String own = publicRoot() ? String.join("\n", AttachStatements.of(repo, v, null, alias))
                : template.replace(Site.ROOT_PLACEHOLDER, "https://<where this site is served>/");
        return preBlock(id, own, template, rootRel(pageKey));
    }

    /** Whether the repository's own location (s3:// or http(s)://) is one readers can use as it is. */
    boolean publicRoot() {
        String loc = repo.store().location("").toLowerCase(java.util.Locale.ROOT);
        return loc.startsWith("s3://") || loc.startsWith("http://") || loc.startsWith("https://");
    }

    /** A copyable block; with a {@code template}, the page's script fills in the root it was loaded from. */
    static String preBlock(String id, String text, String template, String rootRel) {
        StringBuilder b = new StringBuilder(3 * text.length() + 64).append("<pre class=\"attach\" id=\"").append(id).append('"');
        if (template != null)
            b.append(" data-root-rel=\"").append(rootRel.isEmpty() ? "./" : rootRel).append("\" data-template=\"").append(Html.esc(template)).append('"');
        b.append('>').append(Html.esc(text)).append("</pre>\n<button class=\"copy\" data-for=\"").append(id).append("\">Copy</button>\n");
        return b.toString();
    }

    /** The alias a version is attached as: {@code v_} and the first 8 characters of its id. */
    static String alias(VersionInfo v) {
        return "v_" + v.id().substring(0, 8);
    }

    static String refBadge(RefValue r, RefName head) {
        boolean isHead = r.kind() == RefValue.Kind.BRANCH && r.name().equals(head);
        String cls = r.kind() == RefValue.Kind.TAG ? "ref tag" : isHead ? "ref head" : "ref";
        return "<span class=\"" + cls + "\">" + (isHead ? "HEAD &rarr; " : "") + Html.esc(r.decoration()) + "</span>";
    }

    /** The badges of {@code refs}: HEAD's branch first, then tags, then branches, each by name. */
    static String decorations(List<RefValue> refs, RefName head) {
        if (refs == null || refs.isEmpty()) return "";
        StringBuilder b = new StringBuilder();
        List<RefValue> sorted = new ArrayList<>(refs);
        sorted.sort(Comparator.comparing((RefValue r) -> r.kind() == RefValue.Kind.BRANCH && r.name().equals(head) ? 0 : r.kind() == RefValue.Kind.TAG ? 1 : 2)
                .thenComparing(r -> r.name().name()));
        for (RefValue r : sorted) b.append(refBadge(r, head));
        return b.toString();
    }

    static String firstLine(String message) {
        if (message == null) return "";
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
