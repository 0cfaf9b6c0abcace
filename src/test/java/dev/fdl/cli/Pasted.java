package dev.fdl.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commands fdl prints for the user to run, taken from its messages and run as the user pastes them:
 * an {@code fdl …} line split into words by bash and run through fdl's Main, any other line through
 * {@code bash -c}.
 */
public final class Pasted {
    private Pasted() {}

    /** The lines of {@code message} indented by two spaces: the commands it offers, in order. */
    public static List<String> commands(String message) {
        return message.lines().filter(l -> l.startsWith("  ") && !l.isBlank()).map(String::trim).toList();
    }

    /** The command {@code pattern}'s group 1 finds in {@code text}; fails naming the text when it is absent. */
    public static String printed(String text, String pattern) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(text);
        assertThat(m.find()).as("a command matching " + pattern + " in:\n" + text).isTrue();
        return m.group(1);
    }

    /**
     * Runs {@code line} in {@code cwd} as the user would paste it: {@code fdl …} through Main, anything
     * else through bash; it must succeed. Returns what it printed (standard output, then error).
     */
    public static String paste(Path cwd, String line) throws IOException, InterruptedException {
        return paste(cwd, line, 0);
    }

    /** As {@link #paste(Path, String)}, exiting with {@code exit}. */
    public static String paste(Path cwd, String line, int exit) throws IOException, InterruptedException {
        if (line.startsWith("fdl ")) {
            List<String> words = shellWords(cwd, line.substring(4));
            // a command naming its own folder (fdl -C <dir> …) runs there, as from any folder
            Cli.Result r = words.get(0).equals("-C") ? Cli.run(words.toArray(String[]::new)) : Cli.in(cwd, words.toArray(String[]::new));
            assertThat(r.exit()).as(line + "\n" + r).isEqualTo(exit);
            return r.out() + r.err();
        }
        Process p = new ProcessBuilder("bash", "-c", line).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(line + "\n" + out).isEqualTo(exit);
        return out;
    }

    /** {@code text} split into words by bash itself (quotes and escapes as the user's shell reads them). */
    private static List<String> shellWords(Path cwd, String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + text).directory(cwd.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ArrayList<>(Arrays.asList(out.split("\0")));
    }
}
