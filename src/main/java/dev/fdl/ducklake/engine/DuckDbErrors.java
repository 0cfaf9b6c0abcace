package dev.fdl.ducklake.engine;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** DuckDB's error text, cleaned for fdl's messages. */
public final class DuckDbErrors {
    private DuckDbErrors() {}

    /** DuckDB's error without its wrapper and SQL excerpt: the lines a user can act on. */
    public static String duckError(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
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
}
