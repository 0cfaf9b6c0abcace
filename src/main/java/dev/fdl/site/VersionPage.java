package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.read.TableSummary;
import dev.fdl.repo.AttachStatements;
import dev.fdl.repo.ParentStat;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.VersionInfo;
import dev.fdl.trust.SignatureLine;
import dev.fdl.util.ShellQuote;
import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.fdl.site.PageParts.alias;
import static dev.fdl.site.PageParts.decorations;
import static dev.fdl.site.PageParts.firstLine;
import static dev.fdl.site.PageParts.preBlock;
import static dev.fdl.site.PageParts.rootRel;
import static dev.fdl.site.PageParts.title;

/**
 * A version's page ({@code <prefix>versions/<id>.html}): its facts, check warnings, message, how
 * to attach it (while live), its change over its parent, and per table the columns with their
 * Frictionless and DuckLake types, the first rows and statistics, and how to get the data.
 */
final class VersionPage {
    /**
     * A rendered page: its HTML, whether it shows all it should (a page that left out what it could
     * not read is rendered again next time), and the change over the parent it showed (null: none).
     */
    record Rendered(String html, boolean complete, List<ParentStat.TableStat> stat) {}

    private final PageParts parts;
    /** Each version's change over its parent, from the catalogs; null: pages show none. */
    private final ParentStat stats;
    /** The tables' first rows and statistics; null: pages show none. */
    private final Previews previews;
    /** Who signed each version (docs/signing.md), as {@code fdl show} says it. */
    private final SignatureLine signatures;

    VersionPage(PageParts parts, ParentStat stats, Previews previews, SignatureLine signatures) {
        this.parts = parts;
        this.stats = stats;
        this.previews = previews;
        this.signatures = signatures;
    }

    /** @param ds the version's dataset.json, null when it has none or it cannot be read */
    Rendered render(VersionEntry e, JsonNode ds, SiteHistory h) {
        VersionInfo v = e.version();
        String key = parts.options.versionKey(v.id());
        StringBuilder b = new StringBuilder(PageParts.PAGE_CAPACITY);
        b.append("<h1>").append(Html.esc(firstLine(v.message()))).append("</h1>\n");
        facts(b, v, h, signatures.of(v.id()).orElse("unsigned"));
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
            b.append("<h2>Attach with DuckDB</h2>\n").append(parts.attachBlock(key, v, "attach"));
            if (parts.repo.store().location("").startsWith("s3://")) {
                b.append("<p class=\"muted\">From the bucket (credentials as DuckDB's httpfs takes them):</p>\n");
                b.append(preBlock("attach-s3", String.join("\n", AttachStatements.of(parts.repo, v, null, alias(v))), null, null));
            }
        }
        boolean complete = true;
        List<ParentStat.TableStat> shown = null;
        if (e.expired() == null && stats != null) {
            try {
                shown = stats.of(v);
                b.append(statSection(v, shown));
            } catch (FdlException ex) {
                complete = false; // the site describes what it can; fdl verify reports damaged catalogs
            }
        }
        Map<String, TableSummary.Table> preview = previews == null ? Map.of() : previews.of(e);
        if (preview == null) {
            complete = false;
            preview = Map.of();
        }
        if (ds != null && ds.path("resources").isArray()) {
            b.append("<h2>Tables</h2>\n");
            for (JsonNode r : ds.path("resources")) b.append(tableSection(r, e, key, preview));
        }
        String html = Html.page(Html.esc(title(ds, "fdl repository")) + " &middot; " + v.id().substring(0, 13), rootRel(key),
                parts.siteRel(key), b.toString());
        return new Rendered(html, complete && (v.dataset() == null || ds != null), shown);
    }

    /** The facts table: id and refs, date, author, who signed it, parents, seq, DuckLake format and snapshot, catalog, checks. */
    private static void facts(StringBuilder b, VersionInfo v, SiteHistory h, String signed) {
        b.append("<table class=\"facts\">");
        fact(b, "version", "<span class=\"id\" id=\"version-id\">" + v.id() + "</span> " + decorations(h.refsAt(v.id()), h.head));
        fact(b, "date (UTC)", Html.esc(v.createdAt().toString()));
        fact(b, "author", Html.esc(v.author().toString()));
        fact(b, "signed", "<span id=\"signed\">" + Html.esc(signed) + "</span>");
        if (!v.parents().isEmpty()) {
            List<String> ps = new ArrayList<>();
            for (String p : v.parents())
                ps.add(h.byId.containsKey(p) ? "<a class=\"id\" href=\"" + p + ".html\">" + p + "</a>" : "<span class=\"id\">" + p + "</span>");
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
    }

    /** The rows each table gained and lost over the first parent ({@code changed}), as {@code fdl log --stat} prints them. */
    private static String statSection(VersionInfo v, List<ParentStat.TableStat> changed) {
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

    private String tableSection(JsonNode r, VersionEntry e, String pageKey, Map<String, TableSummary.Table> preview) {
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
        if (t != null)
            b.append(TablePreview.html(t, name, previews == null ? List.of() : previews.owners(e).getOrDefault(t.name(), List.of())));
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
        String template = String.join("\n", AttachStatements.of(parts.repo, v, Site.ROOT_PLACEHOLDER, alias)) + "\n" + copy;
        String own = parts.publicRoot() ? String.join("\n", AttachStatements.of(parts.repo, v, null, alias)) + "\n" + copy
                : template.replace(Site.ROOT_PLACEHOLDER, "https://<where this site is served>/");
        String id = "copy-" + file;
        String query = "SELECT * FROM " + SqlQuote.qualified(schema, name);
        String fdlTemplate = "fdl query --repo '" + Site.ROOT_PLACEHOLDER + "' " + v.id() + " --csv " + ShellQuote.word(query) + " > "
                + ShellQuote.word(file + ".csv");
        String fdlOwn = parts.publicRoot() ? fdlTemplate.replace("'" + Site.ROOT_PLACEHOLDER + "'", ShellQuote.word(parts.repo.store().location("")))
                : fdlTemplate.replace(Site.ROOT_PLACEHOLDER, "https://<where this site is served>/");
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
}
