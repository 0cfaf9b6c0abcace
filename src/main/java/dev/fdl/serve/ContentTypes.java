package dev.fdl.serve;

import dev.fdl.repo.RepoLayout;
import java.util.Locale;

/** Content types of a repository's objects, by key (SPEC.md section 1 names what lives where). */
final class ContentTypes {
    private ContentTypes() {}

    static String of(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1);
        return switch (ext) {
            case "html", "htm" -> "text/html; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            case "js" -> "text/javascript; charset=utf-8";
            case "json" -> "application/json";
            case "csv" -> "text/csv; charset=utf-8";
            case "txt", "md" -> "text/plain; charset=utf-8";
            case "parquet" -> "application/vnd.apache.parquet";
            case "png" -> "image/png";
            case "svg" -> "image/svg+xml";
            // HEAD and refs hold one line of text (SPEC.md section 3)
            case "" -> key.equals(RepoLayout.HEAD) || key.startsWith(RepoLayout.REFS) ? "text/plain; charset=utf-8" : "application/octet-stream";
            default -> "application/octet-stream"; // catalogs (.duckdb, .sqlite), delete vectors (.puffin), …
        };
    }
}
