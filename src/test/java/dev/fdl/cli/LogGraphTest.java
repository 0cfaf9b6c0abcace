package dev.fdl.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl log --graph} against the drawings git's {@code log --graph --oneline} makes of the
 * same histories. Versions are named by letters and listed as the log lists them (newest first,
 * children before parents).
 */
class LogGraphTest {
    /** name to parents, in log order */
    final Map<String, List<String>> history = new LinkedHashMap<>();

    void v(String name, String... parents) {
        history.put(name, List.of(parents));
    }

    /** The drawing with one text line per version (its name), as {@code --oneline} prints it. */
    String draw(boolean firstParentOnly) {
        return draw(firstParentOnly, 1);
    }

    /** The drawing with {@code linesPerVersion} text lines per version (the full format's several lines). */
    String draw(boolean firstParentOnly, int linesPerVersion) {
        LogGraph g = new LogGraph(history.keySet(), firstParentOnly);
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        for (Map.Entry<String, List<String>> e : history.entrySet()) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < linesPerVersion; i++) lines.add(i == 0 ? e.getKey() : e.getKey() + i);
            LogCommand.printDrawn(out, g.next(e.getKey(), e.getValue()), lines);
        }
        out.flush();
        return text.toString();
    }

    static String lines(String... ls) {
        return String.join("\n", ls) + "\n";
    }

    @Test
    void aLinearHistoryIsAColumnOfStars() {
        v("c", "b");
        v("b", "a");
        v("a");
        assertThat(draw(false)).isEqualTo(lines("* c", "* b", "* a"));
    }

    @Test
    void aForkAndItsJoinAreDrawnAsGitDrawsThem() {
        v("m", "c", "s");
        v("s", "a");
        v("c", "a");
        v("a");
        assertThat(draw(false)).isEqualTo(lines(
                "*   m",
                "|\\",
                "| * s",
                "* | c",
                "|/",
                "* a"));
    }

    @Test
    void theFullFormatPutsTheJoinOnTheVersionsSecondLine() {
        v("m", "c", "s");
        v("s", "a");
        v("c", "a");
        v("a");
        assertThat(draw(false, 3)).isEqualTo(lines(
                "*   m",
                "|\\  m1",
                "| | m2",
                "| * s",
                "| | s1",
                "| | s2",
                "* | c",
                "|/  c1",
                "|   c2",
                "* a",
                "  a1",
                "  a2"));
    }

    @Test
    void firstParentOnlyDrawsNoSecondLine() {
        v("m", "c", "s");
        v("c", "a");
        v("a");
        assertThat(draw(true)).isEqualTo(lines("* m", "* c", "* a"));
    }

    @Test
    void aParentNotShownOpensNoLine() {
        v("m", "c", "hidden");
        v("c", "a");
        v("a");
        assertThat(draw(false)).isEqualTo(lines("* m", "* c", "* a"));
    }

    @Test
    void aBranchMergedTwiceKeepsItsLineBetweenTheMerges() {
        v("m2", "m1", "s2");
        v("s2", "s1");
        v("m1", "c", "s1");
        v("s1", "a");
        v("c", "a");
        v("a");
        assertThat(draw(false)).isEqualTo(lines(
                "*   m2",
                "|\\",
                "| * s2",
                "* |   m1",
                "|\\ \\",
                "| |/",
                "| * s1",
                "* | c",
                "|/",
                "* a"));
    }

    /**
     * x and y each merge the other's side (x = (b, c), y = (c, b)): four lines lead to two
     * versions, and close up into the leftmost line of each, one column per row; b's line passes
     * over c's.
     */
    @Test
    void aCrissCrossClosesUpIntoTheLeftmostLines() {
        v("top", "x", "y");
        v("y", "c", "b");
        v("x", "b", "c");
        v("c", "a");
        v("b", "a");
        v("a");
        assertThat(draw(false)).isEqualTo(lines(
                "*   top",
                "|\\",
                "| *   y",
                "| |\\",
                "* | |   x",
                "|\\ \\ \\",
                "| |/ /",
                "| |/",
                "|/|",
                "| * c",
                "* | b",
                "|/",
                "* a"));
    }
}
