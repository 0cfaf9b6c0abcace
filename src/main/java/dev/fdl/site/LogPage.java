package dev.fdl.site;

import dev.fdl.repo.VersionInfo;

import java.util.List;

import static dev.fdl.site.PageParts.decorations;
import static dev.fdl.site.PageParts.firstLine;
import static dev.fdl.site.PageParts.rootRel;

/** A page of the log ({@code <prefix>log/<n>.html}): its versions, newest first, with links to the newer and older pages. */
final class LogPage {
    private final PageParts parts;

    LogPage(PageParts parts) {
        this.parts = parts;
    }

    /**
     * Log page {@code page} of {@code pageCount} (1-based).
     *
     * @param slice the page's versions, newest first
     */
    String render(SiteHistory h, List<VersionEntry> slice, int page, int pageCount) {
        String key = parts.options.logKey(page);
        String siteRel = parts.siteRel(key);
        StringBuilder b = new StringBuilder(PageParts.PAGE_CAPACITY);
        b.append("<h1>Versions</h1>\n<p class=\"pager\">");
        if (page > 1) b.append("<a href=\"").append(page - 1).append(".html\">&larr; newer</a>");
        b.append("page ").append(page).append(" of ").append(pageCount);
        if (page < pageCount) b.append(" <a href=\"").append(page + 1).append(".html\">older &rarr;</a>");
        b.append("</p>\n<table id=\"log\"><tr><th>version</th><th>date (UTC)</th><th>author</th><th>message</th></tr>\n");
        for (VersionEntry e : slice) {
            VersionInfo v = e.version();
            b.append("<tr class=\"version\"><td><a class=\"id\" href=\"").append(siteRel).append("versions/").append(v.id()).append(".html\">")
                    .append(v.id(), 0, 13).append("</a> ").append(decorations(h.refsByVersion.get(v.id()), h.head));
            if (e.expired() != null) b.append(" <span class=\"expired\">expired</span>");
            b.append("</td><td>").append(Html.esc(v.createdAt().toString())).append("</td><td>").append(Html.esc(v.author().name()))
                    .append("</td><td>").append(Html.esc(firstLine(v.message()))).append("</td></tr>\n");
        }
        b.append("</table>\n");
        return Html.page("Versions &middot; page " + page, rootRel(key), siteRel, b.toString());
    }
}
