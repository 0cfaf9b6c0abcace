package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.VersionInfo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static dev.fdl.site.PageParts.decorations;
import static dev.fdl.site.PageParts.firstLine;
import static dev.fdl.site.PageParts.refBadge;
import static dev.fdl.site.PageParts.rootRel;
import static dev.fdl.site.PageParts.title;

/**
 * The dataset page ({@code index.html}): the newest version's title, description, license and
 * sources, the counts, how to attach the latest version, the history chart, the refs and the
 * latest version's tables.
 */
final class IndexPage {
    private final PageParts parts;

    IndexPage(PageParts parts) {
        this.parts = parts;
    }

    /**
     * The dataset page's HTML.
     *
     * @param ds        the newest version's dataset.json, null when it has none or it cannot be read
     * @param pageCount the number of log pages
     * @param chart     the history chart's HTML (empty: none)
     */
    String render(SiteHistory h, JsonNode ds, int pageCount, String chart) {
        String key = parts.options.indexKey();
        String siteRel = parts.siteRel(key);
        StringBuilder b = new StringBuilder(PageParts.PAGE_CAPACITY);
        b.append("<h1 id=\"title\">").append(Html.esc(title(ds, "fdl repository"))).append("</h1>\n");
        if (ds != null) describe(b, ds);
        long live = h.entries.stream().filter(e -> e.expired() == null).count();
        b.append("<p class=\"muted\" id=\"counts\"><span id=\"version-count\">").append(h.entries.size()).append("</span> versions (")
                .append(live).append(" in retention), ").append(h.refs.size()).append(" refs.</p>\n");
        if (h.newest != null) latest(b, h, siteRel, key);
        b.append(chart);
        refs(b, h, siteRel);
        if (ds != null && ds.path("resources").isArray() && !ds.path("resources").isEmpty()) {
            b.append("<h2>Tables in the latest version</h2>\n");
            b.append(tablesSummary(ds));
        }
        b.append("<p><a href=\"").append(siteRel).append("log/1.html\">All versions</a> (").append(pageCount)
                .append(pageCount == 1 ? " page" : " pages").append(")</p>\n");
        return Html.page(Html.esc(title(ds, "fdl repository")), rootRel(key), siteRel, b.toString());
    }

    /** The dataset's description, licenses, sources and homepage. */
    private static void describe(StringBuilder b, JsonNode ds) {
        if (!ds.path("description").asText("").isBlank())
            b.append("<p id=\"description\">").append(Html.esc(ds.path("description").asText())).append("</p>\n");
        links(b, ds.path("licenses"), "license", "License");
        links(b, ds.path("sources"), "sources", "Sources");
        if (!ds.path("homepage").asText("").isBlank())
            b.append("<p><strong>Homepage:</strong> ").append(Html.externalLink(ds.path("homepage").asText(), null)).append("</p>\n");
    }

    /** A paragraph of external links ({@code licenses}, {@code sources}: each with a path and a title or name); nothing when {@code list} is empty. */
    private static void links(StringBuilder b, JsonNode list, String id, String label) {
        if (!list.isArray() || list.isEmpty()) return;
        b.append("<p id=\"").append(id).append("\"><strong>").append(label).append(":</strong> ");
        List<String> parts = new ArrayList<>();
        for (JsonNode l : list)
            parts.add(Html.externalLink(l.path("path").asText(null), l.path("title").asText(l.path("name").asText(""))));
        b.append(String.join(", ", parts)).append("</p>\n");
    }

    /** The newest version on HEAD's branch: its id, refs, date and message, and how to attach it while it is live. */
    private void latest(StringBuilder b, SiteHistory h, String siteRel, String key) {
        VersionInfo v = h.newest.version();
        b.append("<h2>Latest version</h2>\n<p><a class=\"id\" href=\"").append(siteRel).append("versions/").append(v.id()).append(".html\">")
                .append(v.id()).append("</a> ").append(decorations(h.refsByVersion.get(v.id()), h.head)).append("<br>")
                .append(Html.esc(v.createdAt().toString())).append(" &middot; ").append(Html.esc(firstLine(v.message()))).append("</p>\n");
        if (h.newest.expired() == null) b.append(parts.attachBlock(key, v, "attach-latest"));
    }

    /** Every ref: branches first, then tags, each by name. */
    private static void refs(StringBuilder b, SiteHistory h, String siteRel) {
        RefName head = h.head;
        b.append("<h2>Refs</h2>\n<table id=\"refs\"><tr><th>ref</th><th>version</th><th>date</th><th>message</th></tr>\n");
        List<RefValue> sorted = new ArrayList<>(h.refs);
        sorted.sort(Comparator.comparing((RefValue r) -> r.kind() == RefValue.Kind.BRANCH ? 0 : 1).thenComparing(r -> r.name().name()));
        for (RefValue r : sorted) {
            VersionEntry e = h.byId.get(r.versionId());
            b.append("<tr class=\"").append(r.kind() == RefValue.Kind.TAG ? "tag" : "branch").append("\"><td>")
                    .append(refBadge(r, head)).append("</td><td><a class=\"id\" href=\"").append(siteRel).append("versions/")
                    .append(r.versionId()).append(".html\">").append(r.versionId(), 0, 13).append("</a></td><td>")
                    .append(e == null ? "" : Html.esc(e.version().createdAt().toString())).append("</td><td>")
                    .append(e == null ? "" : Html.esc(firstLine(e.version().message()))).append("</td></tr>\n");
        }
        b.append("</table>\n");
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
}
