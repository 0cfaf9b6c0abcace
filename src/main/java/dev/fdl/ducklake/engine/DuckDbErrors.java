package dev.fdl.ducklake.engine;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** DuckDB's error text, cleaned for fdl's messages: every message quoting a DuckDB error goes through here. */
public final class DuckDbErrors {
    private DuckDbErrors() {}

    private static final java.util.regex.Pattern OUT_OF_MEMORY = java.util.regex.Pattern.compile(
            "Out of Memory Error: (?:(?:failed to allocate data|could not allocate block) of size ([\\d.]+ ?[KMGT]?i?B) \\(([\\d.]+ ?[KMGT]?i?B)/([\\d.]+ ?[KMGT]?i?B) used\\))?");

    /** {@link #outOfMemory(String, String)} with no phase named. */
    public static String outOfMemory(String message) {
        return outOfMemory(message, null);
    }

    /**
     * DuckDB's out-of-memory error met while {@code phase} ("comparing", "writing delete files";
     * null: not said) in fdl's words, or null for another error: DuckDB's own advice ({@code SET
     * threads=X}, {@code SET memory_limit}) names settings a user of fdl does not set; the budget is
     * {@code --memory} (or {@code FDL_MEMORY}). DuckDB's message says how much more it asked for
     * and how much of the budget was in use: that is repeated, with a {@code --memory} that holds
     * the budget plus what it asked for (rounded up to 16 MiB; DuckDB may ask again later, so it
     * is a least, not a promise).
     */
    public static String outOfMemory(String message, String phase) {
        if (message == null) return null;
        java.util.regex.Matcher m = OUT_OF_MEMORY.matcher(message);
        if (!m.find()) return null;
        String during = phase == null ? "" : " while " + phase;
        String advice = "Give the command more memory with --memory (e.g. twice the budget), or set FDL_MEMORY";
        String asked = "";
        if (m.group(1) != null) {
            asked = " (it asked for " + m.group(1) + " more with " + m.group(2) + " of its " + m.group(3) + " in use)";
            long more = MemoryBudget.bytes(m.group(1)), limit = MemoryBudget.bytes(m.group(3));
            if (more > 0 && limit > 0) {
                long sixteen = 16L << 20, enough = (limit + more + sixteen - 1) / sixteen * sixteen;
                advice = "Raise --memory by at least what DuckDB asked for: --memory " + (enough >> 20) + "MiB or more (or set FDL_MEMORY)";
            }
        }
        return "DuckDB ran out of the memory budget" + during + asked + "; nothing was changed. " + advice
                + "; what does not fit in memory spills to .fdl/tmp/ when the query allows it";
    }

    /** DuckDB's error without its wrapper and SQL excerpt: the lines a user can act on (an out-of-memory error in fdl's words). */
    public static String duckError(SQLException e) {
        return duckError(e, null);
    }

    /** {@link #duckError(SQLException)}, an out-of-memory error said to have happened while {@code phase} (null: not said). */
    public static String duckError(SQLException e, String phase) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        String memory = outOfMemory(m, phase);
        if (memory != null) return memory;
        List<String> keep = new ArrayList<>();
        for (String line : m.split("\n")) {
            String l = line.trim();
            if (l.isEmpty() || l.contains("unsuccessful or closed pending query result") || l.startsWith("LINE ")
                    || l.startsWith("^")) {
                continue;
            }
            if (l.startsWith("Error: ")) l = l.substring(7);
            keep.add(l);
            if (keep.size() == 3) break;
        }
        return keep.isEmpty() ? m : String.join(" ", keep);
    }

    /**
     * The first line of DuckDB's error, which names what failed (the lines after it quote the SQL);
     * when the JDBC driver wrapped the error ("…closed pending query result"), the wrapped error's
     * line without its {@code Error: } prefix.
     */
    public static String firstLine(SQLException e) {
        String m = e.getMessage();
        if (m == null) return e.toString();
        List<String> lines = new ArrayList<>();
        Collections.addAll(lines, m.split("\n"));
        lines.removeIf(String::isBlank);
        if (lines.isEmpty()) return m;
        // DuckDB JDBC wraps the real error: "…closed pending query result" then "Error: <the error>".
        if (lines.get(0).contains("unsuccessful or closed pending query result") && lines.size() > 1) {
            String next = lines.get(1).trim();
            return next.startsWith("Error: ") ? next.substring(7) : next;
        }
        return lines.get(0).trim();
    }

    private static final java.util.regex.Pattern NO_ACCESS =
            java.util.regex.Pattern.compile("Permission Error: Cannot access (?:file|directory) \"(.+?)\".*", java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern IN_EXTENSION =
            java.util.regex.Pattern.compile(".*is not in the catalog, but it exists in the (\\S+) extension.*", java.util.regex.Pattern.DOTALL);

    /**
     * What SQL run on a {@link DuckDbPool#confine confined} instance tried beyond its bounds, from
     * DuckDB's error message ({@code Permission Error: Cannot access file "…"}, an extension's
     * function, a locked setting, an extension load): {@code the file "/etc/hostname"}, {@code the
     * extension sqlite_scanner}, {@code a setting}, {@code an extension}; null for any other error.
     */
    public static String outsideConfinement(String message) {
        if (message == null) return null;
        java.util.regex.Matcher m = NO_ACCESS.matcher(message);
        if (m.find()) return "the file \"" + m.group(1) + "\"";
        m = IN_EXTENSION.matcher(message);
        if (m.matches()) return "the extension " + m.group(1);
        if (message.contains("the configuration has been locked")) return "a setting";
        if (message.contains("Permission Error") && message.contains("extension")) return "an extension";
        return null;
    }
}
