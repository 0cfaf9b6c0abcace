package dev.fdl.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The text graph of {@code fdl log --graph}, drawn as git's {@code log --graph} draws it: one
 * column per line of history, two characters wide; {@code *} the version, {@code |} a line going
 * on, {@code \} a version's further parents opening new lines (a join, read downwards a fork), and
 * {@code /} a line ending in another because both go to the same parent (where a branch forked).
 * Versions come newest first with every child before its parents (fdl's order by {@code seq}).
 *
 * <p>A parent that is not shown (hidden by {@code a..b}, cut off by {@code -n}, missing, or left
 * out by {@code --first-parent}) opens no line, so no line runs into nothing. Presentation only:
 * which versions are shown is decided by the history walk.
 */
final class LogGraph {
    /**
     * The prefixes of one version's rows.
     *
     * @param version the version's own row (with {@code *}), padded to the width of the rows after it
     * @param after   the rows that draw how the lines go on to its parents (joins, then ends of
     *                lines), in order; the version's text lines after its first take them as prefixes
     * @param filler  the prefix of any further text line of the version ({@code |} per open line)
     */
    record Rows(String version, List<String> after, String filler) {}

    private final Set<String> shown;
    private final boolean firstParentOnly;
    /** The version each open line leads to, left to right. */
    private final List<String> columns = new ArrayList<>();

    /**
     * @param shown           the ids of every version the log lists
     * @param firstParentOnly draw only first parents ({@code --first-parent})
     */
    LogGraph(Set<String> shown, boolean firstParentOnly) {
        this.shown = Set.copyOf(shown);
        this.firstParentOnly = firstParentOnly;
    }

    /** The rows of the next version (in log order) with parents {@code parents}. */
    Rows next(String id, List<String> parents) {
        int at = columns.indexOf(id);
        if (at < 0) {
            columns.add(id);
            at = columns.size() - 1;
        }
        int before = columns.size();
        StringBuilder self = new StringBuilder();
        for (int i = 0; i < before; i++) self.append(i == at ? '*' : '|').append(' ');

        List<String> next = new ArrayList<>();
        for (int i = 0; i < parents.size() && (i == 0 || !firstParentOnly); i++)
            if (shown.contains(parents.get(i)) && !next.contains(parents.get(i))) next.add(parents.get(i));
        List<String> after = new ArrayList<>();
        if (next.size() > 1) after.add(joinRow(at, before, next.size() - 1));
        List<String> opened = new ArrayList<>(columns.subList(0, at));
        opened.addAll(next);
        opened.addAll(columns.subList(at + 1, columns.size()));
        if (next.isEmpty() && at < before - 1) {
            // the line ends here: the lines to its right move one column left
            int[] from = new int[before - 1], to = new int[before - 1];
            for (int i = 0; i < before - 1; i++) {
                from[i] = i < at ? i : i + 1;
                to[i] = i;
            }
            after.addAll(moves(from, to));
        }
        columns.clear();
        columns.addAll(opened);
        after.addAll(collapse());
        // every row of one version is as wide as its widest, so its text lines start in one column
        int width = Math.max(before, columns.size());
        for (String r : after) width = Math.max(width, r.length() / 2 + 1);
        List<String> padded = new ArrayList<>();
        for (String r : after) padded.add(pad(r, width));
        return new Rows(pad(self.toString(), width), padded, pad(filler(), width));
    }

    /** The prefix of a text line between versions, with every open line going on. */
    String filler() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) b.append("| ");
        return b.toString();
    }

    /**
     * {@code |\} under the version's column {@code at}: its further parents open lines to its
     * right; each line right of it moves over ({@code \}). fdl's merges have two parents; more are
     * drawn in the same one row.
     */
    private static String joinRow(int at, int before, int extra) {
        char[] row = new char[2 * (before + extra)];
        java.util.Arrays.fill(row, ' ');
        for (int i = 0; i < at; i++) row[2 * i] = '|';
        row[2 * at] = '|';
        row[2 * at + 1] = '\\';
        for (int i = at + 1; i < before; i++) row[2 * i + 1] = '\\';
        return new String(row).stripTrailing();
    }

    /**
     * Lines that lead to the same version merge into the leftmost of them, and the lines right of
     * them close up ({@link #moves}).
     */
    private List<String> collapse() {
        List<String> targets = new ArrayList<>();
        for (String c : columns) if (!targets.contains(c)) targets.add(c);
        if (targets.size() == columns.size()) return List.of();
        int[] from = new int[columns.size()], to = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            from[i] = i;
            to[i] = targets.indexOf(columns.get(i));
        }
        columns.clear();
        columns.addAll(targets);
        return moves(from, to);
    }

    /**
     * The rows that move each line from column {@code from[i]} to column {@code to[i]} (never to
     * the right), one column per row, as git draws them: a line moving left draws {@code /}
     * between its column and the next one left, a line in place {@code |}.
     */
    private static List<String> moves(int[] from, int[] to) {
        List<String> rows = new ArrayList<>();
        int[] pos = from.clone();
        while (true) {
            boolean moving = false;
            char[] row = new char[2 * (from.length + 1)];
            java.util.Arrays.fill(row, ' ');
            for (int i = 0; i < pos.length; i++) {
                if (pos[i] > to[i]) {
                    row[2 * pos[i] - 1] = '/';
                    pos[i]--;
                    moving = true;
                } else {
                    row[2 * pos[i]] = '|';
                }
            }
            if (!moving) return rows;
            rows.add(new String(row).stripTrailing());
        }
    }

    /** {@code row} filled with spaces to {@code columns} columns of two characters. */
    private static String pad(String row, int columns) {
        return row.length() >= 2 * columns ? row : row + " ".repeat(2 * columns - row.length());
    }
}
