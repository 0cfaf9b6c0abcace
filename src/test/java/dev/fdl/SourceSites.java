package dev.fdl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds where a pattern stands in the sources of src/main, for the tests that keep a rule in its
 * one home ({@code OneHomePerRuleTest}, {@code SnapshotRulesHomeTest}): each site is
 * {@code path:line}, the path relative to {@code dev/fdl}, with what {@code blanked} matches
 * (comments, maybe strings) left out of the search, line breaks kept.
 */
public final class SourceSites {
    private static final Path MAIN = Path.of("src", "main", "java", "dev", "fdl");
    /** Text blocks, strings, character literals and comments (as PackageCyclesTest reads them). */
    public static final Pattern NOT_CODE = Pattern.compile(
            "\"\"\"(?s:.*?)\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])'|/\\*(?s:.*?)\\*/|//[^\\n]*");
    /**
     * Comments only, for rules about string literals: text blocks, strings and character literals
     * are matched first and kept (group 1), so a string holding {@code //} or {@code /*} stays whole.
     */
    public static final Pattern COMMENTS = Pattern.compile(
            "(\"\"\"(?s:.*?)\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])')|/\\*(?s:.*?)\\*/|//[^\\n]*");

    private SourceSites() {}

    /** {@code path:line} of every match of {@code code} in src/main with {@code blanked} left out. */
    public static List<String> sites(Pattern code, Pattern blanked) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String rel = MAIN.relativize(f).toString().replace('\\', '/');
                for (int line : lines(Files.readString(f), code, blanked)) out.add(rel + ":" + line);
            }
        }
        return out;
    }

    /** The 1-based lines of {@code source} where {@code code} matches, with {@code blanked} left out. */
    public static List<Integer> lines(String source, Pattern code, Pattern blanked) {
        Matcher m = blanked.matcher(source);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            boolean kept = m.groupCount() >= 1 && m.group(1) != null;
            m.appendReplacement(sb, Matcher.quoteReplacement(kept ? m.group() : m.group().replaceAll("[^\\n]", " ")));
        }
        m.appendTail(sb);
        String blank = sb.toString();
        List<Integer> out = new ArrayList<>();
        Matcher c = code.matcher(blank);
        while (c.find()) out.add((int) blank.substring(0, c.start()).chars().filter(ch -> ch == '\n').count() + 1);
        return out;
    }

    /** The file part of a site. */
    public static String file(String site) {
        return site.substring(0, site.indexOf(':'));
    }
}
