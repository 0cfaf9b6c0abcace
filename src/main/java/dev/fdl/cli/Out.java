package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Printing helpers shared by commands: JSON for scripts, progress only on a terminal. */
final class Out {
    private Out() {}

    /** Prints {@code node} as pretty JSON on {@code out}. */
    static void json(PrintWriter out, JsonNode node) {
        out.print(new String(Json.bytes(node), StandardCharsets.UTF_8));
        out.flush();
    }

    /**
     * Prints a context line ({@code # branch 'main' (…)}: which version a default chose), which is
     * not a result, on {@code err} and flushes it, so that stdout carries results alone (as git's
     * does) and {@code fdl log --oneline | wc -l} counts versions; on a terminal it still comes
     * first, before the results the command prints afterwards.
     */
    static void context(PrintWriter err, String line) {
        err.println("# " + line);
        err.flush();
    }

    /**
     * Prints advice on {@code err} in git's hint style, each line prefixed {@code hint: }, and
     * flushes it: what fdl did that the user may not expect and how to have it otherwise. Not a
     * result (stdout is left alone) and not a warning; callers leave it out under {@code --quiet}.
     */
    static void hint(PrintWriter err, String... lines) {
        for (String line : lines) err.println("hint: " + line);
        err.flush();
    }

    /**
     * True when stderr is a terminal and progress may be shown. The launcher tells
     * ({@code -Dfdl.stderr.terminal}, from the shell's {@code [ -t 2 ]}: Java 17 cannot ask about
     * stderr); without it, a console (stdin and stdout terminals) is taken as the sign.
     */
    static boolean interactive(boolean quiet) {
        return interactive(quiet, System.getProperty("fdl.stderr.terminal"), System.console() != null, System.getenv("CI") != null);
    }

    /** {@link #interactive(boolean)} from what it reads: {@code stderrTerminal} is the launcher's word, or null. */
    static boolean interactive(boolean quiet, String stderrTerminal, boolean console, boolean ci) {
        boolean terminal = stderrTerminal != null ? Boolean.parseBoolean(stderrTerminal) : console;
        return !quiet && terminal && !ci;
    }

    /**
     * Prints the UTF-8 text of {@code file} (written by DuckDB) after what {@code out} holds: as
     * bytes straight to {@code stdout} (the kernel copying them) when {@code out} prints to it ({@link CommandContext#processStdout}),
     * else decoded into {@code out}.
     *
     * @throws java.io.IOException when the file cannot be read or the output written
     */
    static void file(PrintWriter out, java.nio.channels.WritableByteChannel stdout, java.nio.file.Path file) throws java.io.IOException {
        out.flush();
        if (stdout != null) {
            try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(file)) {
                long size = in.size();
                try {
                    for (long at = 0; at < size; ) at += in.transferTo(at, size - at, stdout); // the kernel copies (sendfile)
                } catch (java.io.IOException closed) {
                    // a reader that stopped early (| head): the rest is dropped, as the PrintWriter drops what it cannot write
                }
            }
        } else {
            try (java.io.Reader r = java.nio.file.Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                r.transferTo(out);
            }
            out.flush();
        }
    }

    /** {@code 1.2 MB} (decimal units; {@code 999 B} below a kilobyte): sizes for people. */
    static String size(long b) {
        if (b < 1000) return b + " B";
        String[] units = {"kB", "MB", "GB", "TB", "PB"};
        double v = b;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format("%.1f %s", v, units[u]);
    }
}
