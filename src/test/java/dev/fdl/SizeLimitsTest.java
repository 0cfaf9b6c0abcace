package dev.fdl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rooms small enough to live in: no method (or constructor) in src/main over {@value #METHOD_LINES}
 * lines, from its declaration to its closing brace, and no file over {@value #FILE_LINES} lines.
 * {@link #TOO_LONG} lists the offenders being split by others; the list only shrinks: an entry
 * that no longer offends fails here too, to be removed.
 */
class SizeLimitsTest {
    static final int METHOD_LINES = 80;
    static final int FILE_LINES = 700;
    private static final Path MAIN = Path.of("src", "main", "java", "dev", "fdl");

    /** Offenders as {@code path} (a file) or {@code path#method}, relative to dev/fdl; none may be added. */
    private static final Set<String> TOO_LONG = Set.of();

    /** A method or constructor declaration up to its opening brace (comments and strings blanked first). */
    static final Pattern DECLARATION = Pattern.compile(
            "(?m)^[ \\t]*(?:@\\w+(?:\\([^()]*\\))?\\s+)*(?:(?:public|protected|private|static|final|synchronized|abstract|default|native|strictfp)\\s+)*"
                    + "(?:<[^>{;()]+>\\s+)?(?:([\\w.$]+(?:<[^>{;()]*>+)?(?:\\[\\])*)\\s+)?(\\w+)\\s*\\((?:[^;{}()]|\\([^()]*\\))*\\)\\s*"
                    + "(?:throws\\s+[\\w.,\\s]+)?\\{");
    private static final Set<String> NOT_A_NAME = Set.of("if", "for", "while", "switch", "catch", "synchronized", "try", "return", "new",
            "else", "throw", "do");
    /** What stands before an anonymous class, a record or a type's body rather than a method's. */
    private static final Pattern NOT_A_TYPE = Pattern.compile("\\b(?:new|return|throw|else|record|class|interface|enum)\\b");

    @Test
    void noMethodOrFileIsTooLongOutsideTheShrinkingList() throws IOException {
        Set<String> found = offenders();
        assertThat(found).as("methods over " + METHOD_LINES + " lines, files over " + FILE_LINES + ": split them by responsibility")
                .isSubsetOf(TOO_LONG);
        assertThat(TOO_LONG).as("listed offenders that are short enough now: remove them from TOO_LONG").isSubsetOf(found);
    }

    @Test
    void theFinderMeasuresMethodsFromDeclarationToClosingBrace() {
        String source = """
                class X {
                    X(int a) {
                        if (a > 0) {
                            a--;
                        }
                    }

                    // void notCode() {
                    static <T> List<T> pick(Map<String, T> m) throws IOException {
                        String s = "}";
                        return null;
                    }
                }
                """;
        assertThat(methods(source)).containsExactly("X:5", "pick:4");
    }

    /** Files over the file limit and methods over the method limit, as {@code path} and {@code path#method}. */
    static Set<String> offenders() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String rel = MAIN.relativize(f).toString().replace('\\', '/');
                String text = Files.readString(f);
                if (text.split("\n", -1).length - 1 > FILE_LINES) out.add(rel);
                for (String m : methods(text)) {
                    int colon = m.lastIndexOf(':');
                    if (Integer.parseInt(m.substring(colon + 1)) > METHOD_LINES) out.add(rel + "#" + m.substring(0, colon));
                }
            }
        }
        return out;
    }

    /** Each method and constructor of {@code source} as {@code name:lines}, in order. */
    static List<String> methods(String source) {
        String code = blank(source);
        List<String> out = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < code.length(); i++) if (code.charAt(i) == '\n') starts.add(i + 1);
        Matcher m = DECLARATION.matcher(code);
        while (m.find()) {
            String type = m.group(1), name = m.group(2);
            if (NOT_A_NAME.contains(name) || (type != null && NOT_A_TYPE.matcher(type).find())) continue;
            int open = m.end() - 1, depth = 0, close = open;
            for (int i = open; i < code.length(); i++) {
                char c = code.charAt(i);
                if (c == '{') depth++;
                else if (c == '}' && --depth == 0) {
                    close = i;
                    break;
                }
            }
            int first = line(starts, m.start() + leading(code, m.start())), last = line(starts, close);
            out.add(name + ":" + (last - first + 1));
        }
        return out;
    }

    private static int leading(String code, int from) {
        int i = from;
        while (i < code.length() && Character.isWhitespace(code.charAt(i))) i++;
        return i - from;
    }

    /** The 1-based line of offset {@code at}, given the offsets at which lines start. */
    private static int line(List<Integer> starts, int at) {
        int i = java.util.Collections.binarySearch(starts, at);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /** Comments, strings and character literals as spaces, line breaks kept. */
    private static String blank(String source) {
        Matcher m = SourceSites.NOT_CODE.matcher(source);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(m.group().replaceAll("[^\\n]", " ")));
        m.appendTail(sb);
        return sb.toString();
    }
}
