package dev.fdl.site;

/**
 * The little HTML the site needs: escaping and the page frame (inline CSS, no external requests,
 * so a page works from any HTTP server, a bucket website or {@code file://}).
 */
final class Html {
    private Html() {}

    /** Text escaped for element content and double-quoted attribute values. */
    static String esc(String s) {
        if (s == null) return "";
        if (!needsEscape(s)) return s; // most text (ids, dates, names): no copy
        StringBuilder b = new StringBuilder(s.length() + (s.length() >> 1) + 16); // quotes in attach templates: 5 chars each
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean needsEscape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') return true;
        }
        return false;
    }

    /** A link only for http(s) targets: anything else (javascript:, data:) is shown as text. */
    static String externalLink(String href, String text) {
        if (href != null && (href.startsWith("https://") || href.startsWith("http://")))
            return "<a href=\"" + esc(href) + "\" rel=\"noopener\">" + esc(text == null || text.isBlank() ? href : text) + "</a>";
        return esc(text == null || text.isBlank() ? href : text);
    }

    private static final String CSS = """
            body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2430;background:#fff}
            header{background:#1d2430;color:#fff;padding:.8em 1.5em}header a{color:#fff;text-decoration:none;font-weight:600}
            header nav a{margin-left:1.2em;font-weight:400;opacity:.85}
            main{max-width:70em;margin:0 auto;padding:1em 1.5em 3em}
            h1{font-size:1.7em;margin:.4em 0}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #dde2ea;padding-bottom:.2em}
            table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #eef1f5;vertical-align:top}
            th{background:#f6f8fa;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
            code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
            pre{background:#f6f8fa;border:1px solid #dde2ea;padding:.7em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
            .ref{display:inline-block;font-size:.8em;padding:0 .45em;border-radius:.8em;margin-right:.3em;background:#e7f0ff;color:#174ea6}
            .ref.tag{background:#fff4d6;color:#7a5400}.ref.head{background:#dcf5e3;color:#116329}
            .expired{color:#9a2b2b;font-weight:600}.muted{color:#5b6573}.id{font-family:ui-monospace,Menlo,Consolas,monospace}
            button.copy{font-size:.8em;margin:.2em 0 .6em;cursor:pointer}
            .pager a{margin-right:1em}
            h4{margin:1em 0 .3em}.scroll{overflow-x:auto}table.preview td,table.stats td{font-size:.9em;white-space:nowrap}
            .null{color:#8c959f;font-style:italic}.cut{color:#5b6573}details.get{margin:.8em 0}details.get summary{cursor:pointer;font-weight:600}
                        figure.chart{margin:.8em 0 1.2em}figcaption{color:#5b6573;font-size:.9em}
            .legend .key{margin-right:1em;white-space:nowrap}.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;border-radius:2px}
            """;

    /**
     * A whole page. Fdl's own text uses entities for non-ASCII signs ({@code &middot;},
     * {@code &rarr;}), so that a page of ASCII content stays a Latin-1 string, which is cheaper to
     * build and encode (ServeBench: {@code fdl site} renders 1,000 version pages).
     *
     * @param titleHtml the title, escaped ({@link #esc})
     * @param rootRel the relative path from this page to the repository root ({@code ""} or {@code ../../})
     */
    static String page(String titleHtml, String rootRel, String siteRel, String body) {
        // one buffer of the page's final size: concatenation (inline, pom.xml) grew a builder from
        // 16 chars through a dozen copies, the largest CPU share of rendering a version page
        int size = FRAME + CSS.length() + SCRIPT.length() + 2 * titleHtml.length() + 2 * rootRel.length() + siteRel.length() + body.length();
        return new StringBuilder(size).append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
                .append("<meta name=\"generator\" content=\"fdl site\">")
                .append("<title>").append(titleHtml).append("</title><style>").append(CSS).append("</style></head><body>\n")
                .append("<header><a href=\"").append(rootRel).append("index.html\">").append(titleHtml).append("</a><nav>")
                .append("<a href=\"").append(rootRel).append("index.html\">Dataset</a>")
                .append("<a href=\"").append(siteRel).append("log/1.html\">Versions</a></nav></header>\n<main>\n")
                .append(body).append("\n</main>\n").append(SCRIPT).append("</body></html>\n").toString();
    }

    /** The characters of {@link #page}'s fixed text, rounded up. */
    private static final int FRAME = 512;

    /**
     * Rewrites every attach block for the URL the page was loaded from: the placeholder root
     * {@link Site#ROOT_PLACEHOLDER} becomes the repository root this page lives under (a local
     * path for {@code file://}, where DuckDB needs no httpfs). Every placeholder sits inside a SQL
     * string literal ({@link dev.fdl.repo.AttachStatements}), so a {@code '} in the root (a folder
     * {@code it's}, a URL path: browsers leave {@code '} unencoded) is doubled, as {@code fdl attach}
     * quotes it ({@link dev.fdl.util.SqlQuote#literal}); in a block marked {@code data-quote="shell"}
     * (an fdl command) the placeholder sits inside a shell's single quotes, and a {@code '} is
     * written {@code '\''} ({@link dev.fdl.util.ShellQuote}). Copy buttons copy the block.
     */
    private static final String SCRIPT = """
            <script>
            (function(){
  var PH='@PH@';
              document.querySelectorAll('pre[data-root-rel]').forEach(function(pre){
                var root=new URL(pre.getAttribute('data-root-rel'),location.href);
                var text=pre.getAttribute('data-template');
                var at=root.href;
                if(root.protocol==='file:'){
                  text=text.split('\\n').filter(function(l){return l.indexOf('httpfs')<0;}).join('\\n');
                  at=decodeURIComponent(root.pathname);
                }
                text=text.split(PH).join(pre.getAttribute('data-quote')==='shell'?at.replace(/'/g,"'\\\\''"):at.replace(/'/g,"''"));
                pre.textContent=text;
              });
              document.querySelectorAll('button.copy').forEach(function(b){
                b.addEventListener('click',function(){
                  var pre=document.getElementById(b.getAttribute('data-for'));
                  if(navigator.clipboard){navigator.clipboard.writeText(pre.textContent);b.textContent='Copied';}
                });
              });
            })();
            </script>
            """.replace("@PH@", Site.ROOT_PLACEHOLDER);
}
