package dev.fdl.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-table lines of {@code --stat} ({@code fdl log --stat}, {@code fdl diff --stat}), aligned
 * as git's {@code diff --stat} aligns its files: {@code " name | cell cell …"} with the names padded
 * to the longest and each further column right-aligned to its widest cell. Lines are collected,
 * then printed together, since a column's width is known only once every line is in.
 */
final class StatColumns {
    private final List<String[]> lines = new ArrayList<>();

    /** Adds a line: the table's name, then its cells ({@code +12}, {@code -3}, …), every line with as many. */
    void add(String name, String... cells) {
        String[] line = new String[cells.length + 1];
        line[0] = name;
        System.arraycopy(cells, 0, line, 1, cells.length);
        lines.add(line);
    }

    /** Prints the lines added so far, aligned, and forgets them. */
    void print(PrintWriter out) {
        int columns = 0;
        for (String[] l : lines) columns = Math.max(columns, l.length);
        int[] width = new int[columns];
        for (String[] l : lines)
            for (int i = 0; i < l.length; i++) width[i] = Math.max(width[i], length(l[i]));
        for (String[] l : lines) {
            StringBuilder b = new StringBuilder(" ").append(l[0]).append(" ".repeat(width[0] - length(l[0]))).append(" |");
            for (int i = 1; i < l.length; i++) b.append(' ').append(" ".repeat(width[i] - length(l[i]))).append(l[i]);
            out.println(b);
        }
        lines.clear();
    }

    /** Characters as a terminal shows them: a table name outside the BMP is one, not two. */
    private static int length(String s) {
        return s.codePointCount(0, s.length());
    }
}
